#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_tiers.sh - AMCBF's foreground/background tiers on shared nodes
# (sched/amcbf + select/dfrs, Liu et al. 2013 Algorithms 2-4): a job that finds no
# idle foreground slot starts in the background beside a foreground job whose
# CPU use leaves room, with weights 10000 / 2 in the nodes' cgroups; when the
# foreground job ends, the background job is promoted by swapping weights,
# without a restart (same process, Restarts=0).  A slurmctld restart in
# between keeps both jobs and their tiers (read back from their tags).  The
# time the background job spent there is not charged to its time limit:
# its end time moves on.
# Then a second cluster (about 20 s): one node of 2 CPUs on the site's
# select/cons_tres whose only partition shares on request
# (OverSubscribe=YES:2): amcbf_mode=amcbf keeps its tiers (no "running as
# ambf"); a job that did not ask (--oversubscribe) waits for free cores
# beside a light one that asked, though its CPU use leaves room (cons_tres
# would refuse it there), and is never tried there; a second job that
# asked starts in the background on the same two CPUs, both running at
# once; the waiting job runs once they have ended.  Sleeping jobs.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# dfrs_need_stale=0: the time charged is what the scheduler believes it
# allotted (all of the time in the background tier).  With the agents'
# reports used, these jobs, which sleep beside jobs that sleep, are denied
# nothing by measurement, and whether the first charge came before the
# first report including the bg job (and so whether anything was added)
# was a race with the agents' report interval.
start_cluster tiers --nodes 2 --port 18400 --node-agent \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--sched-params dfrs_need_stale=0 \
	--part-extra OverSubscribe=FORCE:2 ||
	{ fail "cluster did not start"; finish; }

log_has 'amcbf_mode=amcbf ' || fail "not in amcbf mode"
fg=$(submit -N2 --comment=dfrs:need=0.5 --wrap 'sleep 12')
wait_for "fg job running" state_is "$fg" RUNNING
bg=$(submit -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 20')
wait_for "bg job running beside the fg job" state_is "$bg" RUNNING
node=$(squeue -h -j "$bg" -o %N)
wait_for "fg job tagged fg" comment_is "$fg" dfrs:tier=fg
wait_for "bg job tagged bg" comment_is "$bg" dfrs:tier=bg
wait_for "fg job weight 10000 on $node" shares_is "$node" "$fg" 10000
wait_for "bg job weight 2 on $node" shares_is "$node" "$bg" 2
log_has "amcbf: started JobId=$bg on $node in the bg tier" || fail "no bg start in the log"
pid=$(pgrep -f 'sleep 20' | head -1)

"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "slurmctld restart failed"
state_is "$fg" RUNNING || fail "fg job lost across the restart"
state_is "$bg" RUNNING || fail "bg job lost across the restart"
sleep 2
comment_is "$bg" dfrs:tier=bg || fail "bg job's tier changed across the restart"
shares_is "$node" "$bg" 2 || fail "bg job's weight changed across the restart"

# the fg job ends: the bg job is promoted in place
for ((i = 0; i < 60; i++)); do state_is "$fg" RUNNING || break; sleep 0.5; done
wait_for "bg job promoted (tag fg)" comment_is "$bg" dfrs:tier=fg
wait_for "promoted job weight 10000" shares_is "$node" "$bg" 10000
log_has "amcbf: JobId=$bg swapped to the fg tier on $node (no restart)" || fail "no promotion in the log"
# seconds from start to end time, as slurmctld holds them now
span() {
	local s e
	s=$(scontrol show job "$1" | sed -n 's/.*StartTime=\([^ ]*\).*/\1/p')
	e=$(scontrol show job "$1" | sed -n 's/.*EndTime=\([^ ]*\).*/\1/p')
	echo $(($(date -d "$e" +%s) - $(date -d "$s" +%s)))
}
# it was in the background for the fg job's 12 s at least
d=$(span "$bg")
[ "$d" -ge 66 ] || fail "bg job: end time $d s after its start, want 60 s + its time in the background"
[ "$(pgrep -f 'sleep 20' | head -1)" = "$pid" ] || fail "the promoted job's process changed: restarted"
[ "$(scontrol show job "$bg" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')" = 0 ] ||
	fail "the promoted job was restarted"
wait_jobs_done 60 "$fg" "$bg"
assert_completed_once "$fg" "$bg"
stop_cluster

start_cluster yes2 --nodes 1 --cpus 2 --port 18410 --select select/cons_tres \
	--sched-params amcbf_mode=amcbf --conf SelectTypeParameters=CR_Core_Memory \
	--part-extra OverSubscribe=YES:2 ||
	{ fail "YES:2 cluster did not start"; finish; }
log_has 'amcbf_mode=amcbf ' || fail "YES:2: not in amcbf mode"
! log_has 'running as ambf' || fail "YES:2: no background tier (running as ambf)"
light=(-n2 --mem=100 -t 2 --comment=dfrs:need=0.3)
a=$(submit "${light[@]}" --oversubscribe --wrap 'sleep 10')
wait_for "YES:2: first sharing job running" state_is "$a" RUNNING
c=$(submit -n1 --mem=100 -t 2 --comment=dfrs:need=0.3 --wrap 'sleep 1')
b=$(submit "${light[@]}" --oversubscribe --wrap 'sleep 6')
wait_for "YES:2: second sharing job running beside the first" state_is "$b" RUNNING
cpu_ids() { scontrol show job -d "$1" | sed -n 's/.* CPU_IDs=\([^ ]*\).*/\1/p'; }
state_is "$a" RUNNING || fail "YES:2: the first sharing job is not running beside the second"
[ "$(cpu_ids "$a") $(cpu_ids "$b")" = "0-1 0-1" ] ||
	fail "YES:2: sharing jobs on CPUs '$(cpu_ids "$a")' and '$(cpu_ids "$b")', want both on 0-1"
log_has "amcbf: started JobId=$b on .* in the bg tier" || fail "YES:2: no bg start of the second sharing job"
sleep 2
state_is "$c" PENDING || fail "YES:2: the job that did not ask is $(squeue -h -j "$c" -o %T) beside sharing jobs, want PENDING"
wait_jobs_done 40 "$a" "$b" "$c"
assert_completed_once "$a" "$b" "$c"
! log_has "could not start JobId=$c" || fail "YES:2: tried to start the job that did not ask on shared CPUs"
stop_cluster
finish
