/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_need.h - the CPU need of each job as the scheduler sees it in a
 * replay, apart from the need the job really has (the trace's, which sets
 * its progress and its CPU use).  Three sources, the three rows dfrs sim
 * and dfrs advise report:
 *
 *   declared  every job's true need from the start (each job submitted
 *             with its exact --comment=dfrs:need=X: the oracle);
 *   measured  what a deployment with dfrs-nodeagent gets: a pending job
 *             has the need_predictor.h prediction from the jobs that ended
 *             before (same user and executable, else same user, else
 *             dfrs_cpu_need); a running job has its measured need once it
 *             has run need_delay seconds in its current tier (the agent's
 *             window and report); a job measured in the background tier
 *             shows only a lower bound (it gets no more than the idle CPU),
 *             so that raises its need and never lowers it; a job that ends
 *             teaches the predictor its last foreground measurement;
 *   none      dfrs_cpu_need for every job (default 1: nothing declared,
 *             nothing measured).
 * Liu et al. 2013 (section 4.1) take CPU usage "from history or a job
 * option"; declared is the job option, measured the history.
 */
#ifndef DFRS_SIM_NEED_H
#define DFRS_SIM_NEED_H

#include <stddef.h>

#include "sim_engine.h"
#include "sim_workload.h"
#include "need/need_predictor.h"

typedef enum {
	SIM_NEED_DECLARED = 0,
	SIM_NEED_MEASURED = 1,
	SIM_NEED_NONE = 2,
} sim_need_source_t;

/* Whether policy name's decisions use CPU needs (its engine has a
 * background tier: cmcbf, amcbf); the others ignore the source. */
int sim_need_matters(const char *policy);

/* "declared", "measured", "none" */
const char *sim_need_name(int source);
/* The source called name: 0, or -1 if none. */
int sim_need_find(const char *name, int *source);

typedef struct {
	int source;
	double default_need;	/* dfrs_cpu_need */
	double delay;		/* s in a tier before a measurement counts */
	const sim_workload_t *w;
	double *view;		/* per process, the workload's layout */
	size_t *off;		/* job i's processes at view + off[i] */
	double *window;		/* per job: when its current tier began */
	double *learned;	/* per job: last fg measurement, -1 none */
	char *measured;		/* per job: measured once */
	need_predictor_t pred;
	unsigned long long pred_clock;	/* predictor clock at last refresh */
} sim_need_t;

/* 0, or -1 when out of memory. */
int sim_need_init(sim_need_t *n, const sim_workload_t *w, int source,
		  double default_need, double delay);
void sim_need_free(sim_need_t *n);

/* Job i's needs as the scheduler sees them (its processes' entries). */
double *sim_need_view(sim_need_t *n, size_t i);

/* Job i arrives: its view is the prediction (measured), the default (none)
 * or its true need (declared). */
void sim_need_arrive(sim_need_t *n, size_t i);

/* Job i is placed at time now (start, resume, tier move). */
void sim_need_placed(sim_need_t *n, size_t i, double now);

/* At an event: job i runs (bg: in the background tier) at rate, having
 * been placed at least delay s ago: its measurement replaces the view. */
void sim_need_running(sim_need_t *n, size_t i, int bg, double rate,
		      double now);

/* Job i is queued: its view follows the predictor (when it learned
 * something since) unless the job was measured already. */
void sim_need_queued(sim_need_t *n, size_t i);

/* Job i ended: the predictor learns its need. */
void sim_need_finished(sim_need_t *n, size_t i);

/* Job i starts for the first time: score the need the engine saw for
 * each process against the true one into r (measured only). */
void sim_need_score(const sim_need_t *n, size_t i, sim_result_t *r);

/* Call after the events of one time: whether the predictor changed. */
int sim_need_predictor_changed(sim_need_t *n);

#endif
