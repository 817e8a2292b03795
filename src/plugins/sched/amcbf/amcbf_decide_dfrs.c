/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_decide_dfrs.c - the decider of sched/amcbf's amcbf_mode=dfrs
 * (amcbf_decide.h): the adapter between slurmctld and the online DFRS
 * policies of Stillwell et al. 2010 ("Online Non-Clairvoyant Problem":
 * GreedyP, GreedyPM, MCB with periodic repacking and minvt;
 * src/common/dfrs/dfrs_online.c, the same code dfrs sim runs).
 *
 * Each cycle (amcbf_cycle.c) with an event (a job arrived, a job left,
 * or amcbf_dfrs_period has passed) rebuilds the policy's cluster from
 * slurmctld's records: one host per node with capacity 1 in CPU (fluid) and memory (rigid), every
 * job of the managed partitions with its DFRS shape (dfrs_job_shape.c, the
 * one select/dfrs uses; its CPU need declared, measured by dfrs-nodeagent
 * when running, predicted when pending: amcbf_needs.h), its virtual
 * time (its yield, as select/dfrs publishes it, integrated over the
 * time it ran) and its state:
 *   running in Slurm                   -> RUNNING on its nodes
 *   pending, preempted by us before    -> SUSPENDED (hosts: where it ran)
 *   pending otherwise                  -> PENDING
 * Jobs the policy must not touch (exempt, other partitions, suspended by
 * an administrator, completing) are not the policy's: their memory, and for
 * running ones their CPU at their minimum yield, is taken off their nodes'
 * capacity instead.  The site's licenses (the pool, each pending job's
 * requests) and pairwise preemption rule (QOS Preempt= lists,
 * PriorityTier: a predicate over the sides read with the locks held) go
 * into the policy's decision (amcbf_dfrs_rules.h; dfrs_online.h, "The
 * site's rules"); the test before each start and the check of each
 * requeue (amcbf_preempt_for) stay as second nets.
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
 * (dfrs_online.h): a running job that does not checkpoint (every job
 * unless amcbf_ckpt_signal is set) restarts from scratch when requeued, so
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
#include "amcbf_stretch.h"
#include "amcbf_allowed.h"
#include "amcbf_start.h"
#include "amcbf_decide.h"
#include "amcbf_dfrs_rules.h"
#include "amcbf_locks.h"
#include "amcbf_needs.h"
#include "amcbf_preempt.h"
#include "suite/cpu_weight.h"
#include "dfrs_job_shape.h"
#include "dfrs/dfrs_online.h"
#include "trace/arrival_order.h"

/* capacity left on a node the policy may not use: nothing fits there */
#define NO_CAPACITY 1e-9

enum { DIM_CPU = 0, DIM_MEM = 1 };

/* The policy's cluster and where each of its jobs came from. */
typedef struct {
	dfrs_host_t *hosts;
	dfrs_online_job_t *jobs;
	uint32_t *ids;		/* each job's Slurm id (looked up again after
				   the locks were let go) */
	time_t *starts;		/* a running job's start time, when seen */
	int nnodes;		/* slurmctld's node table when read */
	dfrs_job_state_t *was;	/* state before the decisions */
	int **was_hosts;	/* hosts before (xmalloc'ed copies) */
	int *arrivals;		/* indices of new jobs, submit order */
	int njobs, narrivals, cap;
	amcbf_dfrs_rules_t rules;	/* licenses, who may preempt whom */
} dfrs_view_t;

static void view_free(dfrs_view_t *v)
{
	amcbf_dfrs_rules_free(&v->rules, v->jobs, v->njobs);
	for (int i = 0; i < v->njobs; i++) {
		xfree(v->jobs[i].hosts);
		xfree(v->was_hosts[i]);
	}
	xfree(v->hosts);
	xfree(v->jobs);
	xfree(v->ids);
	xfree(v->starts);
	xfree(v->was);
	xfree(v->was_hosts);
	xfree(v->arrivals);
}

static dfrs_online_job_t *view_add(dfrs_view_t *v, job_record_t *job_ptr)
{
	if (v->njobs == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		xrecalloc(v->jobs, v->cap, sizeof(*v->jobs));
		xrecalloc(v->ids, v->cap, sizeof(*v->ids));
		xrecalloc(v->starts, v->cap, sizeof(*v->starts));
		xrecalloc(v->was, v->cap, sizeof(*v->was));
		xrecalloc(v->was_hosts, v->cap, sizeof(*v->was_hosts));
		xrecalloc(v->arrivals, v->cap, sizeof(*v->arrivals));
	}
	v->ids[v->njobs] = job_ptr->job_id;
	v->starts[v->njobs] = job_ptr->start_time;
	return &v->jobs[v->njobs++];
}

/* The model job of a Slurm job of `ntasks` nodes (k: what we know of it). */
static void shape_of(job_record_t *job_ptr, amcbf_known_t *k,
		     const dfrs_params_t *params, uint64_t ref_mb, int ntasks,
		     dfrs_online_job_t *oj)
{
	share_job_t s;

	dfrs_job_shape(job_ptr, params, amcbf_needs_of(job_ptr, params, false),
		       ref_mb, &s);
	memset(oj, 0, sizeof(*oj));
	oj->id = job_ptr->job_id;
	oj->shape.ntasks = ntasks;
	oj->shape.need[DIM_CPU] = s.need;
	oj->shape.req[DIM_MEM] = s.mem;
	oj->shape.min_yield = s.min_yield;
	oj->task_mem_bytes = s.mem * (double)ref_mb * 1048576.0;
	/* the first submit time: a requeue resets Slurm's */
	oj->submit = (double)amcbf_first_submit(k, job_ptr);
	/* the requeue model's: with a checkpoint signal every job keeps its
	 * progress when requeued, without one none does */
	oj->checkpointable = params->ckpt_signal != AMCBF_CKPT_NONE;
	/* what EASY would be told, for amcbf_dfrs_starve_bsld */
	if (job_ptr->time_limit != NO_VAL && job_ptr->time_limit != INFINITE)
		oj->estimate = 60.0 * (double)job_ptr->time_limit;
	oj->hosts = xcalloc(ntasks, sizeof(int));
}

/*
 * Take the memory of a job outside the policy off its nodes.  Its CPU is
 * left: it is fluid, and select/dfrs shares it by yields among all jobs
 * (a start the policy puts where minimum yields cannot all be kept is
 * refused by select/dfrs and placed by it instead).
 */
static void reserve(dfrs_view_t *v, job_record_t *job_ptr, bitstr_t *bm,
		    const dfrs_params_t *params, uint64_t ref_mb)
{
	share_job_t s;

	dfrs_job_shape(job_ptr, params, amcbf_needs_of(job_ptr, params, false),
		       ref_mb, &s);
	for (int i = 0; i < node_record_count; i++) {
		dfrs_host_t *h = &v->hosts[i];
		if (!bit_test(bm, i))
			continue;
		h->cap[DIM_MEM] -= s.mem;
		if (h->cap[DIM_MEM] < NO_CAPACITY)
			h->cap[DIM_MEM] = NO_CAPACITY;
		h->elem[DIM_MEM] = h->cap[DIM_MEM];
	}
}

/* The most capacity left on any host, per dimension. */
static void most_left(const dfrs_view_t *v, double most[2])
{
	most[0] = most[1] = 0;
	for (int i = 0; i < v->nnodes; i++)
		for (int d = 0; d < 2; d++)
			if (v->hosts[i].elem[d] > most[d])
				most[d] = v->hosts[i].elem[d];
}

/* Could a task of this shape fit some host now (what dfrs_online_decide
 * checks of every job)?  A pending job that cannot waits outside the view. */
static bool fits_some_host(const double most[2], const dfrs_job_t *shape)
{
	for (int d = 0; d < 2; d++)
		if (shape->req[d] > most[d] || shape->need[d] > most[d])
			return false;
	return true;
}

/* May the policy start jobs on node i now?  Not while a job is still
 * leaving it (after a requeue, an end, or a slurmctld restart that found
 * it completing): select_nodes refuses nodes in cg_node_bitmap, so a
 * start placed there would only be refused.  Once the job has left, more
 * nodes are usable and the cycle decides again. */
static bool view_node_usable(int i)
{
	return amcbf_node_usable(i) &&
	       !(cg_node_bitmap && bit_test(cg_node_bitmap, i));
}

/* Is any node of the bitmap one the policy may not use? */
static bool on_unusable_node(bitstr_t *bm)
{
	for (int i = 0; i < node_record_count; i++)
		if (bit_test(bm, i) && !view_node_usable(i))
			return true;
	return false;
}

/* The yield select/dfrs published for a running job (1 if none). */
static double published_yield(job_record_t *job_ptr)
{
	cpu_weight_tag_t tag;
	char err[128];

	if (cpu_weight_tag_parse(job_ptr->system_comment, &tag, err, sizeof(err)) == 1 &&
	    tag.yield > 0)
		return tag.yield;
	return 1.0;
}

static bool same_hosts(const int *a, const int *b, int n)
{
	for (int t = 0; t < n; t++)
		if (a[t] != b[t])
			return false;
	return true;
}

static void remember_hosts(amcbf_known_t *k, const int *hosts, int n)
{
	xfree(k->hosts);
	k->hosts = xcalloc(n, sizeof(int));
	memcpy(k->hosts, hosts, n * sizeof(int));
	k->nhosts = n;
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

/* What a scan of slurmctld's jobs found besides the view. */
typedef struct {
	unsigned events;
	bool settling;	/* a job we requeued is still leaving its nodes */
} scan_t;

/* A job holding nodes: the policy's when it may be preempted, else its
 * memory is taken off its nodes. */
static void scan_holding(dfrs_view_t *v, scan_t *sc, amcbf_known_t *k,
			 job_record_t *job_ptr, bool running,
			 const dfrs_params_t *params, uint64_t ref_mb,
			 time_t now)
{
	bitstr_t *bm = running ? job_ptr->node_bitmap :
		(job_ptr->node_bitmap_cg ? job_ptr->node_bitmap_cg :
		 job_ptr->node_bitmap);
	int n = bm ? bit_set_count(bm) : 0;
	dfrs_online_job_t *oj;

	/* a completing job departs once done */
	k->yield = running ? published_yield(job_ptr) : 0;
	if (running)
		k->running = 1;
	if (k->requeued && IS_JOB_COMPLETING(job_ptr))
		sc->settling = true;
	if (n <= 0)
		return;
	if (!running || !amcbf_preempt_may(job_ptr, params, now) ||
	    on_unusable_node(bm)) {
		reserve(v, job_ptr, bm, params, ref_mb);
		return;
	}
	oj = view_add(v, job_ptr);
	shape_of(job_ptr, k, params, ref_mb, n, oj);
	/* a job the site protects (PreemptMode=OFF, PreemptExemptTime, the
	 * plugin's exemptions: amcbf_preempt_may) is reserved above, out of
	 * the view: no_preempt stays 0 here */
	amcbf_dfrs_rules_job(&v->rules, v->njobs - 1, job_ptr, oj, false,
			     now);
	for (int i = 0, t = 0; i < node_record_count && t < n; i++)
		if (bit_test(bm, i))
			oj->hosts[t++] = i;
	oj->state = DFRS_JOB_RUNNING;
	oj->yield = k->yield;
	oj->virtual_time = k->vt;
	remember_hosts(k, oj->hosts, n);
}

/* A pending job: PENDING, or SUSPENDED where it ran if we preempted it. */
static void scan_pending(dfrs_view_t *v, scan_t *sc, amcbf_memory_t *mem,
			 amcbf_known_t *k, job_record_t *job_ptr,
			 const dfrs_params_t *params, uint64_t ref_mb,
			 time_t now)
{
	dfrs_online_job_t *oj;
	int n;

	/* its priority shows the policy's order */
	(void)amcbf_note_pending(mem, k, job_ptr, true, now);
	if (k->running)		/* requeued (by us or not): it left */
		sc->events |= 1u << DFRS_EVENT_COMPLETION;
	k->running = 0;
	k->requeued = 0;
	if (!amcbf_startable(job_ptr) ||
	    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name)) {
		k->held = 1;
		return;
	}
	if (k->held && k->seen)	/* e.g. a requeued job's begin time came */
		sc->events |= 1u << DFRS_EVENT_COMPLETION;
	k->held = 0;
	n = job_ptr->details->min_nodes ? job_ptr->details->min_nodes : 1;
	if (n > node_record_count)
		return;
	oj = view_add(v, job_ptr);
	shape_of(job_ptr, k, params, ref_mb, n, oj);
	/* its licenses, which the policy counts against the pool with those
	 * of the jobs it starts before it, and its side of the pairwise rule */
	amcbf_dfrs_rules_job(&v->rules, v->njobs - 1, job_ptr, oj, true, now);
	oj->virtual_time = k->vt;
	if (k->hosts && k->nhosts == n) {
		oj->state = DFRS_JOB_SUSPENDED;
		memcpy(oj->hosts, k->hosts, n * sizeof(int));
	} else {
		oj->state = DFRS_JOB_PENDING;
	}
	if (!k->seen) {	/* seen once its arrival is decided */
		v->arrivals[v->narrivals++] = v->njobs - 1;
		sc->events |= 1u << DFRS_EVENT_ARRIVAL;
	}
}

/* Pending jobs too big for any node now wait outside the view: one pass
 * that keeps the others in order and renumbers the arrivals. */
static void drop_unfit(dfrs_view_t *v, amcbf_memory_t *mem)
{
	int *to = xcalloc(v->njobs ? v->njobs : 1, sizeof(int));
	double most[2];
	int n = 0, a = 0;

	most_left(v, most);
	for (int i = 0; i < v->njobs; i++) {
		amcbf_known_t *k;

		if (v->jobs[i].state == DFRS_JOB_RUNNING ||
		    fits_some_host(most, &v->jobs[i].shape)) {
			to[i] = n;
			amcbf_dfrs_rules_move(&v->rules, i, n);
			v->jobs[n] = v->jobs[i];
			v->ids[n] = v->ids[i];
			v->starts[n] = v->starts[i];
			n++;
			continue;
		}
		to[i] = -1;
		/* not an arrival to decide again and again, nor to log */
		if ((k = amcbf_known(mem, v->ids[i], false)) && !k->seen) {
			debug("JobId=%u fits no node now: not considered until it does",
			      v->ids[i]);
			k->seen = 1;
		}
		amcbf_dfrs_rules_drop(&v->rules, i, &v->jobs[i]);
		xfree(v->jobs[i].hosts);
	}
	v->njobs = n;
	for (int b = 0; b < v->narrivals; b++)
		if (to[v->arrivals[b]] >= 0)
			v->arrivals[a++] = to[v->arrivals[b]];
	v->narrivals = a;
	xfree(to);
}

typedef struct {
	double submit;
	long id;
	int index;
} arrival_t;

static int by_submit(const void *a, const void *b)
{
	const arrival_t *x = a, *y = b;

	return arrival_order(x->submit, x->id, y->submit, y->id);
}

/* The arrivals in submit order (then job id). */
static void sort_arrivals(dfrs_view_t *v)
{
	arrival_t *a = xcalloc(v->narrivals ? v->narrivals : 1, sizeof(*a));

	for (int i = 0; i < v->narrivals; i++)
		a[i] = (arrival_t){ v->jobs[v->arrivals[i]].submit,
				    v->jobs[v->arrivals[i]].id, v->arrivals[i] };
	qsort(a, v->narrivals, sizeof(*a), by_submit);
	for (int i = 0; i < v->narrivals; i++)
		v->arrivals[i] = a[i].index;
	xfree(a);
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

/* One host per node, capacity 1 (almost nothing on a node the policy may
 * not use).  Returns how many nodes it may use. */
static int view_hosts(dfrs_view_t *v)
{
	int usable = 0;

	v->nnodes = node_record_count;
	v->hosts = xcalloc(node_record_count ? node_record_count : 1,
			   sizeof(*v->hosts));
	for (int i = 0; i < node_record_count; i++) {
		double c = view_node_usable(i) ? 1.0 : NO_CAPACITY;

		usable += c == 1.0;
		for (int d = 0; d < 2; d++)
			v->hosts[i].cap[d] = v->hosts[i].elem[d] = c;
	}
	return usable;
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
static bool decide_events(dfrs_view_t *v, const dfrs_params_t *params,
			  unsigned events, bool periodic, time_t now,
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
	sort_arrivals(v);
	cl = (dfrs_cluster_t){ .ndims = 2, .nhosts = v->nnodes,
			       .hosts = v->hosts, .njobs = v->njobs,
			       .jobs = v->jobs, .now = (double)now,
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
	dfrs_view_t v;
	scan_t sc;		/* what the scan found besides the view */
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
static job_record_t *still_as_seen(const dfrs_view_t *v, int i)
{
	return amcbf_still_as_seen(v->ids[i], v->was[i] == DFRS_JOB_RUNNING ?
				   AMCBF_SEEN_RUNNING : AMCBF_SEEN_PENDING,
				   v->starts[i]);
}

/* The job a requeue of job i makes room for: of the jobs the policy
 * starts or resumes on any of i's hosts, the first in its priority order;
 * NULL if none (the site's preemption rules need one). */
static job_record_t *preemptor_of(const dfrs_view_t *v, int i)
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
static void apply_requeues(amcbf_pass_t *p, dfrs_t *ap, const dfrs_view_t *v)
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
		remember_hosts(k, moved ? oj->hosts : v->was_hosts[i], n);
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
static int starts_in_order(const dfrs_view_t *v, start_t *order)
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
static void apply_starts(amcbf_pass_t *p, dfrs_t *ap, const dfrs_view_t *v,
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
		remember_hosts(k, oj->hosts, oj->shape.ntasks);
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
		       const dfrs_view_t *v,
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

	d->usable = view_hosts(&d->v);
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
		scan_holding(&d->v, &d->sc, k, job_ptr,
			     c == AMCBF_JOB_RUNNING, p->params, d->ref_mb,
			     p->now);
}

/* A pending job the read took: PENDING, or SUSPENDED where it ran. */
static void dfrs_read_pending(amcbf_pass_t *p, amcbf_known_t *k,
			      job_record_t *job_ptr)
{
	dfrs_t *d = p->own;

	scan_pending(&d->v, &d->sc, p->mem, k, job_ptr, p->params, d->ref_mb,
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
	dfrs_view_t *v = &d->v;
	amcbf_memory_t *mem = p->mem;

	drop_unfit(v, mem);
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

	return decide_events(&d->v, p->params, d->events, d->periodic, p->now,
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
	view_free(&((dfrs_t *)p->own)->v);
}

const amcbf_decider_t amcbf_decide_dfrs = AMCBF_DECIDER(dfrs, dfrs_t);
