/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_start.c - starting slurmctld's jobs (amcbf_start.h), as
 * sched/backfill's _start_job and sched/builtin do.  Used by the cycle
 * (amcbf_cycle.c) and its deciders: amcbf_decide_engine.c (consolidation
 * backfill, Liu et al. 2013) and amcbf_decide_dfrs.c (online DFRS,
 * Stillwell et al. 2010).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_start.h"
#include "amcbf_bb.h"
#include "amcbf_deadline.h"
#include "amcbf_deps.h"
#include "amcbf_parts.h"
#include "trace/arrival_order.h"

/* Is this pending job one Slurm lets start now, and ours to consider?
 * Held (priority 0), waiting for a dependency or begin time, or a job
 * array at its throttle (%N: job_independent() says so) are left to
 * Slurm's rules; heterogeneous jobs are never started here.  A job
 * array's pending record is: starting it starts its next task. */
bool amcbf_startable(job_record_t *job_ptr)
{
	return job_ptr->priority != 0 && !amcbf_deps_waiting(job_ptr) &&
	       job_independent(job_ptr) &&
	       !job_ptr->het_job_id && job_ptr->part_ptr &&
	       amcbf_parts_ok(job_ptr, time(NULL)) && amcbf_bb_ready(job_ptr);
}

static void launch_started(job_record_t *job_ptr)
{
	last_job_update = time(NULL);
	if (job_ptr->batch_flag == 0)
		srun_allocate(job_ptr);
	else if (!IS_JOB_CONFIGURING(job_ptr))
		launch_job(job_ptr);
}

static int by_submit(void *x, void *y)
{
	job_record_t *a = *(job_record_t **)x, *b = *(job_record_t **)y;

	return arrival_order((double)a->details->submit_time, (long)a->job_id,
			     (double)b->details->submit_time, (long)b->job_id);
}

static int same_ptr(void *x, void *key)
{
	return x == key;
}

/*
 * Pending jobs of partitions outside amcbf_partitions: start them in submit
 * order where Slurm fits them; the first that does not fit blocks its
 * partition, as in sched/builtin.  Returns the number started.
 */
int amcbf_start_unmanaged(const dfrs_params_t *params, amcbf_memory_t *mem)
{
	List todo, blocked;
	ListIterator it;
	job_record_t *job_ptr;
	int started = 0;

	if (!strcmp(params->partitions, "all"))
		return 0;
	todo = list_create(NULL);
	blocked = list_create(NULL);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		if (IS_JOB_PENDING(job_ptr) && !IS_JOB_COMPLETING(job_ptr) &&
		    job_ptr->details && job_ptr->part_ptr &&
		    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name) &&
		    amcbf_startable(job_ptr))
			list_append(todo, job_ptr);
	list_iterator_destroy(it);
	list_sort(todo, by_submit);
	it = list_iterator_create(todo);
	while ((job_ptr = list_next(it))) {
		if (list_find_first(blocked, same_ptr, job_ptr->part_ptr))
			continue;
		if (select_nodes(job_ptr, false, NULL, NULL, false, 0) !=
		    SLURM_SUCCESS) {
			list_append(blocked, job_ptr->part_ptr);
			continue;
		}
		launch_started(job_ptr);
		info("started %pJ of partition %s (not in amcbf_partitions) on %s",
		     job_ptr, job_ptr->part_ptr->name, job_ptr->nodes);
		mem->started++;
		started++;
	}
	list_iterator_destroy(it);
	FREE_NULL_LIST(todo);
	FREE_NULL_LIST(blocked);
	return started;
}

/*
 * Start a job on exactly these nodes, as sched/backfill's _start_job does.
 * For a job array's pending record select_nodes() starts its first task:
 * job_array_post_sched() splits that task off under a new job id (job_ptr
 * is then the task) and leaves the other tasks pending under the array's
 * id, with a copy of the node exclusions given here: those are the user's
 * again after, as sched/backfill restores them.
 */
int amcbf_start_on(job_record_t *job_ptr, const int *nodes, int n)
{
	bitstr_t *orig = job_ptr->details->exc_node_bitmap;
	bitstr_t *exc = bit_alloc(node_record_count);
	bool array_head = job_ptr->array_recs != NULL;
	uint32_t cut = amcbf_deadline_limit(job_ptr, time(NULL));
	uint32_t user_limit = job_ptr->time_limit;
	part_record_t *part_was;
	int rc;

	bit_set_all(exc);
	for (int k = 0; k < n; k++)
		bit_clear(exc, nodes[k]);
	if (orig)
		bit_or(exc, orig);
	job_ptr->details->exc_node_bitmap = exc;
	/* --deadline: the run must end by it (Slurm's main scheduler does
	 * the same before its select_nodes()) */
	if (cut)
		job_ptr->time_limit = cut;
	/* -p a,b: in a partition that holds the nodes */
	part_was = amcbf_parts_for_nodes(job_ptr, nodes, n, time(NULL));
	rc = select_nodes(job_ptr, false, NULL, NULL, false, 0);
	if (part_was && rc != SLURM_SUCCESS)
		job_ptr->part_ptr = part_was;
	if (cut && rc != SLURM_SUCCESS)
		job_ptr->time_limit = user_limit;
	if (array_head) {
		job_record_t *rest = find_job_record(job_ptr->array_job_id);
		if (rest && rest != job_ptr && rest->details) {
			FREE_NULL_BITMAP(rest->details->exc_node_bitmap);
			if (orig)
				rest->details->exc_node_bitmap = bit_copy(orig);
			rest->time_limit = user_limit;
		}
	}
	/* select_nodes() may have replaced it: restore the user's */
	if (job_ptr->details) {
		FREE_NULL_BITMAP(job_ptr->details->exc_node_bitmap);
		job_ptr->details->exc_node_bitmap = orig;
	}
	if (rc != SLURM_SUCCESS)
		return rc;
	amcbf_parts_started(job_ptr);
	launch_started(job_ptr);
	return SLURM_SUCCESS;
}
