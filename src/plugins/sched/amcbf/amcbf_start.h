/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_start.h - starting slurmctld's jobs: which pending job sched/amcbf
 * may start now, a start on exactly the nodes a decider chose (as
 * sched/backfill's _start_job does), and the jobs of partitions it does not
 * manage, started in submit order where Slurm fits them.  Call with
 * slurmctld's job and node write locks and the partition read lock held.
 */
#ifndef DFRS_AMCBF_START_H
#define DFRS_AMCBF_START_H

#include <stdbool.h>

#include "amcbf_memory.h"
#include "suite/dfrs_params.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Is this pending job one Slurm lets start now, and ours to consider? */
bool amcbf_startable(job_record_t *job_ptr);
/* Start pending jobs of partitions outside amcbf_partitions; the count. */
int amcbf_start_unmanaged(const dfrs_params_t *params, amcbf_memory_t *mem);
/* Start a job on exactly these nodes: SLURM_SUCCESS or Slurm's error.  A
 * job with a --deadline starts with its time limit cut to it; a job
 * array's record starts its next task (split off under a new id). */
int amcbf_start_on(job_record_t *job_ptr, const int *nodes, int n);
#endif

#endif
