/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_readbound.c - the read phase's time bound (amcbf_readbound.h):
 * the pending jobs are read in a rotating job-id order, so a queue too
 * long for one read is read whole over the next cycles, none starved.
 */
#include "src/common/slurm_xlator.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_readbound.h"
#include "amcbf/read_window.h"

static uint32_t cursor;		/* the first job id not read last time */
static unsigned long cuts, cut_left;

void amcbf_read_begin(amcbf_read_t *r, int max_ms, const struct timeval *t0)
{
	memset(r, 0, sizeof(*r));
	r->t0 = *t0;
	r->max_ms = max_ms;
}

void amcbf_read_defer(amcbf_read_t *r, job_record_t *job_ptr)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		xrecalloc(r->jobs, r->cap, sizeof(*r->jobs));
	}
	r->jobs[r->n++] = job_ptr;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = (*(job_record_t *const *)a)->job_id;
	uint32_t y = (*(job_record_t *const *)b)->job_id;

	return (x > y) - (x < y);
}

static double ms_since(const struct timeval *t0)
{
	struct timeval t1;

	gettimeofday(&t1, NULL);
	return (t1.tv_sec - t0->tv_sec) * 1e3 +
	       (t1.tv_usec - t0->tv_usec) / 1e3;
}

/* The window's start, over the deferred jobs' ids. */
static void place_start(amcbf_read_t *r)
{
	uint32_t *ids = xcalloc(r->n ? r->n : 1, sizeof(*ids));

	qsort(r->jobs, r->n, sizeof(*r->jobs), by_id);
	for (size_t i = 0; i < r->n; i++)
		ids[i] = r->jobs[i]->job_id;
	r->start = read_window_start(ids, r->n, cursor);
	xfree(ids);
	r->sorted = true;
}

job_record_t *amcbf_read_next(amcbf_read_t *r)
{
	if (!r->sorted)
		place_start(r);
	if (r->done >= r->n)
		return NULL;
	/* the steps: each pending job's read, from the first one on */
	if (!r->done)
		hold_budget_begin(&r->budget, r->max_ms, ms_since(&r->t0));
	else if (!hold_budget_step(&r->budget, ms_since(&r->t0)))
		return NULL;
	return r->jobs[(r->start + r->done++) % r->n];
}

size_t amcbf_read_end(amcbf_read_t *r, time_t *next_wake, time_t now)
{
	size_t left = r->n - r->done;
	uint32_t *ids = NULL;

	if (!r->sorted)
		place_start(r);
	if (left) {
		ids = xcalloc(r->n, sizeof(*ids));
		for (size_t i = 0; i < r->n; i++)
			ids[i] = r->jobs[i]->job_id;
	}
	cursor = read_window_next(ids, r->n, r->start, r->done);
	xfree(ids);
	if (left) {
		debug("read phase: %zu of %zu pending jobs read in %.1f ms (amcbf_max_read_time=%d), the other %zu first in the next cycle, from JobId=%u",
		      r->done, r->n, ms_since(&r->t0), r->max_ms, left, cursor);
		cuts++;
		cut_left += left;
		if (!*next_wake || *next_wake > now + 1)
			*next_wake = now + 1;
	}
	xfree(r->jobs);
	r->n = r->cap = 0;
	return left;
}

void amcbf_read_log_stats(unsigned long spared)
{
	info("read phase: %lu reads stopped at amcbf_max_read_time, leaving %lu pending jobs to the next cycle in all; %lu singleton dependency tests answered from the per-read index",
	     cuts, cut_left, spared);
}

void amcbf_read_counts(unsigned long *c, unsigned long *left)
{
	*c = cuts;
	*left = cut_left;
}
