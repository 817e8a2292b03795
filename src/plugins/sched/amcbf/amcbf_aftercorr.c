/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_aftercorr.c - --dependency=aftercorr for job arrays under
 * sched/amcbf.  A task of an array submitted with
 * --dependency=aftercorr:A may start once task i of array A completed
 * successfully, but Slurm tests that dependency on a split-off task only:
 * the array's pending record itself waits for all of A.  Slurm's main
 * scheduler (build_job_queue in src/slurmctld/job_scheduler.c), which
 * sched_interval=-1 switches off, splits such tasks off ahead of time, up
 * to correspond_after_task_cnt (default 10) pending tasks per array; this
 * does the same each cycle, so that each task waits for its counterpart
 * alone.  Not part of Liu et al. 2013: Slurm semantics the plugin keeps.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_aftercorr.h"
#include "amcbf_arrays.h"

/* Slurm's default correspond_after_task_cnt (job_scheduler.c) */
#define AFTERCORR_PENDING_TASKS 10

static int is_aftercorr(void *x, void *key)
{
	(void)key;
	return ((depend_spec_t *)x)->depend_type ==
		SLURM_DEPEND_AFTER_CORRESPOND;
}

/* An array's pending record (tasks not split off) with an aftercorr
 * dependency. */
static bool wants_split(job_record_t *job_ptr)
{
	return IS_JOB_PENDING(job_ptr) && job_ptr->array_recs &&
	       job_ptr->array_recs->task_id_bitmap &&
	       job_ptr->array_task_id == NO_VAL && job_ptr->details &&
	       job_ptr->details->depend_list &&
	       list_find_first(job_ptr->details->depend_list, is_aftercorr,
			       NULL);
}

/* Split the next task off array `array_id`'s pending record; false when
 * there is nothing more to split. */
static bool split_one(uint32_t array_id)
{
	job_record_t *job_ptr = find_job_record(array_id);

	if (!job_ptr || !wants_split(job_ptr) ||
	    num_pending_job_array_tasks(array_id) >= AFTERCORR_PENDING_TASKS)
		return false;
	return amcbf_array_split_next(job_ptr, "for its aftercorr dependency");
}

int amcbf_split_aftercorr(void)
{
	List todo = list_create(NULL);
	ListIterator it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	int split = 0;

	/* collected first: a split adds a record to job_list */
	while ((job_ptr = list_next(it)))
		if (wants_split(job_ptr))
			list_append(todo, job_ptr);
	list_iterator_destroy(it);
	while ((job_ptr = list_pop(todo))) {
		uint32_t array_id = job_ptr->job_id;
		while (split_one(array_id))
			split++;
	}
	FREE_NULL_LIST(todo);
	return split;
}
