/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_easy_backfill.c - EASY backfilling (Lifka's ANL/IBM SP scheduler,
 * the baseline of Liu et al. 2013 section 5): jobs start
 * in arrival order; when the head job does not fit it gets a reservation at
 * the "shadow time" (the earliest time enough running jobs will have ended,
 * by their estimates), and a later job may start now if it fits on the idle
 * nodes and either ends by the shadow time or uses only the "extra" nodes
 * the head job will not need then.  Only the head job holds a reservation.
 *
 * Estimates come from sched_job_t.estimate (the driver passes the trace's
 * requested time, or the exact runtime when there is none).  A running job
 * past its estimate is expected to end now; a job without an estimate (< 0)
 * is expected never to end.
 *
 * A job restricted to some nodes (sched_job_t.allowed) starts only where it
 * may run; the head job's reservation still counts nodes, not which ones.
 */
#include <math.h>
#include <stdlib.h>

#include "sched_engine.h"

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

/* The head job's reservation: shadow time and extra nodes. */
static int reserve(const sched_state_t *st, int idle, int need,
		   double *shadow, int *extra)
{
	expected_end_t *ends = malloc((st->njobs ? st->njobs : 1) *
				      sizeof(*ends));
	if (!ends)
		return -1;
	size_t count = 0;
	for (size_t j = 0; j < st->njobs; j++)
		if (st->jobs[j].where == SCHED_RUNNING_FG)
			ends[count++] = (expected_end_t){
				expected_end(st, &st->jobs[j]),
				st->jobs[j].nodes };
	qsort(ends, count, sizeof(*ends), by_end);
	*shadow = INFINITY;
	*extra = 0;
	int avail = idle;
	for (size_t i = 0; i < count; i++) {
		avail += ends[i].nodes;
		if (avail >= need) {
			/* every job ending at the shadow time frees its
			 * nodes then: they all count for the extra nodes */
			while (i + 1 < count && ends[i + 1].end == ends[i].end)
				avail += ends[++i].nodes;
			*shadow = ends[i].end;
			*extra = avail - need;
			break;
		}
	}
	free(ends);
	return 0;
}

int sched_easy_backfill(sched_state_t *st, const sched_config_t *cfg,
			unsigned events, sched_decisions_t *out)
{
	int idle = sched_fg_idle_count(st);
	int *nodes = malloc((size_t)(st->nnodes > 0 ? st->nnodes : 1) *
			    sizeof(int));
	if (!nodes)
		return -1;
	int rc = 0;
	size_t j = 0;

	/* the head of the queue starts while it fits */
	for (; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED)
			continue;
		if (job->nodes > (job->allowed ? sched_fg_idle_for(st, j) : idle))
			break;
		sched_pick_idle_fg(st, j, nodes);
		if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
			goto fail;
		idle -= job->nodes;
	}
	if (j >= st->njobs)
		goto done;

	double shadow;
	int extra;
	if (reserve(st, idle, st->jobs[j].nodes, &shadow, &extra))
		goto fail;
	for (j++; j < st->njobs && idle > 0; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED || job->nodes > idle ||
		    (job->allowed && job->nodes > sched_fg_idle_for(st, j)))
			continue;
		int before_shadow = job->estimate >= 0 &&
				    st->now + job->estimate <= shadow;
		if (!before_shadow && job->nodes > extra)
			continue;
		sched_pick_idle_fg(st, j, nodes);
		if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
			goto fail;
		idle -= job->nodes;
		if (!before_shadow)
			extra -= job->nodes;
	}
done:
	free(nodes);
	return rc;
fail:
	rc = -1;
	goto done;
}
