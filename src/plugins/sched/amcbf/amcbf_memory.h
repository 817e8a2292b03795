/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_memory.h - what sched/amcbf remembers of slurmctld's jobs between
 * cycles (amcbf_known_t: tier, virtual time, requeues, checkpoint, hosts)
 * and of its own cycles (amcbf_memory_t: wake-up time, online DFRS
 * events, statistics), kept in amcbf-state.json across restarts
 * (amcbf_restart.c).  Call with slurmctld's job write lock held.
 */
#ifndef DFRS_AMCBF_MEMORY_H
#define DFRS_AMCBF_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "amcbf/limit_charge.h"
#include "sched/sched_engine.h"

/* What the plugin remembers of a job between cycles (one per job record:
 * its flags are single bits, its fields ordered without padding). */
typedef struct {
	uint32_t id;
	bool running : 1;	/* it was running at the end of the last cycle */
	bool requeued : 1;	/* we requeued it and it has not left yet */
	bool seen : 1;		/* it was seen pending already (not new) */
	bool alive : 1;		/* seen in this cycle's scan */
	bool added_read : 1;	/* added[] read back from that mark */
	bool ckpt_kept : 1;	/* the engine still preempts it this cycle */
	bool avail_migrating : 1;	/* the availability slot requeues it
				   once its checkpoint wait is over */
	bool held : 1;		/* pending but not startable at the last cycle */
	bool restored : 1;	/* read from amcbf-state.json, not scanned yet */
	bool said_unsupported : 1;	/* logged that it is never started
				   here (heterogeneous) */
	sched_tier_t tier;	/* while running */
	int nhosts;
	double vt;		/* virtual time: integral of its yield, s */
	double yield;		/* estimated at the last cycle while running */
	double tick;		/* when vt was last advanced (s since the
				   epoch, sub-second: amcbf/vclock.h) */
	limit_charge_t limit;	/* time limit given back, not yet added to
				   Slurm's end time, and paid ahead */
	long added[2];		/* seconds added to this run's end time, by
				   limit_charge_basis_t; shown in its
				   AdminComment (AMCBF_ADDED_MARK) */
	time_t ckpt_at;		/* checkpoint signal sent before a requeue, or 0 */
	int *hosts;		/* online DFRS: nodes it last ran on (xmalloc) */
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
	int usable_nodes;	/* nodes the decider could use at the last
				   scan: more now is an event */
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
/* Room for n remembered jobs, and n / 16 more, unless there is room for n
 * already: the table sized to the job records once (at a restart, at a
 * cycle's read), not grown by doubling (at 20,000 jobs the doubled table
 * was 32,768 entries, 1.2 MB of them empty).  May move the jobs. */
void amcbf_memory_reserve(amcbf_memory_t *mem, size_t n);
/* Drop remembered job i (those after it move down one place). */
void amcbf_forget(amcbf_memory_t *mem, size_t i);
void amcbf_memory_free(amcbf_memory_t *mem);

#endif
