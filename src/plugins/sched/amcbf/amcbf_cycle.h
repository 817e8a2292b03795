/*
 * amcbf_cycle.h - one scheduling cycle of sched/amcbf inside slurmctld:
 * slurmctld's jobs and nodes into the consolidation engine's state
 * (src/common/sched_engine.h), the engine's decisions back into job starts,
 * requeues and tier changes.
 */
#ifndef DFRS_AMCBF_CYCLE_H
#define DFRS_AMCBF_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "sched_engine.h"
#include "sched_params.h"

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
	time_t ckpt_at;		/* checkpoint signal sent before a requeue, or 0 */
	int ckpt_kept;		/* the engine still preempts it this cycle */
} amcbf_known_t;

typedef struct {
	amcbf_known_t *jobs;
	size_t njobs, cap;
	time_t next_wake;	/* earliest begin time of a pending job, or 0 */
	/* statistics, for the log and dfrs status */
	unsigned long cycles, started, requeued, promoted, demoted, failed;
	double usec_total, usec_max;
} amcbf_memory_t;

/*
 * Run one cycle with slurmctld's locks taken inside (held only while the
 * state is read and the decisions applied).  Returns the number of actions
 * taken.
 */
int amcbf_cycle(amcbf_memory_t *mem, const dfrs_params_t *params);

void amcbf_memory_free(amcbf_memory_t *mem);

/*
 * Can jobs be tiered (a fg and a bg job on one node)?  Needs select/dfrs and
 * a partition with OverSubscribe=FORCE:2 or more.  Call with the part lock.
 */
bool amcbf_tiers_possible(void);

#endif
