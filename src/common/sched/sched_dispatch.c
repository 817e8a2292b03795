/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_dispatch.c - the dispatch function of Liu et al.'s Algorithm 2
 * (lines 18-30): place the processes of a job in the fg or the bg tier so
 * that high-usage processes meet lightly loaded nodes.
 *
 *   dispatch(FG, j): processes by CPU usage, descending, onto the idle fg
 *     nodes by their bg load, ascending; a bg job on a node whose new fg
 *     process leaves too little idle CPU (usage >= util_threshold, or idle
 *     CPU <= min_idle_cpu) is evicted back to the queue (line 25).
 *   dispatch(BG, j): processes by usage, descending, onto the eligible bg
 *     slots (sched_bg_admits) by their fg load, ascending; with
 *     bg_min_rate set, the job is not placed where its predicted rate
 *     (sched_bg_predicted_rate) would be under it: a job that would crawl
 *     in bg holds its slots and its own progress hostage, and is better
 *     off waiting for fg nodes (admission by predicted progress).
 *
 * A bg job the site protects from this job (sched_may_preempt) is not
 * evicted: it stays beside the busy fg process, with the CPU left over.
 *
 * Only nodes the job may use (sched_job_t.allowed) are candidates; among
 * equally loaded ones, the job's preferred nodes (sched_job_t.rank) first.
 *
 * On hosts of many CPUs (sched_host.h) the candidate slots are those
 * sched_fit chooses for the job in the tier (its memory and GPUs on their
 * hosts, the places a reservation holds left alone), and the matching
 * orders its processes on them.
 *
 * A bg job promoted to fg (old != NULL) keeps each process on its own node
 * when that node is among the chosen ones: there the tiers are swapped by
 * CPU weight without a restart (Liu et al. 2013 section 4.2, difference 2).
 */
#include <stdlib.h>

#include "sched_dispatch.h"
#include "sched_rules.h"

typedef struct {
	double key;
	int pref;	/* 1: a node the job already occupies (promotion) */
	int index;	/* node, or process */
	int order;	/* node: the job's preference (sched_node_rank) */
} ranked_t;

/* ascending key, own nodes first on ties, then preferred, then index */
static int by_key_up(const void *a, const void *b)
{
	const ranked_t *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->pref != y->pref)
		return y->pref - x->pref;
	if (x->order != y->order)
		return x->order - y->order;
	return x->index - y->index;
}

/* descending key, then lower index */
static int by_key_down(const void *a, const void *b)
{
	const ranked_t *x = a, *y = b;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->index - y->index;
}

static int contains(const int *set, int n, int value)
{
	for (int i = 0; i < n; i++)
		if (set[i] == value)
			return 1;
	return 0;
}

/* Restore the max-heap (by by_key_up) of h[0..n) below position i. */
static void sift_down(ranked_t *h, int n, int i)
{
	for (;;) {
		int big = i, l = 2 * i + 1, r = l + 1;
		if (l < n && by_key_up(&h[l], &h[big]) > 0)
			big = l;
		if (r < n && by_key_up(&h[r], &h[big]) > 0)
			big = r;
		if (big == i)
			return;
		ranked_t t = h[i];
		h[i] = h[big];
		h[big] = t;
		i = big;
	}
}

/*
 * The want first candidates of by_key_up's order, sorted, in cand[0..want):
 * what sorting them all gives there (the order is total: node indices
 * differ), in O(ncand log want) instead of O(ncand log ncand); the rest
 * of cand is left in no order.
 */
static void keep_first(ranked_t *cand, int ncand, int want)
{
	for (int i = want / 2; i-- > 0;)
		sift_down(cand, want, i);
	for (int c = want; c < ncand; c++)
		if (by_key_up(&cand[c], &cand[0]) < 0) {
			cand[0] = cand[c];
			sift_down(cand, want, 0);
		}
	qsort(cand, (size_t)want, sizeof(*cand), by_key_up);
}

/*
 * Rank the candidate nodes, keep the first job->nodes, and match the
 * processes to them: into nodes[] (process p on nodes[p]).
 */
static int match(const sched_state_t *st, const sched_job_t *job,
		 ranked_t *cand, int ncand, const int *old, int *nodes)
{
	int want = job->nodes;
	keep_first(cand, ncand, want);

	ranked_t *procs = malloc((size_t)want * sizeof(*procs));
	char *placed = calloc((size_t)want, 1);
	char *taken = calloc((size_t)want, 1);
	if (!procs || !placed || !taken) {
		free(procs);
		free(placed);
		free(taken);
		return -1;
	}
	/* processes already on one of the chosen nodes stay there */
	if (old)
		for (int p = 0; p < want; p++)
			for (int c = 0; c < want; c++)
				if (!taken[c] && cand[c].index == old[p]) {
					nodes[p] = cand[c].index;
					placed[p] = taken[c] = 1;
					break;
				}
	int nprocs = 0;
	for (int p = 0; p < want; p++)
		if (!placed[p])
			procs[nprocs++] = (ranked_t){ job->util[p], 0, p, p };
	qsort(procs, (size_t)nprocs, sizeof(*procs), by_key_down);
	int c = 0;
	for (int i = 0; i < nprocs; i++) {
		while (taken[c])
			c++;
		nodes[procs[i].index] = cand[c].index;
		taken[c] = 1;
	}
	free(procs);
	free(placed);
	free(taken);
	(void)st;
	return 0;
}

/*
 * Job j's nodes in `tier`, into nodes[] (process p on nodes[p]): the
 * nodes it may use whose fg slot is free for it (fg: sched_fg_free) or
 * that are eligible for bg
 * (sched_bg_admits), the least loaded in the other tier first, matched
 * to its processes.  -1 if there are too few or memory runs out.
 */
static int choose(const sched_state_t *st, const sched_config_t *cfg,
		  size_t j, sched_tier_t tier, const sched_hold_t *hold,
		  const int *old, int *nodes)
{
	const sched_job_t *job = &st->jobs[j];
	ranked_t *cand = malloc((size_t)st->nnodes * sizeof(*cand));
	int ncand = 0, rc = -1;
	unsigned char *chosen = NULL;

	if (!cand)
		return -1;
	if (st->hosts) {
		/* on hosts the slots are sched_fit's (its memory and GPUs,
		 * a host filled before the next); the matching below
		 * orders the processes on them */
		int fit = sched_fit(st, cfg, j, tier, hold, nodes);
		chosen = calloc((size_t)st->nnodes, 1);
		if (fit <= 0 || !chosen) {
			free(cand);
			free(chosen);
			return fit == 0 ? 1 : -1;
		}
		for (int p = 0; p < job->nodes; p++)
			chosen[nodes[p]] = 1;
	}
	for (int n = 0; n < st->nnodes; n++) {
		int free_here = tier == SCHED_TIER_FG ?
			sched_fg_free(st, (long)j, n) :
			sched_bg_admits(st, cfg, j, n);
		if (!free_here || !sched_may_use(st, j, n) ||
		    (chosen && !chosen[n]))
			continue;
		cand[ncand++] = (ranked_t){
			tier == SCHED_TIER_FG ? sched_bg_util(st, n)
					      : sched_fg_util(st, n),
			old && contains(old, job->nodes, n), n,
			sched_node_rank(st, j, n) };
	}
	if (ncand >= job->nodes)
		rc = match(st, job, cand, ncand, old, nodes);
	free(cand);
	free(chosen);
	return rc;
}

int sched_dispatch_fg(sched_state_t *st, const sched_config_t *cfg,
		      sched_decisions_t *out, size_t j, const int *old,
		      const sched_hold_t *hold)
{
	sched_job_t *job = &st->jobs[j];
	int *nodes = malloc((size_t)(job->nodes > 0 ? job->nodes : 1) *
			    sizeof(int));
	int rc = -1;
	if (!nodes)
		goto out;
	rc = choose(st, cfg, j, SCHED_TIER_FG, hold, old, nodes);
	if (rc)
		goto out;
	rc = -1;
	if (old ? sched_promote(st, out, j, nodes, old)
		: sched_start(st, out, j, SCHED_TIER_FG, nodes))
		goto out;
	/* line 25: a busy fg process leaves no room for a bg one, but for
	 * a bg job that shares with it (sched_job_t.shares) */
	for (int p = 0; p < job->nodes; p++) {
		int bg = st->nodes[nodes[p]].bg_job;
		double u = job->util[p];
		if (bg >= 0 && (u >= cfg->util_threshold ||
				1.0 - u <= cfg->min_idle_cpu) &&
		    !sched_both_share(st, j, (size_t)bg) &&
		    sched_may_preempt(st, j, (size_t)bg) &&
		    sched_requeue_for(st, out, (size_t)bg, j))
			goto out;
	}
	rc = 0;
out:
	free(nodes);
	return rc;
}

int sched_dispatch_bg(sched_state_t *st, const sched_config_t *cfg,
		      sched_decisions_t *out, size_t j)
{
	int *nodes = malloc((size_t)(st->jobs[j].nodes > 0 ?
				     st->jobs[j].nodes : 1) * sizeof(int));
	int rc = -1;
	if (!nodes)
		goto out;
	rc = 1;
	if (st->jobs[j].fg_only)
		goto out;
	rc = choose(st, cfg, j, SCHED_TIER_BG, NULL, NULL, nodes);
	if (rc)
		goto out;
	if (cfg->bg_min_rate > 0 &&
	    sched_bg_predicted_rate(st, j, nodes) < cfg->bg_min_rate) {
		rc = 1;
		goto out;
	}
	rc = sched_start(st, out, j, SCHED_TIER_BG, nodes);
out:
	free(nodes);
	return rc;
}
