/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_decide_dfrs.c - the decider of sched/amcbf's amcbf_mode=dfrs
 * (amcbf_decide.h): the adapter between slurmctld and the online DFRS
 * policies of Stillwell et al. 2010 ("Online Non-Clairvoyant Problem":
 * GreedyP, GreedyPM, MCB with periodic repacking and minvt;
 * src/common/dfrs/dfrs_online.c, the same code dfrs sim runs).
 *
 * Each cycle (amcbf_cycle.c) with an event (a job arrived, a job left,
 * or amcbf_dfrs_period has passed) rebuilds the policy's cluster, the
 * view, from slurmctld's records (amcbf_dfrs_view.c: the jobs the policy
 * may move with their DFRS shape, state and virtual time, the others'
 * memory off their nodes, the site's licenses and pairwise preemption
 * rule); the test before each start and the check of each requeue
 * (amcbf_preempt_for) stay as second nets.
 *
 * The view is read with slurmctld's locks held; the policy decides with no
 * lock held; the decisions are applied with the locks again (yielded every
 * amcbf_yield_interval ms), each to a job still as it was read
 * (amcbf_still_as_seen).  The policy decides at the completion, at the arrivals
 * (all the cycle found, at once, in submit order:
 * dfrs_online_decide_arrivals), then at the periodic event; the decisions
 * are applied as Slurm can:
 *   RUNNING -> SUSPENDED, or RUNNING on other nodes (a migration):
 *       requeue (after the checkpoint signal, amcbf_ckpt_*); the job keeps
 *       the nodes the policy chose, and a later cycle resumes it (a start)
 *       where the policy says then;
 *   PENDING or SUSPENDED -> RUNNING: start on the policy's nodes; if Slurm
 *       refuses them (e.g. the job's -w, -x or features, which the policy
 *       does not know), on whichever of its usable nodes select/dfrs picks;
 * and no job starts in a cycle that requeued one (its nodes are not free
 * before it leaves).  The policy runs with the requeue model
 * (dfrs_online.h): a running job that does not checkpoint (one that does
 * not get amcbf_ckpt_signal: it did not ask for it with --signal)
 * restarts from scratch when requeued, so
 * only an arrival may take it off its nodes, and repacks leave it where it
 * runs.  Yields are select/dfrs's: it reallocates them max-min
 * at every start and end, as the policy does.
 */
#include "src/common/slurm_xlator.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_allowed.h"
#include "amcbf_start.h"
#include "amcbf_decide.h"
#include "amcbf_dfrs_rules.h"
#include "amcbf_dfrs_view.h"
#include "amcbf_locks.h"
#include "amcbf_preempt.h"
#include "dfrs_job_shape.h"
#include "dfrs/dfrs_online.h"

static bool same_hosts(const int *a, const int *b, int n)
{
	for (int t = 0; t < n; t++)
		if (a[t] != b[t])
			return false;
	return true;
}

/* Start on the policy's nodes, else wherever select/dfrs fits the job
 * among the nodes it may use. */
static int start_job(job_record_t *job_ptr, const int *hosts, int n)
{
	unsigned char *allowed;
	int *nodes, count = 0, rc;

	if ((rc = amcbf_start_on(job_ptr, hosts, n)) == SLURM_SUCCESS)
		return rc;
	debug("%pJ refused on the policy's nodes (%s): letting select/dfrs choose",
	      job_ptr, slurm_strerror(rc));
	allowed = amcbf_job_allowed(job_ptr, n);
	nodes = xcalloc(node_record_count ? node_record_count : 1, sizeof(int));
	for (int i = 0; i < node_record_count; i++)
		if ((!allowed || allowed[i]) &&
		    amcbf_node_usable(i))
			nodes[count++] = i;
	rc = count >= n ? amcbf_start_on(job_ptr, nodes, count) : ESLURM_NODES_BUSY;
	xfree(nodes);
	xfree(allowed);
	return rc;
}

/* Decide at one event (at an arrival, for the narrived jobs of arrived) and
 * apply it to the view; false on a bad state.  *held: the starving job last
 * logged as keeping its room (0: none), so that it is logged once. */
static bool decide(const dfrs_online_params_t *op, dfrs_cluster_t *cl,
		   dfrs_event_t event, const int *arrived, int narrived,
		   const char *policy, long *held, amcbf_dfrs_rules_t *rules)
{
	dfrs_decisions_t d = { 0 };
	char err[256];
	int rc = event == DFRS_EVENT_ARRIVAL ?
		 dfrs_online_decide_arrivals(op, cl, arrived, narrived, &d,
					     err, sizeof(err)) :
		 dfrs_online_decide(op, cl, event, -1, &d, err, sizeof(err));

	if (rc) {
		error("dfrs(%s): no decision this cycle: %s", policy, err);
		return false;
	}
	if (d.claimed >= 0) {
		const dfrs_online_job_t *c = &cl->jobs[d.claimed];

		info("dfrs(%s): JobId=%ld starving (in the system %.1f times its time limit, amcbf_dfrs_starve_bsld=%g): takes room at this submission",
		     policy, c->id, dfrs_online_waited_bsld(c, cl->now),
		     op->starve_bsld);
	}
	if (d.repacked && cl->njobs > 0)
		debug("dfrs(%s): repacked every job (METAVP), minimum scaled yield %.3f",
		      policy, d.min_scaled_yield);
	if (d.held >= 0 && cl->jobs[d.held].id != *held) {
		const dfrs_online_job_t *h = &cl->jobs[d.held];

		info("dfrs(%s): JobId=%ld starving (in the system %.1f times its time limit, amcbf_dfrs_starve_bsld=%g) does not fit yet: no job behind it starts until it does",
		     policy, h->id, dfrs_online_waited_bsld(h, cl->now),
		     op->starve_bsld);
		*held = h->id;
	} else if (d.held < 0 && event != DFRS_EVENT_PERIODIC) {
		*held = 0;
	}
	/* the next decision of the cycle sees the licenses these starts took */
	amcbf_dfrs_rules_started(rules, cl, &d);
	dfrs_online_apply(cl, &d);
	dfrs_decisions_free(&d);
	return true;
}

/* Is the periodic event due (amcbf_dfrs_period has passed)? */
static bool periodic_due(amcbf_memory_t *mem, const dfrs_params_t *params,
			 time_t now)
{
	if (params->dfrs_period <= 0)
		return false;
	if (!mem->last_periodic) {
		mem->last_periodic = now;
		return false;
	}
	if (difftime(now, mem->last_periodic) < params->dfrs_period)
		return false;
	mem->last_periodic = now;
	return true;
}

/* Decide at the completion, at the arrivals (all at once, in submit order:
 * one decision whatever their number), then at the periodic event, each on
 * the state the previous left; false on a bad state (logged).  Remembers
 * each job's state and hosts before, and in *repack_yield what the last
 * full repack reached (amcbf_dfrs_repack_drift and _tolerance start from
 * it at the next cycle), and in *held the starving job last logged as
 * keeping its room. */
static bool decide_events(amcbf_dfrs_view_t *v, const dfrs_params_t *params,
			  unsigned events, bool periodic, double now,
			  const char *policy, double *repack_yield, long *held)
{
	dfrs_online_params_t op;
	dfrs_cluster_t cl;
	int *arrived = xcalloc(v->narrivals ? v->narrivals : 1, sizeof(int));
	int narrived = 0;
	bool ok = true;

	dfrs_online_params_default(&op, params->dfrs_policy);
	op.priority = DFRS_PRIO_FT_VT2;
	op.period = params->dfrs_period;
	op.minvt = params->dfrs_minvt;
	op.repack_algorithms = params->dfrs_repack_algorithms;
	op.repack_drift = params->dfrs_repack_drift;
	op.repack_tolerance = params->dfrs_repack_tolerance;
	op.starve_bsld = params->dfrs_starve_bsld;
	if (params->dfrs_policy == DFRS_POLICY_GREEDYPMR) {
		op.wide_share = params->dfrs_wide_share;
		op.long_time = params->dfrs_long_time;
		op.long_min_yield = params->dfrs_long_min_yield;
	}
	op.requeue = 1;		/* a suspension or a move is a requeue here */
	for (int i = 0; i < v->njobs; i++) {
		int n = v->jobs[i].shape.ntasks;
		v->was[i] = v->jobs[i].state;
		v->was_hosts[i] = xcalloc(n, sizeof(int));
		memcpy(v->was_hosts[i], v->jobs[i].hosts, n * sizeof(int));
	}
	amcbf_dfrs_view_sort_arrivals(v);
	cl = (dfrs_cluster_t){ .ndims = 2, .nhosts = v->nnodes,
			       .hosts = v->hosts, .njobs = v->njobs,
			       .jobs = v->jobs, .now = now,
			       .repack_yield = *repack_yield };
	/* the site's licenses and pairwise preemption rule */
	amcbf_dfrs_rules_attach(&v->rules, &cl, v->njobs);
	debug("dfrs(%s) cycle: %d jobs, %d new, events %#x%s", policy, v->njobs,
	      v->narrivals, events, periodic ? ", periodic" : "");
	if (events & (1u << DFRS_EVENT_COMPLETION))
		ok = decide(&op, &cl, DFRS_EVENT_COMPLETION, NULL, 0, policy,
			    held, &v->rules);
	/* the arrivals the completion's decision left waiting */
	for (int a = 0; a < v->narrivals; a++)
		if (v->jobs[v->arrivals[a]].state == DFRS_JOB_PENDING)
			arrived[narrived++] = v->arrivals[a];
	if (ok && narrived)
		ok = decide(&op, &cl, DFRS_EVENT_ARRIVAL, arrived, narrived,
			    policy, held, &v->rules);
	if (ok && periodic)
		ok = decide(&op, &cl, DFRS_EVENT_PERIODIC, NULL, 0, policy,
			    held, &v->rules);
	*repack_yield = cl.repack_yield;
	xfree(arrived);
	return ok;
}

/* The DFRS decider's state for one cycle. */
typedef struct {
	amcbf_dfrs_view_t v;
	amcbf_dfrs_scan_t sc;		/* what the scan found besides the view */
	uint64_t ref_mb;	/* dfrs_ref_memory_mb() when read */
	int usable;		/* nodes the policy may use */
	unsigned events;
	bool periodic;
	const char *policy;
	char who[32];
	bool stop;		/* the locks were yielded and much changed */
	int starts, deferred;	/* amcbf_dfrs_max_start_per_cycle */
} dfrs_t;

/* Job i of the view as it is now, if it is still as the scan saw it:
 * running the same run if it was running, else pending and startable. */
static job_record_t *still_as_seen(const amcbf_dfrs_view_t *v, int i)
{
	return amcbf_still_as_seen(v->ids[i], v->was[i] == DFRS_JOB_RUNNING ?
				   AMCBF_SEEN_RUNNING : AMCBF_SEEN_PENDING,
				   v->starts[i]);
}

/* The job a requeue of job i makes room for: of the jobs the policy
 * starts or resumes on any of i's hosts, the first in its priority order;
 * NULL if none (the site's preemption rules need one). */
static job_record_t *preemptor_of(const amcbf_dfrs_view_t *v, int i)
{
	int best = -1;

	for (int j = 0; j < v->njobs; j++) {
		const dfrs_online_job_t *oj = &v->jobs[j];
		bool overlaps = false;

		if (v->was[j] == DFRS_JOB_RUNNING ||
		    oj->state != DFRS_JOB_RUNNING ||
		    (best >= 0 && oj->rank >= v->jobs[best].rank))
			continue;
		for (int a = 0; a < oj->shape.ntasks && !overlaps; a++)
			for (int b = 0; b < v->jobs[i].shape.ntasks; b++)
				if (oj->hosts[a] == v->was_hosts[i][b])
					overlaps = true;
		if (overlaps)
			best = j;
	}
	return best >= 0 ? find_job_record(v->ids[best]) : NULL;
}

/* Preemptions and migrations first: requeues. */
static void apply_requeues(amcbf_pass_t *p, dfrs_t *ap, const amcbf_dfrs_view_t *v)
{
	for (int i = 0; i < v->njobs; i++) {
		const dfrs_online_job_t *oj = &v->jobs[i];
		amcbf_known_t *k = amcbf_known(p->mem, v->ids[i], false);
		int n = oj->shape.ntasks;
		job_record_t *jp;
		bool moved;

		if (v->was[i] != DFRS_JOB_RUNNING || !k)
			continue;
		moved = oj->state == DFRS_JOB_RUNNING &&
			!same_hosts(oj->hosts, v->was_hosts[i], n);
		if (oj->state == DFRS_JOB_RUNNING && !moved)
			continue;
		/* yield before looking the job up: it may change meanwhile */
		if ((ap->stop = !amcbf_hold_yield(&p->hold)))
			break;
		if (!(jp = still_as_seen(v, i)))
			continue;
		k->ckpt_kept = 1;
		/* the site's rules: QOS Preempt= lists, PriorityTier,
		 * GraceTime */
		if (amcbf_preempt_in_pass(p, jp, preemptor_of(v, i), k,
					  ap->who,
					  moved ? "migrating" : "suspended") !=
		    AMCBF_PREEMPT_DONE)
			continue;
		/* a suspended job resumes where it was, a migrated one where
		 * the policy moved it */
		amcbf_dfrs_remember_hosts(k, moved ? oj->hosts : v->was_hosts[i], n);
	}
}

/* A job the policy starts or resumes: its place in the decision's
 * priority order, and its index in the view. */
typedef struct {
	int rank, i;
} start_t;

static int by_rank(const void *a, const void *b)
{
	const start_t *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The jobs the policy starts or resumes, highest priority first (under
 * amcbf_dfrs_max_start_per_cycle those go first).  Returns how many. */
static int starts_in_order(const amcbf_dfrs_view_t *v, start_t *order)
{
	int n = 0;

	for (int i = 0; i < v->njobs; i++)
		if (v->was[i] != DFRS_JOB_RUNNING &&
		    v->jobs[i].state == DFRS_JOB_RUNNING)
			order[n++] = (start_t){ .rank = v->jobs[i].rank, .i = i };
	qsort(order, n, sizeof(*order), by_rank);
	return n;
}

/* Then starts and resumptions, unless requeued jobs still hold nodes. */
static void apply_starts(amcbf_pass_t *p, dfrs_t *ap, const amcbf_dfrs_view_t *v,
			 amcbf_memory_t *mem, const dfrs_params_t *params)
{
	start_t *order = xcalloc(v->njobs ? v->njobs : 1, sizeof(*order));
	int n = starts_in_order(v, order);

	for (int o = 0; o < n && !p->requeues && !p->waiting &&
			!ap->stop; o++) {
		int i = order[o].i;
		const dfrs_online_job_t *oj = &v->jobs[i];
		amcbf_known_t *k = amcbf_known(mem, v->ids[i], false);
		job_record_t *jp;
		int rc;

		if (!k)
			continue;
		/* a bounded cycle: the rest is decided again next cycle */
		if (params->dfrs_max_start_per_cycle > 0 &&
		    ap->starts >= params->dfrs_max_start_per_cycle) {
			ap->deferred++;
			continue;
		}
		/* yield before looking the job up: it may change meanwhile */
		if ((ap->stop = !amcbf_hold_yield(&p->hold)))
			break;
		if (!(jp = still_as_seen(v, i)))
			continue;
		ap->starts++;
		rc = start_job(jp, oj->hosts, oj->shape.ntasks);
		if (rc != SLURM_SUCCESS) {
			verbose("could not start %pJ where dfrs(%s) decided: %s",
				jp, ap->policy, slurm_strerror(rc));
			mem->failed++;
			continue;
		}
		/* an array task has an id of its own now */
		k = amcbf_known_started(mem, v->ids[i], jp);
		k->running = 1;
		k->yield = oj->yield;
		amcbf_dfrs_remember_hosts(k, oj->hosts, oj->shape.ntasks);
		info("dfrs(%s): %s %pJ on %s (yield %.2f, virtual time %.0f s)",
		     ap->policy,
		     v->was[i] == DFRS_JOB_SUSPENDED ? "resumed" : "started",
		     jp, jp->nodes, oj->yield, k->vt);
		mem->started++;
		p->actions++;
	}
	if (ap->deferred)
		debug("%s: %d starts this cycle, %d left to the next (amcbf_dfrs_max_start_per_cycle=%d)",
		      ap->who, ap->starts, ap->deferred,
		      params->dfrs_max_start_per_cycle);
	xfree(order);
}

/* After the decisions: the arrivals are decided, unless a checkpoint wait
 * holds a requeue back (then all is decided again once it is over). */
static void apply_done(const amcbf_pass_t *p, const dfrs_t *ap,
		       const amcbf_dfrs_view_t *v,
		       amcbf_memory_t *mem, unsigned events)
{
	amcbf_preempt_checkpoint_sweep(mem);
	if (p->waiting || ap->stop || ap->deferred) {
		mem->owed_events = events;
		return;
	}
	for (int a = 0; a < v->narrivals; a++) {
		amcbf_known_t *k = amcbf_known(mem, v->ids[v->arrivals[a]],
					       false);
		if (k)
			k->seen = 1;
	}
}

/* The policy of the configured mode, by name in the log lines. */
static bool dfrs_prepare(amcbf_pass_t *p)
{
	dfrs_t *d = p->own;

	d->policy = dfrs_online_policy_name(p->params->dfrs_policy);
	snprintf(d->who, sizeof(d->who), "dfrs(%s)", d->policy);
	return true;
}

/* The hosts and the site's rules, before the jobs. */
static void dfrs_read_begin(amcbf_pass_t *p)
{
	dfrs_t *d = p->own;

	amcbf_dfrs_view_size(&d->v, list_count(job_list));
	d->usable = amcbf_dfrs_view_hosts(&d->v);
	amcbf_dfrs_rules_read(&d->v.rules);
	d->ref_mb = dfrs_ref_memory_mb();
}

/* A job holding nodes into the view, or its memory off their capacity. */
static void dfrs_read_job(amcbf_pass_t *p, amcbf_job_class_t c,
			  amcbf_known_t *k, job_record_t *job_ptr)
{
	dfrs_t *d = p->own;

	k->restored = 0;
	if (c != AMCBF_JOB_PENDING)
		amcbf_dfrs_view_holding(&d->v, &d->sc, k, job_ptr,
			     c == AMCBF_JOB_RUNNING, p->params, d->ref_mb,
			     p->now);
}

/* A pending job the read took: PENDING, or SUSPENDED where it ran. */
static void dfrs_read_pending(amcbf_pass_t *p, amcbf_known_t *k,
			      job_record_t *job_ptr)
{
	dfrs_t *d = p->own;

	amcbf_dfrs_view_pending(&d->v, &d->sc, p->mem, k, job_ptr, p->params, d->ref_mb,
		     p->now);
}

/* A running job left: the completion event. */
static void dfrs_departed(amcbf_pass_t *p, const amcbf_known_t *k)
{
	(void)k;
	((dfrs_t *)p->own)->sc.events |= 1u << DFRS_EVENT_COMPLETION;
}

/* After the scan (locks held): true when the policy has events (or the
 * periodic one) to decide at this cycle. */
static bool dfrs_read_end(amcbf_pass_t *p)
{
	dfrs_t *d = p->own;
	amcbf_dfrs_view_t *v = &d->v;
	amcbf_memory_t *mem = p->mem;

	amcbf_dfrs_view_drop_unfit(v, mem);
	d->events = d->sc.events | mem->owed_events;
	/* nodes came back (e.g. slurmds answering after a restart): the
	 * jobs that fitted none when they arrived may fit now */
	if (d->usable > mem->usable_nodes)
		d->events |= 1u << DFRS_EVENT_COMPLETION;
	mem->usable_nodes = d->usable;
	mem->npending = mem->nrunning = 0;
	for (int i = 0; i < v->njobs; i++)
		if (v->jobs[i].state == DFRS_JOB_RUNNING)
			mem->nrunning++;
		else
			mem->npending++;
	d->periodic = periodic_due(mem, p->params, p->now);
	if (mem->cycles == 0)	/* at start: fill whatever is free */
		d->events |= 1u << DFRS_EVENT_COMPLETION;
	if (!d->events && !d->periodic)
		return false;
	if (d->sc.settling) {
		/* a job we requeued is still leaving its nodes: decide once
		 * they are free, not around them */
		debug("dfrs(%s) cycle: a preempted job is still leaving its nodes",
		      d->policy);
		mem->owed_events = d->events;
		return false;
	}
	mem->owed_events = 0;
	return true;
}

/* The policy decides (no lock held). */
static bool dfrs_decide(amcbf_pass_t *p)
{
	dfrs_t *d = p->own;

	return decide_events(&d->v, p->params, d->events, d->periodic, p->clock,
			     d->policy, &p->mem->repack_yield,
			     &p->mem->dfrs_held);
}

static void dfrs_apply(amcbf_pass_t *p)
{
	dfrs_t *d = p->own;

	apply_requeues(p, d, &d->v);
	apply_starts(p, d, &d->v, p->mem, p->params);
	apply_done(p, d, &d->v, p->mem, d->events);
}

static void dfrs_release(amcbf_pass_t *p)
{
	amcbf_dfrs_view_free(&((dfrs_t *)p->own)->v);
}

const amcbf_decider_t amcbf_decide_dfrs = AMCBF_DECIDER(dfrs, dfrs_t);
