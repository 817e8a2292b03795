/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_quantile.h - percentiles of a sample (nearest rank, so a reported
 * p95 is a value some job really had) and durations written for people,
 * [D-]HH:MM:SS as Slurm prints them; for dfrs advise's reports.
 */
#ifndef DFRS_SIM_QUANTILE_H
#define DFRS_SIM_QUANTILE_H

#include <stddef.h>

/* Sort v[0..n) in place, ascending. */
void sim_quantile_sort(double *v, size_t n);

/* The q-quantile (0 < q <= 1) of sorted[0..n) by nearest rank: the
 * smallest value with at least q * n values at or under it; 0 if n == 0. */
double sim_quantile(const double *sorted, size_t n, double q);

/* seconds as [D-]HH:MM:SS, rounded to the second ("1-02:03:04",
 * "00:00:59"); negative values as "-" (unknown). */
void sim_quantile_duration(double seconds, char *buf, size_t len);

#endif
