/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_decide_engine.c - the decider of sched/amcbf's engine modes
 * (amcbf_mode=cmbf, ambf, cmcbf, amcbf; amcbf_decide.h): the adapter
 * between slurmctld and the consolidation engines of Liu et al. 2013
 * (CMBF, AMBF, CMCBF, AMCBF in src/common/sched/sched_cmbf_amcbf.c, the
 * same code dfrs sim runs).
 *
 * Each cycle (amcbf_cycle.c) rebuilds the engine's state from slurmctld's
 * records (running jobs in their tier, pending jobs in queue order) with
 * its locks held, calls the engine with no lock held, and takes the locks
 * again to apply its decisions in order, each to a job still as it was
 * read (amcbf_still_as_seen): a start becomes select_nodes() restricted
 * to the engine's nodes (as sched/backfill starts jobs) and launch_job();
 * on a select plugin that allocates CPUs (select/cons_tres) the engine's
 * units are CPUs (amcbf_hosts.c: a node of C CPUs is C slots, with its
 * memory and GPUs, and a job asks for what its record says), and a start
 * is select_nodes() restricted to the nodes of its slots, where cons_tres
 * picks the cores and GPUs for the job's own request;
 * a preemption becomes a requeue (Slurm resets the job's submit time
 * then; the plugin keeps the first one, so the job keeps its place in the
 * queue); a tier change rewrites the job's "dfrs:tier=" tag, which the
 * node agents turn into CPU weights without restarting anything.
 *
 * The queue order (amcbf_order.c) is by default Slurm's job priority (as
 * priority/multifactor or priority/basic set it, or scontrol and --nice
 * changed it), then first submit time; amcbf_priority=fifo is first
 * submit time alone.  With amcbf_priority=stretch the order is DFRS's
 * max-stretch priority flow_time / virtual_time^2 (Stillwell et al. 2010;
 * new jobs first), virtual time being the job's estimated yield integrated over its runs (1
 * in the foreground, the CPU its foreground neighbour leaves in the
 * background), and pending jobs' Slurm priority shows it (squeue %Q).
 *
 * What the engine must not touch is put at the front of the queue order,
 * where nothing is "later" than it and so nothing preempts it: nodes that
 * cannot be used (down, drained, not responding), jobs being suspended or
 * completing, jobs preempted amcbf_max_preempt times already, jobs that
 * have run amcbf_min_runtime or longer, jobs Slurm may not requeue
 * (--no-requeue, not batch), jobs of an amcbf_exempt_qos, and jobs of
 * partitions outside amcbf_partitions.  Pending jobs of those partitions
 * never reach the engine: they start first, in submit order, wherever
 * Slurm fits them (as sched/builtin would).
 *
 * With amcbf_ckpt_signal set, a preemption first sends the signal to a
 * job that asked for it with --signal (its batch script with B:) and requeues it amcbf_ckpt_wait seconds later, if the
 * engine still decides so then; nothing starts on its nodes meanwhile.
 */
#include "src/common/slurm_xlator.h"

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_stretch.h"
#include "amcbf_allowed.h"
#include "amcbf_start.h"
#include "amcbf_cycle.h"
#include "amcbf_decide.h"
#include "amcbf_needs.h"
#include "dfrs_job_cap.h"
#include "amcbf_locks.h"
#include "amcbf_power.h"
#include "amcbf_preempt.h"
#include "amcbf_licenses.h"
#include "amcbf_hosts.h"
#include "amcbf/amcbf_order.h"
#include "suite/cpu_weight.h"
#include "sched/sched_policy.h"

/* Where one job of the engine's array came from (the job itself is
 * snapshot_t.jobs[], at the same index, and owns its util and alloc (one
 * allocation), rank and lic). */
typedef struct {
	uint32_t id;		/* the Slurm job, 0 for an unusable-node blocker
				   (looked up again after the locks were let go) */
	int queued;		/* pending when read (the engine's decision
				   changes its job's `where`) */
	time_t start;		/* a running job's start time, when seen */
	unsigned char *allowed;	/* job.allowed when the job owns it (else
				   NULL: shared, snapshot_t.allowed's) */
	amcbf_preempt_side_t *pair;	/* its side of the site's pairwise rule
				   (a job's, when the site has one), or NULL */
	int *on_host;		/* a running job's node of each slot, its slots
				   there chosen when the state is built (CPUs
				   allocated one by one), else NULL */
} entry_t;

/* An entry's place in the queue order, kept only until the entries are
 * sorted (snapshot_t.keys). */
typedef struct {
	amcbf_order_key_t key;	/* key.fixed: blocker or exempt, kept at
				   the front */
	uint32_t ix;		/* the entry's index in snapshot_t.e[] and
				   .jobs[] as read */
} keyed_t;

bool amcbf_tiers_possible(void)
{
	ListIterator it;
	part_record_t *part_ptr;
	bool shared = false;

	/* select/dfrs, or the site's select/cons_tres (its second row) */
	if ((xstrcmp(slurm_conf.select_type, "select/dfrs") &&
	     xstrcmp(slurm_conf.select_type, "select/cons_tres")) || !part_list)
		return false;
	/* a bg job shares CPUs with a fg job: the partition must let at
	 * least two jobs share a CPU, forced (FORCE:N, any two jobs) or on
	 * request (YES:N, two jobs that asked: amcbf_hosts_asks_only) */
	it = list_iterator_create(part_list);
	while ((part_ptr = list_next(it)))
		if ((part_ptr->max_share & ~SHARED_FORCE) >= 2)
			shared = true;
	list_iterator_destroy(it);
	return shared;
}

/* Estimated yield of a running job: 1 in the foreground, in the
 * background the least CPU its foreground neighbours leave. */
static double estimated_yield(const sched_state_t *st, size_t j)
{
	double y = 1.0;

	if (st->jobs[j].where != SCHED_RUNNING_BG)
		return y;
	for (int p = 0; p < st->jobs[j].nodes; p++) {
		double left = 1.0 - sched_fg_util(st, st->jobs[j].alloc[p]);
		if (left < y)
			y = left > 0 ? left : 0;
	}
	return y;
}

static int by_slurm_priority(const void *a, const void *b)
{
	return amcbf_order_compare(AMCBF_PRIO_PRIORITY,
				   &((const keyed_t *)a)->key,
				   &((const keyed_t *)b)->key);
}

static int by_fifo(const void *a, const void *b)
{
	return amcbf_order_compare(AMCBF_PRIO_FIFO, &((const keyed_t *)a)->key,
				   &((const keyed_t *)b)->key);
}

static int by_stretch(const void *a, const void *b)
{
	return amcbf_order_compare(AMCBF_PRIO_STRETCH,
				   &((const keyed_t *)a)->key,
				   &((const keyed_t *)b)->key);
}

/* The CPU need of each process: declared, measured on its nodes,
 * predicted, else dfrs_cpu_need (amcbf_needs.h). */
static double job_need(job_record_t *job_ptr, const dfrs_params_t *params,
		       sched_where_t where)
{
	return amcbf_needs_of(job_ptr, params, where == SCHED_RUNNING_BG);
}

static void fill(entry_t *e, sched_job_t *job, job_record_t *job_ptr,
		 bitstr_t *bitmap, int nodes, sched_where_t where,
		 const dfrs_params_t *params)
{
	double need = job_ptr ? job_need(job_ptr, params, where) : 1.0;
	double *util;

	e->id = job_ptr ? job_ptr->job_id : 0;
	e->start = job_ptr ? job_ptr->start_time : 0;
	job->id = job_ptr ? (long)job_ptr->job_id : -1;
	job->nodes = nodes;
	job->where = where;
	e->queued = where == SCHED_QUEUED;
	/* the background may cost it all of its run (dfrs_job_cap.h) */
	job->fg_only = job_ptr &&
			 !dfrs_job_may_slow(job_ptr, params, 1.0, time(NULL));
	job->estimate = -1;	/* no time limit: expected never to end */
	if (job_ptr && IS_JOB_RUNNING(job_ptr) &&
	    job_ptr->end_time > job_ptr->start_time) {
		/* its end time, as amcbf_charge moves it for the CPU a
		 * tier or a yield allots */
		job->started = (double)job_ptr->start_time;
		job->estimate = difftime(job_ptr->end_time,
					   job_ptr->start_time);
	} else if (job_ptr && job_ptr->time_limit != INFINITE &&
		   job_ptr->time_limit != NO_VAL) {
		job->estimate = 60.0 * job_ptr->time_limit;
	}
	/* one allocation: its processes' CPU use, then their slots */
	util = xcalloc(nodes, sizeof(double) + sizeof(int));
	for (int p = 0; p < nodes; p++)
		util[p] = need;
	job->util = util;
	job->alloc = (int *)(util + nodes);
	if (bitmap && nodes == bit_set_count(bitmap)) {
		int p = 0;
		for (int i = 0; i < node_record_count && p < nodes; i++)
			if (bit_test(bitmap, i))
				job->alloc[p++] = i;
	}
}

static void tag_tier(job_record_t *job_ptr, sched_tier_t tier)
{
	cpu_weight_tag_t tag = { .yield = -1, .need = -1, .weight = -1,
			   .min_yield = -1,
			   .tier = tier == SCHED_TIER_FG ? SCHED_TIER_FG : SCHED_TIER_BG };
	char text[64];

	cpu_weight_tag_format(&tag, text, sizeof(text));
	if (job_ptr->system_comment && !xstrcmp(job_ptr->system_comment, text))
		return;
	xfree(job_ptr->system_comment);
	job_ptr->system_comment = xstrdup(text);
	last_job_update = time(NULL);
}

/* What one cycle read from slurmctld: the engine's entries (jobs and the
 * blockers of unusable nodes) and the events since the last cycle. */
typedef struct {
	entry_t *e;
	sched_job_t *jobs;	/* the engine's jobs, e[]'s order once sorted
				   (the engine's state uses this array) */
	keyed_t *keys;		/* e[]'s places in the queue order until
				   sorted (NULL after) */
	size_t ne, cap;
	int nnodes;	/* slurmctld's node table when read */
	int usable;	/* nodes with no blocker */
	unsigned events;
	bool settling;	/* a job we requeued is still leaving its nodes */
	amcbf_lic_pool_t pool;	/* licenses the engine sees */
	amcbf_preempt_ctx_t pair;	/* the pairwise rule the engine consults */
	const amcbf_preempt_side_t **sides;	/* pair.sides, by state index */
	amcbf_allowed_cache_t allowed;	/* the masks pending jobs share */
	amcbf_hosts_t hosts;	/* the nodes as hosts of slots */
	const unsigned char **mask_from;	/* shared node masks ... */
	unsigned char **mask_to;	/* ... as slot masks (granular) */
	size_t nmasks;
	bool tiered;	/* the cycle's engine has a bg tier: whom a job may
			   hold a CPU with (shares, asks_only) matters, and
			   is read */
} snapshot_t;

/* A new zeroed entry at the end of the snapshot, its job (*job) and its
 * key (*key). */
static entry_t *snapshot_add(snapshot_t *s, sched_job_t **job,
			     amcbf_order_key_t **key)
{
	if (s->ne == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		xrecalloc(s->e, s->cap, sizeof(*s->e));
		xrecalloc(s->jobs, s->cap, sizeof(*s->jobs));
		xrecalloc(s->keys, s->cap, sizeof(*s->keys));
	}
	memset(&s->e[s->ne], 0, sizeof(s->e[0]));
	memset(&s->jobs[s->ne], 0, sizeof(s->jobs[0]));
	memset(&s->keys[s->ne], 0, sizeof(s->keys[0]));
	s->keys[s->ne].ix = (uint32_t)s->ne;
	*job = &s->jobs[s->ne];
	*key = &s->keys[s->ne].key;
	return &s->e[s->ne++];
}

/* What job j owns (its util with its alloc, rank and license requests). */
static void job_free(sched_job_t *job)
{
	void *util = (void *)job->util, *rank = (void *)job->rank,
	     *lic = (void *)job->lic;

	xfree(util);	/* and job->alloc */
	xfree(rank);
	xfree(lic);
}

static void snapshot_free(snapshot_t *s)
{
	for (size_t j = 0; j < s->ne; j++) {
		job_free(&s->jobs[j]);
		xfree(s->e[j].allowed);
		if (s->e[j].pair) {
			amcbf_preempt_side_free(s->e[j].pair);
			xfree(s->e[j].pair);
		}
		xfree(s->e[j].on_host);
	}
	for (size_t m = 0; m < s->nmasks; m++)
		xfree(s->mask_to[m]);
	xfree(s->mask_from);
	xfree(s->mask_to);
	amcbf_hosts_free(&s->hosts);
	amcbf_lic_pool_free(&s->pool);
	amcbf_allowed_cache_free(&s->allowed);
	xfree(s->sides);
	xfree(s->e);
	xfree(s->jobs);
	xfree(s->keys);
	memset(s, 0, sizeof(*s));
}

/* Nodes the engine may not use: one fixed blocker each. */
static void snapshot_blockers(snapshot_t *s, const dfrs_params_t *params,
			      const amcbf_avail_t *avail)
{
	for (int i = 0; i < node_record_count; i++) {
		entry_t *b;
		sched_job_t *bj;
		amcbf_order_key_t *key;
		int slots = s->hosts.granular ? s->hosts.hosts[i].cpus : 1;

		if (amcbf_node_usable(i) &&
		    !amcbf_avail_node_off(avail, params, i)) {
			s->usable++;
			continue;
		}
		if (slots <= 0)
			continue;
		b = snapshot_add(s, &bj, &key);
		fill(b, bj, NULL, NULL, slots, SCHED_RUNNING_FG, params);
		for (int p = 0; p < slots; p++)
			bj->alloc[p] = s->hosts.granular ?
				s->hosts.hosts[i].first_slot + p : i;
		bj->pinned = 1;
		key->fixed = 1;
	}
}

/* A job's place in the queue order but its stretch: its id, first submit
 * time (its arrival), Slurm priority and partition PriorityTier. */
static void queue_key(amcbf_order_key_t *key, sched_job_t *job,
		      amcbf_known_t *k, job_record_t *job_ptr)
{
	key->id = job_ptr->job_id;
	key->submit = amcbf_first_submit(k, job_ptr);
	key->slurm_prio = job_ptr->priority;
	key->part_tier = job_ptr->part_ptr ?
			       job_ptr->part_ptr->priority_tier : 0;
	job->arrival = (double)key->submit;
}

/* Job qj's node mask (qj->allowed: shared, or q->allowed, its own) as
 * a slot mask: its own expanded in its place, a shared one once per read
 * (the snapshot keeps it). */
static const unsigned char *slot_mask(snapshot_t *s, entry_t *q,
				      const sched_job_t *qj)
{
	const unsigned char *from = qj->allowed;
	unsigned char *to;

	if (!from)
		return NULL;
	if (q->allowed) {
		to = amcbf_hosts_slot_mask(&s->hosts, q->allowed);
		xfree(q->allowed);
		return q->allowed = to;
	}
	for (size_t m = 0; m < s->nmasks; m++)
		if (s->mask_from[m] == from)
			return s->mask_to[m];
	xrecalloc(s->mask_from, s->nmasks + 1, sizeof(*s->mask_from));
	xrecalloc(s->mask_to, s->nmasks + 1, sizeof(*s->mask_to));
	s->mask_from[s->nmasks] = from;
	to = s->mask_to[s->nmasks++] = amcbf_hosts_slot_mask(&s->hosts, from);
	return to;
}

/* A pending job: queued for the engine if it is ours to start. */
static void snapshot_pending(snapshot_t *s, amcbf_memory_t *mem,
			     amcbf_known_t *k, job_record_t *job_ptr,
			     const dfrs_params_t *params,
			     const amcbf_avail_t *avail, time_t now)
{
	bool stretch_order = params->priority == AMCBF_PRIO_STRETCH;
	double stretch = amcbf_note_pending(mem, k, job_ptr, stretch_order, now);
	job_request_t req;
	entry_t *q;
	sched_job_t *qj;
	amcbf_order_key_t *key;

	/* not ours to start: see startable(); other partitions' jobs
	 * started before the scan */
	if (!amcbf_startable(job_ptr) ||
	    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name))
		return;
	k->requeued = 0;
	if (k->running && k->tier == SCHED_TIER_FG)
		s->events |= SCHED_EV_FG_DEPARTURE;
	if (k->running && k->tier == SCHED_TIER_BG)
		s->events |= SCHED_EV_BG_DEPARTURE;
	k->running = 0;
	q = snapshot_add(s, &qj, &key);
	fill(q, qj, job_ptr, NULL,
	     amcbf_hosts_request(&s->hosts, job_ptr, &req), SCHED_QUEUED,
	     params);
	qj->req = req;
	if (s->tiered) {	/* untiered, both would only slow the counts */
		qj->shares = amcbf_hosts_shares(job_ptr);
		qj->asks_only = amcbf_hosts_asks_only(job_ptr);
	}
	/* shared by the jobs of one shape (the cache frees it), or the
	 * job's own */
	qj->allowed = amcbf_job_allowed_shared(&s->allowed, job_ptr,
						  job_ptr->details->min_nodes ?
						  job_ptr->details->min_nodes : 1,
						  &q->allowed);
	if (s->hosts.granular)
		qj->allowed = slot_mask(s, q, qj);
	qj->rank = amcbf_hosts_slot_rank(&s->hosts,
		amcbf_power_rank(amcbf_avail_rank(avail, job_ptr)));
	/* the site's rules the engine applies itself: licenses, and who
	 * may preempt whom */
	qj->lic = amcbf_lic_requests(&s->pool, job_ptr, now, &qj->nlic);
	if (s->pair.site != PREEMPT_SITE_NONE)
		amcbf_preempt_side_read(q->pair = xcalloc(1, sizeof(*q->pair)),
					job_ptr);
	queue_key(key, qj, k, job_ptr);
	if (stretch_order)
		key->stretch = stretch;
	if (!k->seen) {
		qj->is_new = 1;
		s->events |= SCHED_EV_ARRIVAL;
		k->seen = 1;
	}
}

/* A job holding nodes (running, suspended, or completing after our
 * requeue): in its tier, fixed unless the engine may preempt it. */
static void snapshot_holding(snapshot_t *s, amcbf_known_t *k,
			     job_record_t *job_ptr, bool running,
			     const dfrs_params_t *params, time_t now)
{
	bitstr_t *bm;
	entry_t *r;
	sched_job_t *rj;
	amcbf_order_key_t *key;
	int n, slots, *counts;
	job_request_t req;

	if (!k->running && (!k->seen || k->restored)) {
		/* first seen running (e.g. after a slurmctld restart): its
		 * tier is in its tag */
		cpu_weight_tag_t tag;
		char err[128];
		if (cpu_weight_tag_parse(job_ptr->system_comment, &tag, err,
					 sizeof(err)) == 1 &&
		    tag.tier == SCHED_TIER_BG)
			k->tier = SCHED_TIER_BG;
		k->seen = 1;
	}
	bm = running ? job_ptr->node_bitmap :
		(job_ptr->node_bitmap_cg ? job_ptr->node_bitmap_cg :
		 job_ptr->node_bitmap);
	if (bit_set_count(bm) <= 0)
		return;
	slots = amcbf_hosts_held(&s->hosts, job_ptr, bm, &counts, &n, &req);
	r = snapshot_add(s, &rj, &key);
	fill(r, rj, job_ptr, bm, slots,
	     (running && k->tier == SCHED_TIER_BG) ? SCHED_RUNNING_BG :
	     SCHED_RUNNING_FG, params);
	rj->req = req;
	if (s->tiered) {	/* untiered, both would only slow the counts */
		rj->shares = amcbf_hosts_shares(job_ptr);
		rj->asks_only = amcbf_hosts_asks_only(job_ptr);
	}
	if (s->hosts.granular) {
		/* its slots on each node, chosen in place_running */
		int p = 0, c = 0;
		r->on_host = xcalloc(slots, sizeof(int));
		for (int i = 0; i < node_record_count && c < n; i++) {
			if (!bit_test(bm, i))
				continue;
			for (int q = 0; q < counts[c]; q++)
				r->on_host[p++] = i;
			c++;
		}
	}
	xfree(counts);
	queue_key(key, rj, k, job_ptr);
	if (params->priority == AMCBF_PRIO_STRETCH) {
		key->stretch = amcbf_stretch(job_ptr, k, now);
		/* current when it is preempted */
		job_ptr->priority = amcbf_slurm_priority(key->stretch);
	}
	key->fixed = !running || !amcbf_preempt_may(job_ptr, params, now);
	/* also out of reach of a bg eviction, which ignores the order */
	rj->no_preempt = key->fixed;
	if (s->pair.site != PREEMPT_SITE_NONE)
		amcbf_preempt_side_read(r->pair = xcalloc(1, sizeof(*r->pair)),
					job_ptr);
	if (running)	/* a completing job departs once done */
		k->running = 1;
}

/* The engine decider's state for one cycle. */
typedef struct {
	snapshot_t snap;
	sched_state_t st;
	sched_decisions_t dec;
	const sched_policy_t *policy;
	bool tiered;
	uint32_t refused_for;	/* a requeue for this job was refused by the
				   site's rules: its start would fail */
} engine_t;


/* The slot for process p of running job j, on the node on_host[p] names
 * (CPUs allocated one by one): one with its tier's place free beside a
 * job it may hold a CPU with (sched_may_pair: cons_tres gave a job of a
 * partition without FORCE that did not ask cores of its own), else one
 * with its tier's place free, else one with a free place, else the
 * node's first. */
static int slot_on_host(const sched_state_t *st, const snapshot_t *s,
			size_t j, int p)
{
	const sched_host_t *h = &s->hosts.hosts[s->e[j].on_host[p]];
	bool bg = st->jobs[j].where == SCHED_RUNNING_BG;

	for (int pass = 0; pass < 3; pass++)
		for (int n = h->first_slot; n < h->first_slot + h->cpus; n++) {
			const sched_node_t *nd = &st->nodes[n];
			int mine = bg ? nd->bg_job : nd->fg_job;
			int other = bg ? nd->fg_job : nd->bg_job;
			if (nd->fg_job == (int)j || nd->bg_job == (int)j)
				continue;
			if (pass == 2 ? (nd->fg_job < 0 || nd->bg_job < 0) :
			    mine < 0 && (pass == 1 || other < 0 ||
					 sched_may_pair(st, (long)j, other)))
				return n;
		}
	return h->first_slot;
}

/* Put the running jobs, then the blockers, in the nodes' tier slots. */
static void place_running(sched_state_t *st, const snapshot_t *s)
{
	/* blockers go in the slots the jobs there leave: a job running on a
	 * node that stopped responding keeps its tier */
	for (int blockers = 0; blockers < 2; blockers++) {
		for (size_t j = 0; j < s->ne; j++) {
			if (st->jobs[j].where == SCHED_QUEUED ||
			    (s->e[j].id == 0) != blockers)
				continue;
			for (int p = 0; p < st->jobs[j].nodes; p++) {
				sched_node_t *nd;
				if (s->e[j].on_host)
					st->jobs[j].alloc[p] =
						slot_on_host(st, s, j, p);
				nd = &st->nodes[st->jobs[j].alloc[p]];
				/* a second job on a node without tiers (e.g.
				 * started before this mode) goes in the bg slot */
				if (st->jobs[j].where == SCHED_RUNNING_BG ||
				    nd->fg_job >= 0) {
					if (nd->bg_job >= 0)
						continue;	/* both taken */
					nd->bg_job = (int)j;
					nd->bg_proc = p;
					if (blockers)
						st->jobs[j].where = SCHED_RUNNING_BG;
				} else {
					nd->fg_job = (int)j;
					nd->fg_proc = p;
				}
			}
		}
	}
}

/* The entries and their jobs in the order of the sorted keys, in place:
 * e[j] and jobs[j] become those that were at keys[j].ix, following each
 * cycle of the permutation with one entry and job aside; the keys are
 * freed (the queue order is the arrays' order from then on). */
static void sort_entries(snapshot_t *s)
{
	for (size_t i = 0; i < s->ne; i++) {
		entry_t aside_e;
		sched_job_t aside;
		size_t j = i;

		if (s->keys[i].ix == i)
			continue;
		aside_e = s->e[i];
		aside = s->jobs[i];
		while (s->keys[j].ix != i) {
			size_t from = s->keys[j].ix;

			s->e[j] = s->e[from];
			s->jobs[j] = s->jobs[from];
			s->keys[j].ix = (uint32_t)j;
			j = from;
		}
		s->e[j] = aside_e;
		s->jobs[j] = aside;
		s->keys[j].ix = (uint32_t)j;
	}
	xfree(s->keys);
}

/* The side of a blocker (or a job not read): preempts and is preempted by
 * nobody. */
static const amcbf_preempt_side_t unread;

/* The engine's state from the snapshot, in queue order (sorts it); no
 * lock needed. */
static void build_state(sched_state_t *st, snapshot_t *s,
			amcbf_memory_t *mem, const dfrs_params_t *params,
			time_t now)
{
	mem->npending = mem->nrunning = 0;
	for (size_t j = 0; j < s->ne; j++)
		if (s->e[j].id && s->e[j].queued)
			mem->npending++;
		else if (s->e[j].id)
			mem->nrunning++;
	qsort(s->keys, s->ne, sizeof(*s->keys),
	      params->priority == AMCBF_PRIO_STRETCH ? by_stretch :
	      params->priority == AMCBF_PRIO_FIFO ? by_fifo : by_slurm_priority);
	sort_entries(s);
	st->now = (double)now;
	st->nnodes = s->nnodes;
	st->nodes = xcalloc(s->nnodes ? s->nnodes : 1, sizeof(*st->nodes));
	for (int i = 0; i < s->nnodes; i++)
		st->nodes[i].fg_job = st->nodes[i].fg_proc =
			st->nodes[i].bg_job = st->nodes[i].bg_proc = -1;
	if (s->hosts.granular) {
		st->hosts = s->hosts.hosts;
		st->nhosts = s->hosts.nhosts;
		st->slot_host = s->hosts.slot_host;
	}
	/* the snapshot's array itself: one copy of each job */
	st->jobs = s->jobs;
	st->njobs = s->ne;
	place_running(st, s);
	/* the memory and GPUs the running jobs hold, host by host */
	for (size_t j = 0; st->hosts && j < s->ne; j++)
		if (st->jobs[j].where != SCHED_QUEUED)
			sched_hosts_account(st, j,
					    st->jobs[j].where == SCHED_RUNNING_BG ?
					    SCHED_TIER_BG : SCHED_TIER_FG, 1);
	st->licenses = s->pool.lic;
	st->nlicenses = s->pool.nlic;
	if (s->pair.site != PREEMPT_SITE_NONE) {
		s->sides = xcalloc(s->ne ? s->ne : 1, sizeof(*s->sides));
		for (size_t j = 0; j < s->ne; j++)
			s->sides[j] = s->e[j].pair ? s->e[j].pair : &unread;
		s->pair.sides = s->sides;
		st->may_preempt = amcbf_preempt_pair_ok;
		st->preempt_ctx = &s->pair;
	}

	/* each running job's yield until the next cycle: 1 in the
	 * foreground, the CPU left by the foreground neighbour in the bg */
	for (size_t j = 0; j < s->ne; j++) {
		amcbf_known_t *k = s->e[j].id ?
			amcbf_known(mem, s->e[j].id, false) : NULL;
		if (!k || st->jobs[j].where == SCHED_QUEUED)
			continue;
		k->yield = estimated_yield(st, j);
	}
}

static void apply_start(amcbf_pass_t *p, engine_t *g, uint32_t seen_id,
			job_record_t *jp, const sched_decision_t *dc,
			const int *nodes)
{
	const sched_state_t *st = &g->st;
	amcbf_memory_t *mem = p->mem;
	amcbf_known_t *k;
	int rc, n = st->jobs[dc->job].nodes, *hosts;

	/* nodes not free before the requeued leave */
	if (p->requeues || p->waiting || jp->job_id == g->refused_for)
		return;
	/* on the nodes of its slots; Slurm's select plugin picks the CPUs
	 * there (cons_tres) with the job's own request */
	hosts = xcalloc(n > 0 ? n : 1, sizeof(int));
	n = amcbf_hosts_of_slots(&g->snap.hosts, nodes, n, hosts);
	rc = amcbf_start_on(jp, hosts, n);
	xfree(hosts);
	if (rc != SLURM_SUCCESS) {
		verbose("could not start %pJ where %s decided: %s",
			jp, g->policy->name, slurm_strerror(rc));
		mem->failed++;
		return;
	}
	/* an array task has an id of its own now */
	k = amcbf_known_started(mem, seen_id, jp);
	k->tier = dc->tier;
	k->running = 1;
	k->yield = estimated_yield(st, dc->job);
	if (g->tiered)
		tag_tier(jp, dc->tier);
	info("%s: started %pJ on %s in the %s tier", g->policy->name,
	     jp, jp->nodes, dc->tier == SCHED_TIER_FG ? "fg" : "bg");
	mem->started++;
	p->actions++;
}

/* The job a requeue makes room for: the engine's next start or promotion
 * (its evictions come right before it); NULL if none follows. */
static job_record_t *preemptor_of(const snapshot_t *s,
				  const sched_decisions_t *dec, size_t d)
{
	long by = dec->items[d].preemptor;

	/* the engine names it (a bg eviction comes after its start) */
	if (by >= 0)
		return s->e[by].id ? find_job_record(s->e[by].id) : NULL;
	for (size_t e = d + 1; e < dec->count; e++)
		if (dec->items[e].action == SCHED_START ||
		    dec->items[e].action == SCHED_TO_FG)
			return s->e[dec->items[e].job].id ?
				find_job_record(s->e[dec->items[e].job].id) :
				NULL;
	return NULL;
}

static void apply_requeue(amcbf_pass_t *p, engine_t *g, amcbf_known_t *k,
			  job_record_t *jp, job_record_t *preemptor)
{
	/* the site's rules: QOS Preempt= lists, PriorityTier, GraceTime */
	if (amcbf_preempt_in_pass(p, jp, preemptor, k, g->policy->name,
				  "preempted") == AMCBF_PREEMPT_REFUSED &&
	    preemptor)
		g->refused_for = preemptor->job_id;
}

static void apply_tier(amcbf_pass_t *p, engine_t *g, amcbf_known_t *k,
		       job_record_t *jp, const sched_decision_t *dc)
{
	const sched_state_t *st = &g->st;

	/* a running job cannot change nodes in place: leave it in bg; the
	 * engine retries later */
	if (dc->action == SCHED_TO_FG && dc->moved > 0)
		return;
	k->tier = dc->action == SCHED_TO_FG ? SCHED_TIER_FG : SCHED_TIER_BG;
	k->yield = estimated_yield(st, dc->job);
	tag_tier(jp, k->tier);
	info("%s: %pJ swapped to the %s tier on %s (no restart)",
	     g->policy->name, jp, k->tier == SCHED_TIER_FG ? "fg" : "bg",
	     jp->nodes);
	if (dc->action == SCHED_TO_FG)
		p->mem->promoted++;
	else
		p->mem->demoted++;
	p->actions++;
}

/* Apply the engine's decisions in order (locks held; yielded now and then:
 * each job is looked up again). */
static void engine_apply(amcbf_pass_t *p)
{
	engine_t *g = p->own;
	const sched_decisions_t *dec = &g->dec;

	for (size_t d = 0; d < dec->count; d++) {
		const sched_decision_t *dc = &dec->items[d];
		const entry_t *en = &g->snap.e[dc->job];
		amcbf_known_t *k = en->id ? amcbf_known(p->mem, en->id, false) :
			NULL;
		job_record_t *jp;

		if (!k)
			continue;
		if (!(jp = amcbf_still_as_seen(en->id,
					       dc->action == SCHED_START ?
					       AMCBF_SEEN_PENDING :
					       en->queued ?
					       AMCBF_SEEN_STARTED :
					       AMCBF_SEEN_RUNNING, en->start))) {
			debug("%s: JobId=%u changed since the cycle read it: not acted on",
			      g->policy->name, en->id);
			continue;
		}
		switch (dc->action) {
		case SCHED_START:
			apply_start(p, g, en->id, jp, dc,
				    sched_decision_nodes(dec, dc));
			break;
		case SCHED_REQUEUE:
			apply_requeue(p, g, k, jp,
				      preemptor_of(&g->snap, dec, d));
			break;
		case SCHED_TO_FG:
		case SCHED_TO_BG:
			apply_tier(p, g, k, jp, dc);
			break;
		}
		if (!amcbf_hold_yield(&p->hold))
			break;
	}
	/* a checkpointed job the engine no longer preempts: a later
	 * preemption signals it afresh */
	amcbf_preempt_checkpoint_sweep(p->mem);
}

/* The engine of the configured mode; without shared nodes the tiered
 * modes are their untiered twins.  Call with the part lock. */
static const sched_policy_t *cycle_policy(const dfrs_params_t *params,
					  bool *tiered)
{
	const char *name;
	const sched_policy_t *policy;

	*tiered = (params->mode == AMCBF_MODE_AMCBF ||
		   params->mode == AMCBF_MODE_CMCBF) && amcbf_tiers_possible();
	name = *tiered ? dfrs_params_mode_name(params->mode) :
		params->mode == AMCBF_MODE_AMCBF ? "ambf" :
		params->mode == AMCBF_MODE_CMCBF ? "cmbf" :
		dfrs_params_mode_name(params->mode);
	if (!(policy = sched_policy_find(name)))
		error("no engine for mode %s", name);
	return policy;
}
/* The engine of the configured mode (cycle_policy), with the part lock. */
static bool engine_prepare(amcbf_pass_t *p)
{
	engine_t *g = p->own;

	g->policy = cycle_policy(p->params, &g->tiered);
	g->snap.tiered = g->tiered;
	return g->policy != NULL;
}

/* Nodes, licenses and the site's pairwise rule, before the jobs. */
static void engine_read_begin(amcbf_pass_t *p)
{
	snapshot_t *s = &((engine_t *)p->own)->snap;

	amcbf_hosts_read(&s->hosts);
	s->nnodes = s->hosts.nslots;
	/* at most one entry a job record and one blocker a node: one array
	 * of that size, not a chain of doublings (at 20,000 jobs the last
	 * double was 32,768 entries, 8.1 MB, with the 4 MB before it freed
	 * in the same cycle) */
	if (!s->cap) {
		s->cap = (size_t)list_count(job_list) + (size_t)node_record_count;
		s->e = xcalloc(s->cap ? s->cap : 1, sizeof(*s->e));
		s->jobs = xcalloc(s->cap ? s->cap : 1, sizeof(*s->jobs));
		s->keys = xcalloc(s->cap ? s->cap : 1, sizeof(*s->keys));
	}
	amcbf_lic_pool_read(&s->pool);
	s->pair.site = amcbf_preempt_site();
	snapshot_blockers(s, p->params, p->avail);
}

/* One of slurmctld's jobs into the snapshot and the plugin's memory. */
static void engine_read_job(amcbf_pass_t *p, amcbf_job_class_t c,
			    amcbf_known_t *k, job_record_t *job_ptr)
{
	snapshot_t *s = &((engine_t *)p->own)->snap;

	if (k->requeued && IS_JOB_COMPLETING(job_ptr))
		s->settling = true;
	if (c != AMCBF_JOB_PENDING &&
	    (job_ptr->node_bitmap || job_ptr->node_bitmap_cg))
		snapshot_holding(s, k, job_ptr, c == AMCBF_JOB_RUNNING,
				 p->params, p->now);
	k->restored = 0;
}

/* A pending job the read took: queued for the engine if ours to start. */
static void engine_read_pending(amcbf_pass_t *p, amcbf_known_t *k,
				job_record_t *job_ptr)
{
	snapshot_pending(&((engine_t *)p->own)->snap, p->mem, k, job_ptr,
			 p->params, p->avail, p->now);
}

/* A job that ran in a tier left it. */
static void engine_departed(amcbf_pass_t *p, const amcbf_known_t *k)
{
	((engine_t *)p->own)->snap.events |= k->tier == SCHED_TIER_BG ?
		SCHED_EV_BG_DEPARTURE : SCHED_EV_FG_DEPARTURE;
}

static bool engine_read_end(amcbf_pass_t *p)
{
	(void)p;
	return true;
}

/* The engine decides on the snapshot (no lock held); false: nothing to
 * apply. */
static bool engine_decide(amcbf_pass_t *p)
{
	engine_t *g = p->own;
	const dfrs_params_t *params = p->params;
	sched_config_t cfg = { .util_threshold = params->util_threshold,
			       .min_idle_cpu = params->min_idle_cpu,
			       .bg_min_rate = params->bg_min_rate,
			       .reserve = params->reserve,
			       .requeue_victims = params->requeue_victims };

	/* auto follows the configured mode, not the engine: amcbf and
	 * cmcbf running untiered (no shared nodes) requeue nobody */
	if (cfg.requeue_victims == SCHED_REQUEUE_AUTO)
		cfg.requeue_victims = params->mode == AMCBF_MODE_AMCBF ||
				      params->mode == AMCBF_MODE_CMCBF ? 0 : 1;
	if (!g->tiered || p->mem->cycles == 0)
		g->snap.events |= SCHED_EV_FG_DEPARTURE | SCHED_EV_ARRIVAL;
	/* nodes came back (resumed, answering again, seen ON by the
	 * availability model): as a departure, the jobs that fitted
	 * nowhere at their arrival may fit now */
	if (g->snap.usable > p->mem->usable_nodes)
		g->snap.events |= SCHED_EV_FG_DEPARTURE;
	p->mem->usable_nodes = g->snap.usable;
	if (g->snap.settling) {
		/* a job we preempted is still leaving its nodes: decide once
		 * they are free, not around them */
		debug("%s cycle: a preempted job is still leaving its nodes",
		      g->policy->name);
		return false;
	}
	build_state(&g->st, &g->snap, p->mem, params, p->now);
	debug("%s cycle: %zu jobs and blockers, events %#x, mem %zu known",
	      g->policy->name, g->snap.ne, g->snap.events, p->mem->njobs);
	if (g->policy->engine(&g->st, &cfg, g->snap.events, &g->dec)) {
		error("engine %s: out of memory; nothing done this cycle",
		      g->policy->name);
		return false;
	}
	/* a running job is not moved (apply_tier): no victim for a move */
	size_t dropped = sched_decisions_drop_moves(&g->dec);
	if (dropped)
		debug("%s cycle: %zu decisions dropped: a running job's promotion to other nodes, and what was preempted for it",
		      g->policy->name, dropped);
	return true;
}

static void engine_release(amcbf_pass_t *p)
{
	engine_t *g = p->own;

	snapshot_free(&g->snap);	/* g->st.jobs with it */
	g->st.jobs = NULL;
	xfree(g->st.nodes);
	sched_decisions_free(&g->dec);
}

const amcbf_decider_t amcbf_decide_engine = AMCBF_DECIDER(engine, engine_t);
