/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_bb.h - burst buffers (BurstBufferType) under sched/amcbf.  A job
 * with a burst buffer starts only once its stage-in is done: select_nodes()
 * refuses it before (bb_g_job_test_stage_in, reason BurstBufferStageIn),
 * and the stage-ins are begun by Slurm's schedulers calling
 * bb_g_job_try_stage_in() after each pass (sched/backfill after each of
 * its cycles, with bb_g_load_state() before).  sched/amcbf calls both once
 * per cycle, in its read phase.
 */
#ifndef DFRS_AMCBF_BB_H
#define DFRS_AMCBF_BB_H

#include <stdbool.h>

/* With slurmctld's job and node write locks held; nothing without a
 * BurstBufferType. */
void amcbf_bb_cycle(void);

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Is the job's stage-in done (or has it no burst buffer)?  Otherwise it
 * is not given to the engine: nothing is preempted for it while it
 * stages in (sched/backfill's test before it plans a job). */
bool amcbf_bb_ready(job_record_t *job_ptr);
#endif

#endif
