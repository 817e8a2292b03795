/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_jobs.c - what sched/amcbf does to slurmctld's jobs, whichever
 * algorithm decides: remember jobs between cycles, tell which nodes a job
 * may use, start a job on given nodes (as sched/backfill's _start_job
 * does), start the jobs of partitions it does not manage, and show a DFRS
 * priority in Slurm's priority field (preempting a job:
 * amcbf_preempt.c).
 * Used by the cycle (amcbf_cycle.c) and its deciders: amcbf_decide_engine.c
 * (consolidation backfill, Liu et al. 2013) and amcbf_decide_dfrs.c (online
 * DFRS, Stillwell et al. 2010).  Every function here is called with
 * slurmctld's job (write), node (write) and partition (read) locks held.
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
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_jobs.h"
#include "amcbf_policy.h"
#include "amcbf_deps.h"
#include "amcbf_parts.h"
#include "amcbf_unsupported.h"
#include "amcbf_bb.h"
#include "amcbf_resv.h"
#include "dfrs/dfrs_priority.h"
#include "amcbf/limit_cap.h"
#include "amcbf/shape_cache.h"
#include "trace/arrival_order.h"

/* A DFRS priority (0..inf) as a Slurm priority: monotonic, 1..2^30+1. */
uint32_t amcbf_slurm_priority(double prio)
{
	if (isinf(prio))
		return (1u << 30) + 1;
	return 1 + (uint32_t)((double)(1u << 30) * prio / (1.0 + prio));
}

/* mem->jobs is kept in increasing id order: lookups are binary searches,
 * and new jobs (increasing ids) are mostly appended. */
amcbf_known_t *amcbf_known(amcbf_memory_t *mem, uint32_t id, bool add)
{
	size_t lo = 0, hi = mem->njobs;
	amcbf_known_t *k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mem->jobs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < mem->njobs && mem->jobs[lo].id == id)
		return &mem->jobs[lo];
	if (!add)
		return NULL;
	if (mem->njobs == mem->cap) {
		mem->cap = mem->cap ? 2 * mem->cap : 64;
		xrecalloc(mem->jobs, mem->cap, sizeof(*mem->jobs));
	}
	k = &mem->jobs[lo];
	memmove(k + 1, k, (mem->njobs - lo) * sizeof(*k));
	mem->njobs++;
	memset(k, 0, sizeof(*k));
	k->id = id;
	k->tier = SCHED_TIER_FG;
	return k;
}

amcbf_known_t *amcbf_known_started(amcbf_memory_t *mem, uint32_t seen_id,
				   job_record_t *job_ptr)
{
	amcbf_known_t *rest, *task;
	time_t submit;

	if (job_ptr->job_id == seen_id)
		return amcbf_known(mem, seen_id, false);
	/* an array task split off: the tasks left are new arrivals again */
	rest = amcbf_known(mem, seen_id, false);
	submit = rest ? rest->submit : 0;
	if (rest)
		rest->seen = 0;
	task = amcbf_known(mem, job_ptr->job_id, true);
	task->seen = 1;
	task->submit = submit;
	return task;
}

void amcbf_forget(amcbf_memory_t *mem, size_t i)
{
	xfree(mem->jobs[i].hosts);
	memmove(&mem->jobs[i], &mem->jobs[i + 1],
		(mem->njobs - i - 1) * sizeof(mem->jobs[0]));
	mem->njobs--;
}

void amcbf_memory_free(amcbf_memory_t *mem)
{
	for (size_t i = 0; i < mem->njobs; i++)
		xfree(mem->jobs[i].hosts);
	xfree(mem->jobs);
	memset(mem, 0, sizeof(*mem));
}

time_t amcbf_first_submit(amcbf_known_t *k, job_record_t *job_ptr)
{
	if (!k->submit || job_ptr->details->submit_time < k->submit)
		k->submit = job_ptr->details->submit_time;
	return k->submit;
}

void amcbf_charge(amcbf_known_t *k, job_record_t *job_ptr, time_t now,
		  const dfrs_params_t *params)
{
	int horizon = params->interval;
	double dt = k->tick ? difftime(now, k->tick) : 0;
	/* the background is charged nothing: what a job gets there depends
	 * on what its foreground neighbours leave and on how well it runs
	 * beside them, which is not measured here (k->yield is the most it
	 * may get); a DFRS yield is a CPU share the node agents enforce */
	double denied = k->tier == SCHED_TIER_BG || k->yield < 0 ? 1 :
			k->yield > 1 ? 0 : 1 - k->yield;
	time_t whole;

	k->tick = now;
	if (k->running && dt > 0)
		k->vt += k->yield * dt;
	if (!k->running || !IS_JOB_RUNNING(job_ptr) ||
	    job_ptr->time_limit == INFINITE || job_ptr->time_limit == NO_VAL ||
	    !job_ptr->end_time || dt < 0 || job_ptr->preempt_time) {
		/* what was paid ahead was for a run that is over (a requeue
		 * starts the next with a fresh limit); a job in its
		 * GraceTime keeps the end Slurm's preemption gave it */
		k->limit_owed = k->limit_ahead = 0;
		return;
	}
	/* the time since the last charge, less what was paid ahead for it,
	 * plus the time until the next cycle at today's yield: Slurm checks
	 * time limits between the plugin's cycles */
	k->limit_owed += denied * dt - k->limit_ahead;
	k->limit_ahead = denied * (horizon > 0 ? horizon : 0);
	k->limit_owed += k->limit_ahead;
	whole = (time_t)k->limit_owed;	/* towards 0 */
	if (!whole)
		return;
	k->limit_owed -= (double)whole;
	{
		time_t cap = params->extend_past_limits ? 0 :
			     amcbf_policy_end_cap(job_ptr);
		time_t moved = limit_cap_move(job_ptr->end_time, whole, cap);

		if (moved < job_ptr->end_time + whole)
			debug("%pJ: end time held at %ld by its partition's MaxTime / QOS MaxWall (amcbf_extend_past_limits=0)",
			      job_ptr, (long)moved);
		whole = moved - job_ptr->end_time;
		job_ptr->end_time = moved;
	}
	/* a --deadline stays: the limit was cut to it at start */
	if (job_ptr->deadline && job_ptr->deadline != NO_VAL &&
	    job_ptr->end_time > job_ptr->deadline)
		job_ptr->end_time = MAX(job_ptr->deadline,
					job_ptr->end_time - whole);
	debug2("%pJ: yield %.2f: time limit moved by %ld s, end time now %ld",
	       job_ptr, k->yield, (long)whole, (long)job_ptr->end_time);
}

double amcbf_stretch(job_record_t *job_ptr, const amcbf_known_t *k,
		     time_t now)
{
	return dfrs_priority_value(DFRS_PRIO_FT_VT2,
				   (double)(k->submit ? k->submit :
					    job_ptr->details->submit_time),
				   k->vt, (double)now);
}

double amcbf_note_pending(amcbf_memory_t *mem, amcbf_known_t *k,
			  job_record_t *job_ptr, bool show_priority,
			  time_t now)
{
	double stretch = amcbf_stretch(job_ptr, k, now);

	amcbf_policy_note_pending(job_ptr);

	/* said for the whole job, at its leader (component 0) */
	if (job_ptr->het_job_id && job_ptr->het_job_offset == 0 &&
	    !k->said_unsupported) {
		error("%pJ is part of heterogeneous job %u: sched/amcbf does not start heterogeneous jobs, it stays pending (cancel it and submit its components as separate jobs)",
		      job_ptr, job_ptr->het_job_id);
		k->said_unsupported = 1;
	}
	amcbf_unsupported_show(job_ptr, now);

	/* kept current even while it may not start yet (held jobs keep
	 * priority 0) */
	if (show_priority && job_ptr->priority != 0)
		job_ptr->priority = amcbf_slurm_priority(stretch);
	/* a requeued job may start again at its begin time: wake up then,
	 * not at the next periodic cycle */
	if (job_ptr->details->begin_time > now &&
	    (!mem->next_wake || job_ptr->details->begin_time < mem->next_wake))
		mem->next_wake = job_ptr->details->begin_time;
	return stretch;
}

bool amcbf_node_usable(int i)
{
	node_record_t *node_ptr = node_record_table_ptr[i];

	/* avail_node_bitmap: not down, drained, failing or not responding
	 * (after a slurmctld restart, until the node registers again), nor
	 * powering down; a powered-down node is usable: a job started there
	 * has Slurm resume it (amcbf_power.h) */
	return node_ptr && avail_node_bitmap && bit_test(avail_node_bitmap, i) &&
	       !IS_NODE_DOWN(node_ptr) && !IS_NODE_DRAIN(node_ptr) &&
	       !IS_NODE_NO_RESPOND(node_ptr) && !IS_NODE_FUTURE(node_ptr) &&
	       !IS_NODE_POWERING_DOWN(node_ptr) && !IS_NODE_UNKNOWN(node_ptr);
}

/*
 * The nodes a pending job may run on, as the engine's mask: its
 * partitions' nodes less its excluded ones (-x), within its required ones
 * (-w) when they alone can hold it, less those lacking its features,
 * memory, CPUs or disk (job_req_node_filter, as sched/backfill does).
 * NULL when every node will do.
 */
static unsigned char *job_allowed_at(job_record_t *job_ptr, int nodes,
				     time_t now)
{
	job_details_t *details = job_ptr->details;
	bitstr_t *avail = bit_alloc(node_record_count);
	unsigned char *allowed = NULL;

	/* the partitions the job may start in now (-p a,b: several) */
	amcbf_parts_nodes(job_ptr, avail, now);
	if (details->exc_node_bitmap)
		bit_and_not(avail, details->exc_node_bitmap);
	/* advanced reservations: members in theirs, outsiders out of them */
	amcbf_resv_restrict(job_ptr, avail, now);
	/* a job that ended is still leaving these: Slurm refuses new jobs
	 * there until it has (the next cycle sees them free) */
	if (cg_node_bitmap)
		bit_and_not(avail, cg_node_bitmap);
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

unsigned char *amcbf_job_allowed(job_record_t *job_ptr, int nodes)
{
	return job_allowed_at(job_ptr, nodes, time(NULL));
}

/*
 * Everything job_allowed_at()'s answer depends on besides slurmctld's
 * node, partition and reservation tables (which the locks held through a
 * read keep as they are), for a job whose answer depends on nothing else:
 * one partition, no -x/-w, no features or preferences, no reservation of
 * its own.  False for any other job: it is computed alone.  The second is
 * in the key: a reservation's window is tested at `now`.
 */
static bool allowed_shape(job_record_t *job_ptr, time_t now, shape_key_t *key)
{
	job_details_t *d = job_ptr->details;
	multi_core_data_t *mc = d->mc_ptr;

	if ((job_ptr->part_ptr_list &&
	     list_count(job_ptr->part_ptr_list) > 1) ||
	    d->exc_node_bitmap || d->req_node_bitmap ||
	    d->features || d->feature_list || d->features_use ||
	    d->feature_list_use || d->prefer || job_ptr->resv_name)
		return false;
	memset(key, 0, sizeof(*key));
	key->w[0] = (uint64_t)(uintptr_t)job_ptr->part_ptr;
	key->w[1] = (uint64_t)now;
	key->w[2] = d->pn_min_cpus;
	key->w[3] = d->pn_min_memory;
	key->w[4] = d->pn_min_tmp_disk;
	key->w[5] = mc ? 1 : 0;
	if (mc) {
		key->w[6] = mc->sockets_per_node;
		key->w[7] = mc->cores_per_socket;
		key->w[8] = mc->threads_per_core;
	}
	/* an outsider's reservations are tested over its run (its limit,
	 * else its partition's MaxTime, which the partition gives) */
	if (resv_list && list_count(resv_list))
		key->w[9] = (uint64_t)job_ptr->time_limit + 1;
	return true;
}

static void free_mask(void *p)
{
	xfree(p);
}

const unsigned char *amcbf_job_allowed_shared(amcbf_allowed_cache_t *cache,
					      job_record_t *job_ptr, int nodes,
					      unsigned char **own)
{
	time_t now = time(NULL);
	shape_key_t key;
	void *mask;

	*own = NULL;
	if (!allowed_shape(job_ptr, now, &key))
		return *own = job_allowed_at(job_ptr, nodes, now);
	if (shape_cache_find(&cache->shapes, &key, &mask))
		return mask;
	mask = job_allowed_at(job_ptr, nodes, now);
	if (shape_cache_add(&cache->shapes, &key, mask))
		return *own = mask;	/* not kept: the job owns it */
	return mask;
}

void amcbf_allowed_cache_free(amcbf_allowed_cache_t *cache)
{
	shape_cache_free(&cache->shapes, free_mask);
}

/* Is this pending job one Slurm lets start now, and ours to consider?
 * Held (priority 0), waiting for a dependency or begin time, or a job
 * array at its throttle (%N: job_independent() says so) are left to
 * Slurm's rules; heterogeneous jobs are never started here.  A job
 * array's pending record is: starting it starts its next task. */
bool amcbf_startable(job_record_t *job_ptr)
{
	return job_ptr->priority != 0 && !amcbf_deps_waiting(job_ptr) &&
	       job_independent(job_ptr) &&
	       !job_ptr->het_job_id && job_ptr->part_ptr &&
	       amcbf_parts_ok(job_ptr, time(NULL)) && amcbf_bb_ready(job_ptr);
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

	return arrival_order((double)a->details->submit_time, (long)a->job_id,
			     (double)b->details->submit_time, (long)b->job_id);
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
int amcbf_start_unmanaged(const dfrs_params_t *params, amcbf_memory_t *mem)
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
		    job_ptr->details && job_ptr->part_ptr &&
		    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name) &&
		    amcbf_startable(job_ptr))
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

static bool has_deadline(job_record_t *job_ptr)
{
	return job_ptr->deadline && job_ptr->deadline != NO_VAL;
}

int amcbf_end_past_deadlines(void)
{
	char func[] = "sched/amcbf";	/* 22.05 takes a char *, 24.11 const */
	ListIterator it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	int ended = 0;

	while ((job_ptr = list_next(it)))
		if (IS_JOB_PENDING(job_ptr) && !IS_JOB_COMPLETING(job_ptr) &&
		    job_ptr->details && has_deadline(job_ptr) &&
		    amcbf_startable(job_ptr) && !deadline_ok(job_ptr, func))
			ended++;
	list_iterator_destroy(it);
	return ended;
}

/* The time limit (minutes) a job with a --deadline starts with, as Slurm's
 * main scheduler sets it: the minutes to the deadline, or less (its own
 * limit, else its partition's default or maximum); 0: leave it alone. */
static uint32_t deadline_limit(job_record_t *job_ptr, time_t now)
{
	part_record_t *part_ptr = job_ptr->part_ptr;
	uint32_t limit;

	if (!has_deadline(job_ptr) || job_ptr->deadline <= now)
		return 0;
	limit = (uint32_t)((job_ptr->deadline - now) / 60);
	if (job_ptr->time_limit != NO_VAL && job_ptr->time_limit != INFINITE)
		return MIN(job_ptr->time_limit, limit);
	if (part_ptr && part_ptr->default_time != NO_VAL &&
	    part_ptr->default_time != INFINITE)
		return MIN(part_ptr->default_time, limit);
	if (part_ptr && part_ptr->max_time != NO_VAL &&
	    part_ptr->max_time != INFINITE)
		return MIN(part_ptr->max_time, limit);
	return limit;
}

/*
 * Start a job on exactly these nodes, as sched/backfill's _start_job does.
 * For a job array's pending record select_nodes() starts its first task:
 * job_array_post_sched() splits that task off under a new job id (job_ptr
 * is then the task) and leaves the other tasks pending under the array's
 * id, with a copy of the node exclusions given here: those are the user's
 * again after, as sched/backfill restores them.
 */
int amcbf_start_on(job_record_t *job_ptr, const int *nodes, int n)
{
	bitstr_t *orig = job_ptr->details->exc_node_bitmap;
	bitstr_t *exc = bit_alloc(node_record_count);
	bool array_head = job_ptr->array_recs != NULL;
	uint32_t cut = deadline_limit(job_ptr, time(NULL));
	uint32_t user_limit = job_ptr->time_limit;
	part_record_t *part_was;
	int rc;

	bit_set_all(exc);
	for (int k = 0; k < n; k++)
		bit_clear(exc, nodes[k]);
	if (orig)
		bit_or(exc, orig);
	job_ptr->details->exc_node_bitmap = exc;
	/* --deadline: the run must end by it (Slurm's main scheduler does
	 * the same before its select_nodes()) */
	if (cut)
		job_ptr->time_limit = cut;
	/* -p a,b: in a partition that holds the nodes */
	part_was = amcbf_parts_for_nodes(job_ptr, nodes, n, time(NULL));
	rc = select_nodes(job_ptr, false, NULL, NULL, false, 0);
	if (part_was && rc != SLURM_SUCCESS)
		job_ptr->part_ptr = part_was;
	if (cut && rc != SLURM_SUCCESS)
		job_ptr->time_limit = user_limit;
	if (array_head) {
		job_record_t *rest = find_job_record(job_ptr->array_job_id);
		if (rest && rest != job_ptr && rest->details) {
			FREE_NULL_BITMAP(rest->details->exc_node_bitmap);
			if (orig)
				rest->details->exc_node_bitmap = bit_copy(orig);
			rest->time_limit = user_limit;
		}
	}
	/* select_nodes() may have replaced it: restore the user's */
	if (job_ptr->details) {
		FREE_NULL_BITMAP(job_ptr->details->exc_node_bitmap);
		job_ptr->details->exc_node_bitmap = orig;
	}
	if (rc != SLURM_SUCCESS)
		return rc;
	amcbf_parts_started(job_ptr);
	launch_started(job_ptr);
	return SLURM_SUCCESS;
}
