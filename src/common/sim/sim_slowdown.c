/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_slowdown.c - size classes and the bounded slowdown (sim_slowdown.h;
 * Liu et al. 2013 section 5.2).
 */
#include "sim_slowdown.h"

const char *const sim_size_class_names[SIM_SIZE_CLASSES] = {
	"1", "2-4", "5-16", "17-64", "65+",
};

int sim_size_class(int nodes)
{
	if (nodes <= 1)
		return 0;
	if (nodes <= 4)
		return 1;
	if (nodes <= 16)
		return 2;
	if (nodes <= 64)
		return 3;
	return 4;
}

double sim_bounded_slowdown(double response, double runtime, double bound)
{
	double denom = runtime > bound ? runtime : bound;
	double b = response / denom;
	return b > 1.0 ? b : 1.0;
}
