/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_unsupported.h - pending jobs sched/amcbf never starts say so where
 * their user looks: heterogeneous jobs (sbatch with ":" or hetjob
 * components) get a reason description that squeue shows in its REASON
 * column, kept each cycle (slurmctld clears it when it sets a reason of
 * its own), besides the error line the plugin logs once per job.
 */
#ifndef DFRS_AMCBF_UNSUPPORTED_H
#define DFRS_AMCBF_UNSUPPORTED_H

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Called for each pending job at each read (job lock held). */
void amcbf_unsupported_show(job_record_t *job_ptr, time_t now);
#endif

#endif
