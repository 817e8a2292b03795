/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vclock.h - a job's virtual time as sched/amcbf charges it at each cycle:
 * the integral of its yield (Stillwell et al. 2010, "Priority"), on a
 * clock of sub-second resolution.  Cycles may come within a tenth of a
 * second of each other: a job that started in the same second as the next
 * cycle has run, and its flow time / virtual time^2 must be finite, not
 * the infinite priority of a job that never ran.  Plain C, no Slurm
 * headers.
 */
#ifndef DFRS_VCLOCK_H
#define DFRS_VCLOCK_H

#include <stdbool.h>
#include <time.h>

/* Seconds since the epoch at sub-second resolution (CLOCK_REALTIME). */
double vclock_now(void);

/* The same instant as ts. */
double vclock_of(const struct timespec *ts);

/*
 * Charge a job at now: the seconds since *tick (0 when *tick is 0: never
 * charged) are returned (negative when the clock went back), and, when it
 * ran and they are positive, *vt grows by yield times them.  *tick
 * becomes now.
 */
double vclock_charge(double *vt, double *tick, double now, double yield,
		     bool running);

#endif
