/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_bound.c - how long the availability policy's wait may last, and
 * which OFF makes a job wait at all (wait_bound.h; He et al. 2012,
 * Sec. III).
 */
#include <math.h>

#include "wait_bound.h"

double wait_bound_expected_off(double p01, double slot)
{
	if (isnan(p01) || p01 < WAIT_BOUND_MIN_P01)
		p01 = WAIT_BOUND_MIN_P01;
	return slot / p01;
}

double wait_bound_limit(double longest_expected_off, double factor)
{
	if (factor <= 0 || longest_expected_off <= 0)
		return 0;
	return factor * longest_expected_off;
}

bool wait_bound_over(double waited, double limit)
{
	return limit > 0 && waited >= limit;
}

bool wait_bound_off_acts(bool down, bool failing, bool loaded, bool drained,
			 bool drain_acts)
{
	return down || failing || loaded || (drained && drain_acts);
}
