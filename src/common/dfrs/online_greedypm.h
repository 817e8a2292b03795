/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_greedypm.h - the GreedyP and GreedyPM decisions (Stillwell et al. 2010, "Use of
 * Priority": "greedily schedule tasks, and suspend lower-priority tasks if
 * necessary to run higher-priority tasks"; GreedyPM "can also migrate
 * tasks instead of suspending them").  Internal to dfrs_online.c; the
 * policies are described in dfrs_online.h.
 */
#ifndef DFRS_ONLINE_GREEDYPM_H
#define DFRS_ONLINE_GREEDYPM_H

#include "online_state.h"

/*
 * The greedy pass over the waiting jobs of w at an event (arrived: the
 * arriving jobs' indices for an arrival, narrived of them, each taken in
 * that order; narrived is 0 at other events).  Updates w->state and
 * w->hosts; 0, or -1 on out of memory.
 */
int online_greedypm_pass(online_state_t *w, dfrs_event_t event,
			 const int *arrived, int narrived);

#endif
