/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_aftercorr.h - job arrays that depend on another array task by task
 * (sbatch --dependency=aftercorr) under sched/amcbf.  Call with slurmctld's
 * job write lock (and the node and partition locks) held.
 */
#ifndef DFRS_AMCBF_AFTERCORR_H
#define DFRS_AMCBF_AFTERCORR_H

/* Split tasks off pending aftercorr arrays, up to Slurm's default of 10
 * pending tasks per array, so each task's dependency is on its own
 * counterpart; the count split off. */
int amcbf_split_aftercorr(void);

#endif
