/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_classes.h - dfrs sim's per-class diagnostics: jobs grouped by size
 * (processes) and by run time, and for each class its mean bounded
 * slowdown (Liu et al. 2013 section 5.2, Gamma = 10 s) and its maximum,
 * its share of the
 * whole workload's mean bounded slowdown, its mean wait and the part of
 * its running time spent in the background tier.  Also the consolidation
 * potential of a workload: how much of the CPU its jobs hold they leave
 * idle on nodes that a background tier may use (section 4's two tests:
 * usage under util_threshold, idle CPU above min_idle_cpu).
 */
#ifndef DFRS_SIM_CLASSES_H
#define DFRS_SIM_CLASSES_H

#include <stddef.h>

#include "sched/sched_engine.h"
#include "sim_engine.h"
#include "sim_workload.h"

/* Sizes 1, 2-4, 5-16, 17-64, 65+ (sim_size_class) by run times under
 * 1 min, 1-10 min, 10 min-1 h, 1-10 h, 10 h and more. */
#define SIM_RUNTIME_CLASSES 5
#define SIM_CLASSES (5 * SIM_RUNTIME_CLASSES)

extern const char *const sim_runtime_class_names[SIM_RUNTIME_CLASSES];
int sim_runtime_class(double runtime);
/* Class index: size class * SIM_RUNTIME_CLASSES + run-time class. */
int sim_class_of(int nodes, double runtime);
/* "5-16 x 1-10m" into buf. */
void sim_class_name(int c, char *buf, size_t len);

typedef struct {
	size_t jobs;
	double mean_bsld;
	double max_bsld;	/* its worst job's bounded slowdown */
	double bsld_share;	/* this class's sum of bounded slowdowns over
				   the workload's: its share of the mean */
	double mean_wait;	/* first start - arrival */
	double mean_response;	/* finish - arrival */
	double bg_fraction;	/* bg seconds / (fg + bg) seconds */
} sim_class_metrics_t;

void sim_classes_compute(const sim_workload_t *w, const sim_result_t *r,
			 double bsld_bound,
			 sim_class_metrics_t out[SIM_CLASSES]);

/* Idle CPU the workload offers a bg tier: over every process of every
 * job, weighted by run time, the idle CPU (1 - usage) of those whose
 * usage lets a node take a bg process (sched_bg_eligible's test: usage
 * under util_threshold, idle above min_idle_cpu), over the CPU held.
 * 0 when every process uses its whole CPU. */
double sim_consolidation_potential(const sim_workload_t *w,
				   const sched_config_t *cfg);

#endif
