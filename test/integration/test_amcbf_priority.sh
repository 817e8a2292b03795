#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_priority.sh - sched/amcbf's queue order (amcbf_priority) is
# Slurm's job priority by default, first submit time with
# amcbf_priority=fifo, and a preempted (requeued) job keeps its place:
#  priority  (priority/multifactor) a job submitted with --nice=1000 starts
#            after one submitted later without; three whole-cluster jobs
#            wait behind a blocker, their priorities set with scontrol
#            (300, 100, 200) before the blocker ends: they start by
#            priority, not by submission.
#  fifo      the same three start in submission order.
#  requeue   (fifo, cmbf) a job preempted by an earlier bigger one starts
#            again before a job submitted after it, although Slurm reset
#            its submit time when it requeued it.
# The order asserted is the start times Slurm records (jobcomp); no job
# starts before the blocker is told to end, so nothing depends on timing.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# blocker ARGS...: a job that runs until $CLUSTER_DIR/go exists
blocker() {
	submit --time=3 "$@" --wrap "while [ ! -e '$CLUSTER_DIR/go' ]; do sleep 0.2; done"
}

# assert_started_in_order WHAT JOBID...: jobcomp start times strictly increase
assert_started_in_order() {
	local what=$1 prev="" prev_id="" id t; shift
	for id in "$@"; do
		t=$(jc_time "$id" COMPLETED StartTime)
		[ -n "$t" ] || { fail "$what: no COMPLETED record for job $id"; return; }
		if [ -n "$prev" ] && [ "$t" -le "$prev" ]; then
			fail "$what: job $id started at $t, not after job $prev_id ($prev); want order $*"
		fi
		prev=$t prev_id=$id
	done
}

# three whole-cluster jobs (behind the blocker), then priorities 300, 100,
# 200 (scontrol ignores a priority for a held job: they are not held)
prioritized_three() {
	a=$(submit -N2 --wrap 'sleep 2')
	b=$(submit -N2 --wrap 'sleep 2')
	c=$(submit -N2 --wrap 'sleep 2')
	scontrol update jobid="$a" priority=300 || fail "scontrol priority=300 refused"
	scontrol update jobid="$b" priority=100 || fail "scontrol priority=100 refused"
	scontrol update jobid="$c" priority=200 || fail "scontrol priority=200 refused"
	[ "$(squeue -h -j "$a" -o %Q)" = 300 ] ||
		fail "job $a: priority $(squeue -h -j "$a" -o %Q) after scontrol, want 300"
}

# priority/multifactor (what sites run; 24.11's default, 22.05's is basic)
# with one weight, so every job has 10000 less its nice
start_cluster priority --nodes 2 --port 19800 --select select/linear \
	--conf PriorityType=priority/multifactor \
	--conf PriorityWeightPartition=10000 \
	--sched-params amcbf_mode=ambf,amcbf_max_preempt=0 ||
	{ fail "cluster did not start"; finish; }
rm -f "$CLUSTER_DIR/go"	# left by an earlier run
log_has "amcbf_priority=priority " || fail "priority: not the default order"
# --nice: the job submitted first but niced starts second
j0=$(blocker -N2)
wait_for "nice: blocker running" state_is "$j0" RUNNING
niced=$(submit -N2 --nice=1000 --wrap 'sleep 2')
plain=$(submit -N2 --wrap 'sleep 2')
[ "$(squeue -h -j "$niced" -o %Q)" -lt "$(squeue -h -j "$plain" -o %Q)" ] ||
	fail "nice: priorities $(squeue -h -j "$niced" -o %Q) (niced), $(squeue -h -j "$plain" -o %Q) (plain)"
touch "$CLUSTER_DIR/go"
wait_jobs_done 90 "$j0" "$niced" "$plain"
assert_completed_once "$j0" "$niced" "$plain"
assert_started_in_order "priority (--nice=1000 submitted first)" "$plain" "$niced"
rm -f "$CLUSTER_DIR/go"
j0=$(blocker -N2)
wait_for "priority: blocker running" state_is "$j0" RUNNING
prioritized_three
wait_for "priority: job $a pending" state_is "$a" PENDING
touch "$CLUSTER_DIR/go"
wait_jobs_done 90 "$j0" "$a" "$b" "$c"
assert_completed_once "$j0" "$a" "$b" "$c"
assert_started_in_order "priority (scontrol 300, 200, 100)" "$a" "$c" "$b"
stop_cluster

start_cluster fifo --nodes 2 --port 19800 --select select/linear \
	--sched-params amcbf_mode=ambf,amcbf_max_preempt=0,amcbf_priority=fifo ||
	{ fail "cluster did not start"; finish; }
rm -f "$CLUSTER_DIR/go"	# left by an earlier run
j0=$(blocker -N2)
wait_for "fifo: blocker running" state_is "$j0" RUNNING
prioritized_three
touch "$CLUSTER_DIR/go"
wait_jobs_done 90 "$j0" "$a" "$b" "$c"
assert_completed_once "$j0" "$a" "$b" "$c"
assert_started_in_order "fifo (submission order)" "$a" "$b" "$c"
stop_cluster

# amcbf_reserve=0 (the paper's backfilling): J0 (1 node) blocks; big J2
# (3 nodes) waits; J1 (2 nodes, later) is backfilled; J3 (2 nodes, later
# still) waits.  When J0 ends CMBF requeues
# J1 for J2; once J2 ends J1 and J3 both fit, one at a time: J1 first.
start_cluster requeue --nodes 3 --port 19800 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_priority=fifo,amcbf_reserve=0 ||
	{ fail "cluster did not start"; finish; }
rm -f "$CLUSTER_DIR/go"	# left by an earlier run
j0=$(blocker -N1)
wait_for "requeue: J0 running" state_is "$j0" RUNNING
j2=$(submit -N3 --wrap 'sleep 10')
j1=$(submit -N2 --wrap 'sleep 2')
wait_for "requeue: J1 backfilled" state_is "$j1" RUNNING
j3=$(submit -N2 --wrap 'sleep 2')
touch "$CLUSTER_DIR/go"
wait_for "requeue: J1 preempted for J2" \
	log_has "cmbf: preempted JobId=$j1 on "
wait_jobs_done 120 "$j0" "$j1" "$j2" "$j3"
assert_completed_once "$j0" "$j1" "$j2" "$j3"
[ "$(restarts "$j1")" = 1 ] || fail "requeue: J1 restarted $(restarts "$j1") times, want 1"
assert_started_in_order "requeue (J1 keeps its place)" "$j2" "$j1" "$j3"
stop_cluster
finish
