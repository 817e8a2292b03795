/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_engine.h - the discrete-event simulator behind dfrs sim: replays a
 * workload through one decision engine (sched_engine.h) and models what the
 * engine does not: job progress in each tier, fg overhead and the cost of
 * migrations (Liu et al. 2013 section 5.1).
 */
#ifndef DFRS_SIM_ENGINE_H
#define DFRS_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "amcbf/stretch_drift.h"
#include "sched/sched_engine.h"
#include "sim_workload.h"

typedef struct {
	sched_config_t sched;	/* handed to the engine */
	double migration_cost;	/* s of progress lost per resume or move */
	double fg_overhead_max;	/* fg slowdown with a bg job beside it:
				   uniform 0..this (seed: 0.037) */
	double eff_single_lo, eff_single_hi;	/* 1 process: uniform 0.8..1 */
	double eff_multi_mu, eff_multi_sigma;	/* more: normal 0.428, 0.144 */
	double eff_multi_lo, eff_multi_hi;	/* clipped to 0.2..0.8 */
	int ideal;		/* 1: no overhead, bg runs at full speed (the
				   assumption of Liu et al.'s Figs. 1-2) */
	double bucket_seconds;	/* width of the utilization-over-time bins */
	double dfrs_mem_lo, dfrs_mem_hi;	/* online DFRS drivers (sim_dfrs.c):
					   memory per task, uniform lo..hi
					   of a node per job (0.1..0.5) */
	double dfrs_requeue;	/* 1 (default): suspensions and moves are
				   requeues that cost a job not
				   checkpointable its progress, as
				   amcbf_mode=dfrs live (dfrs_online.h
				   requeue model); 0: Stillwell et al.
				   2010's free migrations, migration_cost
				   each, progress kept */
	double dfrs_ckpt_share;	/* with dfrs_requeue: share of the jobs,
				   drawn per job, that checkpoint */
	double dfrs_max_requeues;	/* with dfrs_requeue: a running job
					   requeued this often stays put
					   (amcbf_max_preempt live; 0: none
					   is requeued) */
	double dfrs_min_runtime;	/* with dfrs_requeue: a job whose run
					   has lasted this long (s, wall
					   clock) stays put (amcbf_min_runtime
					   live; 0: no bound) */
	double dfrs_repack_drift;	/* their repack_drift (dfrs_online.h):
					   mcb and greedypm repack every job
					   only when the minimum scaled yield
					   fell this fraction below the last
					   repack's */
	double dfrs_repack_algorithms;	/* their repack_algorithms
					   (dfrs_online.h): 1..14 */
	double dfrs_repack_tolerance;	/* their repack_tolerance
					   (dfrs_online.h): 0 cold
					   searches to 1e-4 */
	double dfrs_starve_bsld;	/* their starve_bsld
					   (dfrs_online.h): 1000, 0 off */
	double dfrs_wide_share;	/* greedypmr's wide_share (dfrs_online.h):
				   0.25 */
	double dfrs_long_time;	/* greedypmr's long_time, s: 3600 */
	double dfrs_long_min_yield;	/* greedypmr's long_min_yield: 0.75 */
	double dfrs_period;	/* their period (dfrs_online.h), s: 600,
				   as amcbf_dfrs_period; 0 none */
	double dfrs_minvt;	/* their minvt (dfrs_online.h), s: 600, as
				   amcbf_dfrs_minvt */
	double dfrs_min_yield;	/* every task's minimum yield: 0.25, as
				   select/dfrs's dfrs_min_yield */
	double gang_mpl;	/* gang drivers (sim_gang.c): rows of the
				   Ousterhout matrix, a whole number */
	double gang_slice;	/* their time slice, s */
	double gang_migrate_q;	/* gang-migrate: at most this many tasks
				   migrated per time slice (Zhang et al.'s Q) */
	int need_source;	/* sim_need.h: 0 declared (the trace's needs,
				   the oracle), 1 measured, 2 none; the
				   engines' replays only */
	double need_default;	/* dfrs_cpu_need for measured and none: 1 */
	double need_delay;	/* measured: s a job runs in a tier before
				   its measurement reaches the scheduler */
	double drift_window;	/* the drift guard (stretch_drift.h), as
				   sched/amcbf's amcbf_drift_window: s of
				   history; 0 off */
	double drift_factor;	/* ... its amcbf_drift_factor */
	double drift_min_work;	/* ... its amcbf_drift_min_work, s */
	uint64_t seed;		/* eff and overhead draws */
} sim_model_t;

typedef struct {
	double first_start;	/* -1 if it never ran */
	double finish;
	int preemptions;	/* times suspended and requeued */
	int migrations;		/* times resumed from a checkpoint or moved */
	double fg_seconds;	/* time spent running in the fg tier (or
				   untiered: dedicated) */
	double bg_seconds;	/* time spent running in the bg tier */
	double lost_seconds;	/* work lost to requeues (sim_dfrs.c with
				   dfrs_requeue): progress it had to redo */
} sim_job_result_t;

typedef struct {
	sim_job_result_t *jobs;	/* one per workload job */
	size_t njobs;
	double busy_cpu_seconds;	/* CPU cycles used by jobs */
	double makespan;	/* last finish (the first arrival is time 0) */
	size_t events;		/* engine calls */
	size_t decisions;
	double *busy_buckets;	/* busy CPU seconds per bucket_seconds bin */
	size_t nbuckets;
	double bucket_seconds;
	double wall_seconds;	/* CPU time the run took */
	double clock_start;	/* monotonic clock at sim_result_start */
	/* Time with some job outside the fg tier, split by where the
	 * earliest such job (the head of Q u J_bg, Liu et al. 2013 Alg. 2
	 * line 2) was: waiting in the queue, or running in bg. */
	double head_queued_seconds;
	double head_bg_seconds;
	/* need_source measured: at each job's first start, the need the
	 * engine saw for each process (the predictor's) against its true
	 * need */
	size_t need_procs;	/* processes scored */
	size_t need_under;	/* predicted below the true need */
	double need_err_sum;	/* sum of predicted - true */
	double need_abs_sum;	/* sum of |predicted - true| */
	/* the drift guard sched/amcbf runs live (stretch_drift.h), fed at
	 * every event with the running jobs' stretch so far */
	stretch_drift_t drift;
	double drift_seconds;	/* time in drift, set by sim_result_stop */
} sim_result_t;

void sim_model_defaults(sim_model_t *m);

/*
 * Replay w through engine.  Returns 0 and fills *r (sim_result_free it), or
 * -1 with one line in err (out of memory, or the engine left jobs waiting on
 * an empty machine: a bug, reported rather than looping).
 */
int sim_run(const sim_workload_t *w, sched_engine_fn engine,
	    const sim_model_t *m, sim_result_t *r, char *err, size_t errlen);

/*
 * The estimates an engine sees, when not the workload's (EASY++'s
 * predictions, sim_easy_pp.c): before each engine call, before() may set
 * sched_job_t.estimate of the active jobs (sched_job_t.id is the job's
 * index in the workload; is_new marks the arrivals); ended() is told of
 * each job that leaves the machine (its workload index), before the
 * arrivals at the same time.  Both return 0, or -1 when out of memory.
 */
typedef struct {
	void *ctx;
	int (*before)(void *ctx, sched_state_t *st);
	int (*ended)(void *ctx, size_t job);
} sim_estimator_t;

/* sim_run() with est setting the estimates (NULL: as sim_run). */
int sim_run_estimated(const sim_workload_t *w, sched_engine_fn engine,
		      const sim_estimator_t *est, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen);

/*
 * Count cpu_rate busy CPU from t0 to t1 in r->busy_cpu_seconds and the
 * r->bucket_seconds bins (growing them): 0, or -1 when out of memory.
 * For drivers of their own (sim_policy.h), to count as sim_run() does.
 */
int sim_result_add_busy(sim_result_t *r, double t0, double t1,
			double cpu_rate);

/* For every driver (sim_run, gang, online DFRS), so results mean the same:
 * start a result (zeroed, bins of m->bucket_seconds) and its clock; job i
 * finished at t (its finish and the makespan); stop the clock into
 * wall_seconds. */
void sim_result_start(sim_result_t *r, const sim_model_t *m);
void sim_result_finish(sim_result_t *r, size_t i, double t);
void sim_result_stop(sim_result_t *r);
/* For every driver, after each event's decisions: running job i (of the
 * workload), with work seconds of virtual time, into the cycle's sum s
 * (since its first start in r); then the sum into the drift guard at
 * time t. */
void sim_result_drift_add(const sim_result_t *r, stretch_drift_sum_t *s,
			  size_t i, double t, double work);
void sim_result_drift(sim_result_t *r, double t,
		      const stretch_drift_sum_t *s);

void sim_result_free(sim_result_t *r);

/* For every driver, when no event is left before every job has finished:
 * "simulation stalled at t=NOW s: WAITING jobs wait on an idle machine
 * (WHY)" into err, or "simulation stalled at t=NOW s (WHY)" when no job
 * waits; WHY says whose bug it is or what the job needs. */
void sim_stalled(char *err, size_t errlen, double now, size_t waiting,
		 const char *why);

#endif
