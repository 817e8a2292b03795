/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_power.h - power saving (SuspendProgram/ResumeProgram) under
 * sched/amcbf.  Slurm 22.05 keeps a powered-down idle node available
 * (avail_node_bitmap) and marks it in power_node_bitmap; select_nodes()
 * on it makes the job CONFIGURING and has power_save.c run ResumeProgram,
 * launching the job once the node registers.  So the engine may choose
 * powered-down nodes, and starting there is Slurm's own resume path; like
 * select_nodes(), which weighs them last, it prefers powered-up ones.
 */
#ifndef DFRS_AMCBF_POWER_H
#define DFRS_AMCBF_POWER_H

#ifdef DFRS_AMCBF_SLURM_TYPES
/*
 * A node preference (the engine's rank: lower first) that puts
 * powered-down or powering-down nodes after the others, each group in the
 * order of `rank` (NULL: node index).  Returns rank itself (unchanged,
 * possibly NULL) when no node is powered down, else a new array (rank is
 * freed).
 */
int *amcbf_power_rank(int *rank);
#endif

#endif
