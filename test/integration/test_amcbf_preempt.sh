#!/bin/bash
# test_amcbf_preempt.sh - sched/amcbf owns job starts and preempts by the
# consolidation algorithms of seed 004, on Slurm's select/linear:
#  CMBF  a big job that arrived earlier takes the nodes of a job that arrived
#        later (requeued: "migration"); the later job restarts afterwards.
#  AMBF  the same, but only the head of the queue may preempt.
#  amcbf_max_preempt=0 makes every running job exempt: nothing is preempted.
# Every job ends COMPLETED exactly once in jobcomp (a preempted job also has
# a PREEMPTED record for the run it lost).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

state_is() { [ "$(squeue -h -j "$1" -o %T)" = "$2" ]; }
log_has() { grep -q -- "$1" "$CLUSTER_DIR/slurmctld.log"; }
restarts() { scontrol show job "$1" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p'; }

# J1 (2 nodes) runs; J2 (4 nodes) waits; J3 (2 nodes, later) is backfilled;
# when J1 ends, J2 needs J3's nodes: CMBF requeues J3, starts J2.
scenario() {
	local mode=$1 preempted
	j1=$(submit -N2 --wrap 'sleep 6')
	wait_for "$mode: J1 running" state_is "$j1" RUNNING
	j2=$(submit -N4 --wrap 'sleep 2')
	j3=$(submit -N2 --wrap 'sleep 8')
	wait_for "$mode: J3 backfilled onto the idle nodes" state_is "$j3" RUNNING
	state_is "$j2" PENDING || fail "$mode: J2 (4 nodes) started while J1 held 2"
	wait_jobs_done 90 "$j1" "$j2" "$j3"
	assert_completed_once "$j1" "$j2" "$j3"
}

start_cluster cmbf --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=cmbf || { fail "cluster did not start"; finish; }
scenario cmbf
log_has "cmbf: preempted JobId=$j3 on n\[3-4\] (requeued, preemption 1 of at most 3)" ||
	fail "cmbf: J3 was not preempted for J2"
grep -q "^JobId=$j3 .*JobState=PREEMPTED" "$CLUSTER_DIR/jobcomp.txt" ||
	fail "cmbf: no PREEMPTED record for J3"
[ "$(restarts "$j3")" = 1 ] || fail "cmbf: J3 restarted $(restarts "$j3") times, want 1"
# J2 ran before J3 finished: it did not wait for the later job
s2=$(grep "^JobId=$j2 " "$CLUSTER_DIR/jobcomp.txt" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')
e3=$(grep "^JobId=$j3 .*COMPLETED" "$CLUSTER_DIR/jobcomp.txt" | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p')
[ "$(date -d "$s2" +%s)" -lt "$(date -d "$e3" +%s)" ] || fail "cmbf: J2 started after J3 ended"
stop_cluster
# four starts: J1, J3, J2, and J3 again after its preemption
grep -q 'stats: [0-9]* cycles (mean .* ms, max .* ms), 4 started, 1 preempted' "$CLUSTER_DIR/slurmctld.log" ||
	fail "cmbf: statistics line missing or wrong at shutdown"

start_cluster nopreempt --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_max_preempt=0 ||
	{ fail "cluster did not start"; finish; }
scenario nopreempt
log_has "preempted" && fail "amcbf_max_preempt=0: a job was preempted"
stop_cluster

start_cluster ambf --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=ambf || { fail "cluster did not start"; finish; }
scenario ambf
log_has "ambf: preempted JobId=$j3 on n\[3-4\]" || fail "ambf: the head job did not preempt J3"
stop_cluster
finish
