/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_metrics.h - the figures dfrs sim reports for one policy on one
 * workload (Liu et al. 2013 section 5.2, Stillwell et al.'s stretch).
 */
#ifndef DFRS_SIM_METRICS_H
#define DFRS_SIM_METRICS_H

#include "sim_classes.h"
#include "sim_engine.h"
#include "sim_slowdown.h"
#include "sim_workload.h"

typedef struct {
	size_t jobs;
	double mean_response;	/* t_f - t_a */
	double mean_wait;	/* first start - t_a */
	double mean_bsld;	/* max(1, (t_f - t_a) / max(bound, t_e)) */
	double max_bsld;
	double mean_stretch;	/* max(t_f - t_a, 1 s) / max(t_e, 1 s) */
	double max_stretch;
	double utilization;	/* busy CPU / (nodes * makespan) */
	double migrations_per_job;
	double preemptions_per_job;
	double lost_work_per_job;	/* s of progress lost to requeues */
	double max_lost_work;	/* s of progress the worst-hit job lost */
	double makespan;	/* last finish - first arrival */
	double wall_seconds;
	double events_per_second;	/* decision events / wall_seconds */
	double bg_time_share;	/* running time spent in the bg tier */
	double head_in_bg;	/* of the time some job was outside fg, the
				   part when the earliest one ran in bg */
	double drift_entries;	/* times the drift guard sched/amcbf runs
				   live (stretch_drift.h) would have logged
				   that the running jobs' mean stretch
				   drifted over its window's */
	double drift_share;	/* share of the makespan in such a drift */
	sim_class_metrics_t classes[SIM_CLASSES];	/* sim_classes.h */
} sim_metrics_t;

/* SIM_BSLD_BOUND, the size classes and the bounded slowdown: sim_slowdown.h */

void sim_metrics_compute(const sim_workload_t *w, const sim_result_t *r,
			 double bsld_bound, sim_metrics_t *m);

/* Mean bounded slowdown per size class (0 where a class has no job) and
 * the job count of each. */
void sim_metrics_bsld_by_size(const sim_workload_t *w, const sim_result_t *r,
			      double bsld_bound,
			      double mean[SIM_SIZE_CLASSES],
			      size_t count[SIM_SIZE_CLASSES]);

#endif
