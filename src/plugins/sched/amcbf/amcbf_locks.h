/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_locks.h - slurmctld's locks as sched/amcbf takes them.  Every hold
 * is timed (the longest is in the statistics line), and a long stretch of
 * work under them gives them up now and then, as sched/backfill does with
 * bf_yield_interval: after amcbf_yield_interval ms it releases them for
 * AMCBF_YIELD_SLEEP_US so that RPCs waiting for them run, then takes them
 * again.  Whoever yields must look its jobs up again (find_job_record):
 * any of them may have changed or gone meanwhile.
 */
#ifndef DFRS_AMCBF_LOCKS_H
#define DFRS_AMCBF_LOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/time.h>
#include <time.h>

#define AMCBF_YIELD_SLEEP_US 20000

#ifdef DFRS_AMCBF_SLURM_TYPES
typedef struct {
	slurmctld_lock_t locks;
	int yield_ms;		/* amcbf_yield_interval; 0: never yield */
	struct timeval taken;
	struct timeval asked;	/* the last amcbf_hold_yield call, or taken */
	double step_us;		/* the longest time between two of them */
	time_t part_update, conf_update;	/* when taken first */
	double cpu_taken_ms;	/* the agent thread's CPU time when taken */
	double cpu_ms;		/* its CPU time in the last hold, ms (set by
				   amcbf_hold_unlock) */
} amcbf_hold_t;

void amcbf_hold_lock(amcbf_hold_t *h);
/* Returns how long this hold lasted, ms. */
double amcbf_hold_unlock(amcbf_hold_t *h);
/*
 * Called between two steps of work (e.g. before each job's action): if
 * one more step as long as the longest so far would keep the locks past
 * yield_ms, release them for a moment and take them again, so that a hold
 * lasts at most yield_ms unless a step takes longer than every one before
 * it.  Returns false when the partitions or the configuration changed
 * meanwhile, or slurmctld is shutting down: the caller stops (a later
 * cycle decides afresh).
 */
bool amcbf_hold_yield(amcbf_hold_t *h);
#endif

/* The longest hold since the plugin started, ms; and the number of
 * yields. */
double amcbf_hold_longest_ms(void);
unsigned long amcbf_hold_yields(void);

/*
 * The read of slurmctld's records at the start of a cycle: one hold that
 * does not yield (the view must be one moment's), so it grows with the
 * queue.  A cycle notes how long it held the locks to read slurmctld's
 * njobs job records (and the agent thread's CPU time in it, cpu_ms); the
 * longest such hold and its njobs are in the statistics line.
 */
void amcbf_hold_note_read(double ms, double cpu_ms, size_t njobs);
double amcbf_hold_longest_read_ms(size_t *njobs);
/* Of that longest read's hold, the time the agent thread ran (its CPU
 * time, CLOCK_THREAD_CPUTIME_ID), ms: the rest it waited for a CPU. */
double amcbf_hold_longest_read_cpu_ms(void);

#endif
