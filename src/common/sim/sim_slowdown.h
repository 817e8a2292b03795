/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_slowdown.h - the two measures every figure of dfrs sim groups or
 * scores jobs by: a job's size class and its bounded slowdown (Liu et al.
 * 2013 section 5.2, Gamma = 10 s).  Both the per-policy metrics
 * (sim_metrics.h) and the per-class diagnostics (sim_classes.h) use them;
 * they depend on neither.
 */
#ifndef DFRS_SIM_SLOWDOWN_H
#define DFRS_SIM_SLOWDOWN_H

#define SIM_BSLD_BOUND 10.0	/* Gamma, seconds (Liu et al. 2013, after [18]) */

/* The job-size classes of the bounded-slowdown plot: 1, 2-4, 5-16,
 * 17-64, 65 and more processes. */
#define SIM_SIZE_CLASSES 5
extern const char *const sim_size_class_names[SIM_SIZE_CLASSES];
int sim_size_class(int nodes);

/* max(1, response / max(runtime, bound)) */
double sim_bounded_slowdown(double response, double runtime, double bound);

#endif
