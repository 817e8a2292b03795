/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_model.h - the DFRS resource model: hosts with d resource dimensions,
 * jobs of k identical tasks with rigid requirements and fluid needs, yields,
 * scaled yields and placements.  Stillwell et al. 2010,
 * "Requirements, Needs, and Yield", "Going further: the scaled yield" and
 * "Elementary vs. Aggregate Capacity".
 *
 * A task of job i placed on host h uses, in dimension j,
 *     req[j] + y_i * need[j]
 * where y_i in [min_yield, 1] is the job's yield (the same for all its
 * tasks).  A dimension with need 0 is purely rigid, one with req 0 purely
 * fluid; both may be non-zero.  Host h holds its tasks if, in every
 * dimension, the sum of their usage is at most cap[j] (aggregate capacity)
 * and each task's own usage is at most elem[j] (elementary capacity: e.g.
 * one core of a 4-core node; equal to cap for memory-like resources).  A
 * job may give elementary amounts (elem_req, elem_need) that count against
 * elem[j] instead of its whole usage (a multi-threaded task).
 *
 * The objective is the minimum scaled yield (y - min_yield)/(1 - min_yield).
 * Everything here is plain data: no global state.
 */
#ifndef DFRS_MODEL_H
#define DFRS_MODEL_H

#include <stddef.h>

/* Dimensions a host may have.  Every job and host carries this many in
 * each of its vectors, used or not: the live policies use 2 (CPU, memory)
 * or 3 (and GPUs), and one job of the plugin's view costs 32 bytes a
 * dimension (its req, need, elem_req and elem_need). */
#define DFRS_MAX_DIMS 4
#define DFRS_MAX_TASKS 10000000	/* tasks in one instance (ints index them) */

typedef struct {
	double cap[DFRS_MAX_DIMS];	/* aggregate capacity per dimension */
	double elem[DFRS_MAX_DIMS];	/* elementary: the most one task may use */
} dfrs_host_t;

typedef struct {
	int ntasks;			/* k identical tasks, >= 1 */
	double req[DFRS_MAX_DIMS];	/* rigid requirement per task */
	double need[DFRS_MAX_DIMS];	/* fluid need per task (at yield 1) */
	double min_yield;		/* y-hat in [0, 1] */
	/*
	 * Elementary amounts (Stillwell et al. 2010's heterogeneous model gives a task
	 * elementary r^e, n^e besides aggregate r^a, n^a): with elem_given,
	 * what the task uses of one elementary unit, e.g. a 4-thread task
	 * needs 4 cores in all but at most 1 core per thread.  Without it (0,
	 * the default), the task's whole req + y need counts against the
	 * elementary capacity.
	 */
	int elem_given;
	double elem_req[DFRS_MAX_DIMS];	/* <= req */
	double elem_need[DFRS_MAX_DIMS];	/* <= need */
} dfrs_job_t;

typedef struct {
	int ndims;			/* 1..DFRS_MAX_DIMS */
	int nhosts;
	const dfrs_host_t *hosts;
	int njobs;
	const dfrs_job_t *jobs;
} dfrs_instance_t;

/*
 * A placement: the host of every task and the yield of every job.  Tasks are
 * numbered job by job: task t of job i is task_host[first_task[i] + t].
 */
typedef struct {
	int ntasks;
	int njobs;
	int *first_task;		/* [njobs + 1]; first_task[njobs] = ntasks */
	int *task_host;			/* [ntasks]; -1 when not placed */
	double *yield;			/* [njobs]; 0 for a job not placed */
	double min_scaled_yield;	/* over placed jobs; -1 when none */
} dfrs_placement_t;

/* Total number of tasks. */
int dfrs_instance_ntasks(const dfrs_instance_t *inst);

/* 1 if every host has the same capacities (aggregate and elementary). */
int dfrs_hosts_homogeneous(const dfrs_instance_t *inst);

/* Yield of a job at scaled yield Y: y-hat + Y (1 - y-hat). */
double dfrs_yield_at_scaled(const dfrs_job_t *job, double scaled);

/* Scaled yield of a job at yield y (1 when y-hat is 1 and y = 1). */
double dfrs_scaled_of_yield(const dfrs_job_t *job, double yield);

/* Relative tolerance of every fit test, so that rounding does not turn an
 * exact fit into a miss. */
#define DFRS_FIT_TOL 1e-12

/* The most a capacity holds in a fit test. */
static inline double dfrs_fit_limit(double cap)
{
	return cap * (1 + DFRS_FIT_TOL);
}

/*
 * Whether one task fits on a host where `used` is already taken: its
 * elementary use elem_add <= the elementary capacity, and used + its
 * aggregate use add <= the aggregate capacity.  Every placement algorithm
 * tests fits with this, or (vector_pack.c) with the limits precomputed.
 */
static inline int dfrs_amount_fits(double add, double elem_add, double used,
				   double cap, double elem)
{
	return elem_add <= dfrs_fit_limit(elem) && used + add <= dfrs_fit_limit(cap);
}

/* Mean aggregate capacity of the hosts per dimension: the unit in which
 * heuristics compare coordinates of different dimensions. */
void dfrs_mean_capacity(const dfrs_instance_t *inst, double *scale);

/* Usage of one task of job in dimension d at yield y. */
static inline double dfrs_task_usage(const dfrs_job_t *job, int d, double y)
{
	return job->req[d] + y * job->need[d];
}

/* Elementary requirement and need of a task (the aggregate ones unless
 * elem_given), and its elementary usage at yield y. */
static inline double dfrs_elem_req(const dfrs_job_t *job, int d)
{
	return job->elem_given ? job->elem_req[d] : job->req[d];
}

static inline double dfrs_elem_need(const dfrs_job_t *job, int d)
{
	return job->elem_given ? job->elem_need[d] : job->need[d];
}

static inline double dfrs_task_elem_usage(const dfrs_job_t *job, int d,
					  double y)
{
	return dfrs_elem_req(job, d) + y * dfrs_elem_need(job, d);
}

/*
 * Check an instance: dimension and host/job counts, every value finite and
 * >= 0, 0 < elem <= cap, min_yield in [0, 1], ntasks >= 1, elementary
 * amounts no larger than the aggregate ones, each task's usage at its
 * minimum yield (req + min_yield need) no larger than the largest host's
 * capacity, elementary and aggregate, at most DFRS_MAX_TASKS tasks in all.
 * A need above a host's capacity is allowed: the job's yield there is at
 * most what the capacity leaves of the need.
 * Returns 0, or -1 with one message in err naming the host or job, the
 * dimension and the value.  (Whether the jobs fit together is the
 * placement's business, not the instance's.)
 */
int dfrs_instance_check(const dfrs_instance_t *inst, char *err, size_t errlen);

/*
 * The same check one job at a time, for a caller whose jobs are not in one
 * array (the online state): dfrs_check_hosts with inst's hosts (its jobs
 * are not read), then dfrs_check_job for each job i in order.  Each returns
 * 0, or -1 with the message dfrs_instance_check would give.
 */
typedef struct {
	int ndims;
	double max_cap[DFRS_MAX_DIMS], max_elem[DFRS_MAX_DIMS];
	long long total_tasks;
} dfrs_instance_checker_t;

int dfrs_check_hosts(dfrs_instance_checker_t *c, const dfrs_instance_t *inst,
		     char *err, size_t errlen);
int dfrs_check_job(dfrs_instance_checker_t *c, int i, const dfrs_job_t *job,
		   char *err, size_t errlen);

/* Allocate a placement for inst with every task unplaced; -1 on ENOMEM. */
int dfrs_placement_init(dfrs_placement_t *p, const dfrs_instance_t *inst);
void dfrs_placement_free(dfrs_placement_t *p);
void dfrs_placement_copy(dfrs_placement_t *dst, const dfrs_placement_t *src);

/*
 * Verify a placement: every task of a placed job on a valid host (a job is
 * placed entirely or not at all), each yield in [min_yield, 1] for placed
 * jobs, and every host's aggregate and elementary capacity respected in
 * every dimension (with a 1e-9 relative tolerance).  Returns 0, or -1 with a
 * message naming the host, dimension and load.
 */
int dfrs_placement_check(const dfrs_instance_t *inst,
			 const dfrs_placement_t *p, char *err, size_t errlen);

/* Recompute p->min_scaled_yield from p->yield over placed jobs. */
void dfrs_placement_update_min(const dfrs_instance_t *inst,
			       dfrs_placement_t *p);

#endif
