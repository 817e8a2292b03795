/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_job_shape.h - a Slurm job as a job of the DFRS model (Stillwell et al. 2010,
 * "Requirements, Needs, and Yield"), the same for select/dfrs (which keeps
 * the shared-node model) and sched/amcbf's online DFRS mode (which decides
 * with it), so both see the same memory, CPU need and minimum yield.
 * Call with slurmctld's job lock held.
 */
#ifndef DFRS_JOB_SHAPE_H
#define DFRS_JOB_SHAPE_H

#include <stdint.h>

#include "dfrs/node_share.h"
#include "suite/dfrs_params.h"

/* The smallest RealMemory of the nodes, MB: the unit of memory fractions
 * (0 when no node states one). */
uint64_t dfrs_ref_memory_mb(void);

/*
 * The nodes the job's DFRS tasks take, one task a node: a running or
 * suspended job's node count; a pending job's min_nodes, and when
 * SelectTypeParameters makes CPUs consumable at least as many as its CPUs
 * fill on the smallest node (dfrs_host_task_count): sbatch -n 32 on nodes
 * of 8 CPUs is 4 tasks, though Slurm gives it min_nodes 1.  At least 1.
 */
int dfrs_job_tasks(job_record_t *job_ptr);

/*
 * Per node of the job: memory as a fraction of ref_mb (rigid; at most 1),
 * CPU need as a fraction of the node at yield 1 (need: the caller's
 * dfrs_job_need(), declared, measured, predicted or dfrs_cpu_need, per CPU
 * the job holds; when SelectTypeParameters makes CPUs consumable, times
 * the job's CPUs on a node over the smallest node's CPUs), minimum yield (`dfrs:min_yield=X`, else
 * dfrs_min_yield; 1 when its caps leave its time limit no room for what
 * that yield may cost it, dfrs_job_may_slow); an --exclusive job needs
 * the whole node.  Sets id, mem,
 * need and min_yield of *out and zeroes the rest.
 */
void dfrs_job_shape(job_record_t *job_ptr, const dfrs_params_t *params,
		    double need, uint64_t ref_mb, share_job_t *out);

#endif
