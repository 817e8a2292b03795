/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_allowed.c - the nodes a job may start on (amcbf_allowed.h), as
 * sched/backfill filters them (job_req_node_filter).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_allowed.h"
#include "amcbf_parts.h"
#include "amcbf_resv.h"

bool amcbf_node_usable(int i)
{
	node_record_t *node_ptr = node_record_table_ptr[i];

	/* avail_node_bitmap: not down, drained, failing or not responding
	 * (after a slurmctld restart, until the node registers again), nor
	 * powering down; a powered-down node is usable: a job started there
	 * has Slurm resume it (amcbf_power.h) */
	return node_ptr && avail_node_bitmap && bit_test(avail_node_bitmap, i) &&
	       !IS_NODE_DOWN(node_ptr) && !IS_NODE_DRAIN(node_ptr) &&
	       !IS_NODE_NO_RESPOND(node_ptr) && !IS_NODE_FUTURE(node_ptr) &&
	       !IS_NODE_POWERING_DOWN(node_ptr) && !IS_NODE_UNKNOWN(node_ptr);
}

/*
 * The nodes a pending job may run on, as the engine's mask: its
 * partitions' nodes less its excluded ones (-x), within its required ones
 * (-w) when they alone can hold it, less those lacking its features,
 * memory, CPUs or disk (job_req_node_filter, as sched/backfill does).
 * NULL when every node will do.
 */
static unsigned char *job_allowed_at(job_record_t *job_ptr, int nodes,
				     time_t now)
{
	job_details_t *details = job_ptr->details;
	bitstr_t *avail = bit_alloc(node_record_count);
	unsigned char *allowed = NULL;

	/* the partitions the job may start in now (-p a,b: several) */
	amcbf_parts_nodes(job_ptr, avail, now);
	if (details->exc_node_bitmap)
		bit_and_not(avail, details->exc_node_bitmap);
	/* advanced reservations: members in theirs, outsiders out of them */
	amcbf_resv_restrict(job_ptr, avail, now);
	/* a job that ended is still leaving these: Slurm refuses new jobs
	 * there until it has (the next cycle sees them free) */
	if (cg_node_bitmap)
		bit_and_not(avail, cg_node_bitmap);
	if (details->req_node_bitmap &&
	    bit_set_count(details->req_node_bitmap) >= nodes)
		bit_and(avail, details->req_node_bitmap);
	if (job_req_node_filter(job_ptr, avail, true) != SLURM_SUCCESS)
		bit_clear_all(avail);
	if (bit_set_count(avail) < node_record_count) {
		allowed = xcalloc(node_record_count ? node_record_count : 1, 1);
		for (int i = 0; i < node_record_count; i++)
			allowed[i] = bit_test(avail, i) ? 1 : 0;
	}
	FREE_NULL_BITMAP(avail);
	return allowed;
}

unsigned char *amcbf_job_allowed(job_record_t *job_ptr, int nodes)
{
	return job_allowed_at(job_ptr, nodes, time(NULL));
}

/*
 * Everything job_allowed_at()'s answer depends on besides slurmctld's
 * node, partition and reservation tables (which the locks held through a
 * read keep as they are), for a job whose answer depends on nothing else:
 * one partition, no -x/-w, no features or preferences, no reservation of
 * its own.  False for any other job: it is computed alone.  The second is
 * in the key: a reservation's window is tested at `now`.
 */
static bool allowed_shape(job_record_t *job_ptr, time_t now, shape_key_t *key)
{
	job_details_t *d = job_ptr->details;
	multi_core_data_t *mc = d->mc_ptr;

	if ((job_ptr->part_ptr_list &&
	     list_count(job_ptr->part_ptr_list) > 1) ||
	    d->exc_node_bitmap || d->req_node_bitmap ||
	    d->features || d->feature_list || d->features_use ||
	    d->feature_list_use || d->prefer || job_ptr->resv_name)
		return false;
	memset(key, 0, sizeof(*key));
	key->w[0] = (uint64_t)(uintptr_t)job_ptr->part_ptr;
	key->w[1] = (uint64_t)now;
	key->w[2] = d->pn_min_cpus;
	key->w[3] = d->pn_min_memory;
	key->w[4] = d->pn_min_tmp_disk;
	key->w[5] = mc ? 1 : 0;
	if (mc) {
		key->w[6] = mc->sockets_per_node;
		key->w[7] = mc->cores_per_socket;
		key->w[8] = mc->threads_per_core;
	}
	/* an outsider's reservations are tested over its run (its limit,
	 * else its partition's MaxTime, which the partition gives) */
	if (resv_list && list_count(resv_list))
		key->w[9] = (uint64_t)job_ptr->time_limit + 1;
	return true;
}

static void free_mask(void *p)
{
	xfree(p);
}

const unsigned char *amcbf_job_allowed_shared(amcbf_allowed_cache_t *cache,
					      job_record_t *job_ptr, int nodes,
					      unsigned char **own)
{
	time_t now = time(NULL);
	shape_key_t key;
	void *mask;

	*own = NULL;
	if (!allowed_shape(job_ptr, now, &key))
		return *own = job_allowed_at(job_ptr, nodes, now);
	if (shape_cache_find(&cache->shapes, &key, &mask))
		return mask;
	mask = job_allowed_at(job_ptr, nodes, now);
	if (shape_cache_add(&cache->shapes, &key, mask))
		return *own = mask;	/* not kept: the job owns it */
	return mask;
}

void amcbf_allowed_cache_free(amcbf_allowed_cache_t *cache)
{
	shape_cache_free(&cache->shapes, free_mask);
}
