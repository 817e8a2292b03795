/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_share.h - select/dfrs's model of jobs sharing nodes: DFRS (Stillwell et al. 2010)
 * with one task per node, as Slurm allocates nodes.  Each node has capacity
 * 1 in two dimensions: CPU (a fluid need: a task at yield y uses y * need)
 * and memory (a rigid requirement).  Every running job has one yield for all
 * its tasks, allocated max-min (yield_allocation.h); a suspended job keeps
 * its memory and uses no CPU.
 *
 * Plain data, no Slurm headers: the plugin translates job records into
 * share_job_t and back; tests drive it directly.
 */
#ifndef DFRS_NODE_SHARE_H
#define DFRS_NODE_SHARE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t id;		/* Slurm job id */
	int nnodes;		/* tasks: one per node */
	int *nodes;		/* [nnodes] node indices (owned by the model) */
	double mem;		/* per node, fraction of the node's memory */
	double need;		/* per node, fraction of its CPUs at yield 1 */
	double min_yield;	/* in (0, 1] */
	int suspended;		/* holds its memory, uses no CPU */
	double yield;		/* allocated; 0 while suspended */
} share_job_t;

typedef struct {
	int nnodes;
	share_job_t *jobs;
	size_t njobs, cap;
} node_share_t;

void node_share_init(node_share_t *s, int nnodes);
void node_share_free(node_share_t *s);

/* The job with this id, or NULL. */
share_job_t *node_share_find(const node_share_t *s, uint32_t id);

/*
 * Choose `want` distinct nodes for a new job among those with allowed[n]
 * non-zero: the least CPU-loaded first (sum of the needs of the running
 * tasks there, ties by index), keeping only nodes where its memory fits and
 * where every task, the new one included, can still have its minimum yield.
 * Returns 0 with chosen[0..want-1] in increasing order, or -1 with err
 * saying why (how many nodes fit).
 */
int node_share_choose(const node_share_t *s, const share_job_t *job,
		      const unsigned char *allowed, int want, int *chosen,
		      char *err, size_t errlen);

/*
 * Add a job on job->nodes (copied), then reallocate every yield.  Returns 0,
 * or -1 (model unchanged) if the id is already there, a node is out of
 * range or repeated, or the jobs would not fit at their minimum yields.
 */
int node_share_add(node_share_t *s, const share_job_t *job,
		   char *err, size_t errlen);

/* Remove a job and reallocate; 0, or -1 if unknown. */
int node_share_remove(node_share_t *s, uint32_t id);

/*
 * Suspend (1) or resume (0) a job and reallocate: as node_share_allocate(),
 * or -1 if the job is unknown.
 */
int node_share_set_suspended(node_share_t *s, uint32_t id, int suspended);

/*
 * Set a job's CPU need per node (0 < need <= 1; e.g. the need its nodes'
 * agents measured now that it runs) and reallocate: as
 * node_share_allocate(), or -1 if the job is unknown or need out of range
 * (model unchanged).
 */
int node_share_set_need(node_share_t *s, uint32_t id, double need);

/*
 * Max-min yields of the running jobs: 0; 1 when they do not all fit at their
 * minimum yields (e.g. a job resumed where others started meanwhile), and
 * the yields were shared max-min from 0 instead; -1 when even that fails
 * (memory over capacity), yields unchanged.
 */
int node_share_allocate(node_share_t *s);

/* Sum over running tasks on node n of need (load) and of mem. */
double node_share_cpu_load(const node_share_t *s, int n);
double node_share_mem_used(const node_share_t *s, int n);

#endif
