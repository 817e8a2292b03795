/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_cmbf_amcbf.c - consolidation backfill, Liu et al. 2013 (* "Priority-based consolidation of parallel workloads in the cloud"),
 * section 4:
 *
 *   CMBF   Algorithm 1: jobs start in arrival order when they fit on idle
 *          nodes (backfilling without reservations); a job that does not fit
 *          starts anyway when idle nodes plus the nodes of running jobs that
 *          arrived after it cover its need, suspending those jobs newest
 *          first (they go back to the queue: a migration).
 *   AMBF   CMBF where only the head of the queue may suspend others.
 *   CMCBF  Algorithms 2-4: every node has a fg and a bg slot.
 *          fg departure (Alg. 2): scan the queue and the bg jobs in arrival
 *            order; a job starts or is promoted to fg when idle fg nodes
 *            plus fg nodes of later jobs cover its need, the later jobs being
 *            switched to bg in place when their bg slots are free, else
 *            suspended;
 *          bg departure (Alg. 3): queued jobs in arrival order fill the bg
 *            slots that may take them;
 *          arrival (Alg. 4): a new job starts in fg if enough fg slots are
 *            idle, else in bg if enough bg slots may take it, else waits.
 *          Alg. 3's bg pass also runs after a fg departure, because
 *          dispatch may have evicted bg jobs (Fig. 2, t = 5: J7 goes to bg
 *          after J2's fg departure), but not after an arrival alone:
 *          there Alg. 4 decides for the new job only.
 *   AMCBF  CMCBF where only the head of the queue (the first job of
 *          Q u J_bg not in fg) may evict fg jobs; other bg jobs are
 *          promoted only into idle fg slots.
 *
 * Choices where the paper leaves room, all visible in the hand-worked tests
 * (test/unit/test_sched_consolidation.c, seed Figs. 1 and 2):
 *   - "jobs arriving later than j" are all running jobs that arrived after
 *     j (Alg. 1 lines 12 and 14 count them the same way);
 *   - victims are collected newest first until they cover the need, then
 *     every collected job not needed is spared (Fig. 1, t = 5: J6 and J5 are
 *     collected, only J5 is evicted);
 *   - "head of the queue" is the first job of Q u J_bg that the scan of
 *     Alg. 2 has not placed in fg (line 2 starts the scan there): a job
 *     running in bg may be the head, and then it preempts later fg jobs
 *     to get its fg nodes; without that the earliest job could sit in bg
 *     indefinitely while later jobs take every fg node freed;
 *   - a pinned job (sched_job_t.pinned: a placeholder of the driver for
 *     a node it may not use) is neither the head nor a victim, and stays
 *     in its tier;
 *   - a job restricted to some nodes (sched_job_t.allowed: Slurm's
 *     partitions, features, -w and -x) counts and takes only those, and
 *     preempts only jobs holding some of them;
 *   - the site's rules (sched_rules.h): a queued job whose licenses are
 *     not free is passed over (not started, not the head, no victim for
 *     it); a later job is a victim only if the site lets this job preempt
 *     it, so a waiting job takes an unprotected victim where one exists
 *     and waits where none does.
 */
#include <stdlib.h>
#include <string.h>

#include "sched_dispatch.h"
#include "sched_engine.h"
#include "sched_reservation.h"
#include "sched_rules.h"

/* later[j]: fg nodes held by jobs after j in arrival order; recomputed
 * whenever the decision list has grown since the last computation.  For a
 * job restricted to some nodes only those it may use count, computed
 * afresh. */
/* Which fg jobs a waiting job may preempt (cfg->requeue_victims). */
typedef enum {
	VICTIMS_ANY,	/* any later fg job: to bg in place or requeued */
	VICTIMS_SWAP,	/* only those that can go to bg in place */
	VICTIMS_NONE,	/* none: untiered engines that may not requeue */
} victims_t;

typedef struct {
	int *later;
	size_t seen;
	int valid;
	victims_t victims;
	double util_threshold;	/* cfg's, for VICTIMS_SWAP */
} later_fg_t;

static int bg_slots_free(const sched_state_t *st, const sched_job_t *job);

/* May fg job k go to the bg slots of its own nodes, all free, under job j
 * (-1: a job that neither shares nor is asks_only), which takes its fg
 * places: the two then hold those CPUs together (sched_may_pair). */
static int swaps_under(const sched_state_t *st, long j, size_t k)
{
	return bg_slots_free(st, &st->jobs[k]) &&
	       sched_may_pair(st, j, (long)k);
}

static victims_t victims_of(const sched_config_t *cfg, int tiered)
{
	int requeue = cfg->requeue_victims == SCHED_REQUEUE_AUTO ? !tiered
						: cfg->requeue_victims;
	if (requeue)
		return VICTIMS_ANY;
	return tiered ? VICTIMS_SWAP : VICTIMS_NONE;
}

/* May fg job k be preempted for job j (-1: by anyone that neither shares
 * nor is asks_only, the site's pairwise rule left out). */
static int victim_of(const sched_state_t *st, long j, size_t k,
		     victims_t victims)
{
	const sched_job_t *job = &st->jobs[k];
	if (job->where != SCHED_RUNNING_FG || job->pinned || job->no_preempt ||
	    victims == VICTIMS_NONE ||
	    (job->fg_only && victims == VICTIMS_SWAP))
		return 0;
	return victims == VICTIMS_ANY || swaps_under(st, j, k);
}

/* May fg job k be preempted (by anyone). */
static int is_victim(const sched_state_t *st, size_t k, victims_t victims)
{
	return victim_of(st, -1, k, victims);
}

/* May fg job k be preempted for job j (the site's pairwise rule). */
static int is_victim_for(const sched_state_t *st, size_t j, size_t k,
			 victims_t victims)
{
	return victim_of(st, (long)j, k, victims) &&
	       sched_may_preempt(st, j, k);
}

/* Is queued job j passed over: its licenses are not free (sched_rules.h). */
static int passed_over(const sched_state_t *st, size_t j)
{
	return st->jobs[j].where == SCHED_QUEUED && !sched_licenses_ok(st, j);
}

/* Nodes of running job k that job j (-1: a job that may use any node and
 * neither shares nor is asks_only) may use and whose fg place it may take
 * once k has left it: the bg job there, if any, may pair with j
 * (sched_may_pair). */
static int usable_nodes_of(const sched_state_t *st, long j, size_t k)
{
	const sched_job_t *job = &st->jobs[k];
	int count = 0;
	for (int p = 0; p < job->nodes; p++) {
		int n = job->alloc[p], bg = st->nodes[n].bg_job;
		count += (j < 0 || sched_may_use(st, (size_t)j, n)) &&
			 (bg < 0 || sched_may_pair(st, j, bg));
	}
	return count;
}

/* A victim switched to bg beside a fg process at or above the threshold
 * is evicted by dispatch (Alg. 2 line 25): with VICTIMS_SWAP such a job
 * preempts nobody. */
static int keeps_victims_in_bg(const sched_state_t *st, size_t j,
			       double util_threshold)
{
	const sched_job_t *job = &st->jobs[j];
	for (int p = 0; p < job->nodes; p++)
		if (job->util[p] >= util_threshold)
			return 0;
	return 1;
}

static int later_fg(later_fg_t *l, const sched_state_t *st,
		    const sched_decisions_t *out, size_t j)
{
	if (l->victims == VICTIMS_SWAP &&
	    !keeps_victims_in_bg(st, j, l->util_threshold))
		return 0;
	if (sched_counts_own(st, j) || st->may_preempt) {
		int sum = 0;
		for (size_t k = j + 1; k < st->njobs; k++)
			if (is_victim_for(st, j, k, l->victims))
				sum += usable_nodes_of(st, (long)j, k);
		return sum;
	}
	if (!l->valid || l->seen != out->count) {
		int sum = 0;
		for (size_t k = st->njobs; k-- > 0;) {
			l->later[k] = sum;
			if (is_victim(st, k, l->victims))
				sum += usable_nodes_of(st, -1, k);
		}
		l->seen = out->count;
		l->valid = 1;
	}
	return l->later[j];
}

static int bg_slots_free(const sched_state_t *st, const sched_job_t *job)
{
	for (int p = 0; p < job->nodes; p++)
		if (st->nodes[job->alloc[p]].bg_job >= 0)
			return 0;
	return 1;
}

/* The head waits for the end of the fg jobs it may not preempt: those
 * that arrived before it, and those that are no victims
 * (later_fg_t.victims; is_victim). */
static int holds_for_head(const sched_state_t *st, size_t k, size_t head,
			  const void *ctx)
{
	const later_fg_t *l = ctx;
	if (k < head || !is_victim_for(st, head, k, l->victims))
		return 1;
	return l->victims == VICTIMS_SWAP &&
	       !keeps_victims_in_bg(st, head, l->util_threshold);
}

/*
 * cfg->reserve: the head's reservation once it waits.  The nodes of later
 * fg jobs count as the head's now (it may preempt them), so the
 * reservation keeps later jobs from starting where the head would
 * preempt them at its shadow time.  Without cfg->reserve r stays inactive.
 */
static int reserve_for_head(const sched_state_t *st,
			    const sched_config_t *cfg, later_fg_t *l,
			    const sched_decisions_t *out, size_t head,
			    sched_reservation_t *r)
{
	r->active = 0;
	if (!cfg->reserve)
		return 0;
	int avail = sched_fg_idle_for(st, head) +
		    later_fg(l, st, out, head);
	return sched_reserve(st, head, avail, holds_for_head, l, r);
}

/*
 * Free `need` more fg nodes for job j from the fg jobs that arrived after
 * it: collect them newest first until they cover the need, spare those not
 * needed, then switch each victim to its bg slots (tiered, when they are all
 * free) or suspend it.  Only nodes job j may use count; a job holding none
 * of them is never a victim.
 */
static int evict_later(sched_state_t *st, sched_decisions_t *out, size_t j,
		       int need, int tiered, victims_t who)
{
	size_t *victims = malloc((st->njobs ? st->njobs : 1) *
				 sizeof(*victims));
	if (!victims)
		return -1;
	size_t nv = 0;
	int sum = 0;
	for (size_t k = st->njobs; k-- > j + 1 && sum < need;) {
		int usable;
		if (is_victim_for(st, j, k, who) &&
		    (usable = usable_nodes_of(st, (long)j, k)) > 0) {
			victims[nv++] = k;
			sum += usable;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < nv; i++) {
		size_t k = victims[i];
		int nodes = usable_nodes_of(st, (long)j, k);
		if (i + 1 < nv && sum - nodes >= need) {
			sum -= nodes;	/* not needed: spared */
			continue;
		}
		if (tiered && swaps_under(st, (long)j, k))
			rc = sched_swap_to_bg_for(st, out, k, j);
		else
			rc = sched_requeue_for(st, out, k, j);
		if (rc)
			break;
	}
	free(victims);
	return rc;
}

/* One scan of the queue in arrival order: whether a job before the
 * current one waits, and the head's reservation once one does. */
typedef struct {
	int waiting_before;
	sched_reservation_t r;
} scan_t;

/*
 * On hosts (sched_host.h) slots are not interchangeable: a job may need
 * whole hosts, memory or GPUs.  Where sched_fit places job j with every
 * later fg job it may preempt gone, and evict those of them on the places
 * it takes, newest first (to bg in place when tiered and their bg places
 * are free, else requeued).  0: it fits now (nothing evicted when it
 * already did); 1: it does not fit even so, or it may not preempt and
 * does not fit; -1 out of memory.
 */
static int evict_for_fit(sched_state_t *st, sched_decisions_t *out, size_t j,
			 int tiered, victims_t who, const sched_hold_t *hold,
			 int may_preempt)
{
	int n = st->jobs[j].nodes > 0 ? st->jobs[j].nodes : 1;
	int *slots = malloc((size_t)n * sizeof(int));
	sched_state_t sc = *st;
	unsigned char *mark = NULL;
	int rc = -1, fit;

	sc.nodes = NULL;
	sc.hosts = NULL;
	if (!slots)
		goto out;
	fit = sched_fit(st, NULL, j, SCHED_TIER_FG, hold, slots);
	if (fit != 0 || !may_preempt) {
		rc = fit < 0 ? -1 : !fit;
		goto out;
	}
	sc.nodes = malloc((size_t)st->nnodes * sizeof(*sc.nodes));
	sc.hosts = malloc((size_t)st->nhosts * sizeof(*sc.hosts));
	mark = calloc(st->njobs ? st->njobs : 1, 1);
	if (!sc.nodes || !sc.hosts || !mark)
		goto out;
	memcpy(sc.nodes, st->nodes, (size_t)st->nnodes * sizeof(*sc.nodes));
	memcpy(sc.hosts, st->hosts, (size_t)st->nhosts * sizeof(*sc.hosts));
	for (size_t k = j + 1; k < st->njobs; k++) {
		const sched_job_t *v = &st->jobs[k];
		if (!is_victim_for(st, j, k, who))
			continue;
		for (int p = 0; p < v->nodes; p++)
			sc.nodes[v->alloc[p]].fg_job = -1;
		sched_hosts_account(&sc, k, SCHED_TIER_FG, -1);
	}
	fit = sched_fit(&sc, NULL, j, SCHED_TIER_FG, hold, slots);
	if (fit <= 0) {
		rc = fit < 0 ? -1 : 1;
		goto out;
	}
	for (int p = 0; p < st->jobs[j].nodes; p++)
		if (st->nodes[slots[p]].fg_job >= 0)
			mark[st->nodes[slots[p]].fg_job] = 1;
	rc = 0;
	for (size_t k = st->njobs; rc == 0 && k-- > j + 1;) {
		if (!mark[k])
			continue;
		if (tiered && swaps_under(st, (long)j, k))
			rc = sched_swap_to_bg_for(st, out, k, j);
		else
			rc = sched_requeue_for(st, out, k, j);
	}
out:
	free(slots);
	free(sc.nodes);
	free(sc.hosts);
	free(mark);
	return rc;
}


/* Job j waits: the first that does is the head and takes the reservation
 * (cfg->reserve).  0, or -1 out of memory. */
static int waits(scan_t *sc, const sched_state_t *st,
		 const sched_config_t *cfg, later_fg_t *l,
		 const sched_decisions_t *out, size_t j)
{
	if (!sc->waiting_before &&
	    reserve_for_head(st, cfg, l, out, j, &sc->r))
		return -1;
	sc->waiting_before = 1;
	return 0;
}

/*
 * Does job j start in fg now: on `idle` idle fg nodes it may use, or, when
 * it may preempt (always in CMBF and CMCBF; only as the head in AMBF and
 * AMCBF), with the fg nodes of later jobs too; and, after a waiting head,
 * only where it leaves the head's reservation alone.  The first job that
 * does not start is the head and takes the reservation (cfg->reserve).
 * 1: it starts, 0: it waits, -1: out of memory.
 */
static int starts_in_fg(scan_t *sc, const sched_state_t *st,
			const sched_config_t *cfg, later_fg_t *l,
			const sched_decisions_t *out, size_t j, int idle,
			int aggressive)
{
	int need = st->jobs[j].nodes;
	int fits = need <= idle;
	if (!fits && (!aggressive || !sc->waiting_before))
		fits = need <= idle + later_fg(l, st, out, j);
	if (fits && sched_reservation_admits(st, &sc->r, j))
		return 1;
	return waits(sc, st, cfg, l, out, j) ? -1 : 0;
}

/* Algorithm 1 (CMBF), and AMBF when aggressive. */
static int basic_backfill(sched_state_t *st, const sched_config_t *cfg,
			  sched_decisions_t *out, int aggressive)
{
	later_fg_t l = { malloc((st->njobs ? st->njobs : 1) * sizeof(int)),
			 0, 0, victims_of(cfg, 0),
			 cfg->util_threshold };
	int *nodes = malloc((size_t)(st->nnodes ? st->nnodes : 1) *
			    sizeof(int));
	int rc = -1;
	scan_t sc = { 0 };
	if (!l.later || !nodes)
		goto out;
	int idle = sched_fg_idle_count(st);
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED || passed_over(st, j))
			continue;
		int free_here = job->allowed ? sched_fg_idle_for(st, j) : idle;
		int starts = starts_in_fg(&sc, st, cfg, &l, out, j, free_here,
					  aggressive);
		if (starts < 0)
			goto out;
		if (!starts)
			continue;
		if (st->hosts) {
			int e = evict_for_fit(st, out, j, 0, l.victims,
				sched_reservation_hold(st, &sc.r, j),
				!aggressive || !sc.waiting_before);
			if (e < 0 || (e > 0 && waits(&sc, st, cfg, &l, out, j)))
				goto out;
			if (e > 0)
				continue;
		} else if (job->nodes > free_here &&
			   evict_later(st, out, j, job->nodes - free_here, 0,
				       l.victims)) {
			goto out;
		}
		int fit = sched_fit(st, NULL, j, SCHED_TIER_FG,
				    sched_reservation_hold(st, &sc.r, j), nodes);
		if (fit < 0 || (!fit && waits(&sc, st, cfg, &l, out, j)))
			goto out;
		if (!fit)
			continue;
		if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
			goto out;
		idle = sched_fg_idle_count(st);
	}
	rc = 0;
out:
	sched_reservation_free(&sc.r);
	free(l.later);
	free(nodes);
	return rc;
}

/* Algorithm 2: on a fg departure, over Q and J_bg in arrival order. */
static int fg_pass(sched_state_t *st, const sched_config_t *cfg,
		   sched_decisions_t *out, int aggressive)
{
	later_fg_t l = { malloc((st->njobs ? st->njobs : 1) * sizeof(int)),
			 0, 0, victims_of(cfg, 1),
			 cfg->util_threshold };
	int *old = malloc((size_t)(st->nnodes ? st->nnodes : 1) *
			  sizeof(int));
	int rc = -1;
	scan_t sc = { 0 };
	if (!l.later || !old)
		goto out;
	/* idle fg nodes, for the jobs that may use any node: counted again
	 * only after the state changed (a job started), not once a job */
	int idle_any = -1;
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where == SCHED_RUNNING_FG || job->pinned ||
		    passed_over(st, j))
			continue;
		int own = sched_counts_own(st, j);
		if (!own && idle_any < 0)
			idle_any = sched_fg_idle_count(st);
		int fidle = own ? sched_fg_idle_for(st, j) : idle_any;
		int in_bg = job->where == SCHED_RUNNING_BG;
		int lifted = 0;
		/* the head is the first job of Q u J_bg (Alg. 2 line 2), in
		 * bg or not */
		int starts = starts_in_fg(&sc, st, cfg, &l, out, j, fidle,
					  aggressive);
		if (starts < 0)
			goto out;
		if (!starts)
			continue;
		idle_any = -1;
		if (st->hosts) {
			int may = !aggressive || !sc.waiting_before;
			if (in_bg) {
				memcpy(old, job->alloc,
				       (size_t)job->nodes * sizeof(int));
				sched_lift_bg(st, j);
				lifted = 1;
			}
			int e = evict_for_fit(st, out, j, 1, l.victims,
				sched_reservation_hold(st, &sc.r, j), may);
			if (e < 0)
				goto out;
			if (e > 0) {
				if ((in_bg && sched_unlift_bg(st, out, j, old)) ||
				    waits(&sc, st, cfg, &l, out, j))
					goto out;
				continue;
			}
		} else if (job->nodes > fidle) {
			if (in_bg) {	/* its bg slots become free first */
				memcpy(old, job->alloc,
				       (size_t)job->nodes * sizeof(int));
				sched_lift_bg(st, j);
				lifted = 1;
			}
			if (evict_later(st, out, j, job->nodes - fidle, 1,
					l.victims))
				goto out;
		}
		if (in_bg && !lifted) {
			memcpy(old, job->alloc, (size_t)job->nodes * sizeof(int));
			sched_lift_bg(st, j);
		}
		int placed = sched_dispatch_fg(st, cfg, out, j,
					       in_bg ? old : NULL,
					       sched_reservation_hold(st, &sc.r,
								      j));
		if (placed < 0)
			goto out;
		/* on hosts its memory or GPUs may not fit: back where it
		 * was, and it waits */
		if (placed && ((in_bg && sched_unlift_bg(st, out, j, old)) ||
			       waits(&sc, st, cfg, &l, out, j)))
			goto out;
	}
	rc = 0;
out:
	sched_reservation_free(&sc.r);
	free(l.later);
	free(old);
	return rc;
}

/* The first job of Q u J_bg, or njobs if none. */
static size_t first_waiting(const sched_state_t *st)
{
	for (size_t j = 0; j < st->njobs; j++)
		if (st->jobs[j].where != SCHED_RUNNING_FG &&
		    !st->jobs[j].pinned && !passed_over(st, j))
			return j;
	return st->njobs;
}

/* Algorithm 4: new arrivals, fg if it fits, else bg if it fits; with
 * cfg->reserve a new job that is not the head starts in fg only where it
 * leaves the head's reservation alone. */
static int arrivals(sched_state_t *st, const sched_config_t *cfg,
		    sched_decisions_t *out)
{
	sched_reservation_t r = { 0 };
	size_t head = first_waiting(st);
	if (cfg->reserve && head < st->njobs && !st->jobs[head].is_new) {
		later_fg_t l = { malloc((st->njobs ? st->njobs : 1) *
					sizeof(int)), 0, 0,
				 victims_of(cfg, 1), cfg->util_threshold };
		int rc = l.later ? reserve_for_head(st, cfg, &l, out, head, &r)
				 : -1;
		free(l.later);
		if (rc) {
			sched_reservation_free(&r);
			return -1;
		}
	}
	/* for the jobs that may use any node, the idle fg nodes and the bg
	 * eligible ones are counted again only after a dispatch changed the
	 * state, not once a job: the same counts, O(nodes) per start rather
	 * than per new job */
	int fg_any = -1, bg_any = -1;
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (!job->is_new || job->where != SCHED_QUEUED ||
		    passed_over(st, j))
			continue;
		int own = sched_counts_own(st, j);
		if (!own && fg_any < 0)
			fg_any = sched_fg_idle_count(st);
		if (job->nodes <= (own ? sched_fg_idle_for(st, j) : fg_any) &&
		    (j == head || sched_reservation_admits(st, &r, j))) {
			int placed = sched_dispatch_fg(st, cfg, out, j, NULL,
				j == head ? NULL :
				sched_reservation_hold(st, &r, j));
			if (placed < 0)
				goto fail;
			if (!placed) {
				fg_any = bg_any = -1;
				continue;
			}
		}
		/* a job that shares may also take places beside fg jobs
		 * that share, an asks_only one none by CPU use: counted
		 * for it alone */
		if (!own && bg_any < 0)
			bg_any = sched_bg_eligible_count(st, cfg);
		if (job->nodes <= (own ? sched_bg_eligible_for(st, cfg, j) :
				   bg_any)) {
			fg_any = bg_any = -1;
			if (sched_dispatch_bg(st, cfg, out, j) < 0)
				goto fail;
		}
	}
	sched_reservation_free(&r);
	return 0;
fail:
	sched_reservation_free(&r);
	return -1;
}

/* Algorithm 3: queued jobs in arrival order fill the bg slots; a job
 * that shares (sched_job_t.shares) also the bg places beside fg jobs
 * that share, which the count of eligible slots leaves out. */
static int bg_pass(sched_state_t *st, const sched_config_t *cfg,
		   sched_decisions_t *out)
{
	int bidle = sched_bg_eligible_count(st, cfg);
	int sharing = 0;
	for (size_t j = 0; j < st->njobs; j++)
		sharing |= st->jobs[j].where == SCHED_QUEUED &&
			   st->jobs[j].shares;
	for (size_t j = 0; j < st->njobs && (bidle > 0 || sharing); j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED || passed_over(st, j) ||
		    (!job->shares && job->nodes > bidle) ||
		    (sched_counts_own(st, j) &&
		     job->nodes > sched_bg_eligible_for(st, cfg, j)))
			continue;
		int rc = sched_dispatch_bg(st, cfg, out, j);
		if (rc < 0)
			return -1;
		/* a sharing job may take places the count left out */
		if (rc == 0)
			bidle = job->shares ? sched_bg_eligible_count(st, cfg) :
				bidle - job->nodes;
	}
	return 0;
}

static int consolidation_backfill(sched_state_t *st,
				  const sched_config_t *cfg, unsigned events,
				  sched_decisions_t *out, int aggressive)
{
	if ((events & SCHED_EV_FG_DEPARTURE) &&
	    fg_pass(st, cfg, out, aggressive))
		return -1;
	if ((events & SCHED_EV_ARRIVAL) && arrivals(st, cfg, out))
		return -1;
	/* Alg. 3 at a bg departure; after a fg departure too, since
	 * dispatch may have freed bg slots (Fig. 2, t = 5); an arrival alone
	 * is Alg. 4's, which placed the new job or left it queued */
	if (!(events & (SCHED_EV_BG_DEPARTURE | SCHED_EV_FG_DEPARTURE)))
		return 0;
	return bg_pass(st, cfg, out);
}

int sched_cmbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out)
{
	return basic_backfill(st, cfg, out, 0);
}

int sched_ambf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out)
{
	return basic_backfill(st, cfg, out, 1);
}

int sched_cmcbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
		sched_decisions_t *out)
{
	return consolidation_backfill(st, cfg, events, out, 0);
}

int sched_amcbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
		sched_decisions_t *out)
{
	return consolidation_backfill(st, cfg, events, out, 1);
}
