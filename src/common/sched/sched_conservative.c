/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_conservative.c - conservative backfilling (Mu'alem and Feitelson):
 * every queued job, in arrival order, gets a reservation at the earliest
 * time enough nodes are free for its whole estimate, given the running
 * jobs' estimated ends and the reservations of the jobs before it; a job
 * whose reservation is now starts now.  Unlike EASY (one reservation, for
 * the head job) no job can delay any job queued before it.  This is how
 * Slurm's sched/backfill plans (a reservation for each pending job it
 * tests, in priority order), the baseline of the live comparison.
 *
 * Estimates as in EASY (sched_easy_backfill.c): a running job past its
 * estimate is expected to end now, a job without one (< 0) never.  Nodes
 * are counted, not named; a job restricted to some nodes (allowed) starts
 * only when enough of those are idle.  On hosts of many CPUs (sched_host.h)
 * the nodes are slots, counted the same way; a job starts where sched_fit
 * places it now, its memory and GPUs on its hosts included (the
 * reservations count slots only).
 */
#include <math.h>
#include <stdlib.h>

#include "sched_engine.h"

/* Free nodes over time: free[i] from t[i] to t[i + 1] (the last: on). */
typedef struct {
	double *t;
	int *free;
	size_t n, cap;
} profile_t;

/* The index of the step starting at time (a new one if needed). */
static size_t split(profile_t *p, double time)
{
	size_t i = 0;

	while (i + 1 < p->n && p->t[i + 1] <= time)
		i++;
	if (p->t[i] == time)
		return i;
	for (size_t k = p->n; k > i + 1; k--) {
		p->t[k] = p->t[k - 1];
		p->free[k] = p->free[k - 1];
	}
	p->t[i + 1] = time;
	p->free[i + 1] = p->free[i];
	p->n++;
	return i + 1;
}

/* Take nodes from start to end (INFINITY: for good). */
static void take(profile_t *p, double start, double end, int nodes)
{
	size_t i = split(p, start);
	size_t stop = isinf(end) ? p->n : split(p, end);

	for (; i < stop; i++)
		p->free[i] -= nodes;
}

/* The earliest step start from which nodes stay free for len seconds. */
static double earliest(const profile_t *p, int nodes, double len)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t k = i;

		while (k < p->n && p->free[k] >= nodes &&
		       (k == i || p->t[k] < p->t[i] + len))
			k++;
		if (k > i && (k == p->n || p->t[k] >= p->t[i] + len))
			return p->t[i];
	}
	return INFINITY;
}

static double duration(const sched_job_t *job)
{
	return job->estimate < 0 ? INFINITY : job->estimate;
}

/* Idle nodes now, then each running job's nodes back at its expected end. */
static int build(const sched_state_t *st, int idle, profile_t *p)
{
	p->cap = 2 * st->njobs + 2;
	p->t = malloc(p->cap * sizeof(*p->t));
	p->free = malloc(p->cap * sizeof(*p->free));
	if (!p->t || !p->free)
		return -1;
	p->t[0] = st->now;
	p->free[0] = idle;
	p->n = 1;
	for (size_t j = 0; j < st->njobs; j++) {
		const sched_job_t *job = &st->jobs[j];
		double end;

		if (job->where != SCHED_RUNNING_FG)
			continue;
		end = job->started + duration(job);
		if (end < st->now)
			end = st->now;
		if (isinf(end))
			continue;
		for (size_t i = split(p, end); i < p->n; i++)
			p->free[i] += job->nodes;
	}
	return 0;
}

int sched_conservative_backfill(sched_state_t *st, const sched_config_t *cfg,
				unsigned events, sched_decisions_t *out)
{
	int idle = sched_fg_idle_count(st);
	int *nodes = malloc((size_t)(st->nnodes > 0 ? st->nnodes : 1) *
			    sizeof(int));
	profile_t p = { 0 };
	int rc = -1;

	(void)cfg;
	(void)events;
	if (!nodes || build(st, idle, &p))
		goto out;
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		double len = duration(job), at;

		if (job->where != SCHED_QUEUED)
			continue;
		at = earliest(&p, job->nodes, len);
		if (at == st->now) {
			/* enough nodes, but not those it may use: no
			 * reservation (counted nodes cannot say when) */
			if (job->nodes > idle || (job->allowed &&
			    job->nodes > sched_fg_idle_for(st, j)))
				continue;
			/* on hosts: enough slots, but not where its memory
			 * and GPUs fit: no reservation either */
			int fit = sched_fit(st, NULL, j, SCHED_TIER_FG, NULL,
					    nodes);
			if (fit < 0)
				goto out;
			if (!fit)
				continue;
			if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
				goto out;
			idle -= job->nodes;
		}
		if (!isinf(at))
			take(&p, at, at + len, job->nodes);
	}
	rc = 0;
out:
	free(nodes);
	free(p.t);
	free(p.free);
	return rc;
}
