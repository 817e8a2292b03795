/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_plot.h - dfrs sim --plot DIR: per policy, utilization over time (one
 * panel per simulated policy, a live run drawn over the prediction it is the
 * counterpart of), mean bounded slowdown by job-size class and by size x
 * run-time class (sim_classes.h) with each class's share of the mean, as
 * data files, a gnuplot script and the PNG images gnuplot makes from them.
 */
#ifndef DFRS_SIM_PLOT_H
#define DFRS_SIM_PLOT_H

#include <stddef.h>

#include "sim/sim_engine.h"
#include "sim/sim_metrics.h"
#include "sim/sim_workload.h"

#define SIM_PLOT_MAX 32

typedef struct {
	char dir[512];
	size_t npolicies;
	char policy[SIM_PLOT_MAX][32];
	char predicted[SIM_PLOT_MAX][32];	/* a live run's counterpart, or "" */
	double makespan;			/* the longest, for the time unit */
	double bsld[SIM_PLOT_MAX][SIM_SIZE_CLASSES];
	size_t count[SIM_SIZE_CLASSES];
	sim_class_metrics_t classes[SIM_PLOT_MAX][SIM_CLASSES];
	char caption[300];	/* "trace, N nodes, load xL" under each title */
	char size_unit[64];	/* the job-size axis: processes or units */
} sim_plot_t;

/* Create DIR if needed.  0, or -1 with a message. */
int sim_plot_begin(sim_plot_t *p, const char *dir, char *err, size_t errlen);
/* Label every plot with the trace (its file name), the machine in
 * allocation units and the load; name the size axis in those units. */
void sim_plot_describe(sim_plot_t *p, const char *trace, int nodes,
		       double load, int procs_per_node);
/* Write DIR/util_POLICY.dat and keep its slowdowns by size class. */
int sim_plot_add(sim_plot_t *p, const char *policy, const sim_workload_t *w,
		 const sim_result_t *r, char *err, size_t errlen);
/* Write DIR/bsld_by_size.dat, DIR/bsld_by_class.dat and DIR/plots.gp,
 * run gnuplot on it. */
int sim_plot_finish(sim_plot_t *p, char *err, size_t errlen);
void sim_plot_free(sim_plot_t *p);

#endif
