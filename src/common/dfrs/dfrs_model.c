/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_model.c - the DFRS resource model (Stillwell et al. 2010, "Requirements, Needs,
 * and Yield", "Elementary vs. Aggregate Capacity"): instance checks,
 * scaled yields, placement storage and the capacity check every placement
 * algorithm's result must pass.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_model.h"

int dfrs_instance_ntasks(const dfrs_instance_t *inst)
{
	int n = 0;

	for (int i = 0; i < inst->njobs; i++)
		n += inst->jobs[i].ntasks;
	return n;
}

int dfrs_hosts_homogeneous(const dfrs_instance_t *inst)
{
	for (int h = 1; h < inst->nhosts; h++)
		for (int d = 0; d < inst->ndims; d++)
			if (inst->hosts[h].cap[d] != inst->hosts[0].cap[d] ||
			    inst->hosts[h].elem[d] != inst->hosts[0].elem[d])
				return 0;
	return 1;
}

void dfrs_mean_capacity(const dfrs_instance_t *inst, double *scale)
{
	for (int d = 0; d < inst->ndims; d++) {
		scale[d] = 0.0;
		for (int h = 0; h < inst->nhosts; h++)
			scale[d] += inst->hosts[h].cap[d] / inst->nhosts;
	}
}

double dfrs_yield_at_scaled(const dfrs_job_t *job, double scaled)
{
	return job->min_yield + scaled * (1.0 - job->min_yield);
}

double dfrs_scaled_of_yield(const dfrs_job_t *job, double yield)
{
	if (job->min_yield >= 1.0)
		return 1.0;
	return (yield - job->min_yield) / (1.0 - job->min_yield);
}

static int bad_value(double v)
{
	return !isfinite(v) || v < 0.0;
}

/*
 * Whether job's tasks fit on no host in dimension d even at the job's
 * minimum yield: 1 if its rigid requirement alone is above the largest
 * capacity (elementary or aggregate), 2 if its usage at min_yield is, 0 if
 * neither.  A need above a host's capacity is no error: the yield there
 * cannot exceed what the capacity leaves (Stillwell et al. 2010,
 * "Requirements, Needs, and Yield").  Inlined: every online decision
 * checks every job in the system.
 */
static inline int job_exceeds_hosts(const dfrs_job_t *job, int d,
				    double max_cap, double max_elem)
{
	double y = job->min_yield;

	if (dfrs_elem_req(job, d) > max_elem || job->req[d] > max_cap)
		return 1;
	if (dfrs_task_elem_usage(job, d, y) > max_elem ||
	    dfrs_task_usage(job, d, y) > max_cap)
		return 2;
	return 0;
}

/* The message for job_exceeds_hosts's answer `why` (1 or 2) on job i. */
static void report_exceeds_hosts(const dfrs_job_t *job, int i, int d,
				 int why, double max_cap, double max_elem,
				 char *err, size_t errlen)
{
	int elem = job->elem_given;
	double y = job->min_yield;

	if (why == 1) {
		int e = dfrs_elem_req(job, d) > max_elem;

		snprintf(err, errlen,
			 "job %d dimension %d: %s %g exceeds every host's capacity (largest %g)",
			 i, d, e && elem ? "elem_req" : "req",
			 e ? dfrs_elem_req(job, d) : job->req[d],
			 e ? max_elem : max_cap);
	} else {
		int e = dfrs_task_elem_usage(job, d, y) > max_elem;

		snprintf(err, errlen,
			 "job %d dimension %d: %s %g at min_yield %g (plus %s %g) exceeds every host's capacity (largest %g)",
			 i, d, e && elem ? "elem_need" : "need",
			 e ? dfrs_elem_need(job, d) : job->need[d], y,
			 e && elem ? "elem_req" : "req",
			 e ? dfrs_elem_req(job, d) : job->req[d],
			 e ? max_elem : max_cap);
	}
}

int dfrs_check_hosts(dfrs_instance_checker_t *c, const dfrs_instance_t *inst,
		     char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->ndims = inst->ndims;
	if (inst->ndims < 1 || inst->ndims > DFRS_MAX_DIMS) {
		snprintf(err, errlen, "%d resource dimensions: must be 1..%d",
			 inst->ndims, DFRS_MAX_DIMS);
		return -1;
	}
	if (inst->nhosts < 1) {
		snprintf(err, errlen, "no host");
		return -1;
	}
	for (int h = 0; h < inst->nhosts; h++) {
		const dfrs_host_t *host = &inst->hosts[h];

		for (int d = 0; d < inst->ndims; d++) {
			if (bad_value(host->cap[d]) || host->cap[d] == 0.0) {
				snprintf(err, errlen,
					 "host %d dimension %d: capacity %g must be a positive number",
					 h, d, host->cap[d]);
				return -1;
			}
			if (bad_value(host->elem[d]) || host->elem[d] == 0.0 ||
			    host->elem[d] > host->cap[d]) {
				snprintf(err, errlen,
					 "host %d dimension %d: elementary capacity %g must be in (0, %g]",
					 h, d, host->elem[d], host->cap[d]);
				return -1;
			}
			if (host->elem[d] > c->max_elem[d])
				c->max_elem[d] = host->elem[d];
			if (host->cap[d] > c->max_cap[d])
				c->max_cap[d] = host->cap[d];
		}
	}
	return 0;
}

int dfrs_check_job(dfrs_instance_checker_t *c, int i, const dfrs_job_t *job,
		   char *err, size_t errlen)
{
	c->total_tasks += job->ntasks;
	if (c->total_tasks > DFRS_MAX_TASKS) {
		snprintf(err, errlen, "job %d: more than %d tasks in all",
			 i, DFRS_MAX_TASKS);
		return -1;
	}
	if (job->ntasks < 1) {
		snprintf(err, errlen, "job %d: %d tasks, must be >= 1",
			 i, job->ntasks);
		return -1;
	}
	if (!isfinite(job->min_yield) || job->min_yield < 0.0 ||
	    job->min_yield > 1.0) {
		snprintf(err, errlen,
			 "job %d: min_yield %g must be in [0, 1]",
			 i, job->min_yield);
		return -1;
	}
	for (int d = 0; d < c->ndims; d++) {
		const char *what = NULL;
		double v = 0.0;
		int why;

		if (bad_value(job->req[d]))
			what = "req", v = job->req[d];
		else if (bad_value(job->need[d]))
			what = "need", v = job->need[d];
		else if (job->elem_given && bad_value(job->elem_req[d]))
			what = "elem_req", v = job->elem_req[d];
		else if (job->elem_given && bad_value(job->elem_need[d]))
			what = "elem_need", v = job->elem_need[d];
		if (what) {
			snprintf(err, errlen,
				 "job %d dimension %d: %s %g must be a number >= 0",
				 i, d, what, v);
			return -1;
		}
		if (job->elem_given &&
		    (job->elem_req[d] > job->req[d] ||
		     job->elem_need[d] > job->need[d])) {
			int r = job->elem_req[d] > job->req[d];

			snprintf(err, errlen,
				 "job %d dimension %d: %s %g exceeds %s %g (elementary amounts are part of the aggregate ones)",
				 i, d, r ? "elem_req" : "elem_need",
				 r ? job->elem_req[d] : job->elem_need[d],
				 r ? "req" : "need", r ? job->req[d] : job->need[d]);
			return -1;
		}
		why = job_exceeds_hosts(job, d, c->max_cap[d], c->max_elem[d]);
		if (why) {
			report_exceeds_hosts(job, i, d, why, c->max_cap[d],
					     c->max_elem[d], err, errlen);
			return -1;
		}
	}
	return 0;
}

int dfrs_instance_check(const dfrs_instance_t *inst, char *err, size_t errlen)
{
	dfrs_instance_checker_t c;

	if (dfrs_check_hosts(&c, inst, err, errlen))
		return -1;
	for (int i = 0; i < inst->njobs; i++)
		if (dfrs_check_job(&c, i, &inst->jobs[i], err, errlen))
			return -1;
	return 0;
}

int dfrs_placement_init(dfrs_placement_t *p, const dfrs_instance_t *inst)
{
	memset(p, 0, sizeof(*p));
	p->njobs = inst->njobs;
	p->ntasks = dfrs_instance_ntasks(inst);
	p->first_task = malloc(sizeof(int) * (inst->njobs + 1));
	p->task_host = malloc(sizeof(int) * (p->ntasks ? p->ntasks : 1));
	p->yield = calloc(inst->njobs ? inst->njobs : 1, sizeof(double));
	if (!p->first_task || !p->task_host || !p->yield) {
		dfrs_placement_free(p);
		return -1;
	}
	p->first_task[0] = 0;
	for (int i = 0; i < inst->njobs; i++)
		p->first_task[i + 1] = p->first_task[i] + inst->jobs[i].ntasks;
	for (int t = 0; t < p->ntasks; t++)
		p->task_host[t] = -1;
	p->min_scaled_yield = -1.0;
	return 0;
}

void dfrs_placement_free(dfrs_placement_t *p)
{
	free(p->first_task);
	free(p->task_host);
	free(p->yield);
	memset(p, 0, sizeof(*p));
}

void dfrs_placement_copy(dfrs_placement_t *dst, const dfrs_placement_t *src)
{
	memcpy(dst->task_host, src->task_host, sizeof(int) * src->ntasks);
	memcpy(dst->yield, src->yield, sizeof(double) * src->njobs);
	dst->min_scaled_yield = src->min_scaled_yield;
}

void dfrs_placement_update_min(const dfrs_instance_t *inst,
			       dfrs_placement_t *p)
{
	double m = -1.0;

	for (int i = 0; i < inst->njobs; i++) {
		double s;

		if (p->task_host[p->first_task[i]] < 0)
			continue;
		s = dfrs_scaled_of_yield(&inst->jobs[i], p->yield[i]);
		if (m < 0.0 || s < m)
			m = s;
	}
	p->min_scaled_yield = m;
}

#define CHECK_TOL 1e-9

int dfrs_placement_check(const dfrs_instance_t *inst,
			 const dfrs_placement_t *p, char *err, size_t errlen)
{
	double *load = calloc((size_t)inst->nhosts * inst->ndims + 1,
			      sizeof(double));
	int rc = -1;

	if (!load) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < inst->njobs; i++) {
		const dfrs_job_t *job = &inst->jobs[i];
		int placed = p->task_host[p->first_task[i]] >= 0;
		double y = p->yield[i];

		if (placed && (y < job->min_yield - CHECK_TOL ||
			       y > 1.0 + CHECK_TOL)) {
			snprintf(err, errlen,
				 "job %d: yield %g outside [%g, 1]", i, y,
				 job->min_yield);
			goto out;
		}
		for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++) {
			int h = p->task_host[t];

			if ((h >= 0) != placed || h >= inst->nhosts) {
				snprintf(err, errlen,
					 "job %d task %d: host %d (jobs are placed whole, hosts 0..%d)",
					 i, t - p->first_task[i], h,
					 inst->nhosts - 1);
				goto out;
			}
			if (!placed)
				continue;
			for (int d = 0; d < inst->ndims; d++) {
				double u = dfrs_task_usage(job, d, y);
				double ue = dfrs_task_elem_usage(job, d, y);
				double e = inst->hosts[h].elem[d];

				if (ue > e * (1 + CHECK_TOL) + CHECK_TOL) {
					snprintf(err, errlen,
						 "job %d task %d on host %d dimension %d: uses %g of an elementary unit > elementary capacity %g",
						 i, t - p->first_task[i], h, d,
						 ue, e);
					goto out;
				}
				load[(size_t)h * inst->ndims + d] += u;
			}
		}
	}
	for (int h = 0; h < inst->nhosts; h++)
		for (int d = 0; d < inst->ndims; d++) {
			double l = load[(size_t)h * inst->ndims + d];
			double c = inst->hosts[h].cap[d];

			if (l > c * (1 + CHECK_TOL) + CHECK_TOL) {
				snprintf(err, errlen,
					 "host %d dimension %d: load %g > capacity %g",
					 h, d, l, c);
				goto out;
			}
		}
	rc = 0;
out:
	free(load);
	return rc;
}
