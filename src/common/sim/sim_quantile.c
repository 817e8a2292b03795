/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_quantile.c - nearest-rank percentiles and [D-]HH:MM:SS durations
 * (sim_quantile.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_quantile.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sim_quantile_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double sim_quantile(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return 0;
	double rank = ceil(q * (double)n - 1e-9);
	size_t i = rank < 1 ? 0 : (size_t)rank - 1;
	return sorted[i < n ? i : n - 1];
}

void sim_quantile_duration(double seconds, char *buf, size_t len)
{
	if (!(seconds >= 0)) {
		snprintf(buf, len, "-");
		return;
	}
	unsigned long long s = (unsigned long long)llround(seconds);
	unsigned long long d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
	if (d)
		snprintf(buf, len, "%llu-%02llu:%02llu:%02llu", d, h, m, s % 60);
	else
		snprintf(buf, len, "%02llu:%02llu:%02llu", h, m, s % 60);
}
