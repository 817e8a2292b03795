/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_engine.c - the state primitives every decision engine uses: counting
 * idle slots, and the four state changes (start, requeue, swap to bg,
 * promote to fg), each of which also records its decision.  Keeping them in
 * one place keeps the nodes[] and jobs[] views of the allocation map
 * consistent whatever the engine.  Interface: sched_engine.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sched_engine.h"
#include "sched_rules.h"

void sched_config_defaults(sched_config_t *cfg)
{
	/* Liu et al. 2013 use 0.96 (section 3, observation 2), no
	 * reservation and requeued victims (sched_config_paper); with these
	 * three defaults dfrs sim measured AMCBF's mean bounded slowdown
	 * under EASY's at every load point of doc/evaluation.md ("AMCBF
	 * / EASY at every load point"); AMBF with requeue_victims 0 schedules exactly as
	 * EASY */
	cfg->util_threshold = 0.8;
	cfg->min_idle_cpu = 0.04;	/* Liu et al. 2013, section 5.1 */
	cfg->bg_min_rate = 0;		/* admission by predicted rate off */
	cfg->reserve = 1;
	cfg->requeue_victims = SCHED_REQUEUE_AUTO;
}

void sched_config_paper(sched_config_t *cfg)
{
	sched_config_defaults(cfg);
	cfg->util_threshold = 0.96;	/* Liu et al. 2013, section 3, observation 2 */
	cfg->reserve = 0;		/* backfilling without reservations */
	cfg->requeue_victims = 1;	/* Alg. 2: to bg in place, else suspended */
}

/* Liu et al. 2013 section 5.1: mean bg efficiency, uniform 0.8..1 for one
 * process, normal(0.428, 0.144) clipped to 0.2..0.8 for more. */
#define BG_EFF_SINGLE 0.9
#define BG_EFF_MULTI 0.428

double sched_bg_predicted_rate(const sched_state_t *st, size_t j,
			       const int *nodes)
{
	const sched_job_t *job = &st->jobs[j];
	double eff = job->nodes == 1 ? BG_EFF_SINGLE : BG_EFF_MULTI;
	double rate = 1.0;
	for (int p = 0; p < job->nodes; p++) {
		if (st->nodes[nodes[p]].fg_job < 0)
			continue;
		double idle = 1.0 - sched_fg_util(st, nodes[p]);
		double need = job->util[p];
		double r = need > idle ? eff * idle / need : eff;
		if (r < rate)
			rate = r;
	}
	return rate;
}

void sched_decisions_clear(sched_decisions_t *d)
{
	d->count = 0;
	d->pool_used = 0;
}

/* Is there a promotion of job j that moves it in d. */
static int moved_promotion(const sched_decisions_t *d, long j)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].action == SCHED_TO_FG && d->items[i].moved > 0 &&
		    (long)d->items[i].job == j)
			return 1;
	return 0;
}

size_t sched_decisions_drop_moves(sched_decisions_t *d)
{
	size_t kept = 0, dropped = 0;

	for (size_t i = 0; i < d->count; i++) {
		const sched_decision_t *dc = &d->items[i];
		int drop = dc->action == SCHED_TO_FG && dc->moved > 0;

		if (!drop && dc->preemptor >= 0 &&
		    (dc->action == SCHED_REQUEUE || dc->action == SCHED_TO_BG))
			drop = moved_promotion(d, dc->preemptor);
		if (drop) {
			dropped++;
			continue;
		}
		if (kept != i)
			d->items[kept] = *dc;
		kept++;
	}
	d->count = kept;
	return dropped;
}

void sched_decisions_free(sched_decisions_t *d)
{
	free(d->items);
	free(d->node_pool);
	memset(d, 0, sizeof(*d));
}

const int *sched_decision_nodes(const sched_decisions_t *d,
				const sched_decision_t *dec)
{
	return d->node_pool + dec->nodes_off;
}

static sched_decision_t *push(sched_decisions_t *d, const sched_state_t *st,
			      sched_action_t action, size_t j,
			      const int *nodes, int nnodes)
{
	if (d->count == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		sched_decision_t *n = realloc(d->items, cap * sizeof(*n));
		if (!n)
			return NULL;
		d->items = n;
		d->cap = cap;
	}
	if (d->pool_used + (size_t)nnodes > d->pool_cap) {
		size_t cap = d->pool_cap ? 2 * d->pool_cap : 256;
		while (cap < d->pool_used + (size_t)nnodes)
			cap *= 2;
		int *n = realloc(d->node_pool, cap * sizeof(*n));
		if (!n)
			return NULL;
		d->node_pool = n;
		d->pool_cap = cap;
	}
	sched_decision_t *dec = &d->items[d->count++];
	memset(dec, 0, sizeof(*dec));
	dec->action = action;
	dec->job = j;
	dec->job_id = st->jobs[j].id;
	dec->preemptor = -1;
	dec->nodes_off = d->pool_used;
	if (nnodes > 0) {
		memcpy(d->node_pool + d->pool_used, nodes,
		       (size_t)nnodes * sizeof(int));
		d->pool_used += (size_t)nnodes;
	}
	return dec;
}

int sched_counts_own(const sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];
	return job->allowed || job->shares || job->asks_only;
}

int sched_util_pairs(const sched_state_t *st, long j, long k)
{
	return (j < 0 || !st->jobs[j].asks_only) &&
	       (k < 0 || !st->jobs[k].asks_only);
}

int sched_may_pair(const sched_state_t *st, long j, long k)
{
	return (j >= 0 && k >= 0 &&
		sched_both_share(st, (size_t)j, (size_t)k)) ||
	       sched_util_pairs(st, j, k);
}

int sched_fg_free(const sched_state_t *st, long j, int n)
{
	const sched_node_t *node = &st->nodes[n];
	return node->fg_job < 0 &&
	       (node->bg_job < 0 || sched_may_pair(st, j, node->bg_job));
}

int sched_fg_idle_count(const sched_state_t *st)
{
	int idle = 0;
	for (int n = 0; n < st->nnodes; n++)
		idle += sched_fg_free(st, -1, n);
	return idle;
}

int sched_may_use(const sched_state_t *st, size_t j, int n)
{
	const unsigned char *allowed = st->jobs[j].allowed;
	return !allowed || allowed[n];
}

int sched_fg_idle_for(const sched_state_t *st, size_t j)
{
	if (!sched_counts_own(st, j))
		return sched_fg_idle_count(st);
	int idle = 0;
	for (int n = 0; n < st->nnodes; n++)
		idle += sched_fg_free(st, (long)j, n) && sched_may_use(st, j, n);
	return idle;
}

double sched_fg_util(const sched_state_t *st, int n)
{
	const sched_node_t *node = &st->nodes[n];
	if (node->fg_job < 0)
		return 0.0;
	return st->jobs[node->fg_job].util[node->fg_proc];
}

double sched_bg_util(const sched_state_t *st, int n)
{
	const sched_node_t *node = &st->nodes[n];
	if (node->bg_job < 0)
		return 0.0;
	return st->jobs[node->bg_job].util[node->bg_proc];
}

/* May node n take a bg process of job j (-1: a job that is not
 * asks_only) by CPU use. */
static int util_admits(const sched_state_t *st, const sched_config_t *cfg,
		       long j, int n)
{
	if (st->nodes[n].bg_job >= 0 ||
	    !sched_util_pairs(st, j, st->nodes[n].fg_job))
		return 0;
	double fg = sched_fg_util(st, n);
	return fg < cfg->util_threshold && 1.0 - fg > cfg->min_idle_cpu;
}

int sched_bg_eligible(const sched_state_t *st, const sched_config_t *cfg,
		      int n)
{
	return util_admits(st, cfg, -1, n);
}

int sched_bg_eligible_count(const sched_state_t *st,
			    const sched_config_t *cfg)
{
	int count = 0;
	for (int n = 0; n < st->nnodes; n++)
		count += sched_bg_eligible(st, cfg, n);
	return count;
}

int sched_both_share(const sched_state_t *st, size_t j, size_t k)
{
	return st->jobs[j].shares && st->jobs[k].shares;
}

int sched_bg_admits(const sched_state_t *st, const sched_config_t *cfg,
		    size_t j, int n)
{
	const sched_node_t *node = &st->nodes[n];

	if (util_admits(st, cfg, (long)j, n))
		return 1;
	return node->bg_job < 0 && node->fg_job >= 0 &&
	       sched_both_share(st, (size_t)node->fg_job, j);
}

int sched_bg_eligible_for(const sched_state_t *st, const sched_config_t *cfg,
			  size_t j)
{
	int count = 0;
	for (int n = 0; n < st->nnodes; n++)
		count += sched_may_use(st, j, n) && sched_bg_admits(st, cfg, j, n);
	return count;
}

static void occupy(sched_state_t *st, size_t j, sched_tier_t tier,
		   const int *nodes)
{
	sched_job_t *job = &st->jobs[j];
	for (int p = 0; p < job->nodes; p++) {
		sched_node_t *node = &st->nodes[nodes[p]];
		job->alloc[p] = nodes[p];
		if (tier == SCHED_TIER_FG) {
			node->fg_job = (int)j;
			node->fg_proc = p;
		} else {
			node->bg_job = (int)j;
			node->bg_proc = p;
		}
	}
	job->where = tier == SCHED_TIER_FG ? SCHED_RUNNING_FG
					   : SCHED_RUNNING_BG;
	sched_hosts_account(st, j, tier, 1);
}

static void vacate(sched_state_t *st, size_t j)
{
	sched_job_t *job = &st->jobs[j];
	sched_hosts_account(st, j, job->where == SCHED_RUNNING_FG ?
				   SCHED_TIER_FG : SCHED_TIER_BG, -1);
	for (int p = 0; p < job->nodes; p++) {
		sched_node_t *node = &st->nodes[job->alloc[p]];
		if (job->where == SCHED_RUNNING_FG) {
			node->fg_job = -1;
			node->fg_proc = -1;
		} else {
			node->bg_job = -1;
			node->bg_proc = -1;
		}
	}
	job->where = SCHED_QUEUED;
}

int sched_start(sched_state_t *st, sched_decisions_t *out, size_t j,
		sched_tier_t tier, const int *nodes)
{
	sched_decision_t *dec = push(out, st, SCHED_START, j, nodes,
				     st->jobs[j].nodes);
	if (!dec)
		return -1;
	dec->tier = tier;
	occupy(st, j, tier, nodes);
	st->jobs[j].started = st->now;
	sched_licenses_take(st, j);
	return 0;
}

int sched_requeue_for(sched_state_t *st, sched_decisions_t *out, size_t j,
		      size_t preemptor)
{
	sched_decision_t *dec = push(out, st, SCHED_REQUEUE, j, NULL, 0);
	if (!dec)
		return -1;
	dec->preemptor = (long)preemptor;
	/* its licenses are not returned: Slurm frees them once the job
	 * has left its nodes, after this call */
	vacate(st, j);
	return 0;
}

int sched_swap_to_bg_for(sched_state_t *st, sched_decisions_t *out, size_t j,
			 size_t preemptor)
{
	sched_job_t *job = &st->jobs[j];
	sched_decision_t *dec = push(out, st, SCHED_TO_BG, j, job->alloc,
				     job->nodes);
	if (!dec)
		return -1;
	dec->tier = SCHED_TIER_BG;
	dec->preemptor = (long)preemptor;
	vacate(st, j);
	occupy(st, j, SCHED_TIER_BG, out->node_pool + dec->nodes_off);
	return 0;
}

void sched_release(sched_state_t *st, size_t j)
{
	if (st->jobs[j].where != SCHED_QUEUED)
		vacate(st, j);
}

void sched_lift_bg(sched_state_t *st, size_t j)
{
	vacate(st, j);
}

/* Is a host of job j's alloc[] holding more memory or GPUs than it has. */
static int over_capacity(const sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];
	for (int p = 0; st->hosts && p < job->nodes; p++) {
		const sched_host_t *h = &st->hosts[st->slot_host[job->alloc[p]]];
		if ((h->mem > 0 && h->mem_fg + h->mem_bg > h->mem) ||
		    h->gpus_fg + h->gpus_bg > h->gpus)
			return 1;
	}
	return 0;
}

int sched_unlift_bg(sched_state_t *st, sched_decisions_t *out, size_t j,
		    const int *old)
{
	sched_job_t *job = &st->jobs[j];
	int back = 1;
	for (int p = 0; p < job->nodes; p++)
		back = back && st->nodes[old[p]].bg_job < 0;
	if (back) {
		occupy(st, j, SCHED_TIER_BG, old);
		if (!over_capacity(st, j))
			return 0;
		vacate(st, j);
	}
	/* its bg places are taken: it has left them, back to the queue */
	return push(out, st, SCHED_REQUEUE, j, NULL, 0) ? 0 : -1;
}

int sched_promote(sched_state_t *st, sched_decisions_t *out, size_t j,
		  const int *nodes, const int *old_alloc)
{
	sched_job_t *job = &st->jobs[j];
	sched_decision_t *dec = push(out, st, SCHED_TO_FG, j, nodes,
				     job->nodes);
	if (!dec)
		return -1;
	dec->tier = SCHED_TIER_FG;
	for (int p = 0; p < job->nodes; p++)
		dec->moved += nodes[p] != old_alloc[p];
	occupy(st, j, SCHED_TIER_FG, nodes);
	return 0;
}

int sched_node_rank(const sched_state_t *st, size_t j, int n)
{
	return st->jobs[j].rank ? st->jobs[j].rank[n] : n;
}

int sched_pick_idle_fg(const sched_state_t *st, size_t j, int *nodes)
{
	int want = st->jobs[j].nodes, got = 0;
	if (!st->jobs[j].rank) {
		for (int n = 0; n < st->nnodes && got < want; n++)
			if (sched_fg_free(st, (long)j, n) &&
			    sched_may_use(st, j, n))
				nodes[got++] = n;
		return got;
	}
	/* the `want` most preferred idle nodes, kept sorted by rank */
	for (int n = 0; n < st->nnodes; n++) {
		if (!sched_fg_free(st, (long)j, n) || !sched_may_use(st, j, n))
			continue;
		int r = sched_node_rank(st, j, n), at = got;
		if (got == want &&
		    r >= sched_node_rank(st, j, nodes[want - 1]))
			continue;
		if (got < want)
			got++;
		else
			at = want - 1;
		while (at > 0 && sched_node_rank(st, j, nodes[at - 1]) > r) {
			nodes[at] = nodes[at - 1];
			at--;
		}
		nodes[at] = n;
	}
	return got;
}
