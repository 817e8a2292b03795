#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_part.sh - partition state and limits changed after
# submission, QOS MaxWall, and preempt/partition_prio under sched/amcbf,
# with slurmdbd (4 nodes, select/linear, CMBF, amcbf_reserve=0,
# PreemptType=preempt/partition_prio, PreemptMode=REQUEUE).  What is
# asserted is what Slurm records (squeue's state and reason, restarts,
# jobcomp, sacct), the same as under sched/backfill (run with
# DFRS_POLICY_SCHED=sched/backfill to see it):
#  partitions set so in slurm.conf (Slurm's job_limits_check):
#   State=DOWN: a job pends with reason PartitionDown, runs once UP;
#   MaxTime=1 (Slurm's test17.55 case: EnforcePartLimits=NO, the default):
#     a -t 100 job pends with reason PartitionTimeLimit (it is not started
#     with its limit cut);
#  partitions, each changed while its job is held, then the job released:
#   State=INACTIVE: pends with reason PartitionInactive, runs once UP;
#   AllowGroups=root, for a job of user daemon: PartitionConfig (on 24.11
#     InvalidAccount and its description, as select_nodes() gives them);
#   RootOnly=YES, for a job of user daemon: PartitionConfig (root passes
#     RootOnly and AllowGroups, so these two jobs are daemon's, submitted
#     with runuser);
#   MaxMemPerNode=256 under a --mem=512 job: MaxMemPerLimit;
#   MaxMemPerCPU=256 under a --mem-per-cpu=512 job: Slurm does not keep
#     it pending but doubles its CPUs per task and halves its memory per
#     CPU (job_limits_check), and it runs so (CPUs/Task=2,
#     MinMemoryCPU=256M);
#   none of them is started while another job runs and ends; each runs
#   once its partition is restored (the change itself wakes sched/amcbf:
#   amcbf_interval=300, so its periodic cycle cannot start them in time);
#  the same wake-up from a reservation and from nodes: a job pends beside
#   a reservation of every node for another user, and runs once the
#   reservation is deleted; a job pends while every node is drained, and
#   runs once they are resumed;
#  QOS MaxWall=1 (QOS low): a -t 5 job pends with reason
#   QOSMaxWallDurationPerJobLimit while a -t 1 job of the same QOS runs
#   (the wall-clock side, the end time held at the limit, is the same code
#   as partition MaxTime's, run live by test_amcbf_policy_timelimit.sh);
#  PriorityTier and PreemptMode (partitions hi: tier 3; lo: tier 1; off:
#   tier 1, PreemptMode=OFF).  J1 (hi) runs on 2 nodes, J2 (hi) needs all 4
#   and waits, J3 is backfilled on the other 2; when J1 ends CMBF would
#   requeue J3 for J2 (test_amcbf_preempt.sh):
#   R  J3 in lo: requeued for J2 (a lower tier, REQUEUE), as Slurm's
#      partition_prio preemption requeues it;
#   O  J3 in off: not preempted, J2 waits for its end; A (lo, all 4 nodes,
#      submitted before J2, so of a higher priority/basic priority) starts
#      only after J2: the higher PriorityTier goes first in the queue.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

sched=${DFRS_POLICY_SCHED:-sched/amcbf}
# (sched/backfill: a backfill cycle every second, as sched/amcbf's)
params=(--sched-params bf_interval=1)
[ "$sched" != sched/amcbf ] ||
	params=(--sched-params "amcbf_mode=cmbf,amcbf_reserve=0,amcbf_interval=300")
start_cluster ppart --accounting --nodes 4 --port 18790 --select select/linear \
	--sched "$sched" "${params[@]}" \
	--conf PreemptType=preempt/partition_prio --conf PreemptMode=REQUEUE \
	--conf "PartitionName=pi Nodes=ALL State=UP" \
	--conf "PartitionName=pg Nodes=ALL State=UP" \
	--conf "PartitionName=pr Nodes=ALL State=UP" \
	--conf "PartitionName=pm Nodes=ALL State=UP" \
	--conf "PartitionName=pc Nodes=ALL State=UP" \
	--conf "PartitionName=closed Nodes=ALL State=DOWN" \
	--conf "PartitionName=short Nodes=ALL MaxTime=1 State=UP" \
	--conf "PartitionName=hi Nodes=ALL PriorityTier=3 State=UP" \
	--conf "PartitionName=lo Nodes=ALL PriorityTier=1 PreemptMode=REQUEUE State=UP" \
	--conf "PartitionName=off Nodes=ALL PriorityTier=1 PreemptMode=OFF State=UP" ||
	{ fail "cluster did not start"; finish; }

# QOS low's MaxWall, seen by slurmctld
sacctmgr -i modify qos low set maxwall=1 >/dev/null ||
	fail "sacctmgr could not set QOS low's MaxWall"
maxwall_seen() {
	scontrol show assoc_mgr flags=qos qos=low 2>/dev/null | grep 'MaxWallPJ=1' >/dev/null
}
# a DOWN partition's job and one over its partition's MaxTime
pd=$(submit -p closed -N1 --wrap 'sleep 1')
pt=$(submit -p short -N1 -t 100 --wrap 'sleep 1')
# held jobs, then each partition changed, then the jobs released
as_daemon() { (cd /tmp && runuser -u daemon -- "$@"); }
i=$(submit -H -p pi -N1 --wrap 'sleep 1')
g=$(as_daemon sbatch --parsable -o /dev/null -H -p pg -N1 --wrap 'sleep 1')
r=$(as_daemon sbatch --parsable -o /dev/null -H -p pr -N1 --wrap 'sleep 1')
m=$(submit -H -p pm -N1 --mem=512 --wrap 'sleep 1')
c=$(submit -H -p pc -N1 --mem-per-cpu=512 --wrap 'sleep 1')
if [ -z "$g" ] || [ -z "$r" ]; then fail "user daemon could not submit"; fi
scontrol update partitionname=pi state=inactive
scontrol update partitionname=pg allowgroups=root
scontrol update partitionname=pr rootonly=yes
scontrol update partitionname=pm maxmempernode=256
scontrol update partitionname=pc maxmempercpu=256
# (scontrol says each partition's configuration is "not available now")
scontrol release "$i,$g,$r,$m,$c" >/dev/null 2>&1
wait_for "QOS low's MaxWall seen by slurmctld" maxwall_seen
w=$(submit -A dfrs --qos=low -t 5 -N1 --wrap 'sleep 1')
w1=$(submit -A dfrs --qos=low -t 1 -N1 --wrap 'sleep 1')
# AllowGroups: 22.05's job_limits_check gives PartitionConfig; 24.11
# tests it there only with EnforcePartLimits, and select_nodes() gives
# reason InvalidAccount with this description (which squeue shows)
group_reason=PartitionConfig
! slurm_at_least 24.11 ||
	group_reason="uid $(id -u daemon) not in group permitted to use this partition (pg). groups allowed: root"
policy_reasons() {
	wait_for "$1: the DOWN partition's job pending with PartitionDown" \
		reason_is "$pd" PartitionDown
	wait_for "$1: the -t 100 job pending with PartitionTimeLimit (MaxTime=1)" \
		reason_is "$pt" PartitionTimeLimit
	wait_for "$1: the INACTIVE partition's job pending with PartitionInactive" \
		reason_is "$i" PartitionInactive
	wait_for "$1: daemon's job pending with '$group_reason' (AllowGroups=root)" \
		reason_is "$g" "$group_reason"
	wait_for "$1: daemon's job pending with PartitionConfig (RootOnly)" \
		reason_is "$r" PartitionConfig
	wait_for "$1: the --mem=512 job pending with MaxMemPerLimit" \
		reason_is "$m" MaxMemPerLimit
	wait_for "$1: the -t 5 job of QOS low pending with QOSMaxWallDurationPerJobLimit" \
		reason_is "$w" QOSMaxWallDurationPerJobLimit
}
policy_reasons "while held back"
# the -t 1 job of QOS low, and a later job, run and end: the others were
# passed over, not forgotten
o=$(submit -N1 --wrap 'sleep 1')
wait_jobs_done 30 "$w1" "$o" "$c"
for j in "$w1" "$o" "$c"; do
	wait_for -t 20 "job $j: sacct records it COMPLETED" sacct_completed "$j"
done
policy_reasons "after other jobs ran"
if ! scontrol show job "$c" | grep 'CPUs/Task=2 ' >/dev/null ||
   ! scontrol show job "$c" | grep 'MinMemoryCPU=256M' >/dev/null; then
	fail "job $c ran with $(scontrol show job "$c" | grep -o 'CPUs/Task=[0-9]*\|MinMemoryCPU=[0-9A-Z]*' | paste -sd' ') under MaxMemPerCPU=256, want CPUs/Task=2 MinMemoryCPU=256M"
fi
scontrol update partitionname=closed state=up
scontrol update partitionname=pi state=up
scontrol update partitionname=pg allowgroups=ALL
scontrol update partitionname=pr rootonly=no
scontrol update partitionname=pm maxmempernode=4096
wait_jobs_done 30 "$pd" "$i" "$g" "$r" "$m"
for j in "$pd" "$i" "$g" "$r" "$m"; do
	wait_for -t 20 "job $j: sacct records it COMPLETED once its partition was restored" \
		sacct_completed "$j"
done
reason_is "$w" QOSMaxWallDurationPerJobLimit ||
	fail "job $w: $(squeue -h -j "$w" -o '%T %r') at the end, want PENDING QOSMaxWallDurationPerJobLimit"
reason_is "$pt" PartitionTimeLimit ||
	fail "job $pt: $(squeue -h -j "$pt" -o '%T %r') at the end, want PENDING PartitionTimeLimit"
scancel "$w" "$pt"

# a reservation of every node for user daemon: root's job waits beside
# it, and starts once it is deleted (that wakes sched/amcbf)
scontrol create reservation reservationname=rw users=daemon nodes=ALL \
	starttime=now duration=10 >/dev/null ||
	fail "could not create reservation rw"
v=$(submit -N1 --wrap 'sleep 1')
wait_for "the job beside reservation rw pending" state_is "$v" PENDING
sleep 2
state_is "$v" PENDING ||
	fail "job $v: $(squeue -h -j "$v" -o '%T %r %N') on nodes reservation rw holds, want PENDING"
scontrol delete reservationname=rw
wait_jobs_done 30 "$v"
wait_for -t 20 "job $v: sacct records it COMPLETED after reservation rw was deleted" \
	sacct_completed "$v"
# every node drained: a job waits, and starts once they are resumed
nodes=$(sinfo -h -N -o %N | sort -u | paste -sd,)
scontrol update nodename="$nodes" state=drain reason=policy_part
d=$(submit -N1 --wrap 'sleep 1')
sleep 2
state_is "$d" PENDING ||
	fail "job $d: $(squeue -h -j "$d" -o '%T %r %N') while every node is drained, want PENDING"
scontrol update nodename="$nodes" state=resume
wait_jobs_done 30 "$d"
wait_for -t 20 "job $d: sacct records it COMPLETED after the nodes were resumed" \
	sacct_completed "$d"

# J1 and J2 in hi, J3 in PART backfilled beside J1 (its first run long)
scenario() {
	# (J1's 8 s leave a loaded machine's cycles time to backfill J3
	# before J1 ends; J3's first run outlasts J1's)
	j1=$(submit -p hi -N2 --wrap 'sleep 8')
	wait_for "$1: J1 running" state_is "$j1" RUNNING
	[ -z "${2:-}" ] || a=$(submit -p "$2" -N4 --wrap 'sleep 1')
	j2=$(submit -p hi -N4 --wrap 'sleep 1')
	j3=$(submit -p "$3" -N2 \
		--wrap "[ \"\${SLURM_RESTART_COUNT:-0}\" -gt 0 ] || sleep 12")
	wait_for "$1: J3 backfilled" state_is "$j3" RUNNING
}
# R: J3 in lo, a lower tier with PreemptMode=REQUEUE: requeued for J2
scenario R "" lo
wait_jobs_done 40 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
[ "$(restarts "$j3")" = 1 ] || fail "R: J3 (partition lo) restarted $(restarts "$j3") times, want 1"
[ "$(restarts "$j1")" = 0 ] || fail "R: J1 (partition hi, J2's tier) restarted $(restarts "$j1") times, want 0"

# O: J3 in off (PreemptMode=OFF): J2 waits for it; then J2 before A
scenario O lo off
wait_jobs_done 40 "$j1" "$j2" "$j3" "$a"
assert_completed_once "$j1" "$j2" "$j3" "$a"
[ "$(restarts "$j3")" = 0 ] || fail "O: J3 (partition off) restarted $(restarts "$j3") times, want 0"
[ "$(restarts "$a")" = 0 ] || fail "O: A restarted $(restarts "$a") times, want 0"
s2=$(jc_time "$j2" COMPLETED StartTime) e3=$(jc_time "$j3" COMPLETED EndTime)
if [ -z "$s2" ] || [ -z "$e3" ] || ! [ "$s2" -ge "$e3" ]; then
	fail "O: J2 started at '$s2', before J3 (partition off) ended at '$e3'"
fi
sa=$(jc_time "$a" COMPLETED StartTime) e2=$(jc_time "$j2" COMPLETED EndTime)
if [ -z "$sa" ] || [ -z "$e2" ] || ! [ "$sa" -ge "$e2" ]; then
	fail "O: A (partition lo) started at '$sa', before J2 (partition hi) ended at '$e2'"
fi
finish
