#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_gpu_jobs.sh - one-GPU jobs on the site's own select/cons_tres
# (SelectTypeParameters=CR_Core_Memory, GresTypes=gpu, Gres=gpu:4 a node;
# local-cluster --gpus: gres.conf's File= are links to /dev/null): a burst
# of jobs of one CPU and one GPU (sbatch -n1 --mem=200 -t 5 --gres=gpu:1)
# on 2 nodes of 8 CPUs and 4 GPUs runs in two waves of 8, bounded by the
# GPUs, not the CPUs.  Under sched/backfill (the reference) and under
# sched/amcbf in every amcbf_mode (as test_cons_tres_subnode.sh runs them)
# every job completes exactly once; no GPU is held by two jobs at once and
# all of them are held at some time (Slurm's own record, scontrol -d show
# job's GRES=gpu(IDX:..), looked at once a second); every GPU is busy while
# GPU jobs wait (but for the 2 s after a job ends: jobcomp's records); and
# the makespan and mean wait are at most 1.05 times the reference's (plus
# 2 s and 1 s: whole seconds).  DFRS_GPU_MODES picks modes (default all
# five); DFRS_GPU_NODES, _CPUS, _GPUS, _JOBS and _SECS size the burst
# (default 2, 8, 4, twice the GPUs, 4 s).  About 15 s a cluster, six
# clusters.  Sleeping jobs: nothing runs on a GPU; the figures measure
# placement.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

nodes=${DFRS_GPU_NODES:-2} gpus=${DFRS_GPU_GPUS:-4}
total=$((nodes * gpus))
burst_jobs=${DFRS_GPU_JOBS:-$((2 * total))}
burst_secs=${DFRS_GPU_SECS:-4} burst_gpus=$total burst_job_gpus=1
burst_args=(-n1 --mem=200 -t 5 --gres=gpu:1)
common=(--nodes "$nodes" --cpus "${DFRS_GPU_CPUS:-8}" --gpus "$gpus" --mem 8192 --port 18330
	--conf SelectTypeParameters=CR_Core_Memory)

# check_gpus LABEL: by jobcomp, at most and at some time all of the GPUs
# were in use, and none idled while a job waited (1 s allowed: jobcomp's
# whole seconds); by scontrol, no GPU was
# held by two jobs and every one was held at some time
check_gpus() {
	local label=$1 most idle
	read -r _ _ _ most idle <<<"$stats"
	[ "$most" = "$total" ] ||
		fail "$label: $most GPUs in use at most, want all $total (and never more)"
	# jobcomp's times are whole seconds: a job that ended and the one
	# that took its GPU can fall in different seconds (1 s, once, under
	# ambf in a fresh-clone check on 22.05)
	[ "$idle" -le 1 ] ||
		fail "$label: for $idle s a GPU was idle while a GPU job waited (want at most 1 s: jobcomp's whole seconds)"
	[ "$gpu_shared" = 0 ] ||
		fail "$label: $gpu_shared times a GPU was held by two jobs (scontrol -d show job)"
	[ "$gpu_most" = "$total" ] ||
		fail "$label: scontrol showed $gpu_most GPUs held at most, want all $total"
}

run_burst backfill "${common[@]}" --sched sched/backfill --select select/cons_tres
[ -n "$stats" ] && check_gpus "sched/backfill + cons_tres"
read -r ref_span ref_wait _ <<<"${stats:-0 0 0 0 0}"

for mode in ${DFRS_GPU_MODES:-amcbf cmcbf ambf cmbf dfrs}; do
	burst_mode_opts "$mode"
	run_burst "$mode" "${common[@]}" "${opts[@]}" || continue
	check_gpus "amcbf_mode=$mode"
	burst_within_ref "amcbf_mode=$mode"
done
finish
