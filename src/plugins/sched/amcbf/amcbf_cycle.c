/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_cycle.c - sched/amcbf's cycle: the adapter between slurmctld and the
 * consolidation engines of Liu et al. 2013 (CMBF, AMBF, CMCBF, AMCBF in
 * src/common/sched/sched_cmbf_amcbf.c, the same code dfrs sim runs).
 *
 * Each cycle rebuilds the engine's state from slurmctld's records (running
 * jobs in their tier, pending jobs in submit order), calls the engine, and
 * applies its decisions in order: a start becomes select_nodes() restricted
 * to the engine's nodes (as sched/backfill starts jobs) and launch_job(); a
 * preemption becomes a requeue (the job keeps its submit time, so it goes
 * back to its place in the queue); a tier change rewrites the job's
 * "dfrs:tier=" tag, which the node agents turn into CPU weights without
 * restarting anything.
 *
 * With amcbf_priority=stretch the order is DFRS's max-stretch priority
 * flow_time / virtual_time^2 (Stillwell et al. 2010; new jobs first) instead of arrival,
 * virtual time being the job's estimated yield integrated over its runs (1
 * in the foreground, the CPU its foreground neighbour leaves in the
 * background), and pending jobs' Slurm priority shows it (squeue %Q).
 *
 * What the engine must not touch is put at the front of the arrival order,
 * where nothing is "later" than it and so nothing preempts it: nodes that
 * cannot be used (down, drained, not responding), jobs being suspended or
 * completing, jobs preempted amcbf_max_preempt times already, jobs that
 * have run less than amcbf_min_runtime, jobs Slurm may not requeue
 * (--no-requeue, not batch), jobs of an amcbf_exempt_qos, and jobs of
 * partitions outside amcbf_partitions.  Pending jobs of those partitions
 * never reach the engine: they start first, in submit order, wherever
 * Slurm fits them (as sched/builtin would).
 *
 * With amcbf_ckpt_signal set, a preemption first sends the signal to the
 * job's batch script and requeues it amcbf_ckpt_wait seconds later, if the
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
#include "src/slurmctld/srun_comm.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_cycle.h"
#include "suite/cpu_weight.h"
#include "dfrs/dfrs_priority.h"
#include "sched/sched_policy.h"

/* One entry of the engine's job array and where it came from. */
typedef struct {
	sched_job_t job;
	job_record_t *job_ptr;	/* NULL for an unusable-node blocker */
	int fixed;		/* blocker or exempt: kept at the front */
	time_t submit;
	double prio;		/* stretch priority (0 in FIFO order) */
	double *util;
	unsigned char *allowed;	/* nodes a pending job may use, or NULL */
	int *rank;		/* its node preference (availability), or NULL */
} entry_t;

bool amcbf_tiers_possible(void)
{
	ListIterator it;
	part_record_t *part_ptr;
	bool shared = false;

	if (xstrcmp(slurm_conf.select_type, "select/dfrs") || !part_list)
		return false;
	/* a bg job shares a node with a fg job: the partition must force
	 * sharing of at least two jobs per node */
	it = list_iterator_create(part_list);
	while ((part_ptr = list_next(it)))
		if ((part_ptr->max_share & SHARED_FORCE) &&
		    (part_ptr->max_share & ~SHARED_FORCE) >= 2)
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

static int by_priority(const void *a, const void *b)
{
	const entry_t *x = a, *y = b;

	if (x->fixed != y->fixed)
		return x->fixed ? -1 : 1;
	return dfrs_priority_compare(x->prio, (double)x->submit,
				     x->job_ptr ? (int)x->job_ptr->job_id : 0,
				     y->prio, (double)y->submit,
				     y->job_ptr ? (int)y->job_ptr->job_id : 0);
}

static int by_arrival(const void *a, const void *b)
{
	const entry_t *x = a, *y = b;

	if (x->fixed != y->fixed)
		return x->fixed ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	uint32_t ix = x->job_ptr ? x->job_ptr->job_id : 0;
	uint32_t iy = y->job_ptr ? y->job_ptr->job_id : 0;
	return (ix > iy) - (ix < iy);
}

/* The CPU need of each process: the job's dfrs:need, else dfrs_cpu_need. */
static double job_need(job_record_t *job_ptr, const dfrs_params_t *params)
{
	cpu_weight_tag_t tag;
	char err[128];

	if (cpu_weight_tag_parse(job_ptr->comment, &tag, err, sizeof(err)) == 1 &&
	    tag.need > 0)
		return tag.need;
	return params->share_cpu_need;
}

static void fill(entry_t *e, job_record_t *job_ptr, bitstr_t *bitmap,
		 int nodes, sched_where_t where, const dfrs_params_t *params)
{
	double need = job_ptr ? job_need(job_ptr, params) : 1.0;

	e->job_ptr = job_ptr;
	e->job.id = job_ptr ? (long)job_ptr->job_id : -1;
	e->job.nodes = nodes;
	e->job.where = where;
	e->job.estimate = -1;
	e->util = xcalloc(nodes, sizeof(double));
	for (int p = 0; p < nodes; p++)
		e->util[p] = need;
	e->job.util = e->util;
	e->job.alloc = xcalloc(nodes, sizeof(int));
	if (bitmap) {
		int p = 0;
		for (int i = 0; i < node_record_count && p < nodes; i++)
			if (bit_test(bitmap, i))
				e->job.alloc[p++] = i;
	}
}

static void tag_tier(job_record_t *job_ptr, sched_tier_t tier)
{
	cpu_weight_tag_t tag = { .yield = -1, .need = -1, .weight = -1,
			   .min_yield = -1,
			   .tier = tier == SCHED_TIER_FG ? TIER_FG : TIER_BG };
	char text[64];

	cpu_weight_tag_format(&tag, text, sizeof(text));
	if (job_ptr->system_comment && !xstrcmp(job_ptr->system_comment, text))
		return;
	xfree(job_ptr->system_comment);
	job_ptr->system_comment = xstrdup(text);
	last_job_update = time(NULL);
}

int amcbf_cycle(amcbf_memory_t *mem, const dfrs_params_t *params,
		const amcbf_avail_t *avail)
{
	slurmctld_lock_t locks = { .conf = READ_LOCK, .job = WRITE_LOCK,
				   .node = WRITE_LOCK, .part = READ_LOCK,
				   .fed = READ_LOCK };
	bool tiered;
	const char *name;
	const sched_policy_t *policy;
	sched_config_t cfg = { .util_threshold = params->util_threshold,
			       .min_idle_cpu = params->min_idle_cpu,
			       .bg_min_rate = params->bg_min_rate };
	sched_decisions_t dec = { 0 };
	sched_state_t st = { 0 };
	entry_t *e = NULL;
	size_t ne = 0, cap = 0;
	unsigned events = 0;
	int actions = 0, requeues = 0, waiting = 0;
	bool settling = false;
	time_t now = time(NULL);
	ListIterator it;
	job_record_t *job_ptr;

	lock_slurmctld(locks);
	if (slurmctld_config.shutdown_time) {	/* began while we waited */
		unlock_slurmctld(locks);
		return 0;
	}
	tiered = (params->mode == AMCBF_MODE_AMCBF ||
		  params->mode == AMCBF_MODE_CMCBF) && amcbf_tiers_possible();
	/* without shared nodes the tiered modes are their untiered twins */
	name = tiered ? dfrs_params_mode_name(params->mode) :
		params->mode == AMCBF_MODE_AMCBF ? "ambf" :
		params->mode == AMCBF_MODE_CMCBF ? "cmbf" :
		dfrs_params_mode_name(params->mode);
	if (!(policy = sched_policy_find(name))) {
		unlock_slurmctld(locks);
		error("no engine for mode %s", name);
		return 0;
	}

	actions += amcbf_start_unmanaged(params, mem);
	for (size_t i = 0; i < mem->njobs; i++)
		mem->jobs[i].alive = 0;
	mem->next_wake = 0;
#define GROW() do { if (ne == cap) { cap = cap ? 2 * cap : 64; \
		xrecalloc(e, cap, sizeof(*e)); } } while (0)

	/* nodes the engine may not use: one fixed blocker each */
	for (int i = 0; i < node_record_count; i++) {
		if (amcbf_node_usable(i) && !amcbf_avail_node_off(avail, params, i))
			continue;
		GROW();
		memset(&e[ne], 0, sizeof(e[ne]));
		fill(&e[ne], NULL, NULL, 1, SCHED_RUNNING_FG, params);
		e[ne].job.alloc[0] = i;
		e[ne].job.pinned = 1;
		e[ne].fixed = 1;
		ne++;
	}

	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		amcbf_known_t *k;
		/* a requeued job is pending while still completing on its
		 * nodes: those nodes are not free yet */
		bool holding = IS_JOB_SUSPENDED(job_ptr) ||
			       (IS_JOB_COMPLETING(job_ptr) && job_ptr->node_bitmap_cg);
		bool running = IS_JOB_RUNNING(job_ptr) && !holding;
		bool pending = IS_JOB_PENDING(job_ptr) && !holding;

		if (!job_ptr->details)
			continue;
		k = amcbf_known(mem, job_ptr->job_id, pending || running || holding);
		if (k && !(pending || running || holding)) {
			/* ended since the last cycle: a departure of its tier
			 * (a completing job still holds its nodes: later) */
			if (k->running)
				events |= k->tier == SCHED_TIER_BG ?
					SCHED_EV_BG_DEPARTURE : SCHED_EV_FG_DEPARTURE;
			k->running = 0;
			continue;
		}
		if (k) {
			k->alive = 1;
			/* virtual time: the yield since the last cycle */
			if (k->running && k->tick)
				k->vt += k->yield * difftime(now, k->tick);
			k->tick = now;
		}
		if (k && k->requeued && IS_JOB_COMPLETING(job_ptr))
			settling = true;
		if (pending) {
			double stretch = amcbf_note_pending(mem, k, job_ptr,
				params->priority == AMCBF_PRIO_STRETCH, now);
			/* not ours to start: see startable(); other
			 * partitions' jobs started before the scan */
			if (!amcbf_startable(job_ptr) ||
			    !dfrs_params_manages_partition(params,
							   job_ptr->part_ptr->name))
				continue;
			k->requeued = 0;
			if (k->running && k->tier == SCHED_TIER_FG)
				events |= SCHED_EV_FG_DEPARTURE;
			if (k->running && k->tier == SCHED_TIER_BG)
				events |= SCHED_EV_BG_DEPARTURE;
			k->running = 0;
			GROW();
			memset(&e[ne], 0, sizeof(e[ne]));
			fill(&e[ne], job_ptr, NULL,
			     job_ptr->details->min_nodes ? job_ptr->details->min_nodes : 1,
			     SCHED_QUEUED, params);
			e[ne].allowed = amcbf_job_allowed(job_ptr, e[ne].job.nodes);
			e[ne].job.allowed = e[ne].allowed;
			e[ne].rank = amcbf_avail_rank(avail, job_ptr);
			e[ne].job.rank = e[ne].rank;
			e[ne].submit = job_ptr->details->submit_time;
			e[ne].job.arrival = (double)e[ne].submit;
			if (params->priority == AMCBF_PRIO_STRETCH)
				e[ne].prio = stretch;
			if (!k->seen) {
				e[ne].job.is_new = 1;
				events |= SCHED_EV_ARRIVAL;
				k->seen = 1;
			}
			ne++;
		} else if ((running || holding) &&
			   (job_ptr->node_bitmap || job_ptr->node_bitmap_cg)) {
			if (!k->running && !k->seen) {
				/* first seen running (e.g. after a slurmctld
				 * restart): its tier is in its tag */
				cpu_weight_tag_t tag;
				char err[128];
				if (cpu_weight_tag_parse(job_ptr->system_comment, &tag,
						   err, sizeof(err)) == 1 &&
				    tag.tier == TIER_BG)
					k->tier = SCHED_TIER_BG;
				k->seen = 1;
			}
			bitstr_t *bm = running ? job_ptr->node_bitmap :
				(job_ptr->node_bitmap_cg ? job_ptr->node_bitmap_cg :
				 job_ptr->node_bitmap);
			int n = bit_set_count(bm);
			bool exempt = !running ||
				!amcbf_preemptable(job_ptr, params, now);
			if (n <= 0)
				continue;
			GROW();
			memset(&e[ne], 0, sizeof(e[ne]));
			fill(&e[ne], job_ptr, bm, n,
			     (running && k->tier == SCHED_TIER_BG) ?
			     SCHED_RUNNING_BG : SCHED_RUNNING_FG, params);
			e[ne].submit = job_ptr->details->submit_time;
			e[ne].job.arrival = (double)e[ne].submit;
			if (params->priority == AMCBF_PRIO_STRETCH) {
				e[ne].prio = amcbf_stretch(job_ptr, k, now);
				/* current when it is preempted */
				job_ptr->priority = amcbf_slurm_priority(e[ne].prio);
			}
			e[ne].fixed = exempt;
			if (running)	/* a completing job departs once done */
				k->running = 1;
			ne++;
		}
	}
	list_iterator_destroy(it);

	/* jobs gone since the last cycle (ended, cancelled) */
	for (size_t i = 0; i < mem->njobs;) {
		if (mem->jobs[i].alive) {
			i++;
			continue;
		}
		if (mem->jobs[i].running)
			events |= mem->jobs[i].tier == SCHED_TIER_BG ?
				SCHED_EV_BG_DEPARTURE : SCHED_EV_FG_DEPARTURE;
		amcbf_forget(mem, i);
	}
	if (!tiered || mem->cycles == 0)
		events |= SCHED_EV_FG_DEPARTURE | SCHED_EV_ARRIVAL;

	if (settling) {
		debug("%s cycle: a preempted job is still leaving its nodes", policy->name);
		/* a job we preempted is still leaving its nodes: decide once
		 * they are free, not around them */
		unlock_slurmctld(locks);
		goto out;
	}

	mem->npending = mem->nrunning = 0;
	for (size_t j = 0; j < ne; j++)
		if (e[j].job_ptr && e[j].job.where == SCHED_QUEUED)
			mem->npending++;
		else if (e[j].job_ptr)
			mem->nrunning++;
	qsort(e, ne, sizeof(*e), params->priority == AMCBF_PRIO_STRETCH ?
	      by_priority : by_arrival);
	st.now = (double)now;
	st.nnodes = node_record_count;
	st.nodes = xcalloc(node_record_count ? node_record_count : 1,
			   sizeof(*st.nodes));
	for (int i = 0; i < node_record_count; i++)
		st.nodes[i].fg_job = st.nodes[i].fg_proc =
			st.nodes[i].bg_job = st.nodes[i].bg_proc = -1;
	st.jobs = xcalloc(ne ? ne : 1, sizeof(*st.jobs));
	st.njobs = ne;
	for (size_t j = 0; j < ne; j++)
		st.jobs[j] = e[j].job;
	/* jobs first, then the blockers of unusable nodes in the slots the
	 * jobs there leave: a job running on a node that stopped responding
	 * keeps its tier */
	for (int blockers = 0; blockers < 2; blockers++) {
		for (size_t j = 0; j < ne; j++) {
			if (st.jobs[j].where == SCHED_QUEUED ||
			    (e[j].job_ptr == NULL) != blockers)
				continue;
			for (int p = 0; p < st.jobs[j].nodes; p++) {
				sched_node_t *nd = &st.nodes[st.jobs[j].alloc[p]];
				/* a second job on a node without tiers (e.g.
				 * started before this mode) goes in the bg slot */
				if (st.jobs[j].where == SCHED_RUNNING_BG ||
				    nd->fg_job >= 0) {
					if (nd->bg_job >= 0)
						continue;	/* both taken */
					nd->bg_job = (int)j;
					nd->bg_proc = p;
					if (blockers)
						st.jobs[j].where = SCHED_RUNNING_BG;
				} else {
					nd->fg_job = (int)j;
					nd->fg_proc = p;
				}
			}
		}
	}

	/* each running job's yield until the next cycle: 1 in the
	 * foreground, the CPU left by the foreground neighbour in the bg */
	for (size_t j = 0; j < ne; j++) {
		amcbf_known_t *k = e[j].job_ptr ?
			amcbf_known(mem, e[j].job_ptr->job_id, false) : NULL;
		if (!k || st.jobs[j].where == SCHED_QUEUED)
			continue;
		k->yield = estimated_yield(&st, j);
	}
	debug("%s cycle: %zu jobs and blockers, events %#x, mem %zu known",
	      policy->name, ne, events, mem->njobs);
	if (policy->engine(&st, &cfg, events, &dec)) {
		error("engine %s: out of memory; nothing done this cycle", policy->name);
		unlock_slurmctld(locks);
		goto out;
	}

	for (size_t d = 0; d < dec.count; d++) {
		const sched_decision_t *dc = &dec.items[d];
		const int *nodes = sched_decision_nodes(&dec, dc);
		job_record_t *jp = e[dc->job].job_ptr;
		amcbf_known_t *k = jp ? amcbf_known(mem, jp->job_id, false) : NULL;
		int rc;

		if (!jp || !k)
			continue;
		switch (dc->action) {
		case SCHED_START:
			/* nodes not free before the requeued leave */
			if (requeues || waiting)
				continue;
			rc = amcbf_start_on(jp, nodes, st.jobs[dc->job].nodes);
			if (rc != SLURM_SUCCESS) {
				verbose("could not start %pJ where %s decided: %s",
					jp, policy->name, slurm_strerror(rc));
				mem->failed++;
				continue;
			}
			k->tier = dc->tier;
			k->running = 1;
			k->yield = estimated_yield(&st, dc->job);
			if (tiered)
				tag_tier(jp, dc->tier);
			info("%s: started %pJ on %s in the %s tier", policy->name,
			     jp, jp->nodes, dc->tier == SCHED_TIER_FG ? "fg" : "bg");
			mem->started++;
			actions++;
			break;
		case SCHED_REQUEUE:
			if (requeues >= params->max_preempt_per_cycle)
				continue;
			switch (amcbf_preempt(jp, k, params, mem, now,
					      policy->name, "preempted")) {
			case AMCBF_PREEMPT_DONE:
				requeues++;
				actions++;
				break;
			case AMCBF_PREEMPT_WAITING:
				waiting++;
				break;
			case AMCBF_PREEMPT_REFUSED:
				break;
			}
			break;
		case SCHED_TO_FG:
		case SCHED_TO_BG:
			if (dc->action == SCHED_TO_FG && dc->moved > 0) {
				/* a running job cannot change nodes in place:
				 * leave it in bg; the engine retries later */
				continue;
			}
			k->tier = dc->action == SCHED_TO_FG ? SCHED_TIER_FG : SCHED_TIER_BG;
			k->yield = estimated_yield(&st, dc->job);
			tag_tier(jp, k->tier);
			info("%s: %pJ swapped to the %s tier on %s (no restart)",
			     policy->name, jp, k->tier == SCHED_TIER_FG ? "fg" : "bg",
			     jp->nodes);
			if (dc->action == SCHED_TO_FG)
				mem->promoted++;
			else
				mem->demoted++;
			actions++;
			break;
		}
	}
	/* a checkpointed job the engine no longer preempts: a later
	 * preemption signals it afresh */
	amcbf_checkpoint_sweep(mem);
	unlock_slurmctld(locks);

out:
	for (size_t j = 0; j < ne; j++) {
		xfree(e[j].util);
		xfree(e[j].job.alloc);
		xfree(e[j].allowed);
		xfree(e[j].rank);
	}
	xfree(e);
	xfree(st.nodes);
	xfree(st.jobs);
	sched_decisions_free(&dec);
	return actions;
}
