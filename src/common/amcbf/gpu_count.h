/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpu_count.h - the GPUs a Slurm GRES or TRES list names: a node's Gres=
 * ("gpu:4", "gpu:a100:2(S:0-1),gpu:v100:2") and a job's tres_per_node or
 * tres_per_job ("gres:gpu:1" up to 22.05, "gres/gpu:1" from 23.02, with
 * or without a type).  sched/amcbf reads hosts' and jobs' GPUs with it
 * into the engines' host model (doc/design.md, "The resource model: CPUs,
 * memory and GPUs"): a GPU is a rigid count, never shared by weights.
 */
#ifndef DFRS_GPU_COUNT_H
#define DFRS_GPU_COUNT_H

/*
 * The sum of the counts of the list's gpu entries (other GRES, e.g.
 * "mps:100" or "license/x:1", are not GPUs); a gpu entry without a count
 * is one GPU.  NULL or "" gives 0; -1 when a gpu entry's count is not a
 * whole number (optionally with a k, m or g multiple, as Slurm writes
 * them).
 */
long gpu_count(const char *list);

#endif
