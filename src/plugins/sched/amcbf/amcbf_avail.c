/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_avail.c - sched/amcbf's availability slot: slurmctld's nodes and
 * jobs in, the availability module's decisions (src/common/avail/avail_monitor.c;
 * He et al. 2012, Sec. III) back out as suspensions, resumptions and
 * requeues; SSAC's availability ranking (Xie and Qin 2006, Sec. 3.2) for the
 * engine's node choice.
 *
 * A node is observed once a slot: DOWN when down or not responding, OFF
 * when drained or when its CPU load from outside Slurm's jobs exceeds
 * amcbf_avail_zeta of its CPUs, else ON.  A node OFF only because it is
 * drained (maintenance: its jobs may finish) makes no job wait or migrate
 * unless amcbf_avail_drain_acts=1 (wait_bound_off_acts); a wait lasts at
 * most amcbf_avail_wait_factor times its hosts' expected OFF period, then
 * the job resumes where it is (wait_bound.h).  A running job of a managed
 * partition with OFF hosts gets the decision of amcbf_avail_policy:
 *   wait     the job is suspended, keeping its nodes (as gang scheduling
 *            suspends: scontrol suspend would release them to other jobs),
 *            remembered (also in the state file), and resumed at the first
 *            slot its hosts are all ON again; each slot it waits the decision is taken again,
 *            so it may still migrate when ON nodes free up;
 *   migrate  the job is requeued (after the checkpoint signal, when one is
 *            set) and the engine restarts it on ON nodes; never when fewer
 *            ON nodes than it needs are free: it waits instead.
 * A running job the preemption rules exempt (src/common/rules/preempt_rules.c:
 * --no-requeue, not batch, amcbf_max_preempt, its QOS or PreemptMode) is
 * neither suspended nor requeued: it is left running on its OFF hosts, with
 * one log line.  One that has run amcbf_min_runtime or longer (when set) is
 * not migrated, which would throw that run away: it waits instead.
 * Every decision is logged with its inputs (n, s', p01, p11, gamma, the
 * threshold).  Locks are held while nodes and jobs are read and while the
 * decisions are applied (yielded every amcbf_yield_interval ms); the
 * decisions themselves, whose thresholds cost O(n^3) in a job's hosts the
 * first time a size is met, are taken without them, and the files are
 * written after.
 */
#include "src/common/slurm_xlator.h"

#include <math.h>
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
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_allowed.h"
#include "amcbf_avail.h"
#include "amcbf_locks.h"
#include "amcbf_preempt.h"
#include "amcbf_suspend.h"
#include "avail/ssac.h"
#include "avail/wait_bound.h"
#include "suite/cpu_weight.h"
#include "state_file.h"

#define STATE_NAME "dfrs-availability.json"
#define STATUS_NAME "avail-status.json"

/* The monitor's settings from amcbf_avail_*: the configured name, and the
 * simulator's policy it decides by (the chain is estimated online, so
 * threshold is threshold-est; off and observe never act). */
static avail_monitor_config_t monitor_config(const dfrs_params_t *params)
{
	avail_monitor_config_t c = {
		.name = dfrs_params_avail_policy_name(params->avail_policy),
		.kind = AVAIL_POLICY_WAIT,
		.slot = params->avail_slot,
		.zeta = params->avail_zeta,
		.beta = params->avail_beta,
		.migration_cost = params->avail_migration_cost,
	};

	switch (params->avail_policy) {
	case AMCBF_AVAIL_THRESHOLD:
		c.kind = AVAIL_POLICY_THRESHOLD_EST;
		break;
	case AMCBF_AVAIL_MYOPIC:
		c.kind = AVAIL_POLICY_MYOPIC;
		break;
	case AMCBF_AVAIL_MIGRATE:
		c.kind = AVAIL_POLICY_MIGRATE;
		break;
	default:	/* wait; off and observe never act */
		break;
	}
	return c;
}

static bool acting(const dfrs_params_t *params)
{
	return params->avail_policy >= AMCBF_AVAIL_THRESHOLD;
}

static char *state_path(void)
{
	char *path = NULL;

	xstrfmtcat(path, "%s/%s", slurm_conf.state_save_location, STATE_NAME);
	return path;
}

/* The policy no longer acts, or the plugin is passive: resume the jobs it
 * left waiting, those of the state file's list (suspended before marks
 * were kept) as well as the marked ones. */
static void release_waiting(amcbf_avail_t *a, const char *why)
{
	amcbf_hold_t h = { .locks = { .job = WRITE_LOCK, .node = WRITE_LOCK,
				      .fed = READ_LOCK },
			   .phase = AMCBF_PHASE_AVAIL };
	job_record_t *job_ptr;

	amcbf_hold_lock(&h);
	while (a->mon.nsuspended) {
		uint32_t id = a->mon.suspended[0];

		avail_monitor_set_suspended(&a->mon, id, false);
		if ((job_ptr = find_job_record(id)) && IS_JOB_SUSPENDED(job_ptr))
			amcbf_suspend_mark(job_ptr);
	}
	amcbf_hold_unlock(&h);
	amcbf_resume_marked(why);
}

/* Why the jobs left waiting are resumed now, or NULL if they are not. */
static const char *release_reason(const dfrs_params_t *params, bool active,
				  char *buf, size_t len)
{
	if (!active)
		return "sched/amcbf is passive";
	if (acting(params))
		return NULL;
	snprintf(buf, len, "amcbf_avail_policy is now %s",
		 dfrs_params_avail_policy_name(params->avail_policy));
	return buf;
}

void amcbf_avail_configure(amcbf_avail_t *a, const dfrs_params_t *params,
			   bool active)
{
	char err[512], why[128], *path;
	const char *release = release_reason(params, active, why, sizeof(why));
	int rc;

	if (a->ready) {
		avail_monitor_set_half_life(&a->mon, params->avail_half_life);
		if (release)
			release_waiting(a, release);
		return;
	}
	if (avail_monitor_init(&a->mon, params->avail_half_life)) {
		error("availability: out of memory");
		return;
	}
	a->ready = true;
	path = state_path();
	rc = avail_monitor_load(&a->mon, path, err, sizeof(err));
	if (rc < 0)
		error("availability: %s; not loaded, learning afresh", err);
	else if (rc == 0)
		info("availability: loaded the models of %zu nodes and %zu suspended jobs from %s",
		     a->mon.nnodes, a->mon.nsuspended, path);
	xfree(path);
	if (release)
		release_waiting(a, release);
}

time_t amcbf_avail_next_slot(const amcbf_avail_t *a, const dfrs_params_t *params)
{
	if (params->avail_policy == AMCBF_AVAIL_OFF || !a->ready)
		return 0;
	return (time_t)(a->last_slot + 1) * params->avail_slot;
}

/* slurm node index -> monitor index, rebuilt when the node table changes */
static bool map_nodes(amcbf_avail_t *a)
{
	if (a->nindex != node_record_count) {
		xfree(a->index);
		a->index = xcalloc(node_record_count ? node_record_count : 1,
				   sizeof(size_t));
		a->nindex = node_record_count;
		for (int i = 0; i < node_record_count; i++)
			a->index[i] = (size_t)-1;
	}
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		size_t at = a->index[i];

		if (!node_ptr) {
			a->index[i] = (size_t)-1;
			continue;
		}
		if (at != (size_t)-1 && at < a->mon.nnodes &&
		    !strcmp(a->mon.nodes[at].name, node_ptr->name))
			continue;
		if ((a->index[i] = avail_monitor_node(&a->mon, node_ptr->name)) ==
		    (size_t)-1) {
			error("availability: out of memory");
			return false;
		}
	}
	return true;
}

bool amcbf_avail_node_off(const amcbf_avail_t *a, const dfrs_params_t *params, int i)
{
	return acting(params) && a->ready && i < a->nindex &&
	       a->index[i] != (size_t)-1 && !avail_monitor_is_on(&a->mon, a->index[i]);
}

int *amcbf_avail_rank(const amcbf_avail_t *a, job_record_t *job_ptr)
{
	cpu_weight_tag_t tag;
	ssac_candidate_t *cand;
	size_t *order;
	int *rank;
	char err[128];

	if (!a->ready || a->nindex != node_record_count ||
	    cpu_weight_tag_parse(job_ptr->comment, &tag, err, sizeof(err)) != 1 ||
	    tag.avail <= 0)
		return NULL;
	cand = xcalloc(node_record_count, sizeof(*cand));
	order = xcalloc(node_record_count, sizeof(*order));
	rank = xcalloc(node_record_count, sizeof(*rank));
	for (int i = 0; i < node_record_count; i++) {
		cand[i].availability = a->index[i] == (size_t)-1 ? NAN :
			avail_monitor_availability(&a->mon, a->index[i]);
		cand[i].response = 0;	/* no per-node response model: by index */
	}
	ssac_rank(cand, node_record_count, tag.avail, order);
	for (int k = 0; k < node_record_count; k++)
		rank[order[k]] = k;
	xfree(cand);
	xfree(order);
	return rank;
}

/* Observe every node (unless only a due migration is decided again, on
 * the last observation); per node: ON now, calm (ON, or OFF in a way that
 * makes no job wait: drained for maintenance, wait_bound_off_acts), and
 * held by a job (busy). */
static void observe(amcbf_avail_t *a, const dfrs_params_t *params, bool record, bool *on,
		    bool *calm, bool *busy)
{
	double *used = xcalloc(node_record_count ? node_record_count : 1, sizeof(double));
	/* the jobs are only needed for the load test and for decisions:
	 * observe-only with no load test (the defaults) skips them */
	ListIterator it = ((record && params->avail_zeta < 1) || acting(params)) ?
		list_iterator_create(job_list) : NULL;
	job_record_t *job_ptr;

	/* CPUs Slurm's jobs hold on each node; nodes held (also by a
	 * suspended or completing job) are no spare for a migration */
	while (it && (job_ptr = list_next(it))) {
		bitstr_t *bm = job_ptr->node_bitmap;
		job_resources_t *res = job_ptr->job_resrcs;
		int k = 0, first, last;

		if (IS_JOB_COMPLETING(job_ptr) && job_ptr->node_bitmap_cg)
			bm = job_ptr->node_bitmap_cg;
		else if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
			continue;
		if (!bm || (first = bit_ffs(bm)) < 0)
			continue;
		last = bit_fls(bm);
		for (int i = first; i <= last; i++) {
			if (!bit_test(bm, i))
				continue;
			busy[i] = true;
			if (IS_JOB_RUNNING(job_ptr) && res && res->cpus &&
			    k < (int)res->nhosts)
				used[i] += res->cpus[k];
			k++;
		}
	}
	if (it)
		list_iterator_destroy(it);

	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		double outside;
		onoff_obs_t obs;

		bool down, loaded;

		if (!node_ptr || a->index[i] == (size_t)-1) {
			calm[i] = true;
			continue;
		}
		outside = node_ptr->cpus ?
			(node_ptr->cpu_load / 100.0 - used[i]) / node_ptr->cpus : 0;
		down = IS_NODE_DOWN(node_ptr) || IS_NODE_NO_RESPOND(node_ptr) ||
		       IS_NODE_POWERED_DOWN(node_ptr);
		loaded = params->avail_zeta < 1.0 && outside > params->avail_zeta;
		if (!record) {
			on[i] = avail_monitor_is_on(&a->mon, a->index[i]);
		} else {
			obs = avail_node_state(down, IS_NODE_DRAIN(node_ptr) ||
						     IS_NODE_FAIL(node_ptr),
					       outside, params->avail_zeta);
			avail_monitor_observe(&a->mon, a->index[i], obs);
			on[i] = obs == ONOFF_OBS_ON;
		}
		calm[i] = on[i] ||
			  !wait_bound_off_acts(down, IS_NODE_FAIL(node_ptr), loaded,
					       IS_NODE_DRAIN(node_ptr),
					       params->avail_drain_acts);
	}
	if (record)
		avail_monitor_slot_done(&a->mon);
	xfree(used);
}

/* A running or waiting job the policy decides for: what its decision
 * needs, read with the locks held, and the decision, taken without. */
typedef struct {
	uint32_t id;
	time_t start;		/* its run: the same one when acted on? */
	bool waiting;		/* suspended by sched/amcbf */
	size_t n, s, spare;	/* its hosts, those calm (ON, or drained
				   for maintenance), spare ON nodes */
	double wait_limit;	/* s it may wait suspended (wait_bound) */
	double expected_off;	/* s, the longest expected OFF period of
				   its hosts that are not calm */
	bool decided;
	avail_decision_t d;
} candidate_t;

/* Fill c for this job; false when there is nothing to decide (all its
 * hosts calm and it runs). */
static bool count_hosts(const amcbf_avail_t *a, const dfrs_params_t *params,
			job_record_t *job_ptr, const bool *on, const bool *calm,
			const bool *busy, candidate_t *c)
{
	bitstr_t *part = job_ptr->part_ptr ? job_ptr->part_ptr->node_bitmap : NULL;

	memset(c, 0, sizeof(*c));
	c->id = job_ptr->job_id;
	c->start = job_ptr->start_time;
	c->waiting = IS_JOB_SUSPENDED(job_ptr);
	for (int i = 0; i < node_record_count; i++) {
		if (bit_test(job_ptr->node_bitmap, i)) {
			c->n++;
			c->s += calm[i];
			if (!calm[i] && a->index[i] != (size_t)-1) {
				markov_estimate_t e;
				double off;

				avail_monitor_estimate(&a->mon, a->index[i], &e);
				off = wait_bound_expected_off(e.p01, params->avail_slot);
				if (off > c->expected_off)
					c->expected_off = off;
			}
		} else if (on[i] && !busy[i] && (!part || bit_test(part, i)) &&
			   amcbf_node_usable(i)) {
			c->spare++;
		}
	}
	c->wait_limit = wait_bound_limit(c->expected_off, params->avail_wait_factor);
	return c->n && !(c->s == c->n && !c->waiting);
}

/* A job suspended by sched/amcbf (marked) that the state file did not
 * list (lost or corrupt): it waits for its hosts again. */
static void adopt(amcbf_avail_t *a, job_record_t *job_ptr)
{
	if (avail_monitor_set_suspended(&a->mon, job_ptr->job_id, true)) {
		error("availability: out of memory");
		return;
	}
	info("availability: %pJ was suspended by sched/amcbf (AdminComment %s) but not in %s: it waits for its hosts again",
	     job_ptr, AMCBF_SUSPEND_MARK, STATE_NAME);
}

/* With the locks held: resume a waiting job the policy no longer
 * manages. */
static void release_one(amcbf_avail_t *a, job_record_t *job_ptr)
{
	int rc;

	avail_monitor_set_suspended(&a->mon, job_ptr->job_id, false);
	if ((rc = amcbf_resume_job(job_ptr)))
		error("availability: could not resume %pJ: %s", job_ptr,
		      slurm_strerror(rc));
	else
		info("availability: resumed %pJ: its partition is not in amcbf_partitions",
		     job_ptr);
}

/* Index of id in a->waited_out, or -1. */
static ssize_t waited_out_find(const amcbf_avail_t *a, uint32_t id)
{
	for (size_t i = 0; i < a->nwaited_out; i++)
		if (a->waited_out[i] == id)
			return (ssize_t)i;
	return -1;
}

static void waited_out_set(amcbf_avail_t *a, uint32_t id, bool on)
{
	ssize_t i = waited_out_find(a, id);

	if (on && i < 0) {
		xrecalloc(a->waited_out, a->nwaited_out + 1, sizeof(uint32_t));
		a->waited_out[a->nwaited_out++] = id;
	} else if (!on && i >= 0) {
		a->waited_out[i] = a->waited_out[--a->nwaited_out];
	}
}

/* With the locks held: the jobs to decide for (xmalloc'ed, *nc of them);
 * the list of waiting jobs brought up to date on the way. */
static candidate_t *collect(amcbf_avail_t *a, const dfrs_params_t *params,
			    const bool *on, const bool *calm, const bool *busy,
			    size_t *nc)
{
	ListIterator it = list_iterator_create(job_list);
	job_record_t *job_ptr;
	candidate_t *c = NULL;
	size_t cap = 0;

	*nc = 0;
	while ((job_ptr = list_next(it))) {
		bool listed = avail_monitor_suspended(&a->mon, job_ptr->job_id);
		bool ours = listed || amcbf_suspend_marked(job_ptr);

		if (ours && !IS_JOB_SUSPENDED(job_ptr)) {
			/* resumed by hand, requeued or ended */
			avail_monitor_set_suspended(&a->mon, job_ptr->job_id, false);
			amcbf_suspend_unmark(job_ptr);
			continue;
		}
		if (ours && !listed)
			adopt(a, job_ptr);
		if (!(IS_JOB_RUNNING(job_ptr) || ours) || !job_ptr->node_bitmap ||
		    IS_JOB_COMPLETING(job_ptr))
			continue;
		if (!job_ptr->part_ptr ||
		    !dfrs_params_manages_partition(params, job_ptr->part_ptr->name)) {
			if (ours)	/* amcbf_partitions changed meanwhile */
				release_one(a, job_ptr);
			continue;
		}
		if (*nc == cap) {
			cap = cap ? 2 * cap : 16;
			xrecalloc(c, cap, sizeof(*c));
		}
		bool decide = count_hosts(a, params, job_ptr, on, calm, busy, &c[*nc]);

		/* resumed after its wait bound: runs on until its hosts are
		 * all calm again */
		if (!ours && waited_out_find(a, job_ptr->job_id) >= 0) {
			if (!decide)
				waited_out_set(a, job_ptr->job_id, false);
			continue;
		}
		if (decide)
			(*nc)++;
	}
	list_iterator_destroy(it);
	for (size_t i = 0; i < a->nwaited_out;) {
		job_record_t *j = find_job_record(a->waited_out[i]);

		if (!j || !IS_JOB_RUNNING(j))
			waited_out_set(a, a->waited_out[i], false);
		else
			i++;
	}
	/* suspended jobs Slurm no longer knows (purged) */
	for (size_t i = 0; i < a->mon.nsuspended;) {
		if (!find_job_record(a->mon.suspended[i]))
			avail_monitor_set_suspended(&a->mon, a->mon.suspended[i], false);
		else
			i++;
	}
	return c;
}

/* Without the locks: each job's decision (the thresholds are O(n^3) in a
 * job's hosts the first time a size is met: never under the locks). */
static void decide_all(amcbf_avail_t *a, const dfrs_params_t *params,
		       candidate_t *c, size_t nc, time_t now)
{
	avail_monitor_config_t cfg = monitor_config(params);
	char err[256];

	for (size_t j = 0; j < nc; j++) {
		if (avail_monitor_decide(&a->mon, &cfg, c[j].id, (long)now, c[j].n,
					 c[j].s, c[j].spare, &c[j].d, err,
					 sizeof(err)))
			error("availability: JobId=%u: %s", c[j].id, err);
		else
			c[j].decided = true;
	}
}

/* Requeue a job for a migration (resumed first if it was waiting);
 * the number of actions (0 or 1). */
static int migrate(amcbf_avail_t *a, const dfrs_params_t *params,
		   amcbf_memory_t *mem, job_record_t *job_ptr,
		   const candidate_t *c, const char *line, time_t now)
{
	amcbf_known_t *k = amcbf_known(mem, job_ptr->job_id, true);
	amcbf_preempt_rc_t prc;
	int rc;

	if (c->waiting && (rc = amcbf_resume_job(job_ptr)))
		verbose("availability: resuming %pJ before its requeue: %s",
			job_ptr, slurm_strerror(rc));
	if (c->waiting)
		avail_monitor_set_suspended(&a->mon, job_ptr->job_id, false);
	info("availability: %s", line);
	prc = amcbf_preempt_requeue(job_ptr, k, params, mem, now, "availability",
			    "migrating");
	k->avail_migrating = prc == AMCBF_PREEMPT_WAITING;
	if (prc == AMCBF_PREEMPT_WAITING) {
		time_t due = k->ckpt_at + params->ckpt_wait;
		if (!a->migrate_due || due < a->migrate_due)
			a->migrate_due = due;
	}
	if (prc == AMCBF_PREEMPT_DONE)
		a->migrated++;
	return prc == AMCBF_PREEMPT_DONE;
}

/* With the locks held: act on one job's decision; the number of actions
 * (0 or 1). */
static int act(amcbf_avail_t *a, const dfrs_params_t *params, amcbf_memory_t *mem,
	       job_record_t *job_ptr, candidate_t *c, time_t now)
{
	char line[512];
	int rc;

	avail_decision_format(&c->d, line, sizeof(line));
	if (c->d.decision == THRESHOLD_RUN) {	/* waiting, hosts back */
		if ((rc = amcbf_resume_job(job_ptr))) {
			error("availability: could not resume %pJ: %s", job_ptr,
			      slurm_strerror(rc));
			return 0;
		}
		avail_monitor_set_suspended(&a->mon, job_ptr->job_id, false);
		a->resumed++;
		info("availability: resumed %pJ on %s: its %zu hosts are ON again%s",
		     job_ptr, job_ptr->nodes, c->n,
		     params->avail_drain_acts ? "" :
		     " (or only drained, amcbf_avail_drain_acts=0)");
		return 1;
	}
	/* a wait has an end: past it the job resumes where it is, keeping
	 * its work, and is not suspended again until its hosts are calm */
	if (c->waiting && c->d.decision == THRESHOLD_WAIT &&
	    wait_bound_over(difftime(now, job_ptr->suspend_time), c->wait_limit)) {
		if ((rc = amcbf_resume_job(job_ptr))) {
			error("availability: could not resume %pJ: %s", job_ptr,
			      slurm_strerror(rc));
			return 0;
		}
		avail_monitor_set_suspended(&a->mon, job_ptr->job_id, false);
		waited_out_set(a, job_ptr->job_id, true);
		a->resumed++;
		info("availability: resumed %pJ on %s after waiting %.0f s, amcbf_avail_wait_factor=%g times the expected OFF period of its hosts (%.0f s): it runs on where it is",
		     job_ptr, job_ptr->nodes, difftime(now, job_ptr->suspend_time),
		     params->avail_wait_factor, c->expected_off);
		return 1;
	}
	/* a job that has run amcbf_min_runtime or longer is not requeued,
	 * which would throw that work away: it waits (suspended in place)
	 * instead */
	if (c->d.decision == THRESHOLD_MIGRATE &&
	    amcbf_preempt_why(job_ptr, params, now, false) == PREEMPT_WHY_MIN_RUNTIME) {
		if (!c->waiting)
			info("availability: %s; %pJ has run amcbf_min_runtime (%d s) or longer: waiting instead of a requeue that would lose that work",
			     line, job_ptr, params->min_runtime);
		c->d.decision = THRESHOLD_WAIT;
	}
	/* a running job the plugin's or the site's rules exempt from
	 * preemption is neither suspended nor requeued: left as it is */
	if (!c->waiting &&
	    !amcbf_preempt_avail_may(job_ptr, params, now,
				     c->d.decision == THRESHOLD_WAIT))
		return 0;
	if (c->d.decision == THRESHOLD_MIGRATE &&
	    !(job_ptr->batch_flag && job_ptr->details && job_ptr->details->requeue)) {
		info("availability: %s; %pJ may not be requeued: waiting instead", line,
		     job_ptr);
		c->d.decision = THRESHOLD_WAIT;
	}
	if (c->d.decision == THRESHOLD_MIGRATE)
		return migrate(a, params, mem, job_ptr, c, line, now);
	if (c->waiting)		/* still waiting: said when it began */
		return 0;
	info("availability: %s", line);
	if ((rc = amcbf_suspend_job(job_ptr))) {
		error("availability: could not suspend %pJ: %s", job_ptr, slurm_strerror(rc));
		return 0;
	}
	avail_monitor_set_suspended(&a->mon, job_ptr->job_id, true);
	a->suspended++;
	info("availability: suspended %pJ on %s until its hosts are ON", job_ptr,
	     job_ptr->nodes);
	return 1;
}

/* The job of a candidate as it is now, if it is still as collect() saw
 * it (the locks were let go in between). */
static job_record_t *still_as_seen(const candidate_t *c)
{
	job_record_t *job_ptr = find_job_record(c->id);

	if (!job_ptr || !job_ptr->node_bitmap || IS_JOB_COMPLETING(job_ptr) ||
	    job_ptr->start_time != c->start)
		return NULL;
	return (c->waiting ? IS_JOB_SUSPENDED(job_ptr) : IS_JOB_RUNNING(job_ptr)) ?
		job_ptr : NULL;
}

/* Observe (and, with an acting policy, collect the jobs to decide for)
 * with the locks held, decide without them, act with them again. */
static int observe_decide_act(amcbf_avail_t *a, const dfrs_params_t *params,
			      amcbf_memory_t *mem, bool new_slot, time_t now)
{
	amcbf_hold_t h = { .locks = { .conf = READ_LOCK, .job = WRITE_LOCK,
				      .node = WRITE_LOCK, .part = READ_LOCK,
				      .fed = READ_LOCK },
			   .phase = AMCBF_PHASE_AVAIL,
			   .yield_ms = params->yield_interval };
	candidate_t *c = NULL;
	size_t nc = 0;
	bool *on, *calm, *busy;
	int acted = 0;

	amcbf_hold_lock(&h);
	if (slurmctld_config.shutdown_time || !map_nodes(a)) {
		amcbf_hold_unlock(&h);
		return 0;
	}
	on = xcalloc(node_record_count ? node_record_count : 1, sizeof(bool));
	calm = xcalloc(node_record_count ? node_record_count : 1, sizeof(bool));
	busy = xcalloc(node_record_count ? node_record_count : 1, sizeof(bool));
	observe(a, params, new_slot, on, calm, busy);
	if (acting(params))
		c = collect(a, params, on, calm, busy, &nc);
	amcbf_hold_unlock(&h);
	xfree(on);
	xfree(calm);
	xfree(busy);
	if (!nc)
		goto out;
	decide_all(a, params, c, nc, now);
	amcbf_hold_lock(&h);
	for (size_t j = 0; j < nc && !slurmctld_config.shutdown_time; j++) {
		job_record_t *job_ptr;

		if (!c[j].decided)
			continue;
		/* yield before looking the job up: it may change meanwhile */
		if (!amcbf_hold_yield(&h))
			break;
		if ((job_ptr = still_as_seen(&c[j])))
			acted += act(a, params, mem, job_ptr, &c[j], now);
	}
	amcbf_hold_unlock(&h);
out:
	xfree(c);
	return acted;
}

int amcbf_avail_slot(amcbf_avail_t *a, const dfrs_params_t *params, amcbf_memory_t *mem,
		     time_t now)
{
	long slot;
	bool new_slot;
	int acted;
	char err[512], *path, *status;

	if (params->avail_policy == AMCBF_AVAIL_OFF || !a->ready)
		return 0;
	slot = (long)(now / params->avail_slot);
	new_slot = slot != a->last_slot;
	/* a migration waiting for its checkpoint signal is due: decide again
	 * on the last slot's observation */
	if (!new_slot && !(a->migrate_due && now >= a->migrate_due))
		return 0;
	a->last_slot = slot;
	a->migrate_due = 0;
	if ((acted = observe_decide_act(a, params, mem, new_slot, now)))
		last_job_update = now;

	path = state_path();
	if (avail_monitor_save(&a->mon, path, err, sizeof(err)))
		error("availability: %s", err);
	xfree(path);
	avail_monitor_config_t cfg = monitor_config(params);
	if ((status = avail_monitor_status_json(&a->mon, &cfg, (long)now))) {
		(void)dfrs_write_state_file(STATUS_NAME, status);
		free(status);
	}
	return acted;
}

void amcbf_avail_fini(amcbf_avail_t *a)
{
	char err[512], *path;

	if (!a->ready)
		return;
	path = state_path();
	if (avail_monitor_save(&a->mon, path, err, sizeof(err)))
		error("availability: %s", err);
	xfree(path);
	avail_monitor_free(&a->mon);
	xfree(a->index);
	xfree(a->waited_out);
	memset(a, 0, sizeof(*a));
}
