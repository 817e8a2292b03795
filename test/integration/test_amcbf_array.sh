#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_array.sh - job arrays under sched/amcbf: starting the array's
# pending record starts its next task, which Slurm splits off as a job of
# its own (as its main scheduler and sched/backfill do), and the plugin
# splits more tasks off ahead of a cycle so that it starts as many as fit:
#  --array=1-6      on 4 idle nodes, four tasks start in one cycle (the
#                   four earliest start times within a second; one task a
#                   cycle took 3 s or more); every task completes exactly
#                   once (jobcomp records with ArrayJobId/ArrayTaskId).
#  --array=1-4%2    the throttle holds on 4 idle nodes: two tasks start
#                   (the plugin splits no more off than %2 lets run) and
#                   while they run no other starts (reason
#                   JobArrayTaskLimit); then all complete.
#  aftercorr        task 1 of an array submitted with
#                   --dependency=aftercorr:A runs once A's task 1 completed,
#                   while A's task 2 still runs (Slurm splits such tasks off
#                   ahead; sched/amcbf does it itself).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# assert_tasks_once ARRAYID FIRST LAST: one COMPLETED jobcomp record per
# task, and no other record of the array
assert_tasks_once() {
	local array=$1 t n all
	all=$(grep -c " ArrayJobId=$array " "$CLUSTER_DIR/jobcomp.txt" || true)
	[ "$all" = $(($3 - $2 + 1)) ] ||
		fail "array $array: $all jobcomp records, want $(($3 - $2 + 1))"
	for ((t = $2; t <= $3; t++)); do
		n=$(grep -c " JobState=COMPLETED .* ArrayJobId=$array ArrayTaskId=$t " \
			"$CLUSTER_DIR/jobcomp.txt" || true)
		[ "$n" = 1 ] || fail "array $array task $t: $n COMPLETED records, want 1"
	done
}

running_tasks() { squeue -h -r -j "$1" -t R -o %i | grep -c . || true; }

start_cluster array --nodes 4 --port 19900 --select select/linear \
	--sched-params amcbf_interval=1 || { fail "cluster did not start"; finish; }
rm -f "$CLUSTER_DIR/go"	# left by an earlier run
a=$(submit -N1 --array=1-6 --wrap 'sleep 2')
wait_jobs_done 120 "$a"
assert_tasks_once "$a" 1 6
# the first four starts (which tasks they are depends on the queue's order)
starts=$(sed -n "s/.* StartTime=\([^ ]*\) .* ArrayJobId=$a ArrayTaskId=[0-9]* .*/\1/p" \
	"$CLUSTER_DIR/jobcomp.txt" | while read -r d; do date -d "$d" +%s; done | sort -n | sed -n 1,4p)
spread=$(awk 'NR == 1 { f = $1 } END { if (NR == 4) print $1 - f }' <<<"$starts")
echo "  the first 4 tasks of $a started within ${spread:-?} s of each other"
if [ -z "$spread" ] || [ "$spread" -gt 1 ]; then
	fail "array on 4 idle nodes: its first 4 tasks started ${spread:-?} s apart, want one cycle (<= 1 s)"
fi

# throttle: tasks run until $CLUSTER_DIR/go exists
b=$(submit -N1 --array=1-4%2 --time=3 \
	--wrap "while [ ! -e '$CLUSTER_DIR/go' ]; do sleep 0.2; done")
two_running() { [ "$(running_tasks "$b")" = 2 ]; }
wait_for "throttle: two tasks running" two_running
sleep 3	# cycles every second: a third task would have started by now
[ "$(running_tasks "$b")" = 2 ] ||
	fail "throttle %2 on 4 idle nodes: $(running_tasks "$b") tasks running, want 2"
squeue -h -j "$b" -t PD -o %r | grep JobArrayTaskLimit >/dev/null ||
	fail "throttle: the pending tasks do not wait for JobArrayTaskLimit"
touch "$CLUSTER_DIR/go"
wait_jobs_done 120 "$b"
assert_tasks_once "$b" 1 4

# aftercorr: A's task 2 runs until go; B's task 1 need not wait for it
rm -f "$CLUSTER_DIR/go"
A=$(submit -N1 --array=1-2 --time=3 \
	--wrap "[ \$SLURM_ARRAY_TASK_ID = 1 ] || while [ ! -e '$CLUSTER_DIR/go' ]; do sleep 0.2; done")
B=$(submit -N1 --array=1-2 --dependency=aftercorr:"$A" --wrap 'true')
task_done() { grep -q " JobState=COMPLETED .* ArrayJobId=$1 ArrayTaskId=$2 " "$CLUSTER_DIR/jobcomp.txt"; }
for ((i = 0; i < 40; i++)); do task_done "$B" 1 && break; sleep 1; done
task_done "$B" 1 || fail "aftercorr: task 1 of $B did not complete while task 2 of $A ran"
task_done "$A" 2 && fail "aftercorr: task 2 of $A ended before go"
task_done "$B" 2 && fail "aftercorr: task 2 of $B ran before task 2 of $A completed"
touch "$CLUSTER_DIR/go"
wait_jobs_done 120 "$A" "$B"
assert_tasks_once "$A" 1 2
assert_tasks_once "$B" 1 2
stop_cluster
finish
