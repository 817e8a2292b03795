#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_greedypmr.sh - sched/amcbf's amcbf_dfrs_policy=greedypmr
# (GreedyPM with wide jobs kept, Stillwell et al. 2010) on a live
# cluster with select/dfrs, two nodes of 4096 MB, amcbf_dfrs_wide_share=0.5
# (a job on both nodes is wide), time limits of 1 min (short: under
# amcbf_dfrs_long_time=600):
#  J1 (2 nodes, 2048 MB, CPU need 0.5) starts alone;
#  J2 (1 node, 1024 MB, need 0.8) starts beside it on n1;
#  J3 (2 nodes, 3000 MB) arrives: it fits nowhere beside J1's memory.
#     Under greedypm J1 is requeued for it (test_amcbf_dfrs.sh); under
#     greedypmr J1 is wide and stays: J3 waits, and starts once J1 has
#     ended.  J1 is never preempted, J2 neither (taking it off would not
#     make room), and every job ends COMPLETED exactly once.
# The parameters are parsed and logged with the policy.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster greedypmr --nodes 2 --port 18700 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypmr,amcbf_dfrs_wide_share=0.5,amcbf_dfrs_long_time=600,amcbf_dfrs_long_min_yield=0.75 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 || { fail "cluster did not start"; finish; }
log_has "amcbf_mode=dfrs .*amcbf_dfrs_policy=greedypmr .*amcbf_dfrs_wide_share=0.5 amcbf_dfrs_long_time=600 amcbf_dfrs_long_min_yield=0.75 " ||
	fail "parameters not logged"

j1=$(submit -N2 --mem=2048 --time=1 --comment=dfrs:need=0.5 --wrap 'sleep 14')
wait_for "J1 running" state_is "$j1" RUNNING
log_has "dfrs(greedypmr): started JobId=$j1 on n\[1-2\]" ||
	fail "J1 not started by the policy"
j2=$(submit -N1 --mem=1024 --time=1 --comment=dfrs:need=0.8 --wrap 'sleep 6')
wait_for "J2 running beside J1" state_is "$j2" RUNNING
j3=$(submit -N2 --mem=3000 --time=1 --comment=dfrs:need=0.5 --wrap 'sleep 3')
wait_for -t 30 "J3 considered (J1 still running)" log_has "JobId=$j3"
state_is "$j1" RUNNING || fail "J1 not running after J3's arrival"
wait_jobs_done 120 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
log_has "JobId=$j1 on .*(requeued, preemption " && fail "J1, wide, was requeued"
log_has "JobId=$j2 on .*(requeued, preemption " && fail "J2 was requeued"
grep -q "^JobId=$j1 .*JobState=PREEMPTED" "$CLUSTER_DIR/jobcomp.txt" &&
	fail "a PREEMPTED record for J1"
r1=$(restarts "$j1")
[ -z "$r1" ] || [ "$r1" = 0 ] || fail "J1 restarted $r1 times"
log_has "dfrs(greedypmr): started JobId=$j3 on n\[1-2\]" || fail "J3 not started on both nodes"
end1=$(jc_time "$j1" COMPLETED EndTime)
start3=$(jc_time "$j3" COMPLETED StartTime)
if [ -z "$end1" ] || [ -z "$start3" ] || [ "$start3" -lt "$end1" ]; then
	fail "J3 started ($start3) before J1 ended ($end1)"
fi
status=$("$build/dfrs" status) || fail "dfrs status failed: $status"
grep -q "^sched/amcbf: dfrs(greedypmr), " <<<"$status" || fail "dfrs status: no scheduler line: $status"
stop_cluster
finish
