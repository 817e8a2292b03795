/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_parts.h - jobs submitted to several partitions (sbatch -p a,b).
 *
 * Slurm's main scheduler and sched/backfill try such a job in each of its
 * partitions (job_ptr->part_ptr_list), setting job_ptr->part_ptr to the one
 * tried before select_nodes(), and it starts in the first where it fits.
 * sched/amcbf does the same in two steps: the read phase gives the engine
 * the nodes of every partition whose checks (amcbf_policy_ok) the job
 * passes, and the start sets job_ptr->part_ptr to the first of those that
 * holds all the nodes the engine chose.  A job with one partition is
 * checked and started in that one.
 */
#ifndef DFRS_AMCBF_PARTS_H
#define DFRS_AMCBF_PARTS_H

#include <stdbool.h>
#include <time.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/*
 * amcbf_policy_ok() in each of the job's partitions, in their order:
 * true at the first it passes, job_ptr->part_ptr then being that one.
 * When it passes in none, part_ptr is its first partition again and the
 * pending reason the last check's (as Slurm's scheduler leaves them).
 */
bool amcbf_parts_ok(job_record_t *job_ptr, time_t now);

/* Add to avail the nodes of every partition of the job in which it passes
 * amcbf_policy_ok() (one partition: that one's nodes). */
void amcbf_parts_nodes(job_record_t *job_ptr, bitstr_t *avail, time_t now);

/*
 * Before select_nodes() on these n nodes: set job_ptr->part_ptr to the
 * first partition of the job that holds them all and that the job passes;
 * returns the part_ptr it had (to restore after a failed start), or NULL
 * when the job has one partition (nothing changed).
 */
part_record_t *amcbf_parts_for_nodes(job_record_t *job_ptr, const int *nodes,
				     int n, time_t now);

/* After a start: the partition it started in first in job_ptr->partition
 * (rebuild_job_part_list, as Slurm's main scheduler does), so squeue
 * shows it and a slurmctld restart keeps it. */
void amcbf_parts_started(job_record_t *job_ptr);
#endif

#endif
