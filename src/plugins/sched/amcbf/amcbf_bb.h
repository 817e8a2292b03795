/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_bb.h - burst buffers (BurstBufferType) under sched/amcbf.  A job
 * with a burst buffer starts only once its stage-in is done: select_nodes()
 * refuses it before (bb_g_job_test_stage_in, reason BurstBufferStageIn),
 * and a stage-in is begun by the main scheduler's first try to start the
 * job (select_nodes() tests the stage-in with test_only false), or by
 * bb_g_job_try_stage_in() for jobs with an expected start time (set by
 * sched/backfill's plan).  sched/amcbf calls bb_g_load_state() and
 * bb_g_job_try_stage_in() once per cycle, and begins the stage-in of each
 * job that passes every other check of its read phase; a job staging in
 * is not given to the engine, and cycles come every second until its
 * stage-in is done (the burst-buffer plugin does not touch the job
 * records then, so nothing else would wake the plugin).
 */
#ifndef DFRS_AMCBF_BB_H
#define DFRS_AMCBF_BB_H

#include <stdbool.h>
#include <time.h>

/* With slurmctld's job and node write locks held; nothing without a
 * BurstBufferType. */
void amcbf_bb_cycle(void);

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Is the job's stage-in done (or has it no burst buffer)?  If not, it is
 * begun when there is room, and the job is not given to the engine:
 * nothing is preempted for it while it stages in. */
bool amcbf_bb_ready(job_record_t *job_ptr);
#endif

/* After the read: a stage-in was under way, so wake in a second. */
void amcbf_bb_wake(time_t *next_wake, time_t now);

#endif
