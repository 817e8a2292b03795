/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_online_types.h - the plain data of online DFRS (Stillwell et al.
 * 2010, "Online Non-Clairvoyant Problem"): the policies and their
 * parameters, the cluster and its jobs as a caller keeps them, and the
 * decisions taken at an event.  What each field means to the policies is
 * in dfrs_online.h, which declares the functions over them; the policy
 * modules (online_*.c) see only these types, so they never depend on the
 * entry points that call them.
 */
#ifndef DFRS_ONLINE_TYPES_H
#define DFRS_ONLINE_TYPES_H

#include <stddef.h>

#include "dfrs_model.h"
#include "dfrs_priority.h"
#include "rules/licenses.h"
#include "rules/preempt_rules.h"

typedef enum {
	DFRS_POLICY_GREEDYP,
	DFRS_POLICY_GREEDYPM,
	DFRS_POLICY_MCB,
	DFRS_POLICY_GREEDYPMR,	/* GreedyPM, wide jobs kept and reserved */
} dfrs_policy_t;

typedef enum {
	DFRS_EVENT_ARRIVAL,
	DFRS_EVENT_COMPLETION,
	DFRS_EVENT_PERIODIC,
} dfrs_event_t;

typedef enum {
	DFRS_JOB_PENDING,	/* never started */
	DFRS_JOB_RUNNING,
	DFRS_JOB_SUSPENDED,	/* preempted; hosts holds where it ran */
} dfrs_job_state_t;

typedef enum {
	DFRS_ACT_NONE,		/* state and hosts unchanged (yield may change) */
	DFRS_ACT_START,		/* pending -> running */
	DFRS_ACT_SUSPEND,	/* running -> suspended */
	DFRS_ACT_RESUME,	/* suspended -> running on the same hosts */
	DFRS_ACT_MIGRATE,	/* running or suspended -> running, some task
				 * on another host */
} dfrs_action_t;

typedef struct {
	dfrs_policy_t policy;
	dfrs_priority_t priority;	/* default ft/vt^2 */
	double period;		/* s between periodic repacks; 0: none.
				 * default 600 */
	double minvt;		/* s of virtual time before a job may be
				 * migrated; default 600 (0: no limit) */
	double penalty;		/* s lost per suspend/resume/migration;
				 * default 0 (Stillwell et al. also use 300) */
	double bandwidth;	/* bytes/s of suspend/migration traffic;
				 * 0 (default): bytes cost no time */
	int requeue;		/* 1: the requeue model above; 0 (default):
				 * every job pays the cost model only */
	int max_requeues;	/* requeue model: a running job requeued
				 * this often already is not taken off its
				 * hosts again (0: none is; as
				 * amcbf_max_preempt live); < 0 (default):
				 * no limit */
	double starve_bsld;	/* > 0: a job whose bounded slowdown by its
				 * estimate has reached this claims room */
	double wide_share;	/* greedypmr: a job of more tasks than this
				 * share of the hosts is wide: never taken
				 * off its hosts while it runs, and the
				 * oldest waiting one holds a reservation;
				 * default 0.25 (0: no job is wide); the
				 * other policies ignore it */
	double long_time;	/* greedypmr: a job of a larger estimate (s),
				 * or of none, is long; default 3600 */
	double long_min_yield;	/* greedypmr: a long job's minimum yield is
				 * at least this (a bound of 1 / this on
				 * the stretch sharing imposes on it);
				 * default 0.75 (0: none) */
	double repack_drift;	/* fraction in [0, 1) by which the minimum
				 * scaled yield may fall below the last full
				 * repack's before mcb (greedypm: at periodic
				 * events) repacks again; 0 (default): repack
				 * at every event, as Stillwell et al. do */
	int repack_algorithms;	/* the repacks' METAVP tries the first
				 * this many of its 14 vector-packing
				 * algorithms (metavp_place_first): 1 is
				 * VP_FFSUM alone; 14 (default) all, as
				 * Stillwell et al. 2010 run METAVP */
	double repack_tolerance;	/* 0 (default): each repack's binary
				 * search on the yield starts from 0 and
				 * the LP bound and stops within 1e-4, as
				 * Stillwell et al. 2010's METAVP; T > 0:
				 * it starts from the yield the last repack
				 * reached (cluster->repack_yield) and stops
				 * within T (metavp_search_t): fewer trial
				 * packs, other placements */
} dfrs_online_params_t;

typedef struct {
	long id;		/* the caller's, carried through */
	dfrs_job_t shape;	/* ntasks, req, need, min_yield per task */
	double task_mem_bytes;	/* memory image of one task (cost model) */
	double submit;		/* arrival time, s */
	double virtual_time;	/* integral of the yield so far, s */
	double lost_time;	/* requeue model: virtual time of the runs
				 * it lost, s; the priority counts it with
				 * virtual_time, so a requeued job is not a
				 * new one (dfrs_online_apply adds to it) */
	double blocked_until;	/* no progress before this time (cost) */
	dfrs_job_state_t state;
	int *hosts;		/* [shape.ntasks], caller storage: current
				 * hosts (RUNNING) or last hosts (SUSPENDED) */
	double yield;		/* current yield (RUNNING), else 0 */
	double estimate;	/* run time the job is expected to need, s
				 * (live: its time limit); 0: unknown */
	int checkpointable;	/* requeue model: keeps its progress */
	int requeues;		/* requeue model: times it was suspended or
				 * moved while running (dfrs_online_apply
				 * adds; live, Slurm's restart_cnt) */
	int rank;		/* a hint: the job's place in the last
				 * decision's priority order (0 first;
				 * dfrs_online_apply sets it).  Any value
				 * gives the same decisions: the order is
				 * sorted from it, in about one pass when it
				 * changed little since */
	const rules_lic_req_t *lic;	/* its license requests, nlic of
				 * them (caller storage; rules/licenses.h);
				 * NULL: none */
	int nlic;
	int no_preempt;		/* nonzero: a running job the site protects
				 * (e.g. PreemptMode=OFF): never taken off
				 * its hosts (see "The site's rules") */
} dfrs_online_job_t;

typedef struct {
	int ndims;
	int nhosts;
	const dfrs_host_t *hosts;
	int njobs;
	dfrs_online_job_t *jobs;	/* every job not yet completed */
	double now;			/* s */
	double repack_yield;		/* minimum scaled yield after the last
					 * full repack (dfrs_online_apply
					 * sets it); <= 0: none, the next
					 * repack is full */
	const int *lic_free;	/* the license pool: nlic counts free now;
				 * NULL: none (a job asking for one never
				 * starts) */
	int nlic;
	preempt_rules_may_fn may_preempt;	/* may waiting job
				 * `preemptor` take running job `victim` off
				 * its hosts (indices in jobs): the site's
				 * pairwise rule (rules/preempt_rules.h).  NULL:
				 * anyone may preempt any running job of
				 * lower priority */
	const void *preempt_ctx;	/* given to may_preempt */
} dfrs_cluster_t;

typedef struct {
	dfrs_action_t action;
	dfrs_job_state_t state;	/* after the decision */
	/* [ntasks] after (meaningful unless PENDING): the job's own hosts in
	 * the cluster (the same pointer) when unchanged, so valid while
	 * those are; else in host_storage */
	const int *hosts;
	double yield;		/* after: > 0 iff RUNNING */
	int tasks_moved;	/* tasks now on a host they were not on */
	double cost_bytes;	/* memory written, read or moved */
	double cost_seconds;	/* time without progress from now */
	double lost_seconds;	/* requeue model: virtual time lost */
	int requeued;		/* requeue model: suspended or moved while
				 * running (checkpointing or not) */
	int rank;		/* place in this decision's priority order */
} dfrs_decision_t;

typedef struct {
	int njobs;
	dfrs_decision_t *job;	/* [njobs], in cluster->jobs order */
	int *host_storage;	/* backs the job[i].hosts that changed */
	int nstarted, nsuspended, nresumed, nmigrated;
	double total_bytes;
	double total_lost_seconds;	/* sum of lost_seconds */
	double min_scaled_yield;	/* over running jobs after; -1 if none */
	int repacked;		/* 1 if every job was repacked (METAVP) */
	int claimed;		/* the index of the starving job that took
				 * room at this arrival (starve_bsld), or -1 */
	int held;		/* the index of the starving job that does
				 * not fit and keeps the room it waits for
				 * (no job behind it started), or -1 */
	int reserved;		/* greedypmr: the index of the oldest
				 * waiting wide job, which does not fit and
				 * holds the reservation, or -1 */
	double shadow;		/* its shadow time (s; INFINITY if a job in
				 * its way has no estimate), or 0 */
} dfrs_decisions_t;

/* A job's bounded slowdown so far by its estimate (the bound is 10 s): how
 * long it has been in the system over its estimate, as starve_bsld
 * measures it.  Only for a job of known estimate. */
static inline double dfrs_online_waited_bsld(const dfrs_online_job_t *job,
					     double now)
{
	return (now - job->submit) /
	       (job->estimate > 10.0 ? job->estimate : 10.0);
}

#endif
