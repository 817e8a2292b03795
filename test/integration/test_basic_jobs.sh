#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_basic_jobs.sh - a 4-node local cluster runs a handful of sbatch jobs to
# completion, first with sched/amcbf + select/dfrs, then with Slurm's own
# sched/backfill + select/linear.  Asserts on what Slurm records: the loaded
# plugins (scontrol show config, slurmctld log) and one COMPLETED jobcomp
# record per job.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

run_workload() {
	local ids=()
	# more work than nodes, so some jobs wait and start when others end
	ids+=("$(submit -N1 --wrap 'sleep 2')")
	ids+=("$(submit -N2 --wrap 'sleep 3')")
	ids+=("$(submit -N1 --wrap 'sleep 1')")
	ids+=("$(submit -N4 --wrap 'sleep 1')")
	ids+=("$(submit -N1 --wrap 'sleep 2')")
	ids+=("$(submit -N3 --wrap 'sleep 1')")
	for id in "${ids[@]}"; do
		[ -n "$id" ] || fail "sbatch did not return a job id"
	done
	wait_jobs_done 120 "${ids[@]}"
	assert_completed_once "${ids[@]}"
	echo "  ${#ids[@]} jobs: $(grep -c 'JobState=COMPLETED' "$CLUSTER_DIR/jobcomp.txt") COMPLETED records"
}

check_config() {
	local want_sched=$1 want_select=$2
	local conf
	conf=$(scontrol show config)
	grep -qE "^SchedulerType += $want_sched\$" <<<"$conf" ||
		fail "scontrol show config: SchedulerType is not $want_sched"
	grep -qE "^SelectType += $want_select\$" <<<"$conf" ||
		fail "scontrol show config: SelectType is not $want_select"
}

# --- sched/amcbf + select/dfrs ---
start_cluster amcbf --nodes 4 --port 17100 --sched sched/amcbf --select select/dfrs ||
	{ fail "cluster with sched/amcbf + select/dfrs did not start"; finish; }
check_config sched/amcbf select/dfrs
log_has 'sched/amcbf: init: plugin loaded' || fail "slurmctld log: sched/amcbf not loaded"
log_has 'sched/amcbf: load_params: loaded, parameters: amcbf_mode=amcbf ' ||
	fail "slurmctld log: sched/amcbf did not log its parameters"
log_has 'select/dfrs: init: loaded: jobs share nodes by DFRS yields; bookkeeping delegated to select/linear' ||
	fail "slurmctld log: select/dfrs not loaded"
run_workload
stop_cluster

# --- Slurm's sched/backfill + select/linear, same workload ---
start_cluster backfill --nodes 4 --port 17100 --sched sched/backfill --select select/linear ||
	{ fail "cluster with sched/backfill + select/linear did not start"; finish; }
check_config sched/backfill select/linear
run_workload
stop_cluster

finish
