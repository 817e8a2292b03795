/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_decide.h - what sched/amcbf's cycle (amcbf_cycle.c: read with
 * slurmctld's locks held, decide with none, apply with them again) asks of
 * the decider of the configured mode: the consolidation engines of Liu et
 * al. 2013 (amcbf_decide_engine.c) or the online DFRS policies of
 * Stillwell et al. 2010 (amcbf_decide_dfrs.c).  Also the two questions
 * both ask of a job: which of its states a cycle reads it in, and whether
 * it is still as the cycle read it.
 */
#ifndef DFRS_AMCBF_DECIDE_H
#define DFRS_AMCBF_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "amcbf_avail.h"
#include "amcbf_memory.h"
#include "amcbf_locks.h"
#include "suite/dfrs_params.h"

/* One cycle as its decider sees it. */
typedef struct {
	amcbf_memory_t *mem;
	const dfrs_params_t *params;
	const amcbf_avail_t *avail;	/* the availability policy's view */
	time_t now;		/* (time_t)clock */
	double clock;		/* the cycle's start, s since the epoch,
				   sub-second: virtual and flow times */
	amcbf_hold_t hold;	/* slurmctld's locks (yielded while applying) */
	int actions;		/* what the cycle did: starts, requeues, ... */
	int requeues, waiting;	/* requeues done, held back (checkpoint or
				   GraceTime): nothing starts on their nodes */
	void *own;		/* the decider's state, zeroed (size) */
} amcbf_pass_t;

/* How a cycle reads one of slurmctld's jobs (amcbf_job_class). */
typedef enum {
	AMCBF_JOB_SKIP,		/* nothing to read: no details, or ended
				   without running since the last cycle */
	AMCBF_JOB_DEPARTED,	/* ended since the last cycle, which saw it
				   running (its tier: k->tier) */
	AMCBF_JOB_PENDING,	/* waiting to start */
	AMCBF_JOB_RUNNING,	/* running on its nodes */
	AMCBF_JOB_HOLDING,	/* holding nodes without running: suspended,
				   or completing (e.g. after our requeue) */
} amcbf_job_class_t;

#ifdef DFRS_AMCBF_SLURM_TYPES
/*
 * The decider of a mode, called in this order by amcbf_cycle() (each hook
 * with the locks held unless said otherwise):
 *   prepare;  read_begin, read_job for every job record, read_pending for
 *   the pending jobs the time-bounded read takes (amcbf_readbound.h),
 *   departed for every job the last cycle saw running that is gone,
 *   read_end;  then decide with no lock held;  then apply;  release.
 */
typedef struct {
	size_t size;	/* of its state, p->own */
	/* false: no cycle (e.g. no engine for the mode) */
	bool (*prepare)(amcbf_pass_t *p);
	/* nodes and the site's rules, before the jobs */
	void (*read_begin)(amcbf_pass_t *p);
	/* one job record, pending, running or holding: k is what the plugin
	 * knows of it (alive, charged); a pending one comes again in
	 * read_pending if the time-bounded read takes it */
	void (*read_job)(amcbf_pass_t *p, amcbf_job_class_t c,
			 amcbf_known_t *k, job_record_t *job_ptr);
	void (*read_pending)(amcbf_pass_t *p, amcbf_known_t *k,
			     job_record_t *job_ptr);
	/* a job the last cycle saw running has left (k->running still set) */
	void (*departed)(amcbf_pass_t *p, const amcbf_known_t *k);
	/* true: there is something to decide */
	bool (*read_end)(amcbf_pass_t *p);
	/* no lock held; true: apply */
	bool (*decide)(amcbf_pass_t *p);
	/* locks held, yielded through p->hold */
	void (*apply)(amcbf_pass_t *p);
	/* after all, with or without the locks */
	void (*release)(amcbf_pass_t *p);
} amcbf_decider_t;

/* The decider whose hooks are the functions PREFIX_prepare, ...,
 * PREFIX_release, with a state of type STATE. */
#define AMCBF_DECIDER(PREFIX, STATE) {				\
	.size = sizeof(STATE),					\
	.prepare = PREFIX##_prepare,				\
	.read_begin = PREFIX##_read_begin,			\
	.read_job = PREFIX##_read_job,				\
	.read_pending = PREFIX##_read_pending,			\
	.departed = PREFIX##_departed,				\
	.read_end = PREFIX##_read_end,				\
	.decide = PREFIX##_decide,				\
	.apply = PREFIX##_apply,				\
	.release = PREFIX##_release,				\
}

extern const amcbf_decider_t amcbf_decide_engine;
extern const amcbf_decider_t amcbf_decide_dfrs;

/* Which state a cycle reads the job in (IS_JOB_*: a requeued job is
 * pending while it still completes on its nodes: it holds them). */
amcbf_job_class_t amcbf_job_class(job_record_t *job_ptr);

/* How a decision's job was read. */
typedef enum {
	AMCBF_SEEN_PENDING,	/* pending: still pending and startable */
	AMCBF_SEEN_RUNNING,	/* running: still running the same run */
	AMCBF_SEEN_STARTED,	/* pending, started by an earlier decision of
				   this cycle (only this plugin starts):
				   running any run */
} amcbf_seen_t;

/* Job `id` as it is now if it is still as read (`start`: the start time
 * read, for AMCBF_SEEN_RUNNING), else NULL (also for id 0, or a job
 * completing).  Locks held. */
job_record_t *amcbf_still_as_seen(uint32_t id, amcbf_seen_t seen,
				  time_t start);
#endif

#endif
