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

int yield_allocation_compute(const dfrs_instance_t *inst, dfrs_placement_t *p)
{
	int nd = inst->ndims, nh = inst->nhosts;
	size_t ncells = (size_t)nh * nd;
	double *fixed = malloc(sizeof(double) * (ncells + 1));
	double *slope = malloc(sizeof(double) * (ncells + 1));
	char *active = calloc(inst->njobs + 1, 1);
	double level = 0.0;
	int nactive = 0, rc = -1;

	if (!fixed || !slope || !active)
		goto out;
	for (int i = 0; i < inst->njobs; i++) {
		p->yield[i] = 0.0;
		if (p->task_host[p->first_task[i]] >= 0)
			active[i] = 1, nactive++;
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
			for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++) {
				int h = p->task_host[t];

				for (int d = 0; d < nd; d++) {
					size_t c = (size_t)h * nd + d;

					if (active[i]) {
						fixed[c] += dfrs_task_usage(job, d, job->min_yield);
						slope[c] += (1.0 - job->min_yield) * job->need[d];
						next = elementary_limit(job, inst->hosts[h].elem[d], d, next);
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
			int stop = level >= 1.0 - FILL_TOL;

			if (!active[i])
				continue;
			for (int t = p->first_task[i]; !stop && t < p->first_task[i + 1]; t++) {
				int h = p->task_host[t];

				for (int d = 0; !stop && d < nd; d++) {
					size_t c = (size_t)h * nd + d;
					double cap = inst->hosts[h].cap[d];

					if ((1.0 - job->min_yield) * job->need[d] <= 0.0 &&
					    (1.0 - job->min_yield) * dfrs_elem_need(job, d) <= 0.0)
						continue;
					if (fixed[c] + slope[c] * level >= cap - FILL_TOL * (1 + cap) ||
					    elementary_limit(job, inst->hosts[h].elem[d], d, 1.0) <= level + FILL_TOL)
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
	return rc;
}
