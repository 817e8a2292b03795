/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_reserve.c - greedypmr's reservation for the oldest waiting wide
 * job: EASY's shadow time and its rule that no start delays it (Lifka
 * 1995; the baseline of Liu et al. 2013 section 5) over online DFRS's
 * fractional hosts (Stillwell et al. 2010).  See online_reserve.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "online_reserve.h"

typedef struct {
	double end;
	int j;
} end_t;

static int by_end(const void *a, const void *b)
{
	const end_t *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->j - y->j;
}

/* The least rate at which job j progresses while it runs: its minimum
 * yield (the allocation never gives less), 1 if it has none. */
static double least_rate(const online_state_t *w, int j)
{
	double y = online_min_yield(w, j);

	return y > 0.0 ? y : 1.0;
}

/* The latest job j, running or about to, ends by its estimate at its
 * least rate; INFINITY without an estimate. */
static double latest_end(const online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];
	double now = w->cl->now, left, blocked;

	if (job->estimate <= 0.0)
		return INFINITY;
	left = job->estimate - job->virtual_time;
	blocked = job->blocked_until > now ? job->blocked_until - now : 0.0;
	return now + blocked + (left > 0.0 ? left / least_rate(w, j) : 0.0);
}

/* How many tasks of usage u (elementary ue) host h has room for, at most
 * k: only says when to try the real placement. */
static int copies_on(const online_state_t *w, const double *u,
		     const double *ue, int h, int k)
{
	const dfrs_host_t *host = &w->cl->hosts[h];
	double copies = k;

	for (int d = 0; d < w->nd && copies > 0; d++) {
		double left = dfrs_fit_limit(host->cap[d]) -
			      w->usage[(size_t)h * w->nd + d];

		if (ue[d] > dfrs_fit_limit(host->elem[d]))
			copies = 0;
		else if (u[d] > 0.0 && left / u[d] + 1e-9 < copies)
			copies = left > 0.0 ? floor(left / u[d] + 1e-9) : 0;
	}
	return (int)copies;
}

/*
 * Take the running jobs off the hosts, the soonest to end first, until
 * job r can be placed (least loaded first, as it would start): the end of
 * the last one taken off, now if r fits already, -1 if it never fits.
 * usage and load are changed (online_reserve_shadow restores them).
 */
static double shadow_of(online_state_t *w, int r, end_t *ends, int *copies,
			int *at)
{
	const dfrs_job_t *shape = online_shape(w, r);
	double u[DFRS_MAX_DIMS], ue[DFRS_MAX_DIMS];
	int k = shape->ntasks, total = 0, n = 0;

	for (int d = 0; d < w->nd; d++) {
		u[d] = dfrs_task_usage(shape, d, online_min_yield(w, r));
		ue[d] = dfrs_task_elem_usage(shape, d, online_min_yield(w, r));
	}
	for (int h = 0; h < w->nh; h++)
		total += copies[h] = copies_on(w, u, ue, h, k);
	if (total >= k && online_place_least_loaded(w, r, at) == 0)
		return w->cl->now;
	for (int j = 0; j < w->nj; j++)
		if (w->state[j] == DFRS_JOB_RUNNING)
			ends[n++] = (end_t){ latest_end(w, j), j };
	qsort(ends, n, sizeof(*ends), by_end);
	for (int i = 0; i < n; i++) {
		int v = ends[i].j;

		online_account_job(w, v, -1);
		for (int t = 0; t < online_shape(w, v)->ntasks; t++) {
			int h = w->hosts[v][t];

			total -= copies[h];
			total += copies[h] = copies_on(w, u, ue, h, k);
		}
		if (i + 1 < n && ends[i + 1].end == ends[i].end)
			continue;	/* they end together */
		if (total >= k && online_place_least_loaded(w, r, at) == 0)
			return ends[i].end;
	}
	return -1.0;
}

double online_reserve_shadow(online_state_t *w, int r)
{
	size_t cells = (size_t)w->nh * w->nd;
	end_t *ends = malloc(sizeof(*ends) * (w->nj + 1));
	double *usage = malloc(sizeof(double) * (cells + 1));
	double *load = malloc(sizeof(double) * (w->nh + 1));
	int *copies = malloc(sizeof(int) * (w->nh + 1));
	int *at = malloc(sizeof(int) * (online_shape(w, r)->ntasks + 1));
	double shadow = -2.0;

	if (ends && usage && load && copies && at) {
		memcpy(usage, w->usage, sizeof(double) * cells);
		memcpy(load, w->load, sizeof(double) * w->nh);
		shadow = shadow_of(w, r, ends, copies, at);
		/* exactly as they were: sums taken off and put back could
		 * round differently */
		memcpy(w->usage, usage, sizeof(double) * cells);
		memcpy(w->load, load, sizeof(double) * w->nh);
		w->room_valid = 0;
	}
	free(ends);
	free(usage);
	free(load);
	free(copies);
	free(at);
	return shadow;
}

int online_reserve_compute(online_state_t *w, int r)
{
	double shadow = online_reserve_shadow(w, r);

	if (shadow < -1.0)
		return -1;
	if (shadow >= 0.0) {
		w->reserved = r;
		w->shadow = shadow;
	}
	return 0;
}

int online_reserve_blocks(const online_state_t *w, int j)
{
	return w->reserved >= 0 && j != w->reserved &&
	       latest_end(w, j) > w->shadow;
}

int online_reserve_delayed(online_state_t *w)
{
	double shadow;

	if (w->reserved < 0)
		return 0;
	shadow = online_reserve_shadow(w, w->reserved);
	/* out of memory (-2) or never (-1): as a delay, the start waits */
	return shadow < 0.0 || shadow > w->shadow * (1 + 1e-12) + 1e-9;
}
