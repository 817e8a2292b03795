/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_fit.c - the host layer of the engines' state (sched_host.h): where
 * a job's request fits the free places of a tier, host by host, with its
 * memory rigid across both tiers and its GPUs never shared between them
 * (doc/design.md, "The resource model: CPUs, memory and GPUs"), and the
 * memory and GPUs a job holds on a host.  Interface: sched_engine.h.
 */
#include <stdlib.h>

#include "sched_engine.h"

int sched_hosts_layout(sched_host_t *hosts, int nhosts, int *slot_host)
{
	int slot = 0;
	for (int h = 0; h < nhosts; h++) {
		hosts[h].first_slot = slot;
		hosts[h].mem_fg = hosts[h].mem_bg = 0;
		hosts[h].gpus_fg = hosts[h].gpus_bg = 0;
		for (int c = 0; c < hosts[h].cpus; c++)
			slot_host[slot++] = h;
	}
	return slot;
}

int sched_slot_host(const sched_state_t *st, int n)
{
	return st->hosts ? st->slot_host[n] : n;
}

/* GPUs job j holds on each host it uses. */
static int gpus_per_host(const job_request_t *req)
{
	if (req->gpus_per_host > 0)
		return req->gpus_per_host;
	if (req->gpus <= 0)
		return 0;
	if (req->hosts > 0)
		return (req->gpus + req->hosts - 1) / req->hosts;
	return req->gpus;
}

long sched_job_mem_on(const sched_state_t *st, size_t j, int h, int count)
{
	const job_request_t *req = &st->jobs[j].req;
	(void)h;
	if (count <= 0)
		return 0;
	return req->mem_per_host + req->mem_per_cpu * count;
}

int sched_job_gpus_on(const sched_state_t *st, size_t j, int count)
{
	return count > 0 ? gpus_per_host(&st->jobs[j].req) : 0;
}

void sched_hosts_account(sched_state_t *st, size_t j, sched_tier_t tier,
			 int sign)
{
	const sched_job_t *job = &st->jobs[j];
	if (!st->hosts)
		return;
	for (int p = 0; p < job->nodes; p++) {
		int h = st->slot_host[job->alloc[p]], seen = 0;
		sched_host_t *host = &st->hosts[h];
		long mem = job->req.mem_per_cpu;
		int gpus = 0;
		/* per host once: at its first slot in alloc[] */
		for (int q = p; q-- > 0 && !seen;)
			seen = st->slot_host[job->alloc[q]] == h;
		if (!seen) {
			mem += job->req.mem_per_host;
			gpus = gpus_per_host(&job->req);
		}
		if (tier == SCHED_TIER_FG) {
			host->mem_fg += sign * mem;
			host->gpus_fg += sign * gpus;
		} else {
			host->mem_bg += sign * mem;
			host->gpus_bg += sign * gpus;
		}
	}
}

/* Hosts are units of consecutive slots; without a host table each slot
 * is one, of 1 CPU and without limits. */
static int unit_count(const sched_state_t *st)
{
	return st->hosts ? st->nhosts : st->nnodes;
}

static int unit_first(const sched_state_t *st, int u)
{
	return st->hosts ? st->hosts[u].first_slot : u;
}

static int unit_cpus(const sched_state_t *st, int u)
{
	return st->hosts ? st->hosts[u].cpus : 1;
}

static int place_free(const sched_state_t *st, const sched_config_t *cfg,
		      size_t j, sched_tier_t tier, int n)
{
	if (tier == SCHED_TIER_FG)
		return sched_fg_free(st, (long)j, n);
	if (st->nodes[n].bg_job >= 0)
		return 0;
	return !cfg || sched_bg_admits(st, cfg, j, n);
}

/* Are host u's fg places all free and unheld (for an exclusive job: it
 * takes the host's CPUs in its tier; a bg job may still share them, as
 * on the whole-node machines, and its memory and GPUs are unit_room's). */
static int unit_empty(const sched_state_t *st, const sched_hold_t *hold,
		      int u)
{
	int first = unit_first(st, u);
	for (int n = first; n < first + unit_cpus(st, u); n++)
		if (st->nodes[n].fg_job >= 0 ||
		    (hold && hold->slot && hold->slot[n]))
			return 0;
	return 1;
}

/* How many slots job j may take on host u at most (memory, GPUs, free
 * places); 0 when the host cannot take it. */
static int unit_room(const sched_state_t *st, size_t j, int u, int nfree,
		     const sched_hold_t *hold)
{
	const job_request_t *req = &st->jobs[j].req;
	if (!st->hosts)
		return nfree;
	const sched_host_t *h = &st->hosts[u];
	int room = nfree;
	int g = gpus_per_host(req);
	if (g > 0) {
		int idle = h->gpus - h->gpus_fg - h->gpus_bg -
			   (hold && hold->gpus ? hold->gpus[u] : 0);
		if (g > idle)
			return 0;
	}
	if (h->mem > 0 && (req->mem_per_host > 0 || req->mem_per_cpu > 0)) {
		long left = h->mem - h->mem_fg - h->mem_bg -
			    (hold && hold->mem ? hold->mem[u] : 0);
		left -= req->mem_per_host;
		if (left < 0)
			return 0;
		if (req->mem_per_cpu > 0 && left / req->mem_per_cpu < room)
			room = (int)(left / req->mem_per_cpu);
	}
	return room;
}

typedef struct {
	int unit, rank;
} unit_rank_t;

static int by_rank(const void *a, const void *b)
{
	const unit_rank_t *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->unit > y->unit) - (x->unit < y->unit);
}

/* The hosts in job j's order of preference into order[]; their count. */
static int unit_order(const sched_state_t *st, size_t j, unit_rank_t *order)
{
	int n = 0;
	if (!st->jobs[j].rank && !st->jobs[j].allowed) {
		for (int u = 0; u < unit_count(st); u++)
			order[u] = (unit_rank_t){ u, u };
		return unit_count(st);
	}
	for (int u = 0; u < unit_count(st); u++) {
		int first = unit_first(st, u), best = -1;
		for (int s = first; s < first + unit_cpus(st, u); s++) {
			if (!sched_may_use(st, j, s))
				continue;
			int r = sched_node_rank(st, j, s);
			if (best < 0 || r < best)
				best = r;
		}
		if (best >= 0)
			order[n++] = (unit_rank_t){ u, best };
	}
	if (st->jobs[j].rank)
		qsort(order, (size_t)n, sizeof(*order), by_rank);
	return n;
}

int sched_fit(const sched_state_t *st, const sched_config_t *cfg, size_t j,
	      sched_tier_t tier, const sched_hold_t *hold, int *slots)
{
	static const job_request_t any = { 0 };
	const sched_job_t *job = &st->jobs[j];
	/* without a host table a slot is a host: the request says nothing */
	const job_request_t *req = st->hosts ? &job->req : &any;
	int want = job->nodes;

	if (!st->hosts && !hold && tier == SCHED_TIER_FG)
		return sched_pick_idle_fg(st, j, slots) == want;
	if (want <= 0)
		return 1;
	if (req->exclusive && tier != SCHED_TIER_FG)
		return 0;
	unit_rank_t *order = malloc((size_t)(unit_count(st) > 0 ?
					     unit_count(st) : 1) *
				    sizeof(*order));
	if (!order)
		return -1;
	int nunits = unit_order(st, j, order);
	int got = 0, used = 0;
	/* --gpus without -N: all on one host */
	int one_host = st->hosts && req->gpus > 0 && req->gpus_per_host <= 0 &&
		       req->hosts <= 0;
	for (int i = 0; i < nunits && got < want; i++) {
		int u = order[i].unit, first = unit_first(st, u);
		int cpus = unit_cpus(st, u), nfree = 0;
		if (req->exclusive && !unit_empty(st, hold, u))
			continue;
		for (int s = first; s < first + cpus; s++)
			nfree += sched_may_use(st, j, s) &&
				 !(hold && hold->slot && hold->slot[s]) &&
				 place_free(st, cfg, j, tier, s);
		if (nfree == 0)
			continue;
		int room = unit_room(st, j, u, nfree, hold);
		int left = want - got, take;
		int per = req->exclusive ? cpus : req->cpus_per_host;
		if (per > 0) {
			take = per < left ? per : left;
			if (room < take)
				continue;
		} else if (req->hosts > 0) {
			/* at least its share of what is left, so that the
			 * hosts still to come need take no more than theirs */
			int hosts_left = req->hosts - used;
			int max = left - (hosts_left - 1);
			if (room < (left + hosts_left - 1) / hosts_left)
				continue;
			take = room < max ? room : max;
		} else {
			take = room < left ? room : left;
		}
		if (take <= 0 || (one_host && take < want))
			continue;
		for (int s = first; s < first + cpus && take > 0; s++)
			if (sched_may_use(st, j, s) &&
			    !(hold && hold->slot && hold->slot[s]) &&
			    place_free(st, cfg, j, tier, s)) {
				slots[got++] = s;
				take--;
			}
		used++;
		if (req->hosts > 0 && used == req->hosts)
			break;
	}
	free(order);
	return got == want && (req->hosts <= 0 || used == req->hosts);
}
