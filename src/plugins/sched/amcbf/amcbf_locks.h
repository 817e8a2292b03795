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

#include "amcbf/hold_budget.h"

#define AMCBF_YIELD_SLEEP_US 20000

/*
 * The phases that hold the locks.  Each hold is logged (debug) once the
 * locks are let go, with the agent thread's CPU time in it
 * (CLOCK_THREAD_CPUTIME_ID) beside its wall time, and its context switches
 * (getrusage RUSAGE_THREAD): involuntary ones mean it waited for a CPU,
 * voluntary ones that it slept (a mutex, I/O).  The longest hold of each
 * phase is kept for the statistics line, `dfrs status` and the metrics.
 */
typedef enum {
	AMCBF_PHASE_READ,	/* a cycle's read of the job records: one hold,
				   no yield (the view must be one moment's) */
	AMCBF_PHASE_APPLY,	/* a cycle's decisions applied (yields) */
	AMCBF_PHASE_AVAIL,	/* the availability policy's observation and
				   its suspensions (yields) */
	AMCBF_PHASE_OTHER,	/* bookkeeping: sdiag's counters, the state
				   file's hosts, the measured needs */
	AMCBF_PHASES
} amcbf_phase_t;

/* One hold as measured. */
typedef struct {
	double ms;		/* wall time */
	double cpu_ms;		/* the agent thread's CPU time in it */
	long preempted;		/* involuntary context switches */
	long slept;		/* voluntary ones */
	unsigned long steps;	/* amcbf_hold_yield calls in it */
	double step_ms;		/* the estimate of the next step when let
				   go: the longest time between two of them
				   among the last HOLD_BUDGET_RECENT (in this
				   hold or the ones of the same work before
				   it, which yielded) */
	size_t njobs;		/* job records read (AMCBF_PHASE_READ) */
} amcbf_hold_stat_t;

/* "read", "apply", "availability", "bookkeeping". */
const char *amcbf_phase_name(amcbf_phase_t phase);

/* The longest hold of a phase since the plugin started (zeroed: none). */
const amcbf_hold_stat_t *amcbf_hold_longest_of(amcbf_phase_t phase);

#ifdef DFRS_AMCBF_SLURM_TYPES
typedef struct {
	slurmctld_lock_t locks;
	amcbf_phase_t phase;
	int yield_ms;		/* amcbf_yield_interval; 0: never yield */
	size_t njobs;		/* the read's job records, set before unlock */
	struct timeval taken;
	hold_budget_t budget;	/* yield_ms; the steps: amcbf_hold_yield
				   calls since taken, the last times between
				   two of them (kept across yields) */
	time_t part_update, conf_update;	/* when taken first */
	double cpu_taken_ms;	/* the agent thread's CPU time when taken */
	long nivcsw_taken, nvcsw_taken;	/* its context switches then */
	amcbf_hold_stat_t last;	/* the last hold (set by amcbf_hold_unlock) */
} amcbf_hold_t;

void amcbf_hold_lock(amcbf_hold_t *h);
/* Returns how long this hold lasted, ms (h->last has the rest). */
double amcbf_hold_unlock(amcbf_hold_t *h);
/*
 * Called between two steps of work (e.g. before each job's action): if
 * one more step as long as the longest of the last HOLD_BUDGET_RECENT
 * would keep the locks past yield_ms of wall time (hold_budget.h), release
 * them for a moment and take them again, so that a hold lasts at most
 * yield_ms unless a step takes longer than those before it (e.g. the
 * thread waited for a CPU in it).  Returns false when the partitions or the configuration changed
 * meanwhile, or slurmctld is shutting down: the caller stops (a later
 * cycle decides afresh).
 */
bool amcbf_hold_yield(amcbf_hold_t *h);
#endif

/* The longest hold of any phase, ms; and the number of yields. */
double amcbf_hold_longest_ms(void);
unsigned long amcbf_hold_yields(void);

#endif
