/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lp_bound.c - closed-form LP bound on the minimum scaled yield (Stillwell et al. 2010,
 * "Linear Program-based heuristics: the bound").  See lp_bound.h.
 */
#include "lp_bound.h"

/* C_j: the total aggregate capacity of the hosts in dimension d. */
static double total_capacity(const dfrs_instance_t *inst, int d)
{
	double capacity = 0.0;

	for (int h = 0; h < inst->nhosts; h++)
		capacity += inst->hosts[h].cap[d];
	return capacity;
}

/* What a job's tasks take in dimension d at its minimum yield. */
static double fixed_use(const dfrs_job_t *job, int d)
{
	return job->ntasks * (job->req[d] + job->min_yield * job->need[d]);
}

double lp_bound(const dfrs_instance_t *inst)
{
	double bound = 1.0;

	for (int d = 0; d < inst->ndims; d++) {
		double capacity = total_capacity(inst, d), fixed = 0.0, scalable = 0.0;

		for (int i = 0; i < inst->njobs; i++) {
			const dfrs_job_t *job = &inst->jobs[i];

			fixed += fixed_use(job, d);
			scalable += job->ntasks * (1.0 - job->min_yield) *
				    job->need[d];
		}
		if (!dfrs_amount_fits(fixed, 0.0, 0.0, capacity, capacity))
			return -1.0;
		if (scalable > 0.0 && (capacity - fixed) / scalable < bound)
			bound = (capacity - fixed) / scalable;
	}
	return bound < 0.0 ? 0.0 : bound;
}

void lp_prefix_start(lp_prefix_t *lp, const dfrs_instance_t *inst)
{
	lp->ndims = inst->ndims;
	for (int d = 0; d < inst->ndims; d++) {
		lp->capacity[d] = total_capacity(inst, d);
		lp->fixed[d] = 0.0;
	}
}

int lp_prefix_add(lp_prefix_t *lp, const dfrs_job_t *job)
{
	int feasible = 1;

	for (int d = 0; d < lp->ndims; d++) {
		lp->fixed[d] += fixed_use(job, d);
		feasible &= dfrs_amount_fits(lp->fixed[d], 0.0, 0.0,
					     lp->capacity[d], lp->capacity[d]);
	}
	return feasible;
}

int lp_feasible_prefix(const dfrs_instance_t *inst)
{
	lp_prefix_t lp;

	lp_prefix_start(&lp, inst);
	for (int i = 0; i < inst->njobs; i++)
		if (!lp_prefix_add(&lp, &inst->jobs[i]))
			return i;
	return inst->njobs;
}
