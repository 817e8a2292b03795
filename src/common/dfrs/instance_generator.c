/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * instance_generator.c - random DFRS instances in the style of Stillwell
 * et al. 2010's experiments (section "Experiments").  See instance_generator.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "instance_generator.h"

double instance_gen_uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

int instance_generate(const instance_gen_opts_t *o, dfrs_instance_store_t *out)
{
	uint64_t rnd = o->seed ? o->seed : 1;
	double total_mem = 0.0, total_req = 0.0, min_mem = INFINITY;
	int nj = o->njobs, k = o->tasks_per_job < 1 ? 1 : o->tasks_per_job;

	memset(out, 0, sizeof(*out));
	out->hosts = calloc(o->nhosts, sizeof(*out->hosts));
	out->jobs = calloc(nj ? nj : 1, sizeof(*out->jobs));
	if (!out->hosts || !out->jobs) {
		dfrs_instance_store_free(out);
		return -1;
	}
	for (int h = 0; h < o->nhosts; h++) {
		dfrs_host_t *host = &out->hosts[h];

		for (int d = 0; d < 2; d++) {
			/* uniform with mean 1 and the requested COV */
			double w = sqrt(3.0) * o->cov;
			double c = 1.0 + w * (2.0 * instance_gen_uniform(&rnd) - 1.0);

			host->cap[d] = host->elem[d] = c < 0.1 ? 0.1 : c;
		}
		total_mem += host->cap[1];
		if (host->cap[1] < min_mem)
			min_mem = host->cap[1];
	}
	for (int i = 0; i < nj; i++) {
		dfrs_job_t *job = &out->jobs[i];

		job->ntasks = k;
		job->min_yield = o->min_yield;
		job->need[0] = 0.05 + 0.95 * instance_gen_uniform(&rnd);
		job->req[1] = 0.01 + instance_gen_uniform(&rnd);
		total_req += k * job->req[1];
	}
	for (int i = 0; i < nj; i++) {
		dfrs_job_t *job = &out->jobs[i];

		job->req[1] *= (1.0 - o->memory_slack) * total_mem / total_req;
		if (job->req[1] > min_mem)
			job->req[1] = min_mem;
		if (job->req[1] < 0.01)
			job->req[1] = 0.01;
	}
	out->inst.ndims = 2;
	out->inst.nhosts = o->nhosts;
	out->inst.hosts = out->hosts;
	out->inst.njobs = nj;
	out->inst.jobs = out->jobs;
	return 0;
}
