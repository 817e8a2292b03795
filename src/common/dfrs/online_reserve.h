/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_reserve.h - greedypmr's reservation for the oldest waiting wide
 * job: EASY backfilling's reservation for the head of the queue (Lifka
 * 1995; as Liu et al. 2013 section 5 run it as their baseline) carried
 * over to the fractional hosts of online DFRS (Stillwell et al. 2010,
 * "Online Non-Clairvoyant Problem").  Internal to the online policies;
 * the policy is described in dfrs_online.h.
 *
 * The shadow time is when the wide job could start if the running jobs
 * ended as their estimates say at their minimum yields, the least the
 * yield allocation gives them (a bound that other starts cannot move):
 * they are taken off the hosts, the soonest to end first, until its tasks
 * can be placed (least loaded first, as it would start).  A job that ends
 * before the shadow time by the same measure starts as it would without
 * the reservation: as in EASY, it is gone by then.  One that may still
 * run at the shadow time (or has no estimate) starts only if the shadow
 * time, computed again with it, does not move: EASY's rule that no job
 * delays the reserved one.
 */
#ifndef DFRS_ONLINE_RESERVE_H
#define DFRS_ONLINE_RESERVE_H

#include "online_state.h"

/* Job r's shadow time now: when it could start if the running jobs ended
 * as their estimates say at their minimum yields (the least the yield
 * allocation gives them); now if it fits already; -1 if it fits nowhere
 * even with every running job gone, -2 if out of memory.  w's usage and
 * load are as they were on return. */
double online_reserve_shadow(online_state_t *w, int r);

/* Reserve for waiting job r (not running; w->reserved -1): sets
 * w->reserved and w->shadow, unless r fits nowhere.  0, or -1 on out of
 * memory. */
int online_reserve_compute(online_state_t *w, int r);

/* Whether a start of job j needs online_reserve_delayed's check: there is
 * a reservation, j is not its job, and by its estimate at its minimum
 * yield j may still run at the shadow time (or it has no estimate). */
int online_reserve_blocks(const online_state_t *w, int j);

/* After a start w holds (the job accounted and RUNNING in w): whether it
 * puts the reserved job's shadow time later (or out of memory). */
int online_reserve_delayed(online_state_t *w);

#endif
