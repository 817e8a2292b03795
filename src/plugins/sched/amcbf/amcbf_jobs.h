/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_jobs.h - sched/amcbf's dealings with slurmctld's jobs, shared by its
 * algorithms (amcbf_decide_engine.c: consolidation backfill;
 * amcbf_decide_dfrs.c: online DFRS).  Call everything with slurmctld's job
 * and node write locks and the partition read lock held.
 */
#ifndef DFRS_AMCBF_JOBS_H
#define DFRS_AMCBF_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "amcbf/shape_cache.h"
#include "sched/sched_engine.h"
#include "suite/dfrs_params.h"

/* What the plugin remembers of a job between cycles. */
typedef struct {
	uint32_t id;
	sched_tier_t tier;	/* while running */
	int running;		/* it was running at the end of the last cycle */
	int requeued;		/* we requeued it and it has not left yet */
	int seen;		/* it was seen pending already (not new) */
	int alive;		/* seen in this cycle's scan */
	double vt;		/* virtual time: integral of its yield, s */
	double yield;		/* estimated at the last cycle while running */
	time_t tick;		/* when vt was last advanced */
	double limit_owed;	/* seconds of time limit given back, not yet
				   added to Slurm's end time (under 1) */
	double limit_ahead;	/* seconds added for after the last charge */
	time_t ckpt_at;		/* checkpoint signal sent before a requeue, or 0 */
	int ckpt_kept;		/* the engine still preempts it this cycle */
	int avail_migrating;	/* the availability slot requeues it once
				   its checkpoint wait is over */
	int held;		/* pending but not startable at the last cycle */
	int *hosts;		/* online DFRS: nodes it last ran on (xmalloc) */
	int nhosts;
	int restored;		/* read from amcbf-state.json, not scanned yet */
	int said_unsupported;	/* logged that it is never started here
				   (heterogeneous) */
	time_t submit;		/* its first submit time: a requeue resets
				   Slurm's (details->submit_time), not this */
} amcbf_known_t;

typedef struct {
	amcbf_known_t *jobs;
	size_t njobs, cap;
	time_t next_wake;	/* earliest begin time of a pending job, or 0 */
	time_t last_periodic;	/* online DFRS: last periodic event */
	unsigned long npending, nrunning;	/* managed jobs at the last scan */
	unsigned owed_events;	/* online DFRS: events not decided yet */
	double repack_yield;	/* online DFRS: minimum scaled yield after
				 * the last full repack (the engine's
				 * dfrs_cluster_t.repack_yield); 0: none */
	long dfrs_held;		/* online DFRS: the starving job last logged
				 * as keeping the room it waits for; 0: none */
	int usable_nodes;	/* online DFRS: nodes it could use at the
				   last scan */
	/* statistics, for the log and dfrs status */
	unsigned long cycles, started, requeued, promoted, demoted, failed;
	double usec_total, usec_max;
} amcbf_memory_t;

/* The remembered job with this id; added (zeroed, fg tier) if add.  An
 * addition may move the others: do not keep pointers across one. */
amcbf_known_t *amcbf_known(amcbf_memory_t *mem, uint32_t id, bool add);
#ifdef DFRS_AMCBF_SLURM_TYPES
/* After a start of the job seen as seen_id: its record, which is a new
 * one (its first submit time kept) when Slurm split an array task off
 * under a new id; the array's tasks left are then new arrivals again.
 * May move the others (see amcbf_known). */
amcbf_known_t *amcbf_known_started(amcbf_memory_t *mem, uint32_t seen_id,
				   job_record_t *job_ptr);
#endif
/* Drop remembered job i (those after it move down one place). */
void amcbf_forget(amcbf_memory_t *mem, size_t i);
void amcbf_memory_free(amcbf_memory_t *mem);

/* A DFRS priority (0..inf) as a Slurm priority: monotonic, 1..2^30+1. */
uint32_t amcbf_slurm_priority(double prio);

#ifdef DFRS_AMCBF_SLURM_TYPES	/* Slurm's types: the plugin's files only */
/* A job's DFRS priority now: flow time / virtual time^2 (Stillwell et al. 2010; new
 * jobs, virtual time 0, come first). */
double amcbf_stretch(job_record_t *job_ptr, const amcbf_known_t *k,
		     time_t now);
/* Charge a running job for the time since k->tick: its virtual time grows
 * by its yield, and its time limit by what it was allotted: Slurm's end
 * time moves on by the part of the time it did not get the CPU (1 - its
 * DFRS yield; all of it in the background tier), as Slurm moves a
 * suspended job's end time, paid ahead for the next amcbf_interval seconds
 * (the time to the next cycle) and settled at the next charge; never past
 * its partition's MaxTime or QOS's MaxWall from its start unless
 * amcbf_extend_past_limits=1.  Sets k->tick. */
void amcbf_charge(amcbf_known_t *k, job_record_t *job_ptr, time_t now,
		  const dfrs_params_t *params);
/* A job's first submit time, remembered in k the first time it is asked
 * (Slurm resets details->submit_time when it requeues a job). */
time_t amcbf_first_submit(amcbf_known_t *k, job_record_t *job_ptr);
/* A pending job seen in a scan: its Slurm priority shows its stretch when
 * show_priority (unless held), the agent wakes at its begin time, and a
 * job sched/amcbf never starts (heterogeneous) is said once (error).
 * Returns its stretch. */
double amcbf_note_pending(amcbf_memory_t *mem, amcbf_known_t *k,
			  job_record_t *job_ptr, bool show_priority,
			  time_t now);
/* May jobs start on node i now (up, responding, not drained)? */
bool amcbf_node_usable(int i);
/* Nodes a pending job of `nodes` nodes may use: xmalloc'ed mask, or NULL
 * when every node will do. */
unsigned char *amcbf_job_allowed(job_record_t *job_ptr, int nodes);
/* The same answers for one read of the queue, computed once per job
 * "shape" (shape_cache.h): jobs of the same partition, per-node CPUs,
 * memory and disk and without -x/-w, features or a reservation of their
 * own share one mask, which the cache owns.  A job of any other kind gets
 * its own mask, returned in *own as well (the caller frees it); else *own
 * is NULL.  Only while slurmctld's locks stay held: free the cache before
 * they are released and taken again for another read. */
typedef struct {
	shape_cache_t shapes;
} amcbf_allowed_cache_t;
const unsigned char *amcbf_job_allowed_shared(amcbf_allowed_cache_t *cache,
					      job_record_t *job_ptr, int nodes,
					      unsigned char **own);
void amcbf_allowed_cache_free(amcbf_allowed_cache_t *cache);
/* Is this pending job one Slurm lets start now, and ours to consider? */
bool amcbf_startable(job_record_t *job_ptr);
/* Pending jobs whose --deadline can no longer be met (with their
 * --time-min, else their time limit) end with reason DeadLine, as Slurm's
 * main scheduler ends them (deadline_ok); the count. */
int amcbf_end_past_deadlines(void);
/* Start pending jobs of partitions outside amcbf_partitions; the count. */
int amcbf_start_unmanaged(const dfrs_params_t *params, amcbf_memory_t *mem);
/* Start a job on exactly these nodes: SLURM_SUCCESS or Slurm's error.  A
 * job with a --deadline starts with its time limit cut to it; a job
 * array's record starts its next task (split off under a new id). */
int amcbf_start_on(job_record_t *job_ptr, const int *nodes, int n);
#endif

#endif
