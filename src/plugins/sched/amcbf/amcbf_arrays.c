/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_arrays.c - job array tasks split off ahead of sched/amcbf's read
 * (amcbf_arrays.h).  Slurm splits a task off an array's pending record
 * when it starts one (job_array_post_sched) and, for aftercorr
 * dependencies, ahead of time (its main scheduler's build_job_queue); a
 * split-off task is a pending job of its own that Slurm's rules (the %
 * throttle, job_array_start_test) still govern.  Not part of Liu et al.
 * 2013: arrays at the speed of single jobs.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_arrays.h"
#include "amcbf_start.h"
#include "amcbf/array_split.h"

bool amcbf_array_split_next(job_record_t *job_ptr, const char *why)
{
	job_record_t *rest;
	int task;

	if (!job_ptr->array_recs || !job_ptr->array_recs->task_id_bitmap ||
	    job_ptr->array_recs->task_cnt < 1 ||
	    (task = bit_ffs(job_ptr->array_recs->task_id_bitmap)) < 0)
		return false;
	job_ptr->array_task_id = task;
	if (job_ptr->array_recs->task_cnt == 1) {
		/* the last task: the record itself becomes it */
		(void)dfrs_job_array_post_sched(job_ptr);
		return false;
	}
	/* job_ptr becomes the task (a new job id); rest keeps the array's */
	if (!(rest = dfrs_job_array_split(job_ptr))) {
		error("could not split a task off %pJ %s", job_ptr, why);
		return false;
	}
	dfrs_job_set_pending(rest);
	rest->start_time = 0;
	debug("split %pJ off %s", job_ptr, why);
	return true;
}

/* An array's pending record with tasks to split, which Slurm lets start
 * now (held, dependent or throttled ones are left as they are). */
static bool splittable(job_record_t *job_ptr)
{
	return IS_JOB_PENDING(job_ptr) && job_ptr->array_recs &&
	       job_ptr->array_recs->task_id_bitmap &&
	       job_ptr->array_recs->task_cnt > 1 &&
	       job_ptr->array_task_id == NO_VAL && job_ptr->details &&
	       amcbf_startable(job_ptr);
}

int amcbf_split_arrays(void)
{
	List todo = list_create(NULL);
	ListIterator it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	uint32_t budget = ARRAY_SPLIT_PER_CYCLE;
	int split = 0;

	/* collected first: a split adds a record to job_list */
	while ((job_ptr = list_next(it)))
		if (splittable(job_ptr))
			list_append(todo, job_ptr);
	list_iterator_destroy(it);
	while (budget && (job_ptr = list_pop(todo))) {
		uint32_t id = job_ptr->job_id, n;
		int pending = num_pending_job_array_tasks(id);
		array_split_in_t in = {
			.tasks_left = job_ptr->array_recs->task_cnt,
			/* the record is one of the pending */
			.pending_split = pending > 1 ? (uint32_t)pending - 1 : 0,
			.throttle = job_ptr->array_recs->max_run_tasks,
			.running = job_ptr->array_recs->tot_run_tasks,
			.task_cpus = job_ptr->details->min_cpus,
			.cluster_cpus = cluster_cpus,
			.budget = budget,
		};

		n = array_split_count(&in);
		for (uint32_t k = 0; k < n; k++) {
			if (!(job_ptr = find_job_record(id)) ||
			    !amcbf_array_split_next(job_ptr,
						    "to start with its array's other tasks"))
				break;
			split++;
			budget--;
		}
	}
	FREE_NULL_LIST(todo);
	return split;
}
