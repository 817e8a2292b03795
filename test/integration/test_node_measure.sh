#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_node_measure.sh - dfrs-nodeagent measures each job's CPU use on its
# node and reports it in the node's Extra field (dfrs:measured=JOB:NEED@T),
# beside whatever else an administrator keeps there, and removes its word
# when the job is gone.  Pass/fail never rests on timing: the reported
# figure must be a need in 0..1 for the right job; how close it is to the
# job's duty cycle is printed (the windowed arithmetic itself is asserted
# exactly in test/unit/test_cpu_window.c).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster measure --nodes 1 --cpus 1 --port 17780 --node-agent \
	--select select/linear ||
	{ fail "cluster with a node agent did not start"; finish; }

extra() { scontrol show node n1 | sed -n 's/^ *Extra=\(.*\)$/\1/p'; }
measured() {	# the need reported for job $1, else nothing
	extra | tr ' ' '\n' | sed -n 's/^dfrs:measured=//p' | sed 's/@.*//' |
		tr ',' '\n' | sed -n "s/^$1:\([0-9.]*\)$/\1/p"
}
has_measure() { [ -n "$(measured "$1")" ]; }
no_measure() { ! extra | grep 'dfrs:measured=' >/dev/null; }

scontrol update nodename=n1 extra="rack=4" || fail "cannot set Extra"
work=$CLUSTER_DIR/work
mkdir -p "$work"
a=$(submit -w n1 -J duty --wrap "exec '$build/dfrs-work' --seconds 600 --need 0.3 --quantum 0.25 --dir '$work'")
wait_for -t 20 "job $a: a measured need in node n1's Extra" has_measure "$a"
v=$(measured "$a")
awk -v v="$v" 'BEGIN { exit !(v >= 0 && v <= 1) }' ||
	fail "job $a: measured need '$v' is not in 0..1"
extra | grep -w 'rack=4' >/dev/null || fail "Extra lost the administrator's word: $(extra)"
# informative only: a loaded machine slows the job's compute phases
sleep 4
echo "job $a (dfrs-work duty cycle 0.3, agent every 1 s, window 3): measured $(measured "$a") (Extra: $(extra))"
grep -q "measured CPU needs: Extra: dfrs:measured=$a:" "$CLUSTER_DIR"/nodeagent-n1.log ||
	fail "the agent's log does not say what it reported"

scancel "$a"
wait_jobs_done 30 "$a"
wait_for -t 15 "job $a gone: the agent removes its dfrs:measured word" no_measure
extra | grep -w 'rack=4' >/dev/null || fail "Extra lost the administrator's word: $(extra)"
finish
