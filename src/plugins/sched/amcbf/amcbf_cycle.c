/*
 * amcbf_cycle.c - sched/amcbf's cycle: the adapter between slurmctld and the
 * consolidation engines of seed 004 (CMBF, AMBF, CMCBF, AMCBF in
 * src/common/sched_consolidation.c, the same code dfrs sim runs).
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
 * flow_time / virtual_time^2 (seed 001; new jobs first) instead of arrival,
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
#include <sys/time.h>
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

#include "amcbf_cycle.h"
#include "cpu_weight.h"
#include "dfrs_priority.h"
#include "sched_policy.h"

/* One entry of the engine's job array and where it came from. */
typedef struct {
	sched_job_t job;
	job_record_t *job_ptr;	/* NULL for an unusable-node blocker */
	int fixed;		/* blocker or exempt: kept at the front */
	time_t submit;
	double prio;		/* stretch priority (0 in FIFO order) */
	double *util;
	unsigned char *allowed;	/* nodes a pending job may use, or NULL */
} entry_t;

/* A DFRS priority (0..inf) as a Slurm priority: monotonic, 1..2^30+1. */
static uint32_t slurm_priority_of(double prio)
{
	if (isinf(prio))
		return (1u << 30) + 1;
	return 1 + (uint32_t)((double)(1u << 30) * prio / (1.0 + prio));
}

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

static amcbf_known_t *known(amcbf_memory_t *mem, uint32_t id, bool add)
{
	for (size_t i = 0; i < mem->njobs; i++)
		if (mem->jobs[i].id == id)
			return &mem->jobs[i];
	if (!add)
		return NULL;
	if (mem->njobs == mem->cap) {
		mem->cap = mem->cap ? 2 * mem->cap : 64;
		xrecalloc(mem->jobs, mem->cap, sizeof(*mem->jobs));
	}
	amcbf_known_t *k = &mem->jobs[mem->njobs++];
	memset(k, 0, sizeof(*k));
	k->id = id;
	k->tier = SCHED_TIER_FG;
	return k;
}

void amcbf_memory_free(amcbf_memory_t *mem)
{
	xfree(mem->jobs);
	memset(mem, 0, sizeof(*mem));
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

static bool node_usable(node_record_t *node_ptr)
{
	return node_ptr && !IS_NODE_DOWN(node_ptr) && !IS_NODE_DRAIN(node_ptr) &&
	       !IS_NODE_NO_RESPOND(node_ptr) && !IS_NODE_FUTURE(node_ptr) &&
	       !IS_NODE_POWERED_DOWN(node_ptr);
}

/* The CPU need of each process: the job's dfrs:need, else dfrs_cpu_need. */
static double job_need(job_record_t *job_ptr, const dfrs_params_t *params)
{
	dfrs_tag_t tag;
	char err[128];

	if (dfrs_tag_parse(job_ptr->comment, &tag, err, sizeof(err)) == 1 &&
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

/*
 * The nodes a pending job may run on, as the engine's mask: its
 * partitions' nodes less its excluded ones (-x), within its required ones
 * (-w) when they alone can hold it, less those lacking its features,
 * memory, CPUs or disk (job_req_node_filter, as sched/backfill does).
 * NULL when every node will do.
 */
static unsigned char *job_allowed(job_record_t *job_ptr, int nodes)
{
	struct job_details *details = job_ptr->details;
	bitstr_t *avail = bit_alloc(node_record_count);
	unsigned char *allowed = NULL;

	if (job_ptr->part_ptr_list) {
		part_record_t *part_ptr;
		ListIterator it = list_iterator_create(job_ptr->part_ptr_list);
		while ((part_ptr = list_next(it)))
			if (part_ptr->node_bitmap)
				bit_or(avail, part_ptr->node_bitmap);
		list_iterator_destroy(it);
	} else if (job_ptr->part_ptr->node_bitmap) {
		bit_or(avail, job_ptr->part_ptr->node_bitmap);
	}
	if (details->exc_node_bitmap)
		bit_and_not(avail, details->exc_node_bitmap);
	if (details->req_node_bitmap &&
	    bit_set_count(details->req_node_bitmap) >= nodes)
		bit_and(avail, details->req_node_bitmap);
	if (job_req_node_filter(job_ptr, avail, true) != SLURM_SUCCESS)
		bit_clear_all(avail);
	if (bit_set_count(avail) < node_record_count) {
		allowed = xcalloc(node_record_count ? node_record_count : 1, 1);
		for (int i = 0; i < node_record_count; i++)
			allowed[i] = bit_test(avail, i) ? 1 : 0;
	}
	FREE_NULL_BITMAP(avail);
	return allowed;
}

static void tag_tier(job_record_t *job_ptr, sched_tier_t tier)
{
	dfrs_tag_t tag = { .yield = -1, .need = -1, .weight = -1,
			   .min_yield = -1,
			   .tier = tier == SCHED_TIER_FG ? TIER_FG : TIER_BG };
	char text[64];

	dfrs_tag_format(&tag, text, sizeof(text));
	if (job_ptr->system_comment && !xstrcmp(job_ptr->system_comment, text))
		return;
	xfree(job_ptr->system_comment);
	job_ptr->system_comment = xstrdup(text);
	last_job_update = time(NULL);
}

/* May the engine preempt this running job? */
static bool preemptable(job_record_t *job_ptr, const dfrs_params_t *params,
			time_t now)
{
	return job_ptr->batch_flag && job_ptr->details->requeue &&
	       job_ptr->restart_cnt < params->max_preempt &&
	       difftime(now, job_ptr->start_time) >= params->min_runtime &&
	       !(job_ptr->qos_ptr &&
		 dfrs_params_qos_exempt(params, job_ptr->qos_ptr->name)) &&
	       job_ptr->part_ptr &&
	       dfrs_params_manages_partition(params, job_ptr->part_ptr->name);
}

/* Is this pending job one Slurm lets start now, and ours to consider?
 * Held (priority 0), waiting for a dependency or begin time, array heads
 * and heterogeneous jobs are left to Slurm's rules. */
static bool startable(job_record_t *job_ptr)
{
	return job_ptr->priority != 0 && job_independent(job_ptr) &&
	       !job_ptr->array_recs && !job_ptr->het_job_id && job_ptr->part_ptr;
}

static void launch_started(job_record_t *job_ptr)
{
	last_job_update = time(NULL);
	if (job_ptr->batch_flag == 0)
		srun_allocate(job_ptr);
	else if (!IS_JOB_CONFIGURING(job_ptr))
		launch_job(job_ptr);
}

static int by_submit(void *x, void *y)
{
	job_record_t *a = *(job_record_t **)x, *b = *(job_record_t **)y;

	if (a->details->submit_time != b->details->submit_time)
		return a->details->submit_time < b->details->submit_time ? -1 : 1;
	return (a->job_id > b->job_id) - (a->job_id < b->job_id);
}

static int same_ptr(void *x, void *key)
{
	return x == key;
}

/*
 * Pending jobs of partitions outside amcbf_partitions: start them in submit
 * order where Slurm fits them; the first that does not fit blocks its
 * partition, as in sched/builtin.  Returns the number started.
 */
static int start_unmanaged(const dfrs_params_t *params, amcbf_memory_t *mem)
{
	List todo, blocked;
	ListIterator it;
	job_record_t *job_ptr;
	int started = 0;

	if (!strcmp(params->partitions, "all"))
		return 0;
	todo = list_create(NULL);
	blocked = list_create(NULL);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		if (IS_JOB_PENDING(job_ptr) && !IS_JOB_COMPLETING(job_ptr) &&
		    job_ptr->details && startable(job_ptr) &&
		    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name))
			list_append(todo, job_ptr);
	list_iterator_destroy(it);
	list_sort(todo, by_submit);
	it = list_iterator_create(todo);
	while ((job_ptr = list_next(it))) {
		if (list_find_first(blocked, same_ptr, job_ptr->part_ptr))
			continue;
		if (select_nodes(job_ptr, false, NULL, NULL, false, 0) !=
		    SLURM_SUCCESS) {
			list_append(blocked, job_ptr->part_ptr);
			continue;
		}
		launch_started(job_ptr);
		info("started %pJ of partition %s (not in amcbf_partitions) on %s",
		     job_ptr, job_ptr->part_ptr->name, job_ptr->nodes);
		mem->started++;
		started++;
	}
	list_iterator_destroy(it);
	FREE_NULL_LIST(todo);
	FREE_NULL_LIST(blocked);
	return started;
}

static const int ckpt_signals[] = {
	[AMCBF_CKPT_NONE] = 0, [AMCBF_CKPT_USR1] = SIGUSR1,
	[AMCBF_CKPT_USR2] = SIGUSR2, [AMCBF_CKPT_TERM] = SIGTERM,
	[AMCBF_CKPT_INT] = SIGINT, [AMCBF_CKPT_HUP] = SIGHUP,
};

/*
 * Before a preemption's requeue, with amcbf_ckpt_signal set: signal the
 * batch script and wait amcbf_ckpt_wait seconds.  True while the requeue
 * must wait (the signal was just sent, or the wait is not over).
 */
static bool checkpoint_first(job_record_t *job_ptr, amcbf_known_t *k,
			     const dfrs_params_t *params, amcbf_memory_t *mem,
			     time_t now)
{
	const char *name = amcbf_ckpt_signal_name(params->ckpt_signal);
	time_t due;
	int rc;

	if (!name || params->ckpt_wait == 0 || !job_ptr->batch_flag)
		return false;
	k->ckpt_kept = 1;
	if (!k->ckpt_at) {
		rc = job_signal(job_ptr, ckpt_signals[params->ckpt_signal],
				KILL_JOB_BATCH, 0, false);
		if (rc != SLURM_SUCCESS)
			verbose("could not send SIG%s to %pJ: %s", name, job_ptr,
				slurm_strerror(rc));
		else
			info("checkpoint: sent SIG%s to %pJ, requeue in %d s if still preempted",
			     name, job_ptr, params->ckpt_wait);
		k->ckpt_at = now;
	}
	due = k->ckpt_at + params->ckpt_wait;
	if (now >= due)
		return false;
	if (!mem->next_wake || due < mem->next_wake)
		mem->next_wake = due;
	return true;
}

/* Start a job on exactly these nodes, as sched/backfill's _start_job does. */
static int start_on(job_record_t *job_ptr, const int *nodes, int n)
{
	bitstr_t *orig = job_ptr->details->exc_node_bitmap;
	bitstr_t *exc = bit_alloc(node_record_count);
	int rc;

	bit_set_all(exc);
	for (int k = 0; k < n; k++)
		bit_clear(exc, nodes[k]);
	if (orig)
		bit_or(exc, orig);
	job_ptr->details->exc_node_bitmap = exc;
	rc = select_nodes(job_ptr, false, NULL, NULL, false, 0);
	/* select_nodes() may have replaced it: restore the user's */
	if (job_ptr->details) {
		FREE_NULL_BITMAP(job_ptr->details->exc_node_bitmap);
		job_ptr->details->exc_node_bitmap = orig;
	}
	if (rc != SLURM_SUCCESS)
		return rc;
	launch_started(job_ptr);
	return SLURM_SUCCESS;
}

int amcbf_cycle(amcbf_memory_t *mem, const dfrs_params_t *params)
{
	slurmctld_lock_t locks = { .conf = READ_LOCK, .job = WRITE_LOCK,
				   .node = WRITE_LOCK, .part = READ_LOCK,
				   .fed = READ_LOCK };
	bool tiered;
	const char *name;
	const sched_policy_t *policy;
	sched_config_t cfg = { .util_threshold = params->util_threshold,
			       .min_idle_cpu = params->min_idle_cpu };
	sched_decisions_t dec = { 0 };
	sched_state_t st = { 0 };
	entry_t *e = NULL;
	size_t ne = 0, cap = 0;
	unsigned events = 0;
	int actions = 0, requeues = 0, waiting = 0;
	bool settling = false;
	struct timeval t0, t1;
	time_t now = time(NULL);
	ListIterator it;
	job_record_t *job_ptr;

	gettimeofday(&t0, NULL);
	lock_slurmctld(locks);
	tiered = (params->mode == AMCBF_MODE_AMCBF ||
		  params->mode == AMCBF_MODE_CMCBF) && amcbf_tiers_possible();
	/* without shared nodes the tiered modes are their untiered twins */
	name = tiered ? amcbf_mode_name(params->mode) :
		params->mode == AMCBF_MODE_AMCBF ? "ambf" :
		params->mode == AMCBF_MODE_CMCBF ? "cmbf" :
		amcbf_mode_name(params->mode);
	if (!(policy = sched_policy_find(name))) {
		unlock_slurmctld(locks);
		error("no engine for mode %s", name);
		return 0;
	}

	actions += start_unmanaged(params, mem);
	for (size_t i = 0; i < mem->njobs; i++)
		mem->jobs[i].alive = 0;
	mem->next_wake = 0;
#define GROW() do { if (ne == cap) { cap = cap ? 2 * cap : 64; \
		xrecalloc(e, cap, sizeof(*e)); } } while (0)

	/* nodes the engine may not use: one fixed blocker each */
	for (int i = 0; i < node_record_count; i++) {
		if (node_usable(node_record_table_ptr[i]))
			continue;
		GROW();
		memset(&e[ne], 0, sizeof(e[ne]));
		fill(&e[ne], NULL, NULL, 1, SCHED_RUNNING_FG, params);
		e[ne].job.alloc[0] = i;
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
		k = known(mem, job_ptr->job_id, pending || running || holding);
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
			/* its stretch priority is kept current even while it
			 * may not start yet (held jobs keep priority 0) */
			if (params->priority == AMCBF_PRIO_STRETCH &&
			    job_ptr->priority != 0)
				job_ptr->priority = slurm_priority_of(
					dfrs_priority_value(DFRS_PRIO_FT_VT2,
						(double)job_ptr->details->submit_time,
						k->vt, (double)now));
			/* a requeued job may start again at its begin time:
			 * wake up then, not at the next periodic cycle */
			if (job_ptr->details->begin_time > now &&
			    (!mem->next_wake ||
			     job_ptr->details->begin_time < mem->next_wake))
				mem->next_wake = job_ptr->details->begin_time;
			/* not ours to start: see startable(); other
			 * partitions' jobs started before the scan */
			if (!startable(job_ptr) ||
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
			e[ne].allowed = job_allowed(job_ptr, e[ne].job.nodes);
			e[ne].job.allowed = e[ne].allowed;
			e[ne].submit = job_ptr->details->submit_time;
			e[ne].job.arrival = (double)e[ne].submit;
			if (params->priority == AMCBF_PRIO_STRETCH)
				e[ne].prio = dfrs_priority_value(DFRS_PRIO_FT_VT2,
					(double)e[ne].submit, k->vt, (double)now);
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
				dfrs_tag_t tag;
				char err[128];
				if (dfrs_tag_parse(job_ptr->system_comment, &tag,
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
				!preemptable(job_ptr, params, now);
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
				e[ne].prio = dfrs_priority_value(DFRS_PRIO_FT_VT2,
					(double)e[ne].submit, k->vt, (double)now);
				/* current when it is preempted */
				job_ptr->priority = slurm_priority_of(e[ne].prio);
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
		mem->jobs[i] = mem->jobs[--mem->njobs];
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
	for (size_t j = 0; j < ne; j++) {
		st.jobs[j] = e[j].job;
		if (st.jobs[j].where == SCHED_QUEUED)
			continue;
		for (int p = 0; p < st.jobs[j].nodes; p++) {
			sched_node_t *nd = &st.nodes[st.jobs[j].alloc[p]];
			/* a second job on a node without tiers (e.g. started
			 * before this mode) goes in the bg slot */
			if (st.jobs[j].where == SCHED_RUNNING_BG || nd->fg_job >= 0) {
				nd->bg_job = (int)j;
				nd->bg_proc = p;
			} else {
				nd->fg_job = (int)j;
				nd->fg_proc = p;
			}
		}
	}

	/* each running job's yield until the next cycle: 1 in the
	 * foreground, the CPU left by the foreground neighbour in the bg */
	for (size_t j = 0; j < ne; j++) {
		amcbf_known_t *k = e[j].job_ptr ?
			known(mem, e[j].job_ptr->job_id, false) : NULL;
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
		amcbf_known_t *k = jp ? known(mem, jp->job_id, false) : NULL;
		char *where;
		int rc;

		if (!jp || !k)
			continue;
		switch (dc->action) {
		case SCHED_START:
			/* nodes not free before the requeued leave */
			if (requeues || waiting)
				continue;
			rc = start_on(jp, nodes, st.jobs[dc->job].nodes);
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
			if (checkpoint_first(jp, k, params, mem, now)) {
				waiting++;
				continue;
			}
			where = xstrdup(jp->nodes);
			rc = job_requeue(0, jp->job_id, NULL, true, 0);
			if (rc != SLURM_SUCCESS) {
				verbose("could not requeue %pJ: %s", jp, slurm_strerror(rc));
				xfree(where);
				continue;
			}
			info("%s: preempted %pJ on %s (requeued, preemption %u of at most %d)",
			     policy->name, jp, where, jp->restart_cnt, params->max_preempt);
			xfree(where);
			k->requeued = 1;
			k->ckpt_at = 0;
			mem->requeued++;
			requeues++;
			actions++;
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
	for (size_t i = 0; i < mem->njobs; i++) {
		if (!mem->jobs[i].ckpt_kept)
			mem->jobs[i].ckpt_at = 0;
		mem->jobs[i].ckpt_kept = 0;
	}
	unlock_slurmctld(locks);

out:
	gettimeofday(&t1, NULL);
	{
		double usec = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_usec - t0.tv_usec);
		mem->cycles++;
		mem->usec_total += usec;
		if (usec > mem->usec_max)
			mem->usec_max = usec;
	}
	for (size_t j = 0; j < ne; j++) {
		xfree(e[j].util);
		xfree(e[j].job.alloc);
		xfree(e[j].allowed);
	}
	xfree(e);
	xfree(st.nodes);
	xfree(st.jobs);
	sched_decisions_free(&dec);
	return actions;
}
