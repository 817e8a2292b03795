/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_deadline.c - --deadline as Slurm's main scheduler applies it
 * (amcbf_deadline.h: deadline_ok, the limit cut at start).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "src/common/list.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_deadline.h"
#include "amcbf_start.h"

static bool has_deadline(job_record_t *job_ptr)
{
	return job_ptr->deadline && job_ptr->deadline != NO_VAL;
}

int amcbf_end_past_deadlines(void)
{
	char func[] = "sched/amcbf";	/* 22.05 takes a char *, 24.11 const */
	ListIterator it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	int ended = 0;

	while ((job_ptr = list_next(it)))
		if (IS_JOB_PENDING(job_ptr) && !IS_JOB_COMPLETING(job_ptr) &&
		    job_ptr->details && has_deadline(job_ptr) &&
		    amcbf_startable(job_ptr) && !deadline_ok(job_ptr, func))
			ended++;
	list_iterator_destroy(it);
	return ended;
}

/* As Slurm's main scheduler sets it: the minutes to the deadline, or less
 * (its own limit, else its partition's default or maximum). */
uint32_t amcbf_deadline_limit(job_record_t *job_ptr, time_t now)
{
	part_record_t *part_ptr = job_ptr->part_ptr;
	uint32_t limit;

	if (!has_deadline(job_ptr) || job_ptr->deadline <= now)
		return 0;
	limit = (uint32_t)((job_ptr->deadline - now) / 60);
	if (job_ptr->time_limit != NO_VAL && job_ptr->time_limit != INFINITE)
		return MIN(job_ptr->time_limit, limit);
	if (part_ptr && part_ptr->default_time != NO_VAL &&
	    part_ptr->default_time != INFINITE)
		return MIN(part_ptr->default_time, limit);
	if (part_ptr && part_ptr->max_time != NO_VAL &&
	    part_ptr->max_time != INFINITE)
		return MIN(part_ptr->max_time, limit);
	return limit;
}
