/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_bound.h - the limits of the availability policy's "wait" (He et
 * al. 2012, Sec. III: a job whose hosts are OFF is suspended until they
 * are ON again).  The paper's model has OFF periods that end; a real node
 * may stay drained or loaded for days, and a suspended job holds its
 * nodes and memory all that time.  So a wait is bounded: a job waits at
 * most amcbf_avail_wait_factor times the expected length of an OFF period
 * of its OFF hosts (the mean of the chain's geometric sojourn in OFF,
 * slot / p01), then it is resumed where it is, keeping its work.  And a
 * drain is an administrator's "let the jobs finish" (maintenance): a node
 * that is drained but up, responding and not loaded from outside is OFF
 * for the model (the estimates) but does not make its jobs wait or
 * migrate, unless the site sets amcbf_avail_drain_acts=1.  Plain C.
 */
#ifndef DFRS_WAIT_BOUND_H
#define DFRS_WAIT_BOUND_H

#include <stdbool.h>

/* p01 below this (or unknown, NaN) is taken as this: an OFF period that
 * was never seen ending is expected to last 1 / WAIT_BOUND_MIN_P01 slots */
#define WAIT_BOUND_MIN_P01 0.01

/* Expected length (s) of an OFF period of a node whose chain leaves OFF
 * with probability p01 per slot of `slot` seconds: slot / p01. */
double wait_bound_expected_off(double p01, double slot);

/* How long (s) a job suspended for its OFF hosts may wait: factor times
 * the longest expected OFF period of those hosts; 0 (no bound) when
 * factor <= 0. */
double wait_bound_limit(double longest_expected_off, double factor);

/* Has a job suspended `waited` seconds reached its limit (0: none)? */
bool wait_bound_over(double waited, double limit);

/* Does a node observed OFF make its jobs wait or migrate?  down: down,
 * not responding or powered down; failing: Slurm's FAIL state; loaded:
 * its CPU load from outside Slurm's jobs is over amcbf_avail_zeta;
 * drained: DRAIN.  A node OFF only because it is drained (maintenance)
 * does only when drain_acts. */
bool wait_bound_off_acts(bool down, bool failing, bool loaded, bool drained,
			 bool drain_acts);

#endif
