/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_dfrs_view.c - the online DFRS policies' cluster read from
 * slurmctld (amcbf_dfrs_view.h).
 *
 * Each cycle (amcbf_cycle.c) with an event (a job arrived, a job left,
 * or amcbf_dfrs_period has passed) rebuilds the policy's cluster from
 * slurmctld's records: one host per node with capacity 1 in CPU (fluid)
 * and memory (rigid), every
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
 * site's rules").
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_dfrs_view.h"
#include "amcbf_allowed.h"
#include "amcbf_needs.h"
#include "amcbf_preempt.h"
#include "amcbf_start.h"
#include "amcbf_stretch.h"
#include "suite/cpu_weight.h"
#include "dfrs_job_shape.h"
#include "trace/arrival_order.h"

/* capacity left on a node the policy may not use: nothing fits there */
#define NO_CAPACITY 1e-9

enum { DIM_CPU = 0, DIM_MEM = 1 };

void amcbf_dfrs_view_free(amcbf_dfrs_view_t *v)
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

/* The view's job arrays at cap entries (xrecalloc zeroes what it adds). */
static void view_grow(amcbf_dfrs_view_t *v, int cap)
{
	v->cap = cap;
	xrecalloc(v->jobs, v->cap, sizeof(*v->jobs));
	xrecalloc(v->ids, v->cap, sizeof(*v->ids));
	xrecalloc(v->starts, v->cap, sizeof(*v->starts));
	xrecalloc(v->was, v->cap, sizeof(*v->was));
	xrecalloc(v->was_hosts, v->cap, sizeof(*v->was_hosts));
	xrecalloc(v->arrivals, v->cap, sizeof(*v->arrivals));
}

void amcbf_dfrs_view_size(amcbf_dfrs_view_t *v, int records)
{
	if (!v->cap && records > 0) {
		/* fresh arrays: the pages not used are never touched */
		v->cap = records;
		v->jobs = xcalloc(v->cap, sizeof(*v->jobs));
		v->ids = xcalloc(v->cap, sizeof(*v->ids));
		v->starts = xcalloc(v->cap, sizeof(*v->starts));
		v->was = xcalloc(v->cap, sizeof(*v->was));
		v->was_hosts = xcalloc(v->cap, sizeof(*v->was_hosts));
		v->arrivals = xcalloc(v->cap, sizeof(*v->arrivals));
	}
}

static dfrs_online_job_t *view_add(amcbf_dfrs_view_t *v,
				    job_record_t *job_ptr)
{
	if (v->njobs == v->cap)
		view_grow(v, v->cap ? 2 * v->cap : 64);
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
	/* the requeue model's: a job that gets the checkpoint signal (it
	 * asked for it with --signal) keeps its progress when requeued */
	oj->checkpointable = amcbf_preempt_checkpointable(job_ptr, params);
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
static void reserve(amcbf_dfrs_view_t *v, job_record_t *job_ptr,
		    bitstr_t *bm, const dfrs_params_t *params, uint64_t ref_mb)
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
static void most_left(const amcbf_dfrs_view_t *v, double most[2])
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

void amcbf_dfrs_remember_hosts(amcbf_known_t *k, const int *hosts, int n)
{
	xfree(k->hosts);
	k->hosts = xcalloc(n, sizeof(int));
	memcpy(k->hosts, hosts, n * sizeof(int));
	k->nhosts = n;
}

void amcbf_dfrs_view_holding(amcbf_dfrs_view_t *v, amcbf_dfrs_scan_t *sc,
			     amcbf_known_t *k, job_record_t *job_ptr,
			     bool running, const dfrs_params_t *params,
			     uint64_t ref_mb, time_t now)
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
	amcbf_dfrs_remember_hosts(k, oj->hosts, n);
}

void amcbf_dfrs_view_pending(amcbf_dfrs_view_t *v, amcbf_dfrs_scan_t *sc,
			     amcbf_memory_t *mem, amcbf_known_t *k,
			     job_record_t *job_ptr,
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
	n = dfrs_job_tasks(job_ptr);
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

void amcbf_dfrs_view_drop_unfit(amcbf_dfrs_view_t *v, amcbf_memory_t *mem)
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

void amcbf_dfrs_view_sort_arrivals(amcbf_dfrs_view_t *v)
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

int amcbf_dfrs_view_hosts(amcbf_dfrs_view_t *v)
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
