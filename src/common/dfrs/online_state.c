/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_state.c - fit tests and least-loaded task placement over the
 * working state of one online DFRS decision (Stillwell et al. 2010, "Task Placement
 * Heuristics").  See online_state.h.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "online_state.h"
#include "yield_allocation.h"

const dfrs_job_t *online_shape(const online_state_t *w, int j)
{
	return &w->cl->jobs[j].shape;
}

/* Host h's left per dimension from its usage, and its entry in the index
 * (without its ancestors when leaf_only). */
static void index_host(online_state_t *w, int h, int leaf_only)
{
	const dfrs_host_t *host = &w->cl->hosts[h];
	double *left = &w->left[(size_t)h * w->nd];

	for (int d = 0; d < w->nd; d++)
		left[d] = host->cap[d] * (1 + DFRS_FIT_TOL) -
			  w->usage[(size_t)h * w->nd + d];
	if (leaf_only)
		host_index_set_leaf(&w->ix, h, w->load[h], left);
	else
		host_index_set(&w->ix, h, w->load[h], left);
}

/*
 * A decision passes over the hosts (each placement, each summary after a
 * change) until those passes have visited ONLINE_INDEX_AFTER times as
 * many hosts as there are, then builds the index and searches it: a
 * decision with few placements does not pay for the build, which costs
 * some (HOST_INDEX_LEVELS + 3) / 3 passes; one with many, on many hosts,
 * does not pass over them each time.  Below ONLINE_INDEX_HOSTS hosts it
 * always passes: there a pass costs less than the index's upkeep, O(log
 * hosts) per task placed or taken off (`dfrs sim --policy greedyp` on the
 * first 1,000 jobs of Lublin's 256 nodes ran 6 % more instructions,
 * callgrind's count, when it switched as above).  Both ways choose the
 * same hosts.
 */
#define ONLINE_INDEX_AFTER 8
#define ONLINE_INDEX_HOSTS 512

/*
 * The room levels of the index (host_index.h): 1/128, 1/64, ..., 1/2, 1
 * of the largest capacity, denser towards small amounts as a task's share
 * of a node often is (a search for room u prunes by the level between u/2
 * and u; finer levels pruned little more on bench_scale's 10,000 hosts,
 * and cost more to update), and the largest capacity per dimension.
 */
void online_index_init(online_state_t *w)
{
	double level[DFRS_MAX_DIMS * HOST_INDEX_LEVELS], frac[HOST_INDEX_LEVELS];

	for (int l = 0; l < HOST_INDEX_LEVELS; l++)
		frac[l] = ldexp(1.0, l + 1 - HOST_INDEX_LEVELS);
	for (int d = 0; d < w->nd; d++) {
		w->cap_max[d] = 0.0;
		for (int h = 0; h < w->nh; h++)
			if (w->cl->hosts[h].cap[d] > w->cap_max[d])
				w->cap_max[d] = w->cl->hosts[h].cap[d];
		for (int l = 0; l < HOST_INDEX_LEVELS; l++)
			level[d * HOST_INDEX_LEVELS + l] = w->cap_max[d] * frac[l];
	}
	memcpy(w->ix_level, level, sizeof(double) * w->nd * HOST_INDEX_LEVELS);
	w->ix_valid = 0;
	w->scan_work = 0;
	w->index_after = w->nh < ONLINE_INDEX_HOSTS ? LONG_MAX :
			 (long)ONLINE_INDEX_AFTER * w->nh;
}

/* The index from usage and load, once the passes have cost index_after:
 * O(nh nd levels).  Whether it is ready (out of memory, the passes go
 * on). */
static int index_ready(online_state_t *w)
{
	if (w->ix_valid || w->scan_work < w->index_after)
		return w->ix_valid;
	if (host_index_init(&w->ix, w->nh, w->nd, w->ix_level)) {
		w->index_after = LONG_MAX;
		return 0;
	}
	for (int h = 0; h < w->nh; h++)
		index_host(w, h, 1);
	host_index_build(&w->ix);
	w->ix_valid = 1;
	return 1;
}

void online_account_task(online_state_t *w, int j, int h, int sign)
{
	const dfrs_job_t *job = online_shape(w, j);

	for (int d = 0; d < w->nd; d++) {
		w->usage[(size_t)h * w->nd + d] +=
			sign * dfrs_task_usage(job, d, online_min_yield(w, j));
		w->load[h] += sign * job->need[d] / w->cl->hosts[h].cap[d];
	}
	if (w->ix_valid)
		index_host(w, h, 0);
	w->room_valid = 0;
}

void online_account_job(online_state_t *w, int j, int sign)
{
	for (int t = 0; t < online_shape(w, j)->ntasks; t++)
		online_account_task(w, j, w->hosts[j][t], sign);
}

/* Whether a task using u (elementary ue) per dimension fits on host h. */
static inline int usage_fits(const online_state_t *w, const double *u,
			     const double *ue, int h)
{
	const dfrs_host_t *host = &w->cl->hosts[h];

	for (int d = 0; d < w->nd; d++)
		if (!dfrs_amount_fits(u[d], ue[d], w->usage[(size_t)h * w->nd + d],
				      host->cap[d], host->elem[d]))
			return 0;
	return 1;
}

static void task_usage(const online_state_t *w, int j, double *u, double *ue)
{
	const dfrs_job_t *job = online_shape(w, j);

	for (int d = 0; d < w->nd; d++) {
		u[d] = dfrs_task_usage(job, d, online_min_yield(w, j));
		ue[d] = dfrs_task_elem_usage(job, d, online_min_yield(w, j));
	}
}

int online_task_fits(const online_state_t *w, int j, int h)
{
	double u[DFRS_MAX_DIMS], ue[DFRS_MAX_DIMS];

	task_usage(w, j, u, ue);
	return usage_fits(w, u, ue, h);
}

/*
 * What the hosts have left, per dimension: by a pass over them, which
 * also takes each host's left (a snapshot, until the next pass); or,
 * with the index, from its root.  The most left is a maximum over the
 * hosts (never below 0, where the pass starts), the same to the bit
 * either way; the index sums the total in the tree's order, not the
 * hosts', so it may differ from a pass's in the last bits: room_for's
 * test on it keeps margins of 1e-6 (relative) and nh * 1e-6, where the
 * count of copies it stands in for has 1e-9, so it still answers "no"
 * only where the count would.
 */
static void summarise_room(online_state_t *w)
{
	if (index_ready(w)) {
		for (int d = 0; d < w->nd; d++) {
			double m = host_index_max_room(&w->ix, d);

			w->room_max[d] = m > 0.0 ? m : 0.0;
			w->room_total[d] = host_index_total_room(&w->ix, d);
		}
		w->room_valid = 1;
		return;
	}
	for (int d = 0; d < w->nd; d++)
		w->room_max[d] = w->room_total[d] = 0.0;
	for (int h = 0; h < w->nh; h++) {
		const dfrs_host_t *host = &w->cl->hosts[h];

		for (int d = 0; d < w->nd; d++) {
			double left = host->cap[d] * (1 + DFRS_FIT_TOL) -
				      w->usage[(size_t)h * w->nd + d];

			w->left[(size_t)h * w->nd + d] = left;
			if (left > w->room_max[d])
				w->room_max[d] = left;
			if (left > 0.0)
				w->room_total[d] += left;
		}
	}
	w->scan_work += w->nh;
	w->room_valid = 1;
}

/*
 * Whether k tasks using u (elementary ue) each could fit at all: the
 * copies of such a task each host has room for, summed over hosts, at
 * least k.  A necessary condition,
 * whatever the placement; the margin leaves borderline counts to the real
 * fit tests.  Costs a visit of the hosts with room for a copy (through
 * the index, which skips the others), where a failing placement of a wide
 * job costs a search per task placed before it fails.
 *
 * Most waiting jobs fail it while the hosts are full, and the hosts change
 * only when a job is placed or taken off: the summary of what they have
 * left (summarise_room, read again only after a change) answers first, in one
 * test per dimension, with margins wide enough that it only answers "no"
 * where the pass over the hosts would:
 *   - the task needs more than any host has left, by more than 1e-9 of a
 *     host's capacity: the first task fits nowhere (online_task_fits
 *     would fail on every host), whatever k;
 *   - k > 1 copies need more than all the hosts have left together (1e-6
 *     relative and per-host slack against rounding): the sum of the
 *     per-host counts, each at most left / usage, is below k.
 */
/*
 * Whether some task that room_for failed since the hosts last changed was
 * no larger than this one in every dimension (aggregate and elementary)
 * and no more copies were needed: then this one fails as well.  Each
 * host's count of copies, floor(left / u (1 + 1e-9) + 1e-9) and 0 when
 * the elementary test fails, only falls as u grows (division, the
 * products and floor are monotone; a host with nothing left counts 0
 * whatever u), and a failure for k' copies means every host counts fewer
 * than k' and their sum is below k' <= k.
 */
static int failed_before(const online_state_t *w, const double *u,
			 const double *ue, int k)
{
	for (int f = 0; f < w->nfails; f++) {
		int d = 0;

		if (w->fails[f].k > k)
			continue;
		while (d < w->nd && w->fails[f].u[d] <= u[d] &&
		       w->fails[f].ue[d] <= ue[d])
			d++;
		if (d == w->nd)
			return 1;
	}
	return 0;
}

static void remember_failure(online_state_t *w, const double *u,
			     const double *ue, int k)
{
	int f = w->next_fail;

	memcpy(w->fails[f].u, u, sizeof(double) * w->nd);
	memcpy(w->fails[f].ue, ue, sizeof(double) * w->nd);
	w->fails[f].k = k;
	w->next_fail = (f + 1) % ONLINE_ROOM_FAILS;
	if (w->nfails < ONLINE_ROOM_FAILS)
		w->nfails++;
}

/* How many copies (up to k) of a task using u (elementary ue) host h has
 * room for, by its left. */
static long copies_on(const online_state_t *w, int h, const double *u,
		      const double *ue, int k)
{
	const dfrs_host_t *host = &w->cl->hosts[h];
	const double *left = &w->left[(size_t)h * w->nd];
	double copies = k;

	for (int d = 0; d < w->nd && copies > 0; d++) {
		if (ue[d] > host->elem[d] * (1 + DFRS_FIT_TOL))
			copies = 0;
		else if (u[d] > 0.0 && left[d] / u[d] * (1 + 1e-9) + 1e-9 < copies)
			copies = floor(left[d] / u[d] * (1 + 1e-9) + 1e-9);
	}
	return copies > 0 ? (long)copies : 0;
}

static int room_for(online_state_t *w, const double *u, const double *ue,
		    int k)
{
	double short_of[DFRS_MAX_DIMS];
	long total = 0;

	if (!w->room_valid) {
		summarise_room(w);
		w->nfails = w->next_fail = 0;
	}
	for (int d = 0; d < w->nd; d++) {
		if (u[d] <= 0.0)
			continue;
		if (u[d] > w->room_max[d] + 1e-9 * w->cap_max[d])
			return 0;
		if (k > 1 &&
		    w->room_total[d] / u[d] * (1 + 1e-6) + w->nh * 1e-6 < k)
			return 0;
	}
	if (k == 1)	/* the fit tests decide */
		return 1;
	if (failed_before(w, u, ue, k))
		return 0;
	/* A host with less than short_of left in a dimension counts no
	 * copy: there left / u (1 + 1e-9) + 1e-9 < 1 - 8e-9, far from 1 for
	 * any rounding, so its floor is 0 as computed.  That one test per
	 * cell, on the lefts of the summary, passes the few hosts with room
	 * for one (about 1 in 20 on saturated Lublin) to the count. */
	for (int d = 0; d < w->nd; d++)
		short_of[d] = u[d] > 0.0 ? u[d] * (1 - 1e-8) : -INFINITY;
	/* the index visits those hosts only, in index order (every load is
	 * finite, below INFINITY); a pass tests each */
	if (w->ix_valid) {
		for (int h = host_index_first(&w->ix, 0, INFINITY, short_of, NULL, NULL);
		     h >= 0 && total < k;
		     h = host_index_first(&w->ix, h + 1, INFINITY, short_of, NULL, NULL))
			total += copies_on(w, h, u, ue, k);
	} else {
		int h;

		for (h = 0; h < w->nh && total < k; h++) {
			const double *left = &w->left[(size_t)h * w->nd];
			int roomy = 1;

			for (int d = 0; d < w->nd; d++)
				roomy &= left[d] >= short_of[d];
			if (roomy)
				total += copies_on(w, h, u, ue, k);
		}
		w->scan_work += h;
	}
	if (total >= k)
		return 1;
	remember_failure(w, u, ue, k);
	return 0;
}

/* What host_index_first's accept gets: one task's usage. */
typedef struct {
	const online_state_t *w;
	const double *u, *ue;
} fit_ctx_t;

static int task_fits_at(const void *ctx, int h)
{
	const fit_ctx_t *c = ctx;

	return usage_fits(c->w, c->u, c->ue, h);
}

/*
 * Extend the scan's chain of bests (chain[0..*n), the last the best so
 * far) from host `from` on: each host where the task fits and whose load
 * is lower than the best's by more than 1e-12 becomes the best, in index
 * order.  The index finds each next one: the first host at or after the
 * last with a load below that bound, room at least `least` in every
 * dimension (the fit test cannot pass with less: see below) and where
 * the task fits.
 */
static void extend_chain(const online_state_t *w, int *chain, int *n,
			 int from, const double *least, const fit_ctx_t *c)
{
	for (;;) {
		double below = *n ? w->load[chain[*n - 1]] - 1e-12 : INFINITY;
		int h = host_index_first(&w->ix, from, below, least,
					 task_fits_at, c);

		if (h < 0)
			return;
		chain[(*n)++] = h;
		from = h + 1;
	}
}

/*
 * Each task on the least loaded host where it fits, by passes over the
 * hosts.  The first task scans every host in index order: each one lower
 * than the best so far by more than 1e-12 becomes the best.  A host where
 * one task of the job does not fit has no room for the next either
 * (placing tasks only fills hosts), so each task after the first looks
 * only at the candidates, the hosts where the first fitted, in the same
 * order: the same choices as a scan of every host.
 *
 * Between two tasks only the host that took the task changed, and it was
 * the last host where the scan's best changed.  So the scan for the next
 * task starts there, from the best before it, instead of from the first
 * candidate: the candidates before it hold what they held, and the scan
 * reaches the same best as a full one.  cand[] holds the candidates (-1:
 * one that no longer fits) and changed[] the positions where the best
 * changed, the last one on top.
 */
static int place_by_passes(online_state_t *w, int j, int *hosts,
			   const double *u, const double *ue)
{
	int k = online_shape(w, j)->ntasks, ncand = 0, nchanged = 0;
	int *cand = w->cand, *changed = w->cand + w->nh + 1;

	for (int h = 0; h < w->nh; h++) {
		if (!usage_fits(w, u, ue, h))
			continue;
		if (!nchanged ||
		    w->load[h] < w->load[cand[changed[nchanged - 1]]] - 1e-12)
			changed[nchanged++] = ncand;
		cand[ncand++] = h;
	}
	w->scan_work += w->nh;
	for (int t = 0; t < k; t++) {
		if (t > 0) {	/* rescan from where the best became hosts[t - 1] */
			int from = changed[--nchanged];

			if (!usage_fits(w, u, ue, cand[from]))
				cand[from] = -1;
			for (int i = from; i < ncand; i++)
				if (cand[i] >= 0 &&
				    (!nchanged || w->load[cand[i]] <
				     w->load[cand[changed[nchanged - 1]]] - 1e-12))
					changed[nchanged++] = i;
			w->scan_work += ncand - from;
		}
		if (!nchanged) {
			for (int v = 0; v < t; v++)
				online_account_task(w, j, hosts[v], -1);
			return -1;
		}
		hosts[t] = cand[changed[nchanged - 1]];
		online_account_task(w, j, hosts[t], +1);
	}
	return 0;
}

/*
 * The same choices through the index (host_index.h): the hosts where the
 * scan's best changed form a chain, the last one the host chosen, and
 * the index finds each link without visiting the hosts between: every
 * load is finite (below INFINITY, for the first link), and a host whose
 * left (cap (1 + DFRS_FIT_TOL) - usage, as computed) is below u - 1e-9
 * (cap_max + u) fails the fit test used + u <= cap (1 + DFRS_FIT_TOL),
 * whose rounding errors are some 1e-16 of those amounts.  For the next
 * task, the chain's last link (the host that took the task) is popped
 * and the chain goes on from there, as the passes' rescan does.
 */
static int place_by_index(online_state_t *w, int j, int *hosts,
			  const double *u, const double *ue)
{
	int k = online_shape(w, j)->ntasks, nchain = 0;
	double least[DFRS_MAX_DIMS];
	fit_ctx_t c = { w, u, ue };
	int *chain = w->cand;

	for (int d = 0; d < w->nd; d++)
		least[d] = u[d] - 1e-9 * (w->cap_max[d] + fabs(u[d]));
	extend_chain(w, chain, &nchain, 0, least, &c);
	for (int t = 0; t < k; t++) {
		if (t > 0)
			extend_chain(w, chain, &nchain, chain[--nchain], least,
				     &c);
		if (!nchain) {
			for (int v = 0; v < t; v++)
				online_account_task(w, j, hosts[v], -1);
			return -1;
		}
		hosts[t] = chain[nchain - 1];
		online_account_task(w, j, hosts[t], +1);
	}
	return 0;
}

/* Each task on the least loaded host where it fits (Stillwell et al.
 * 2010); all or nothing.  Of equal loads (within 1e-12, as a scan in
 * index order meets them) the lowest index. */
int online_place_least_loaded(online_state_t *w, int j, int *hosts)
{
	double u[DFRS_MAX_DIMS], ue[DFRS_MAX_DIMS];

	task_usage(w, j, u, ue);
	if (!room_for(w, u, ue, online_shape(w, j)->ntasks))
		return -1;
	return index_ready(w) ? place_by_index(w, j, hosts, u, ue) :
		place_by_passes(w, j, hosts, u, ue);
}

/* On the given hosts (a suspended job's own); all or nothing. */
int online_place_on(online_state_t *w, int j, const int *hosts)
{
	int k = online_shape(w, j)->ntasks;

	for (int t = 0; t < k; t++) {
		if (!online_task_fits(w, j, hosts[t])) {
			for (int u = 0; u < t; u++)
				online_account_task(w, j, hosts[u], -1);
			return -1;
		}
		online_account_task(w, j, hosts[t], +1);
	}
	return 0;
}

int online_may_migrate(const online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	/* requeue model: a suspended job that does not checkpoint was
	 * requeued and restarts from scratch; nothing of it is left on the
	 * hosts it ran on, so it may start anywhere, as a requeued Slurm
	 * job does */
	if (w->par->requeue && !job->checkpointable &&
	    job->state == DFRS_JOB_SUSPENDED)
		return 1;
	return w->par->policy != DFRS_POLICY_GREEDYP &&
	       (w->par->minvt <= 0.0 ||
		job->virtual_time >= w->par->minvt);
}

/*
 * The instance holds the running jobs only, in index order: the allocation
 * skips jobs without hosts and sums each cell in (job, task) order, so the
 * yields are the same to the bit as over every job, without copying the
 * shapes of the waiting ones (most jobs on a saturated cluster).
 */
int online_running_yields(const online_state_t *w, double *yield,
			  double *min_scaled)
{
	dfrs_job_t *jobs = malloc(sizeof(*jobs) * (w->nj + 1));
	int *which = malloc(sizeof(int) * (w->nj + 1));
	dfrs_instance_t inst = { w->nd, w->nh, w->cl->hosts, 0, jobs };
	dfrs_placement_t p;
	int rc = -1;

	if (!jobs || !which)
		goto out;
	for (int j = 0; j < w->nj; j++)
		if (w->state[j] == DFRS_JOB_RUNNING) {
			which[inst.njobs] = j;
			jobs[inst.njobs] = *online_shape(w, j);
			jobs[inst.njobs++].min_yield = online_min_yield(w, j);
		}
	if (dfrs_placement_init(&p, &inst) == 0) {
		for (int i = 0; i < inst.njobs; i++)
			memcpy(&p.task_host[p.first_task[i]], w->hosts[which[i]],
			       sizeof(int) * jobs[i].ntasks);
		rc = yield_allocation_compute(&inst, &p);
		if (rc == 0 && yield) {
			for (int j = 0; j < w->nj; j++)
				yield[j] = 0.0;
			for (int i = 0; i < inst.njobs; i++)
				yield[which[i]] = p.yield[i];
		}
		if (rc == 0)
			*min_scaled = p.min_scaled_yield;
		dfrs_placement_free(&p);
	}
out:
	free(jobs);
	free(which);
	return rc;
}
