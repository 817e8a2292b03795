#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_siterules.sh - the site's preemption rules and the
# multifactor age factor under sched/amcbf, with slurmdbd
# (PreemptType=preempt/qos, PreemptMode=REQUEUE, QOS normal Preempt=low;
# priority/multifactor with an age weight; 4 nodes, CMBF, amcbf_reserve=0).
# Each scenario is test_amcbf_preempt.sh's: J1 runs on 2 nodes, J2 (QOS
# normal) needs all 4 and waits, J3 is backfilled on the other 2, and
# when J1 ends CMBF would requeue J3 for J2:
#  A  J3 of QOS low with PreemptMode=OFF: in Slurm 22.05 a QOS's "OFF"
#     unsets its mode, so the cluster's (REQUEUE) applies (sacctmgr(1));
#     J3 is requeued for J2, as Slurm's preemption would requeue it;
#  B  J3 of QOS high, which is not in normal's Preempt= list: the engine
#     asks the site's rule before it chooses a victim, so J3 is never
#     chosen (no requeue of it is tried and refused), J2 waits for it;
#     meanwhile sprio
#     shows J2's AGE factor above 0 (its accrue time is set while it
#     waits, as the main scheduler sets it);
#  D  two candidates: J1 runs on 2 nodes, J2 needs 3 and waits, J4 (QOS
#     low) then J3 (QOS high) are backfilled on one node each; when J1
#     ends CMBF collects the newest first (J3), which normal may not
#     preempt: the engine requeues J4 instead, and no requeue of J3 is
#     tried (for J2, nor for the requeued J4);
#  C  J3 of QOS low with PreemptMode=REQUEUE and GraceTime=2: Slurm's
#     preemption path sends SIGTERM to the job's steps (not to the batch
#     shell: job_signal's KILL_STEPS_ONLY, as for any preemption under
#     sched/backfill), so J3 runs its work in an srun step whose trap notes
#     the time of the first SIGTERM; that time is before Slurm's requeue
#     line, which comes once the grace time is over (timestamps, not a
#     race); sacct -D records a PREEMPTED run;
#  E  amcbf_mode=dfrs (a second cluster, select/dfrs): the online policy
#     asks the QOS rule before it chooses a victim (below).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster site --accounting --nodes 4 --port 18780 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0 \
	--conf PreemptType=preempt/qos --conf PreemptMode=REQUEUE \
	--conf PriorityType=priority/multifactor --conf PriorityWeightAge=10000 \
	--conf PriorityMaxAge=1 ||
	{ fail "cluster did not start"; finish; }
# scontrol shows neither a QOS's Preempt= list nor its GraceTime: each
# update also sets the QOS's Priority (no weight here), which it shows
qos_has() {	# QOS FIELD=VALUE: slurmctld's copy of the QOS shows it
	scontrol show assoc_mgr flags=qos qos="$1" 2>/dev/null | grep "$2" >/dev/null
}
sacctmgr -i modify qos normal set preempt=low priority=7 >/dev/null ||
	fail "sacctmgr could not set normal's Preempt= list"
sacctmgr -i modify qos low set preemptmode=off priority=5 >/dev/null ||
	fail "sacctmgr could not set low's PreemptMode"
wait_for "slurmctld sees normal's Preempt= list" qos_has normal 'Priority=7'
wait_for "slurmctld sees low's PreemptMode" qos_has low 'Priority=5'
accrue_set() {
	local t
	t=$(scontrol show job "$1" | sed -n 's/.*AccrueTime=\([^ ]*\).*/\1/p')
	[ -n "$t" ] && [ "$t" != Unknown ]
}
# scenario NAME QOS SCRIPT: J1, J2 and J3 (of QOS) as above; sets j1 j2 j3
scenario() {
	j1=$(submit -N2 --wrap 'sleep 3')
	wait_for "$1: J1 running" state_is "$j1" RUNNING
	j2=$(submit -N4 --wrap 'sleep 1')
	j3=$(submit -N2 -A dfrs --qos="$2" --wrap "$3")
	wait_for "$1: J3 backfilled" state_is "$j3" RUNNING
}
# j2_waited NAME: J2 started only after J3's end, J3 ran once
j2_waited() {
	wait_jobs_done 40 "$j1" "$j2" "$j3"
	assert_completed_once "$j1" "$j2" "$j3"
	[ "$(restarts "$j3")" = 0 ] || fail "$1: J3 restarted $(restarts "$j3") times, want 0"
	log_has "\(preempted\|migrating\) JobId=$j3 " &&
		fail "$1: J3 was preempted"
	assert_j2_after_j3 "$1: "
}

# A: PreemptMode=OFF on J3's QOS is the cluster's mode: J3 is requeued
scenario A low 'sleep 5'
wait_for -t 20 "A: J3 requeued for J2" \
	log_has "cmbf: preempted JobId=$j3 on [^ ]* (requeued, preemption 1 "
wait_jobs_done 40 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
[ "$(restarts "$j3")" = 1 ] || fail "A: J3 restarted $(restarts "$j3") times, want 1"

# B: J3's QOS (high) is not in normal's Preempt= list; the age factor of
# the waiting J2
scenario B high 'sleep 9'
wait_for "B: J2's AccrueTime set while it waits" accrue_set "$j2"
sleep 1
# any update of a job makes priority/multifactor compute its factors
# again (they are otherwise computed every PriorityCalcPeriod)
scontrol update jobid="$j2" comment=age
age=$(sprio -h -j "$j2" -o %A 2>/dev/null | tr -d ' ')
echo "B: sprio -j $j2: AGE=$age"
if [ -z "$age" ] || ! [ "$age" -gt 0 ] 2>/dev/null; then
	fail "B: sprio shows J2's AGE as '$age', want more than 0"
fi
j2_waited B
! log_has "not preempting JobId=$j3 for JobId=$j2" ||
	fail "B: the engine chose J3 as J2's victim although the site protects it (the requeue was refused after)"

# D: a protected victim among two candidates: the engine takes the other
# (J1's 10 s leave a loaded machine's cycles time to backfill J4 and J3
# before J1 ends; both outlast it)
j1=$(submit -N2 --wrap 'sleep 10')
wait_for "D: J1 running" state_is "$j1" RUNNING
j2=$(submit -N3 --wrap 'sleep 1')
# (J4 runs again for 2 s after its requeue: that run only completes)
# shellcheck disable=SC2016  # expanded by the job's shell
j4=$(submit -N1 -A dfrs --qos=low --wrap 'if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then sleep 2; else sleep 13; fi')
wait_for "D: J4 backfilled" state_is "$j4" RUNNING
j3=$(submit -N1 -A dfrs --qos=high --wrap 'sleep 16')
wait_for "D: J3 backfilled" state_is "$j3" RUNNING
wait_for -t 20 "D: J4 requeued for J2" \
	log_has "cmbf: preempted JobId=$j4 on [^ ]* (requeued, preemption 1 "
wait_jobs_done 40 "$j1" "$j2" "$j3" "$j4"
assert_completed_once "$j1" "$j2" "$j3" "$j4"
[ "$(restarts "$j3")" = 0 ] || fail "D: J3 restarted $(restarts "$j3") times, want 0"
[ "$(restarts "$j4")" -ge 1 ] || fail "D: J4 restarted $(restarts "$j4") times, want >= 1"
! log_has "not preempting JobId=$j3 " ||
	fail "D: the engine chose J3, which the site protects, as a victim"

# C: PreemptMode=REQUEUE and GraceTime=2 on low: SIGTERM, then the requeue
sacctmgr -i modify qos low set preemptmode=requeue gracetime=2 priority=6 >/dev/null ||
	fail "sacctmgr could not set low's PreemptMode and GraceTime"
wait_for "slurmctld sees low's GraceTime" qos_has low 'Priority=6'
# J3's step: at its first SIGTERM, the time into term-JOB-RESTARTS
term_step="trap '[ -e $CLUSTER_DIR/term-\$SLURM_JOB_ID-\${SLURM_RESTART_COUNT:-0} ] || date +%s.%N >$CLUSTER_DIR/term-\$SLURM_JOB_ID-\${SLURM_RESTART_COUNT:-0}' TERM; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do sleep 0.5; done"
scenario C low "srun -N1 -n1 bash -c \"$term_step\""
wait_for -t 20 "C: J3 told its GraceTime began" \
	log_has "preempted JobId=$j3 on [^ ]* for JobId=$j2: SIGTERM sent, requeued after its GraceTime of 2 s"
# Slurm's own line, whether sched/amcbf's next cycle or slurmctld's
# time-limit check requeues it
wait_for -t 20 "C: J3 requeued after its GraceTime" \
	log_has "preempted JobId=$j3 has been requeued to reclaim resources"
# the step's first SIGTERM came before the requeue (Slurm's line, ms)
rq=$(grep -m1 "preempted JobId=$j3 has been requeued" "$CLUSTER_DIR/slurmctld.log" |
	sed -n 's/^\[\([^]]*\)\].*/\1/p')
rq=$(date -d "$rq" +%s.%N 2>/dev/null)
wait_for "C: J3's first run's step noted a SIGTERM" test -s "$CLUSTER_DIR/term-$j3-0"
tt=$(cat "$CLUSTER_DIR/term-$j3-0" 2>/dev/null)
if [ -z "$rq" ] || [ -z "$tt" ] || ! awk -v t="$tt" -v r="$rq" 'BEGIN { exit !(t < r) }'; then
	fail "C: J3's first run's step got its first SIGTERM at '$tt', not before the requeue at '$rq'"
fi
wait_jobs_done 40 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
[ "$(restarts "$j3")" = 1 ] || fail "C: J3 restarted $(restarts "$j3") times, want 1"
c_done() { [ "$(sacct -n -X -P -D -j "$j3" -o State 2>/dev/null | tail -1)" = COMPLETED ]; }
wait_for "C: sacct has J3's last run" c_done
runs=$(sacct -n -X -P -D -j "$j3" -o State 2>/dev/null | xargs)
[ "$runs" = "PREEMPTED COMPLETED" ] ||
	fail "C: sacct -D records J3's runs as '$runs', want 'PREEMPTED COMPLETED'"

# E: amcbf_mode=dfrs (online GreedyPM on select/dfrs, 2 nodes of 4096 MB):
# JL (QOS low) then JH (QOS high) run on a node each; J2 (QOS normal,
# Preempt=low) needs a node's memory.  At J2's arrival GreedyPM takes
# first the victim that loses the least work (JH, started last), but the
# policy asks the site's rule before it chooses: normal may not preempt
# high, so JL is requeued instead and no requeue of JH is tried
# (before, the policy chose JH, the requeue was refused and J2 waited).
stop_cluster
start_cluster site-dfrs --accounting --nodes 2 --port 18786 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm \
	--conf PreemptType=preempt/qos --conf PreemptMode=REQUEUE \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 ||
	{ fail "E: cluster did not start"; finish; }
# the cluster's own database: normal's Preempt= list again
sacctmgr -i modify qos normal set preempt=low priority=7 >/dev/null ||
	fail "E: sacctmgr could not set normal's Preempt= list"
wait_for "E: slurmctld sees normal's Preempt= list" qos_has normal 'Priority=7'
jl=$(submit -N1 --mem=3000 -A dfrs --qos=low --wrap 'sleep 30')
wait_for "E: JL running" state_is "$jl" RUNNING
jh=$(submit -N1 --mem=3000 -A dfrs --qos=high --wrap 'sleep 30')
wait_for "E: JH running" state_is "$jh" RUNNING
j2=$(submit -N1 --mem=3000 --wrap 'sleep 1')
wait_for -t 20 "E: JL requeued for J2" \
	log_has "dfrs(greedypm): suspended JobId=$jl "
wait_for -t 20 "E: J2 started" log_has "dfrs(greedypm): started JobId=$j2 "
! log_has "not preempting JobId=$jh " ||
	fail "E: the policy chose JH, which the site protects, as J2's victim"
[ "$(restarts "$jh")" = 0 ] || fail "E: JH restarted $(restarts "$jh") times, want 0"
scancel "$jl" "$jh" "$j2" 2>/dev/null
finish
