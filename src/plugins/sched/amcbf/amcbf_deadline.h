/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_deadline.h - jobs submitted with --deadline, as Slurm's main
 * scheduler treats them: a start cuts the time limit to the deadline, and
 * a pending job that can no longer meet it ends.  Call with slurmctld's
 * job write lock held.
 */
#ifndef DFRS_AMCBF_DEADLINE_H
#define DFRS_AMCBF_DEADLINE_H

#include <stdint.h>
#include <time.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Pending jobs whose --deadline can no longer be met (with their
 * --time-min, else their time limit) end with reason DeadLine, as Slurm's
 * main scheduler ends them (deadline_ok); the count. */
int amcbf_end_past_deadlines(void);
/* The time limit (minutes) a job with a --deadline starts with at now;
 * 0: leave its limit alone (no deadline, or one already past). */
uint32_t amcbf_deadline_limit(job_record_t *job_ptr, time_t now);
#endif

#endif
