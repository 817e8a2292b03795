/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * array_split.c - tasks to split off a job array's pending record
 * (array_split.h).
 */
#include "array_split.h"

static uint32_t less(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* a - b, or 0 */
static uint32_t minus(uint32_t a, uint32_t b)
{
	return a > b ? a - b : 0;
}

uint32_t array_split_count(const array_split_in_t *in)
{
	/* the tasks that may be pending at once, the record's next one
	 * included: as many as the machine runs at once */
	uint32_t room = in->cluster_cpus / (in->task_cpus ? in->task_cpus : 1);
	uint32_t n;

	if (in->tasks_left <= 1)	/* the record is its last task */
		return 0;
	if (in->throttle)
		room = less(room, minus(in->throttle, in->running));
	/* the record starts one task itself */
	n = minus(room, in->pending_split + 1);
	n = less(n, in->tasks_left - 1);
	return less(n, in->budget);
}
