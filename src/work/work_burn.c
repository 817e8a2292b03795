/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * work_burn.c - CPU work measured in CPU seconds (work_burn.h): the
 * computing part of a dfrs-work process.
 */
#include "work_burn.h"

#include <errno.h>
#include <math.h>
#include <time.h>

static double seconds_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double work_burn_cpu_now(void)
{
	return seconds_of(CLOCK_THREAD_CPUTIME_ID);
}

double work_burn_wall_now(void)
{
	return seconds_of(CLOCK_MONOTONIC);
}

void work_burn(double seconds)
{
	double until = work_burn_cpu_now() + seconds;
	volatile double x = 1.0;

	/* small chunks (tens of microseconds) between two reads of the clock */
	while (work_burn_cpu_now() < until)
		for (int i = 0; i < 20000; i++)
			x = x * 1.0000001 + 1e-9;
}

void work_burn_sleep_until(double when)
{
	struct timespec ts;

	if (when <= work_burn_wall_now())
		return;
	ts.tv_sec = (time_t)floor(when);
	ts.tv_nsec = (long)((when - floor(when)) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
