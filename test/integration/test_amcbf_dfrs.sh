#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_dfrs.sh - sched/amcbf's amcbf_mode=dfrs (online DFRS, GreedyPM)
# on a live cluster with select/dfrs, two nodes of 4096 MB:
#  J1 (2 nodes, 2048 MB, CPU need 0.5) starts alone at yield 1;
#  J2 (1 node, 1024 MB, need 0.8) starts beside it on n1: both share n1's
#     CPU by yields below 1 (published by select/dfrs);
#  J3 (2 nodes, 3000 MB) arrives: it fits nowhere beside J1's memory, and a
#     new job comes first (flow time / virtual time^2), so J1, and only J1,
#     is suspended (requeued) and J3 starts once J1 has left; J1 resumes
#     (starts again) afterwards.
#  J4 arrives while both nodes are drained and starts once they are
#     resumed, with no job completing in between.
#  J5 ends and its epilog keeps both nodes COMPLETING for 8 s; J6, which
#     arrives then, is not started there (Slurm would refuse it) but once
#     J5 has left: no start is refused.
# Every job ends COMPLETED exactly once; dfrs status shows the scheduler's
# counters.  (The repack settings, amcbf_dfrs_repack_drift and _tolerance,
# are only parsed and logged here: greedypm repacks every 600 s.)
# With amcbf_dfrs_starve_bsld=0.25:
#  S1 (2 nodes, 3000 MB, time limit 1 min) is requeued for S2 (1 node,
#     2000 MB) and cannot start again beside S2 and S3 (the same);
#  15 s after S1's submission (0.25 times its limit), the next submission,
#     S4 (500 MB), lets S1 claim room: S2 and S3 are requeued, S1 starts
#     long before they would have ended, and then they run again;
#     with amcbf_dfrs_max_start_per_cycle=1, S1 starts one cycle before S4,
#     which the same decision started.
# With amcbf_dfrs_starve_bsld=0.1 and no requeues, a starving job that
# does not fit keeps the room it waits for: a job behind it that would fit
# there stays pending until it has started (one log line).
# Without select/dfrs the mode
# refuses to act, with one error line.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

yield_of() { scontrol show job "$1" | sed -n 's/.*SystemComment=dfrs:yield=\([0-9.]*\).*/\1/p'; }
below_one() { local y; y=$(yield_of "$1"); [ -n "$y" ] && awk -v y="$y" 'BEGIN { exit !(y > 0 && y < 1) }'; }

# an epilog that takes 8 s for the jobs marked by a file $epilog.JOBID
epilog=$build/test-clusters/$test_name-epilog.sh
mkdir -p "$build/test-clusters" && rm -f "$epilog".*
printf '#!/bin/sh\n[ -e "%s.%s" ] && sleep 8\nexit 0\n' "$epilog" "\$SLURM_JOB_ID" > "$epilog"
chmod 755 "$epilog"
start_cluster dfrs --nodes 2 --port 18700 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm,amcbf_dfrs_repack_drift=0.1,amcbf_dfrs_repack_tolerance=0.01 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--conf Epilog="$epilog" \
	--part-extra OverSubscribe=FORCE:8 || { fail "cluster did not start"; finish; }
log_has "amcbf_mode=dfrs .*amcbf_dfrs_policy=greedypm .*amcbf_dfrs_repack_drift=0.1 amcbf_dfrs_repack_tolerance=0.01 " ||
	fail "parameters not logged"

j1=$(submit -N2 --mem=2048 --comment=dfrs:need=0.5 --wrap 'sleep 14')
wait_for "J1 running" state_is "$j1" RUNNING
log_has "dfrs(greedypm): started JobId=$j1 on n\[1-2\] (yield 1.00" ||
	fail "J1 not started by the policy at yield 1"
j2=$(submit -N1 --mem=1024 --comment=dfrs:need=0.8 --wrap 'sleep 6')
wait_for "J2 running beside J1" state_is "$j2" RUNNING
[ "$(squeue -h -j "$j2" -o %N)" = n1 ] || fail "J2 not on the least loaded node n1"
wait_for "J1 shares n1's CPU: yield below 1" below_one "$j1"
wait_for "J2 shares n1's CPU: yield below 1" below_one "$j2"

j3=$(submit -N2 --mem=3000 --comment=dfrs:need=0.5 --wrap 'sleep 3')
wait_for "J1 suspended (requeued) for the new J3" \
	log_has "dfrs(greedypm): suspended JobId=$j1 on n\[1-2\] (requeued, preemption 1 of at most 3)"
wait_jobs_done 120 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
# (the line of a preemption; the bare word "preempted" is also in the
# debug line for J1 leaving its nodes)
log_has "JobId=$j2 on .*(requeued, preemption " && fail "J2 was preempted too"
log_has "dfrs(greedypm): started JobId=$j3 on n\[1-2\]" || fail "J3 not started on both nodes"
log_has "dfrs(greedypm): resumed JobId=$j1 on n\[1-2\]" || fail "J1 not resumed after J3"
grep -q "^JobId=$j1 .*JobState=PREEMPTED" "$CLUSTER_DIR/jobcomp.txt" ||
	fail "no PREEMPTED record for J1"
status=$("$build/dfrs" status) || fail "dfrs status failed: $status"
grep -q "^sched/amcbf: dfrs(greedypm), " <<<"$status" || fail "dfrs status: no scheduler line: $status"
grep -q "^  4 started, 1 preempted, 0 promoted, 0 demoted, 0 starts refused by Slurm$" <<<"$status" ||
	fail "dfrs status: scheduler counters wrong: $status"

# J4 arrives while both nodes are drained: it fits no node and is set
# aside.  Nothing completes afterwards, so only the nodes' coming back
# (more usable nodes than at the last scan) can start it before the next
# periodic event, 600 s away.
scontrol update nodename=n[1-2] state=drain reason=test >/dev/null ||
	fail "could not drain the nodes"
j4=$(submit -N1 --mem=1024 --wrap 'sleep 1')
wait_for "J4 set aside: fits no node" \
	log_has "JobId=$j4 fits no node now: not considered until it does"
scontrol update nodename=n[1-2] state=resume >/dev/null || fail "could not resume the nodes"
wait_for -t 70 "J4 started once the nodes came back" \
	log_has "dfrs(greedypm): started JobId=$j4 "	# amcbf_interval is 30 s
wait_jobs_done 60 "$j4"
assert_completed_once "$j4"

# J6 arrives while J5's epilog keeps both nodes COMPLETING
j5=$(submit -N2 --mem=1024 --wrap 'sleep 2')
touch "$epilog.$j5"
wait_for "J5 running" state_is "$j5" RUNNING
wait_for "J5 completing in its epilog" state_is "$j5" COMPLETING
j6=$(submit -N1 --mem=1024 --wrap 'sleep 1')
wait_jobs_done 60 "$j5" "$j6"
assert_completed_once "$j5" "$j6"
log_has "could not start JobId=$j6 " && fail "J6 was started on a completing node and refused"
stop_cluster
# J1, J2, J3, J1 again, J4, J5 and J6; no start refused
grep -q 'stats: [0-9]* cycles (mean .* ms, max .* ms), 7 started, 1 preempted, 0 promoted, 0 demoted, 0 starts refused by Slurm;' \
	"$CLUSTER_DIR/slurmctld.log" || fail "statistics line missing or wrong at shutdown"
# the longest read of the records, timed apart, with the jobs it read (on a
# loaded machine the longest may be a read of an empty queue that waited
# for a CPU: the count is not asserted)
grep -qE 'stats: .*; longest read [0-9.]+ ms \([0-9]+ jobs\)(;|$)' \
	"$CLUSTER_DIR/slurmctld.log" || fail "statistics line lacks the longest read of the records"

start_cluster starve --nodes 2 --port 18700 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm,amcbf_dfrs_starve_bsld=0.25,amcbf_dfrs_max_start_per_cycle=1 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 || { fail "cluster did not start"; finish; }
log_has "amcbf_dfrs_starve_bsld=0.25" || fail "amcbf_dfrs_starve_bsld not logged"
s1=$(submit -N2 --mem=3000 --time=1 --wrap 'sleep 10')
s1_submit=$SECONDS
wait_for "S1 running" state_is "$s1" RUNNING
# S2 and S3 run 30 s, then 2 s when they run again after their requeue
# shellcheck disable=SC2016  # expanded by the job's shell
again='if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then sleep 2; else sleep 30; fi'
s2=$(submit -N1 --mem=2000 --wrap "$again")
wait_for "S1 requeued for S2" \
	log_has "dfrs(greedypm): suspended JobId=$s1 .*(requeued, preemption 1 of"
wait_for "S2 running" state_is "$s2" RUNNING
s3=$(submit -N1 --mem=2000 --wrap "$again")
wait_for "S3 running" state_is "$s3" RUNNING
log_has "JobId=$s1 starving" && fail "S1 starving before 15 s"
while [ $((SECONDS - s1_submit)) -lt 17 ]; do sleep 0.5; done
s4=$(submit -N1 --mem=500 --wrap 'sleep 1')
wait_for "S1 claims room at S4's submission" \
	log_has "dfrs(greedypm): JobId=$s1 starving (in the system 0\.[2-9][0-9]* times its time limit, amcbf_dfrs_starve_bsld=0.25): takes room at this submission"
wait_for "S2 requeued for S1" log_has "dfrs(greedypm): suspended JobId=$s2 .*(requeued"
wait_for "S3 requeued for S1" log_has "dfrs(greedypm): suspended JobId=$s3 .*(requeued"
wait_for -t 30 "S1 running after its claim" state_is "$s1" RUNNING
[ $((SECONDS - s1_submit)) -lt 45 ] || fail "S1 started only when S2 and S3 would have ended"
wait_for "S4 started a cycle after S1" log_has "dfrs(greedypm): started JobId=$s4 "
log_has "dfrs(greedypm): 1 starts this cycle, 1 left to the next (amcbf_dfrs_max_start_per_cycle=1)" ||
	fail "no deferred start logged"
first=$(grep -n -e "resumed JobId=$s1 " -e "started JobId=$s4 " "$CLUSTER_DIR/slurmctld.log" | head -n 1)
[[ $first == *"JobId=$s1 "* ]] || fail "S4 started before S1: $first"
wait_jobs_done 150 "$s1" "$s2" "$s3" "$s4"
assert_completed_once "$s1" "$s2" "$s3" "$s4"
[ "$(restarts "$s1")" = 1 ] || fail "S1 restarted $(restarts "$s1") times, want 1"
for j in "$s2" "$s3"; do
	[ "$(restarts "$j")" -ge 1 ] || fail "S2 or S3 (JobId=$j) restarted $(restarts "$j") times, want at least 1"
done
stop_cluster

# A starving job that does not fit keeps its room: no requeues
# (amcbf_max_preempt=0), so H (2 nodes) waits for B1 and B2; it starves
# 6 s after its submission (0.1 times its limit), B1 ends later, and P,
# which fits where B1 was, stays pending until H has started.
start_cluster hold --nodes 2 --port 18700 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm,amcbf_dfrs_starve_bsld=0.1,amcbf_max_preempt=0 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 || { fail "cluster did not start"; finish; }
b1=$(submit -N1 --mem=3000 --wrap 'sleep 12')
wait_for "B1 running" state_is "$b1" RUNNING
# B2 runs until the test writes go-JOBID, once it has checked the hold
rm -f "$CLUSTER_DIR"/go-*	# an earlier run's
b2=$(submit -N1 --mem=3000 --wrap "until [ -e '$CLUSTER_DIR'/go-\$SLURM_JOB_ID ]; do sleep 0.5; done")
wait_for "B2 running" state_is "$b2" RUNNING
h=$(submit -N2 --mem=3000 --time=1 --wrap 'sleep 4')
p=$(submit -N1 --mem=3000 --wrap 'sleep 1')
held="dfrs(greedypm): JobId=$h starving (in the system [0-9.]* times its time limit, amcbf_dfrs_starve_bsld=0.1) does not fit yet: no job behind it starts until it does"
# B1 ends about 10 s after H's submission
wait_for -t 30 "H, starving, keeping the room B1 left" log_has "$held"
[ "$(grep -c "JobId=$h starving .*does not fit yet" "$CLUSTER_DIR/slurmctld.log")" = 1 ] ||
	fail "the starving job's hold logged more than once"
state_is "$b1" RUNNING && fail "H held room while B1 still ran"
state_is "$p" PENDING || fail "P started in the room H waits for"
: >"$CLUSTER_DIR/go-$b2"
wait_jobs_done 120 "$b1" "$b2" "$h" "$p"
first=$(grep -n -e "started JobId=$h " -e "started JobId=$p " "$CLUSTER_DIR/slurmctld.log" | head -n 1)
[[ $first == *"JobId=$h "* ]] || fail "P started before H: $first"
assert_completed_once "$b1" "$b2" "$h" "$p"
stop_cluster

start_cluster linear --nodes 2 --port 18700 --select select/linear \
	--sched-params amcbf_mode=dfrs || { fail "cluster did not start"; finish; }
wait_for "dfrs mode refuses select/linear" \
	log_has "amcbf_mode=dfrs needs SelectType=select/dfrs (jobs share nodes by yields), not select/linear: staying passive"
stop_cluster
finish
