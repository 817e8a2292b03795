/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yield_allocation.c - max-min (progressive filling) yield allocation for a
 * fixed placement (Stillwell et al. 2010, "Resource Allocation").  See
 * yield_allocation.h.
 */
#include <math.h>
#include <stdlib.h>

#include "yield_allocation.h"

#define FILL_TOL 1e-9

/* Highest level L <= limit with the task's elementary usage at yield(L)
 * within elem. */
static double elementary_limit(const dfrs_job_t *job, double elem, int d,
			       double limit)
{
	double scalable = (1.0 - job->min_yield) * dfrs_elem_need(job, d);
	double room = elem - dfrs_task_elem_usage(job, d, job->min_yield);

	if (scalable > 0.0 && room / scalable < limit)
		return room / scalable;
	return limit;
}

/*
 * The highest level a placed job's tasks allow on their hosts' elementary
 * capacities: elementary_limit over its tasks and dimensions, from 1.  It
 * does not change while the level rises, so it is computed once, not in
 * every round (a minimum, so the same value to the bit).
 */
static void job_limits(const dfrs_instance_t *inst, const dfrs_placement_t *p,
		       int i, double *limit)
{
	const dfrs_job_t *job = &inst->jobs[i];

	*limit = 1.0;
	for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++)
		for (int d = 0; d < inst->ndims; d++)
			*limit = elementary_limit(job,
				inst->hosts[p->task_host[t]].elem[d], d, *limit);
}

int yield_allocation_compute(const dfrs_instance_t *inst, dfrs_placement_t *p)
{
	int nd = inst->ndims, nh = inst->nhosts;
	size_t ncells = (size_t)nh * nd;
	double *fixed = malloc(sizeof(double) * (ncells + 1));
	double *slope = malloc(sizeof(double) * (ncells + 1));
	char *active = calloc(inst->njobs + 1, 1);
	double *limit = malloc(sizeof(double) * (inst->njobs + 1));
	double level = 0.0;
	int nactive = 0, rc = -1;

	if (!fixed || !slope || !active || !limit)
		goto out;
	for (int i = 0; i < inst->njobs; i++) {
		p->yield[i] = 0.0;
		if (p->task_host[p->first_task[i]] >= 0) {
			active[i] = 1, nactive++;
			job_limits(inst, p, i, &limit[i]);
		}
	}
	while (nactive > 0) {
		double next = 1.0;

		/* Usage at level L in cell (h, d): fixed + slope * L. */
		for (size_t c = 0; c < ncells; c++)
			fixed[c] = slope[c] = 0.0;
		for (int i = 0; i < inst->njobs; i++) {
			const dfrs_job_t *job = &inst->jobs[i];

			if (p->task_host[p->first_task[i]] < 0)
				continue;
			if (active[i] && limit[i] < next)
				next = limit[i];
			for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++) {
				int h = p->task_host[t];

				for (int d = 0; d < nd; d++) {
					size_t c = (size_t)h * nd + d;

					if (active[i]) {
						fixed[c] += dfrs_task_usage(job, d, job->min_yield);
						slope[c] += (1.0 - job->min_yield) * job->need[d];
					} else {
						fixed[c] += dfrs_task_usage(job, d, p->yield[i]);
					}
				}
			}
		}
		for (int h = 0; h < nh; h++)
			for (int d = 0; d < nd; d++) {
				size_t c = (size_t)h * nd + d;
				double room = inst->hosts[h].cap[d] - fixed[c];

				if (slope[c] > 0.0 && room / slope[c] < next)
					next = room / slope[c];
				else if (slope[c] == 0.0 &&
					 room < -FILL_TOL * (1 + inst->hosts[h].cap[d]))
					next = -1.0;	/* rigid overload */
			}
		if (next < level - FILL_TOL)
			goto out;	/* does not fit at the current level */
		if (next < level)
			next = level;
		level = next;

		/* Freeze the jobs that touch a full cell or a full task. */
		int frozen = 0;
		for (int i = 0; i < inst->njobs; i++) {
			const dfrs_job_t *job = &inst->jobs[i];
			int stop;

			if (!active[i])
				continue;
			stop = level >= 1.0 - FILL_TOL || limit[i] <= level + FILL_TOL;
			for (int t = p->first_task[i]; !stop && t < p->first_task[i + 1]; t++) {
				int h = p->task_host[t];

				for (int d = 0; !stop && d < nd; d++) {
					size_t c = (size_t)h * nd + d;
					double cap = inst->hosts[h].cap[d];

					if ((1.0 - job->min_yield) * job->need[d] <= 0.0 &&
					    (1.0 - job->min_yield) * dfrs_elem_need(job, d) <= 0.0)
						continue;
					if (fixed[c] + slope[c] * level >= cap - FILL_TOL * (1 + cap))
						stop = 1;
				}
			}
			if (stop) {
				p->yield[i] = dfrs_yield_at_scaled(job, level);
				active[i] = 0, nactive--, frozen++;
			}
		}
		if (!frozen)	/* rounding: nothing binds, give all the level */
			for (int i = 0; i < inst->njobs; i++)
				if (active[i]) {
					p->yield[i] = dfrs_yield_at_scaled(&inst->jobs[i], level);
					active[i] = 0, nactive--;
				}
	}
	dfrs_placement_update_min(inst, p);
	rc = 0;
out:
	free(fixed);
	free(slope);
	free(active);
	free(limit);
	return rc;
}
