#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_cons_tres_subnode.sh - jobs smaller than a node on the site's own
# select/cons_tres (SelectTypeParameters=CR_Core_Memory): a burst of
# one-CPU jobs (sbatch -n1 --mem=200 -t 5), submitted at once to 4 nodes of
# 8 CPUs, runs in two waves of 32 under sched/backfill (the reference).
# Under sched/amcbf in every amcbf_mode (amcbf and cmcbf with
# OverSubscribe=FORCE:2, ambf and cmbf without, dfrs through select/dfrs,
# which delegates to cons_tres) every job completes exactly once, every
# CPU is busy in the first wave, and the makespan and mean wait are at
# most 1.05 times the reference's (plus 2 s and 1 s: jobcomp records whole
# seconds).  DFRS_SUBNODE_MODES picks modes (default all five);
# DFRS_SUBNODE_NODES, _CPUS, _JOBS and _SECS size the burst (default 4, 8,
# twice the CPUs, 4 s).  Sleeping jobs: the figures measure placement, not
# CPU sharing.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

nodes=${DFRS_SUBNODE_NODES:-4} cpus=${DFRS_SUBNODE_CPUS:-8}
burst_jobs=${DFRS_SUBNODE_JOBS:-$((2 * nodes * cpus))}
burst_secs=${DFRS_SUBNODE_SECS:-4} burst_gpus=0
burst_args=(-n1 --mem=200 -t 5)
common=(--nodes "$nodes" --cpus "$cpus" --mem 8192 --port 18300
	--conf SelectTypeParameters=CR_Core_Memory)

run_burst backfill "${common[@]}" --sched sched/backfill --select select/cons_tres
read -r ref_span ref_wait ref_cpus _ <<<"${stats:-0 0 0 0 0}"
[ "$ref_cpus" = $((nodes * cpus)) ] ||
	fail "sched/backfill + cons_tres: $ref_cpus CPUs busy at most, want all $((nodes * cpus))"

for mode in ${DFRS_SUBNODE_MODES:-amcbf cmcbf ambf cmbf dfrs}; do
	burst_mode_opts "$mode"
	run_burst "$mode" "${common[@]}" "${opts[@]}" || continue
	read -r _ _ busy _ <<<"$stats"
	[ "$busy" -ge $((nodes * cpus)) ] ||
		fail "amcbf_mode=$mode: $busy CPUs busy at most, want all $((nodes * cpus)) (sched/backfill: $ref_cpus)"
	burst_within_ref "amcbf_mode=$mode"
done
finish
