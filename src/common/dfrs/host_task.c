/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_task.c - a job on hosts of many CPUs as DFRS tasks (host_task.h;
 * Stillwell et al. 2010, "Requirements, Needs, and Yield").
 */
#include <stdio.h>
#include <string.h>

#include "host_task.h"

static double at_most_one(double x)
{
	return x > 1.0 ? 1.0 : x;
}

int dfrs_host_task_count(int cpus, int min_hosts, int host_cpus)
{
	int k = host_cpus > 0 && cpus > 0 ?
		cpus / host_cpus + (cpus % host_cpus != 0) : 1;

	if (k < min_hosts)
		k = min_hosts;
	return k > 0 ? k : 1;
}

int dfrs_host_task_shape(const dfrs_host_request_t *rq, int host_cpus,
			 int host_gpus, dfrs_job_t *shape, char *err,
			 size_t errlen)
{
	memset(shape, 0, sizeof(*shape));
	if (rq->cpus < 1 || host_cpus < 1 || rq->hosts < 0) {
		snprintf(err, errlen, "%d CPUs on %d hosts of %d CPUs: no CPU",
			 rq->cpus, rq->hosts, host_cpus);
		return -1;
	}
	int k = rq->hosts > 0 ? rq->hosts
			      : dfrs_host_task_count(rq->cpus, 0, host_cpus);
	double cpus = (double)rq->cpus / k;
	if (cpus > host_cpus) {
		snprintf(err, errlen, "%d CPUs on %d hosts: %g a host, more "
			 "than a host's %d", rq->cpus, k, cpus, host_cpus);
		return -1;
	}
	shape->ntasks = k;
	shape->need[DFRS_DIM_CPU] = at_most_one(rq->use) * (cpus / host_cpus);
	shape->req[DFRS_DIM_MEM] = at_most_one(rq->mem_per_cpu * cpus +
					       rq->mem_per_host);
	if (host_gpus > 0) {
		int g = rq->gpus_per_host > 0 ? rq->gpus_per_host
					      : rq->gpus / k + (rq->gpus % k != 0);
		shape->req[DFRS_DIM_GPU] = at_most_one((double)g / host_gpus);
	}
	return 0;
}
