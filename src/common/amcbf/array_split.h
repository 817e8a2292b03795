/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * array_split.h - how many tasks sched/amcbf splits off a job array's
 * pending record at the start of a cycle, so that the cycle can start
 * several tasks of one array as it starts single jobs (the record itself
 * starts one task per start).  Bounded by what the machine could run at
 * once, by the array's % throttle and by a budget per cycle (the splits
 * are made with slurmctld's locks held).  Plain C, no Slurm headers.
 */
#ifndef DFRS_ARRAY_SPLIT_H
#define DFRS_ARRAY_SPLIT_H

#include <stdint.h>

/* Splits in one cycle, over all arrays, at most. */
#define ARRAY_SPLIT_PER_CYCLE 256

typedef struct {
	uint32_t tasks_left;	/* tasks still in the pending record */
	uint32_t pending_split;	/* tasks split off earlier, still pending */
	uint32_t throttle;	/* %N: tasks running at once; 0: none */
	uint32_t running;	/* tasks running now */
	uint32_t task_cpus;	/* CPUs a task asks for at least */
	uint32_t cluster_cpus;	/* CPUs of the whole machine */
	uint32_t budget;	/* splits left in this cycle */
} array_split_in_t;

/* How many tasks to split off now: 0 when the record alone is enough
 * (its last task, or no room for more than it starts itself). */
uint32_t array_split_count(const array_split_in_t *in);

#endif
