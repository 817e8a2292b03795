/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle_trigger.h - when a job's submission or end starts a sched/amcbf
 * cycle within a poll (AMCBF_TRIGGER_POLL_MS) instead of at the agent's
 * next one-second look: slurmctld's job counters (sdiag's jobs submitted,
 * completed, cancelled and failed) moved since the last cycle began, and
 * AMCBF_TRIGGER_GAP times the last cycle's length has passed since it
 * ended, so that while jobs keep coming a deep queue's cycles take at most
 * 1 / (1 + AMCBF_TRIGGER_GAP) of the time.  Not part of Liu et al. 2013:
 * short jobs at the speed of the launch path.  Plain C, no Slurm headers.
 */
#ifndef DFRS_CYCLE_TRIGGER_H
#define DFRS_CYCLE_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#define AMCBF_TRIGGER_POLL_MS 100
#define AMCBF_TRIGGER_GAP 4

typedef struct {
	uint64_t seen_events;	/* the counters' sum when the last cycle
				   began */
	double cycle_end;	/* when it ended, s (a monotonic clock) */
	double cycle_s;		/* how long it took, s */
} cycle_trigger_t;

/* Is a cycle due at now (the monotonic clock, s) for the counters' sum
 * events?  (`sdiag -r` zeroes them, which reads as a move.) */
bool cycle_trigger_due(const cycle_trigger_t *t, uint64_t events,
		       double now);

/* A cycle began (for whatever reason) when the counters' sum was events. */
void cycle_trigger_began(cycle_trigger_t *t, uint64_t events);

/* It ended at end, having taken seconds s. */
void cycle_trigger_ended(cycle_trigger_t *t, double end, double s);

#endif
