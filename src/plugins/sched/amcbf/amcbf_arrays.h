/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_arrays.h - job arrays under sched/amcbf: tasks split off an
 * array's pending record ahead of a cycle's read, so that the cycle
 * starts as many of them as fit, each read and started as a single job
 * (the record itself starts one task per start).  How many is
 * amcbf/array_split.h's.  Call with slurmctld's job write lock (and the
 * node and partition locks) held.
 */
#ifndef DFRS_AMCBF_ARRAYS_H
#define DFRS_AMCBF_ARRAYS_H

#include <stdbool.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Split the next task off the pending record job_ptr (it becomes the task,
 * under a new job id; the record keeps the array's id); why ends the
 * debug line.  false when nothing was split (the record's last task is
 * made the record itself). */
bool amcbf_array_split_next(job_record_t *job_ptr, const char *why);
#endif

/* Split tasks off the startable arrays' pending records (within
 * array_split_count's bounds); the count split off. */
int amcbf_split_arrays(void);

#endif
