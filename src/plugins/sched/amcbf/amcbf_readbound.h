/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_readbound.h - the time bound on sched/amcbf's read phase.
 *
 * The read phase holds slurmctld's write locks without yielding (its view
 * must be one moment's).  Running and suspended jobs are always read (the
 * engine must know every node's occupants); the pending ones, whose checks
 * cost most (dependencies, limits, licenses, node filters), are deferred
 * here and read in job-id order from where the last read stopped
 * (amcbf/read_window.h) while one more read, as long in wall time as the
 * longest of the last ones, ends within amcbf_max_read_time ms of when the hold
 * began (amcbf/hold_budget.h); at least one is read each cycle.  The ones not read are not
 * given to the engine this cycle and come first in the next, which is due
 * one second later.
 */
#ifndef DFRS_AMCBF_READBOUND_H
#define DFRS_AMCBF_READBOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/time.h>
#include <time.h>

#include "amcbf/hold_budget.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
typedef struct {
	struct timeval t0;	/* the read's hold began */
	int max_ms;		/* amcbf_max_read_time; 0: no bound */
	hold_budget_t budget;	/* max_ms, over the pending jobs' reads */
	job_record_t **jobs;	/* pending jobs deferred, then by id */
	size_t n, cap;
	size_t start, done;	/* where reading began, how many read */
	bool sorted;
} amcbf_read_t;

/* At the start of the read, in a hold of the locks taken at t0. */
void amcbf_read_begin(amcbf_read_t *r, int max_ms, const struct timeval *t0);
/* A pending job to read later in this hold. */
void amcbf_read_defer(amcbf_read_t *r, job_record_t *job_ptr);
/* The next pending job to read, or NULL when all are read or one more
 * read as long as the longest of the last ones would end past max_ms
 * since t0 (hold_budget.h). */
job_record_t *amcbf_read_next(amcbf_read_t *r);
/* Done: remembers where to start next time; when some were left, says so
 * (debug) and sets *next_wake to one second from now at the latest.
 * Returns the number left. */
size_t amcbf_read_end(amcbf_read_t *r, time_t *next_wake, time_t now);
#endif

/* One line in the log: the reads that stopped at the bound since load,
 * the pending jobs they left for the next cycle in all, and the singleton
 * tests the index answered (amcbf_deps_spared). */
void amcbf_read_log_stats(unsigned long spared);
/* The reads stopped at the bound since load, and the pending jobs they
 * left in all. */
void amcbf_read_counts(unsigned long *cuts, unsigned long *left);

#endif
