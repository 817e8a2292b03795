/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_monitor.h - the controller's side of the availability module: the
 * learned ON/OFF chain of every node, fed once a slot; the wait-or-migrate
 * decision for a running job whose hosts are not all ON; the jobs it
 * suspended (to resume them when their hosts are back, also after a
 * restart); the recent decisions; the state file and the status `dfrs
 * status` prints.
 *
 * He et al., "To Migrate or to Wait" (2012): Sec. III-A (a node is ON
 * in a slot iff it is up and its load from others is at most zeta; the
 * chain is estimated from counted transitions), Sec. III-C and Theorem
 * III.4 (the threshold policy on the group's pooled chain, gamma = the cost
 * of one task migration in slots).  Plain C: sched/amcbf calls it with what
 * it read from slurmctld; the tests call it with made-up observations.
 */
#ifndef DFRS_AVAIL_MONITOR_H
#define DFRS_AVAIL_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "markov_estimator.h"
#include "markov_models.h"
#include "avail_policy.h"
#include "threshold_cache.h"
#include "threshold_policy.h"

/* One decision, with everything it was taken from (for the log and the
 * status). */
typedef struct {
	uint32_t job_id;
	long when;		/* seconds since the epoch */
	const char *policy;	/* the configured policy's name (static) */
	size_t n;		/* the job's hosts */
	size_t on_hosts;	/* s': those ON */
	size_t spare_on;	/* ON nodes free to take a task */
	double p01, p11;	/* the pooled chain decided on (NaN: none yet) */
	double gamma, beta;
	size_t threshold;	/* T_i: migrate iff s' >= i (and spare_on) */
	bool fallback;		/* threshold asked, no estimate yet: myopic */
	threshold_decision_t decision;
} avail_decision_t;

/* What the monitor decides by, and what its status shows: the controller's
 * settings (the plugin fills it from amcbf_avail_* in SchedulerParameters). */
typedef struct {
	const char *name;	/* the policy as configured: "threshold",
				   "observe", ... (static storage) */
	avail_policy_kind_t kind;	/* how a decision is taken: THRESHOLD_EST,
					   MYOPIC, WAIT or MIGRATE */
	int slot;		/* seconds a slot lasts */
	double zeta;		/* outside load above which a node is OFF */
	double beta;		/* discount factor per slot */
	double migration_cost;	/* seconds; gamma = migration_cost / slot */
} avail_monitor_config_t;

#define AVAIL_RECENT 16		/* decisions kept for the status */

typedef struct {
	markov_node_model_t *nodes;	/* by name; a node's index is stable */
	size_t nnodes, cap;
	onoff_obs_t *last_obs;		/* per node, its latest observation */
	bool *observed;			/* per node, seen since start */
	double *availability;		/* per node, its estimate's (NaN: never
					   observed); refreshed once a slot */
	markov_estimator_config_t cfg;
	threshold_cache_t cache;
	unsigned long slots;		/* slots observed since start */
	avail_decision_t recent[AVAIL_RECENT];	/* ring, oldest overwritten */
	size_t nrecent, next_recent;
	uint32_t *suspended;		/* jobs suspended to wait, sorted */
	size_t nsuspended, suspended_cap;
} avail_monitor_t;

/* 0, or -1 when out of memory.  half_life: slots (0: no forgetting). */
int avail_monitor_init(avail_monitor_t *m, int half_life);
void avail_monitor_free(avail_monitor_t *m);
void avail_monitor_set_half_life(avail_monitor_t *m, int half_life);

/* The index of the node with this name, added with an empty model if
 * new; (size_t)-1 when out of memory. */
size_t avail_monitor_node(avail_monitor_t *m, const char *name);

/* A node's state in a slot: DOWN when down or not responding; OFF when
 * drained or its load from outside Slurm's jobs (a share of its CPUs)
 * exceeds zeta (zeta >= 1: no load test); else ON. */
onoff_obs_t avail_node_state(bool down, bool drained, double outside_load, double zeta);

/* Record node i's state for this slot; call avail_monitor_slot_done once
 * all nodes are recorded. */
void avail_monitor_observe(avail_monitor_t *m, size_t i, onoff_obs_t obs);
void avail_monitor_slot_done(avail_monitor_t *m);
/* Was node i ON at its latest observation (never observed: ON)? */
bool avail_monitor_is_on(const avail_monitor_t *m, size_t i);

/* The estimate of node i, and the pooled one of all nodes. */
void avail_monitor_estimate(const avail_monitor_t *m, size_t i, markov_estimate_t *out);
void avail_monitor_pooled(const avail_monitor_t *m, markov_estimate_t *out);
/* Node i's availability for placement: the estimate's as of the last
 * avail_monitor_slot_done (or load), NaN if the node was never observed.
 * A lookup: placement asks for every node of every job it ranks. */
double avail_monitor_availability(const avail_monitor_t *m, size_t i);

/*
 * The slot decision for a running (or waiting) job with n hosts, on_hosts
 * of them ON, and spare_on ON nodes free to receive a task, under
 * cfg->kind (the chain estimated online for THRESHOLD_EST; a policy that
 * does not act, observe or off, decides as WAIT and the caller does
 * nothing).  The decision
 * is recorded among the recent ones unless it is RUN.  0 and *out, or -1
 * and err (an invalid model: should not happen with checked parameters).
 */
int avail_monitor_decide(avail_monitor_t *m, const avail_monitor_config_t *cfg,
			 uint32_t job_id,
			 long now, size_t n, size_t on_hosts, size_t spare_on,
			 avail_decision_t *out, char *err, size_t errlen);

/* One line for the log: "JobId=12 n=2 s'=1 spare=3 p01=0.300 p11=0.800
 * gamma=5 beta=0.999 policy=threshold T_2: wait". */
void avail_decision_format(const avail_decision_t *d, char *buf, size_t len);

/* The jobs suspended to wait for their hosts. */
bool avail_monitor_suspended(const avail_monitor_t *m, uint32_t job_id);
/* 0, or -1 when out of memory. */
int avail_monitor_set_suspended(avail_monitor_t *m, uint32_t job_id, bool suspended);

/*
 * The state file: the learned models and the suspended jobs (JSON, written
 * to PATH.tmp and renamed).  Loading replaces the models and the suspended
 * set; a missing file is not an error (returns 1: nothing loaded); a
 * corrupt one returns -1 with one line in err naming the file and the first
 * bad field, and loads nothing.
 */
int avail_monitor_save(const avail_monitor_t *m, const char *path, char *err, size_t errlen);
int avail_monitor_load(avail_monitor_t *m, const char *path, char *err, size_t errlen);

/* The status for `dfrs status` (malloc'ed JSON text, NULL if out of
 * memory): settings, per-node estimates and state, the pooled estimate,
 * the suspended jobs and the recent decisions, newest first. */
char *avail_monitor_status_json(const avail_monitor_t *m, const avail_monitor_config_t *cfg,
				long now);

#endif
