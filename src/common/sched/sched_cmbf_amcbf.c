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
 *     preempts only jobs holding some of them.
 */
#include <stdlib.h>
#include <string.h>

#include "sched_dispatch.h"
#include "sched_engine.h"

/* later[j]: fg nodes held by jobs after j in arrival order; recomputed
 * whenever the decision list has grown since the last computation.  For a
 * job restricted to some nodes only those it may use count, computed
 * afresh. */
typedef struct {
	int *later;
	size_t seen;
	int valid;
} later_fg_t;

/* Nodes of running job k that job j may use. */
static int usable_nodes_of(const sched_state_t *st, size_t j, size_t k)
{
	const sched_job_t *job = &st->jobs[k];
	if (!st->jobs[j].allowed)
		return job->nodes;
	int count = 0;
	for (int p = 0; p < job->nodes; p++)
		count += sched_may_use(st, j, job->alloc[p]);
	return count;
}

static int later_fg(later_fg_t *l, const sched_state_t *st,
		    const sched_decisions_t *out, size_t j)
{
	if (st->jobs[j].allowed) {
		int sum = 0;
		for (size_t k = j + 1; k < st->njobs; k++)
			if (st->jobs[k].where == SCHED_RUNNING_FG &&
			    !st->jobs[k].pinned)
				sum += usable_nodes_of(st, j, k);
		return sum;
	}
	if (!l->valid || l->seen != out->count) {
		int sum = 0;
		for (size_t k = st->njobs; k-- > 0;) {
			l->later[k] = sum;
			if (st->jobs[k].where == SCHED_RUNNING_FG &&
			    !st->jobs[k].pinned)
				sum += st->jobs[k].nodes;
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

/*
 * Free `need` more fg nodes for job j from the fg jobs that arrived after
 * it: collect them newest first until they cover the need, spare those not
 * needed, then switch each victim to its bg slots (tiered, when they are all
 * free) or suspend it.  Only nodes job j may use count; a job holding none
 * of them is never a victim.
 */
static int evict_later(sched_state_t *st, sched_decisions_t *out, size_t j,
		       int need, int tiered)
{
	size_t *victims = malloc((st->njobs ? st->njobs : 1) *
				 sizeof(*victims));
	if (!victims)
		return -1;
	size_t nv = 0;
	int sum = 0;
	for (size_t k = st->njobs; k-- > j + 1 && sum < need;) {
		int usable;
		if (st->jobs[k].where == SCHED_RUNNING_FG && !st->jobs[k].pinned &&
		    (usable = usable_nodes_of(st, j, k)) > 0) {
			victims[nv++] = k;
			sum += usable;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < nv; i++) {
		size_t k = victims[i];
		int nodes = usable_nodes_of(st, j, k);
		if (i + 1 < nv && sum - nodes >= need) {
			sum -= nodes;	/* not needed: spared */
			continue;
		}
		if (tiered && bg_slots_free(st, &st->jobs[k]))
			rc = sched_swap_to_bg(st, out, k);
		else
			rc = sched_requeue(st, out, k);
		if (rc)
			break;
	}
	free(victims);
	return rc;
}

/* Algorithm 1 (CMBF), and AMBF when aggressive. */
static int basic_backfill(sched_state_t *st, sched_decisions_t *out,
			  int aggressive)
{
	later_fg_t l = { malloc((st->njobs ? st->njobs : 1) * sizeof(int)),
			 0, 0 };
	int *nodes = malloc((size_t)(st->nnodes ? st->nnodes : 1) *
			    sizeof(int));
	int rc = -1;
	if (!l.later || !nodes)
		goto out;
	int idle = sched_fg_idle_count(st);
	int waiting_before = 0;	/* a job before this one still waits */
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED)
			continue;
		int free_here = job->allowed ? sched_fg_idle_for(st, j) : idle;
		if (job->nodes > free_here) {
			int may_preempt = !aggressive || !waiting_before;
			if (!may_preempt ||
			    job->nodes > free_here + later_fg(&l, st, out, j)) {
				waiting_before = 1;
				continue;
			}
			if (evict_later(st, out, j, job->nodes - free_here, 0))
				goto out;
		}
		sched_pick_idle_fg(st, j, nodes);
		if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
			goto out;
		idle = sched_fg_idle_count(st);
	}
	rc = 0;
out:
	free(l.later);
	free(nodes);
	return rc;
}

/* Algorithm 2: on a fg departure, over Q and J_bg in arrival order. */
static int fg_pass(sched_state_t *st, const sched_config_t *cfg,
		   sched_decisions_t *out, int aggressive)
{
	later_fg_t l = { malloc((st->njobs ? st->njobs : 1) * sizeof(int)),
			 0, 0 };
	int *old = malloc((size_t)(st->nnodes ? st->nnodes : 1) *
			  sizeof(int));
	int rc = -1;
	if (!l.later || !old)
		goto out;
	int waiting_before = 0;
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where == SCHED_RUNNING_FG || job->pinned)
			continue;
		int fidle = sched_fg_idle_for(st, j);
		int in_bg = job->where == SCHED_RUNNING_BG;
		int lifted = 0;
		if (job->nodes > fidle) {
			/* the head is the first job of Q u J_bg (Alg. 2
			 * line 2), in bg or not */
			int may_preempt = !aggressive || !waiting_before;
			if (!may_preempt ||
			    job->nodes > fidle + later_fg(&l, st, out, j)) {
				waiting_before = 1;
				continue;
			}
			if (in_bg) {	/* its bg slots become free first */
				memcpy(old, job->alloc,
				       (size_t)job->nodes * sizeof(int));
				sched_lift_bg(st, j);
				lifted = 1;
			}
			if (evict_later(st, out, j, job->nodes - fidle, 1))
				goto out;
		}
		if (in_bg && !lifted) {
			memcpy(old, job->alloc, (size_t)job->nodes * sizeof(int));
			sched_lift_bg(st, j);
		}
		if (sched_dispatch_fg(st, cfg, out, j, in_bg ? old : NULL))
			goto out;
	}
	rc = 0;
out:
	free(l.later);
	free(old);
	return rc;
}

/* Algorithm 4: new arrivals, fg if it fits, else bg if it fits. */
static int arrivals(sched_state_t *st, const sched_config_t *cfg,
		    sched_decisions_t *out)
{
	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		if (!job->is_new || job->where != SCHED_QUEUED)
			continue;
		if (job->nodes <= sched_fg_idle_for(st, j)) {
			if (sched_dispatch_fg(st, cfg, out, j, NULL))
				return -1;
		} else if (job->nodes <= sched_bg_eligible_for(st, cfg, j)) {
			if (sched_dispatch_bg(st, cfg, out, j) < 0)
				return -1;
		}
	}
	return 0;
}

/* Algorithm 3: queued jobs in arrival order fill the bg slots. */
static int bg_pass(sched_state_t *st, const sched_config_t *cfg,
		   sched_decisions_t *out)
{
	int bidle = sched_bg_eligible_count(st, cfg);
	for (size_t j = 0; j < st->njobs && bidle > 0; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED || job->nodes > bidle ||
		    (job->allowed &&
		     job->nodes > sched_bg_eligible_for(st, cfg, j)))
			continue;
		int rc = sched_dispatch_bg(st, cfg, out, j);
		if (rc < 0)
			return -1;
		if (rc == 0)
			bidle -= job->nodes;
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
	return basic_backfill(st, out, 0);
}

int sched_ambf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out)
{
	return basic_backfill(st, out, 1);
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
