/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_reservation.c - the head job's reservation of EASY backfilling:
 * shadow time and extra nodes (sched_reservation.h).  Estimates come from
 * sched_job_t.estimate: a running job past its estimate is expected to end
 * now, a job without one (< 0) never.  Nodes are counted, not named: a job
 * restricted to some nodes still reserves by count, as in Slurm's
 * documentation of EASY's plain form.
 */
#include <math.h>
#include <stdlib.h>

#include "sched_reservation.h"

typedef struct {
	double end;
	int nodes;
} expected_end_t;

static int by_end(const void *a, const void *b)
{
	double x = ((const expected_end_t *)a)->end;
	double y = ((const expected_end_t *)b)->end;
	return (x > y) - (x < y);
}

static double expected_end(const sched_state_t *st, const sched_job_t *job)
{
	if (job->estimate < 0)
		return INFINITY;
	double end = job->started + job->estimate;
	return end < st->now ? st->now : end;
}

int sched_holds_any_fg(const sched_state_t *st, size_t k, size_t head,
		       const void *ctx)
{
	(void)head;
	(void)ctx;
	return st->jobs[k].where == SCHED_RUNNING_FG;
}

int sched_reserve(const sched_state_t *st, size_t head, int avail,
		  sched_holds_fn holds, const void *ctx,
		  sched_reservation_t *r)
{
	expected_end_t *ends = malloc((st->njobs ? st->njobs : 1) *
				      sizeof(*ends));
	if (!ends)
		return -1;
	int need = st->jobs[head].nodes;
	size_t count = 0;
	for (size_t k = 0; k < st->njobs; k++)
		if (st->jobs[k].where == SCHED_RUNNING_FG &&
		    holds(st, k, head, ctx))
			ends[count++] = (expected_end_t){
				expected_end(st, &st->jobs[k]),
				st->jobs[k].nodes };
	qsort(ends, count, sizeof(*ends), by_end);
	r->active = 1;
	r->head = head;
	r->shadow = INFINITY;
	r->extra = 0;
	if (avail >= need) {	/* free now: nothing to wait for */
		r->shadow = st->now;
		r->extra = avail - need;
	}
	for (size_t i = 0; i < count && avail < need; i++) {
		avail += ends[i].nodes;
		if (avail >= need) {
			/* every job ending at the shadow time frees its
			 * nodes then: they all count for the extra nodes */
			while (i + 1 < count && ends[i + 1].end == ends[i].end)
				avail += ends[++i].nodes;
			r->shadow = ends[i].end;
			r->extra = avail - need;
		}
	}
	free(ends);
	return 0;
}

/* May jobs a and b use no node in common (only when one is restricted). */
static int apart(const sched_state_t *st, size_t a, size_t b)
{
	if (!st->jobs[a].allowed && !st->jobs[b].allowed)
		return 0;
	for (int n = 0; n < st->nnodes; n++)
		if (sched_may_use(st, a, n) && sched_may_use(st, b, n))
			return 0;
	return 1;
}

int sched_reservation_admits(const sched_state_t *st,
			     sched_reservation_t *r, size_t j)
{
	const sched_job_t *job = &st->jobs[j];
	if (!r->active)
		return 1;
	if (job->estimate >= 0 && st->now + job->estimate <= r->shadow)
		return 1;
	if (r->head < st->njobs && apart(st, r->head, j))
		return 1;
	if (job->nodes > r->extra)
		return 0;
	r->extra -= job->nodes;
	return 1;
}
