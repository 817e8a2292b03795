/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle_trigger.c - a cycle for a job's submission or end, within a poll
 * (cycle_trigger.h).
 */
#include "cycle_trigger.h"

bool cycle_trigger_due(const cycle_trigger_t *t, uint64_t events,
		       double now)
{
	return events != t->seen_events &&
	       now - t->cycle_end >= AMCBF_TRIGGER_GAP * t->cycle_s;
}

void cycle_trigger_began(cycle_trigger_t *t, uint64_t events)
{
	t->seen_events = events;
}

void cycle_trigger_ended(cycle_trigger_t *t, double end, double s)
{
	t->cycle_end = end;
	t->cycle_s = s > 0 ? s : 0;
}
