/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_reservation.c - the head job's reservation of EASY backfilling:
 * shadow time and extra nodes (sched_reservation.h).  Estimates come from
 * sched_job_t.estimate: a running job past its estimate is expected to end
 * now, a job without one (< 0) never.  Nodes are counted, not named: a job
 * restricted to some nodes still reserves by count, as in Slurm's
 * documentation of EASY's plain form.  With a host table (sched_host.h)
 * the head is placed instead: sched_fit on the state with running jobs
 * released in end order, as sched/backfill tests a pending job on the
 * resources free at each future time on cons_tres.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_reservation.h"

typedef struct {
	double end;
	int nodes;
	size_t job;
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

/* Job k leaves the scratch state sc (its places in `tier`). */
static void release_on(sched_state_t *sc, size_t k, sched_tier_t tier)
{
	const sched_job_t *job = &sc->jobs[k];
	for (int p = 0; p < job->nodes; p++) {
		sched_node_t *node = &sc->nodes[job->alloc[p]];
		if (tier == SCHED_TIER_FG)
			node->fg_job = -1;
		else
			node->bg_job = -1;
	}
	sched_hosts_account(sc, k, tier, -1);
}

void sched_reservation_free(sched_reservation_t *r)
{
	free(r->held_slot);
	free(r->held_mem);
	free(r->held_gpus);
	r->held_slot = NULL;
	r->held_mem = NULL;
	r->held_gpus = NULL;
	r->hold = (sched_hold_t){ 0 };
	r->active = 0;
}

/* The head's places at the shadow time (sched_reservation.h). */
static int reserve_places(const sched_state_t *st, size_t head,
			  sched_holds_fn holds, const void *ctx,
			  expected_end_t *ends, sched_reservation_t *r)
{
	sched_state_t sc = *st;
	size_t ns = (size_t)(st->nnodes > 0 ? st->nnodes : 1);
	size_t nh = (size_t)(st->nhosts > 0 ? st->nhosts : 1);
	int rc = -1, fit;
	size_t count = 0;
	sc.nodes = malloc(ns * sizeof(*sc.nodes));
	sc.hosts = malloc(nh * sizeof(*sc.hosts));
	int *slots = malloc((size_t)(st->jobs[head].nodes > 0 ?
				     st->jobs[head].nodes : 1) * sizeof(int));
	r->held_slot = calloc(ns, 1);
	r->held_mem = calloc(nh, sizeof(*r->held_mem));
	r->held_gpus = calloc(nh, sizeof(*r->held_gpus));
	if (!sc.nodes || !sc.hosts || !slots || !r->held_slot ||
	    !r->held_mem || !r->held_gpus)
		goto out;
	memcpy(sc.nodes, st->nodes, (size_t)st->nnodes * sizeof(*sc.nodes));
	memcpy(sc.hosts, st->hosts, (size_t)st->nhosts * sizeof(*sc.hosts));
	/* the head's own bg places are its own */
	if (st->jobs[head].where == SCHED_RUNNING_BG)
		release_on(&sc, head, SCHED_TIER_BG);
	for (size_t k = 0; k < st->njobs; k++) {
		if (st->jobs[k].where != SCHED_RUNNING_FG)
			continue;
		if (holds(st, k, head, ctx))
			ends[count++] = (expected_end_t){
				expected_end(st, &st->jobs[k]),
				st->jobs[k].nodes, k };
		else
			release_on(&sc, k, SCHED_TIER_FG);
	}
	qsort(ends, count, sizeof(*ends), by_end);
	r->shadow = st->now;
	fit = sched_fit(&sc, NULL, head, SCHED_TIER_FG, NULL, slots);
	for (size_t i = 0; fit == 0 && i < count; i++) {
		if (isinf(ends[i].end))
			break;
		release_on(&sc, ends[i].job, SCHED_TIER_FG);
		/* every job ending at the shadow time frees its places then */
		while (i + 1 < count && ends[i + 1].end == ends[i].end)
			release_on(&sc, ends[++i].job, SCHED_TIER_FG);
		r->shadow = ends[i].end;
		fit = sched_fit(&sc, NULL, head, SCHED_TIER_FG, NULL, slots);
	}
	if (fit < 0)
		goto out;
	if (fit == 0) {
		r->shadow = INFINITY;	/* never, by the estimates */
	} else {
		const sched_job_t *job = &st->jobs[head];
		for (int p = 0; p < job->nodes; p++)
			r->held_slot[slots[p]] = 1;
		/* memory and GPUs: what the head takes on a host beyond
		 * what the jobs ending by then free there, so that a later
		 * job may take what is free now and still leave it */
		for (int p = 0; p < job->nodes; p++) {
			int h = st->slot_host[slots[p]], n = 0, first = 1;
			for (int q = 0; q < job->nodes; q++) {
				if (st->slot_host[slots[q]] != h)
					continue;
				first = first && q >= p;
				n++;
			}
			if (!first)
				continue;
			const sched_host_t *now = &st->hosts[h];
			const sched_host_t *then = &sc.hosts[h];
			long mem = sched_job_mem_on(st, head, h, n) -
				   (now->mem_fg + now->mem_bg -
				    then->mem_fg - then->mem_bg);
			int gpus = sched_job_gpus_on(st, head, n) -
				   (now->gpus_fg + now->gpus_bg -
				    then->gpus_fg - then->gpus_bg);
			r->held_mem[h] = mem > 0 ? mem : 0;
			r->held_gpus[h] = gpus > 0 ? gpus : 0;
		}
	}
	r->hold = (sched_hold_t){ r->held_slot, r->held_mem, r->held_gpus };
	rc = 0;
out:
	free(sc.nodes);
	free(sc.hosts);
	free(slots);
	if (rc)
		sched_reservation_free(r);
	return rc;
}

int sched_reserve(const sched_state_t *st, size_t head, int avail,
		  sched_holds_fn holds, const void *ctx,
		  sched_reservation_t *r)
{
	expected_end_t *ends = malloc((st->njobs ? st->njobs : 1) *
				      sizeof(*ends));
	if (!ends)
		return -1;
	sched_reservation_free(r);
	r->active = 1;
	r->head = head;
	r->extra = 0;
	if (st->hosts) {
		int rc = reserve_places(st, head, holds, ctx, ends, r);
		free(ends);
		return rc;
	}
	int need = st->jobs[head].nodes;
	size_t count = 0;
	for (size_t k = 0; k < st->njobs; k++)
		if (st->jobs[k].where == SCHED_RUNNING_FG &&
		    holds(st, k, head, ctx))
			ends[count++] = (expected_end_t){
				expected_end(st, &st->jobs[k]),
				st->jobs[k].nodes, k };
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
	if (st->hosts)	/* placed: sched_fit with sched_reservation_hold */
		return 1;
	if (job->nodes > r->extra)
		return 0;
	r->extra -= job->nodes;
	return 1;
}

const sched_hold_t *sched_reservation_hold(const sched_state_t *st,
					   const sched_reservation_t *r,
					   size_t j)
{
	const sched_job_t *job = &st->jobs[j];
	if (!st->hosts || !r->active || !r->held_slot)
		return NULL;
	if (job->estimate >= 0 && st->now + job->estimate <= r->shadow)
		return NULL;
	if (r->head < st->njobs && apart(st, r->head, j))
		return NULL;
	return &r->hold;
}
