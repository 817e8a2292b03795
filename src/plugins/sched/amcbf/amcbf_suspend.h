/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_suspend.h - the jobs sched/amcbf suspends (the availability
 * policy's "wait") carry a mark in their AdminComment while suspended, so
 * that they are never left suspended for ever: a lost or corrupt
 * dfrs-availability.json, a passive plugin, or a controller running
 * another scheduler (`squeue -t S -O JobID,admin_comment` lists them)
 * still finds them.  Call with slurmctld's job and node write locks and
 * the fed read lock held.
 */
#ifndef DFRS_AMCBF_SUSPEND_H
#define DFRS_AMCBF_SUSPEND_H

#include <stdbool.h>

/* The mark: one word of the AdminComment (no "dfrs:", which the node
 * agents read there as a CPU weight). */
#define AMCBF_SUSPEND_MARK "sched/amcbf:suspended"

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Suspend in place (the job keeps its nodes) and mark: 0 or Slurm's error. */
int amcbf_suspend_job(job_record_t *job_ptr);
/* Resume and unmark: 0 or Slurm's error (the mark stays then). */
int amcbf_resume_job(job_record_t *job_ptr);
/* Did sched/amcbf suspend this job (is it marked)? */
bool amcbf_suspend_marked(job_record_t *job_ptr);
/* Mark a job suspended before marks were kept (listed in the state file). */
void amcbf_suspend_mark(job_record_t *job_ptr);
/* Drop the mark (the job was resumed by hand, requeued or ended). */
void amcbf_suspend_unmark(job_record_t *job_ptr);
#endif

/* Resume every suspended job with the mark, and unmark the others; one
 * info line per job, ending with why.  Takes slurmctld's locks itself.
 * Returns the number resumed. */
int amcbf_resume_marked(const char *why);

#endif
