#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_deadline.sh - sbatch --deadline under sched/amcbf, as Slurm's
# main scheduler handles it (which sched_interval=-1 switches off):
#  ended     a job that waits (behind a blocker) until its deadline can no
#            longer be met by its time limit, or by its --time-min, ends
#            with state DEADLINE (jobcomp) instead of waiting on.
#  cut       a job whose --time-min lets it start with less than its --time
#            before its deadline starts with its limit cut to the minutes
#            left to the deadline.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

blocker() {
	submit --time=3 "$@" --wrap "while [ ! -e '$CLUSTER_DIR/go' ]; do sleep 0.2; done"
}
ended_deadline() { jobcomp_state "$1" | grep -x DEADLINE >/dev/null; }
# wait_long DESCRIPTION SECONDS COMMAND...: COMMAND succeeds within SECONDS
wait_long() {
	local what=$1 secs=$2 i; shift 2
	for ((i = 0; i < secs; i++)); do
		"$@" && return 0
		sleep 1
	done
	fail "$what (waited $secs s)"
}

start_cluster deadline --nodes 1 --port 19950 --select select/linear \
	--sched-params amcbf_mode=ambf,amcbf_interval=1 ||
	{ fail "cluster did not start"; finish; }
rm -f "$CLUSTER_DIR/go"	# left by an earlier run
j0=$(blocker -N1)
wait_for "blocker running" state_is "$j0" RUNNING
# both can meet their deadline when submitted, neither once 10 s passed
limit=$(submit -N1 -t 1 --deadline=now+70 --wrap 'true')
tmin=$(submit -N1 -t 10 --time-min=1 --deadline=now+70 --wrap 'true')
if [ -z "$limit" ] || [ -z "$tmin" ]; then fail "sbatch refused a --deadline job"; fi
wait_long "job $limit (-t 1) ended DEADLINE" 40 ended_deadline "$limit"
wait_long "job $tmin (--time-min=1) ended DEADLINE" 40 ended_deadline "$tmin"
touch "$CLUSTER_DIR/go"
wait_jobs_done 60 "$j0"

# --time-min=1, -t 10, deadline in 5 minutes: starts with under 5 minutes
rm -f "$CLUSTER_DIR/go"
cut=$(blocker -N1 -t 10 --time-min=1 --deadline=now+300)
wait_for "cut: job running" state_is "$cut" RUNNING
tl=$(squeue -h -j "$cut" -o %l)
case $tl in
4:??|5:00) ;;
*) fail "cut: time limit $tl at start, want the 4-5 minutes to its deadline" ;;
esac
touch "$CLUSTER_DIR/go"
wait_jobs_done 60 "$cut"
assert_completed_once "$cut"
stop_cluster
finish
