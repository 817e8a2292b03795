/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vclock.c - virtual time charged at sub-second resolution (vclock.h;
 * Stillwell et al. 2010, "Priority").
 */
#include "vclock.h"

double vclock_of(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

double vclock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return vclock_of(&ts);
}

double vclock_charge(double *vt, double *tick, double now, double yield,
		     bool running)
{
	double dt = *tick ? now - *tick : 0;

	*tick = now;
	if (running && dt > 0)
		*vt += yield * dt;
	return dt;
}
