/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_allowed.h - the nodes sched/amcbf may start a job on: whether a
 * node is usable now, and each pending job's mask of allowed nodes (its
 * partitions, -x/-w, features, memory, CPUs, disk, reservations), computed
 * once per job shape in a read of the queue.  Call with slurmctld's job,
 * node (write) and partition (read) locks held.
 */
#ifndef DFRS_AMCBF_ALLOWED_H
#define DFRS_AMCBF_ALLOWED_H

#include <stdbool.h>

#include "amcbf/shape_cache.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
/* May jobs start on node i now (up, responding, not drained)? */
bool amcbf_node_usable(int i);
/* Nodes a pending job of `nodes` nodes may use: xmalloc'ed mask, or NULL
 * when every node will do. */
unsigned char *amcbf_job_allowed(job_record_t *job_ptr, int nodes);
/* The same answers for one read of the queue, computed once per job
 * "shape" (shape_cache.h): jobs of the same partition, per-node CPUs,
 * memory and disk and without -x/-w, features or a reservation of their
 * own share one mask, which the cache owns.  A job of any other kind gets
 * its own mask, returned in *own as well (the caller frees it); else *own
 * is NULL.  Only while slurmctld's locks stay held: free the cache before
 * they are released and taken again for another read. */
typedef struct {
	shape_cache_t shapes;
} amcbf_allowed_cache_t;
const unsigned char *amcbf_job_allowed_shared(amcbf_allowed_cache_t *cache,
					      job_record_t *job_ptr, int nodes,
					      unsigned char **own);
void amcbf_allowed_cache_free(amcbf_allowed_cache_t *cache);
#endif

#endif
