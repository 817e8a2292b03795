/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_repair.h - incremental MCB: keep the packing between events and
 * repair it locally instead of repacking every job with METAVP (Stillwell
 * et al. 2010, "When to apply Heuristics": the heuristics need not run at
 * every event; "Use of Priority" for the order).  Internal to
 * dfrs_online.c; the rule is described in dfrs_online.h (repack_drift).
 *
 * The repair is the greedy pass (online_greedypm.h): at an arrival each
 * new job runs where it fits, suspending running jobs of lower priority
 * if it must; then the waiting jobs start or resume, highest priority
 * first, where they fit next to the running ones (in place, or elsewhere
 * once they may migrate).  No running job moves.  It stands when
 *   - no job that never started (at a periodic event: no waiting job)
 *     has a higher priority than a running one, so that the repack, which
 *     keeps the highest priorities, would not swap them: new jobs get in
 *     at once, suspended ones rotate in at periodic events, and
 *   - the minimum scaled yield of the repaired placement is at least
 *     (1 - repack_drift) times the one the last full repack reached
 *     (cluster->repack_yield > 0).
 * Otherwise the caller repacks every job with METAVP.
 */
#ifndef DFRS_ONLINE_REPAIR_H
#define DFRS_ONLINE_REPAIR_H

#include "online_state.h"

/*
 * Try the local repair on w, before any job's working hosts are written.
 * Returns 1 when it stands (w->state and w->hosts hold it), 0 when the
 * caller must repack (w->state and w->hosts are as they were), -1 on out
 * of memory.
 */
int online_repair(online_state_t *w, dfrs_event_t event, const int *arrived,
		  int narrived);

#endif
