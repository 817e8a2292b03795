/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_fixture.c - the online DFRS tests' cluster (online_fixture.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "online_fixture.h"

void online_fixture_init(online_fixture_t *f, int nhosts, double now)
{
	memset(f, 0, sizeof(*f));
	for (int h = 0; h < nhosts; h++)
		for (int d = 0; d < 2; d++)
			f->hosts[h].cap[d] = f->hosts[h].elem[d] = 1.0;
	f->cl.ndims = 2;
	f->cl.nhosts = nhosts;
	f->cl.hosts = f->hosts;
	f->cl.jobs = f->jobs;
	f->cl.now = now;
}

int online_fixture_add(online_fixture_t *f, int ntasks, double mem,
		       double cpu, dfrs_job_state_t state, double vt,
		       const int *hosts)
{
	int j = f->cl.njobs++;
	dfrs_online_job_t *job = &f->jobs[j];

	job->id = 100 + j;
	job->shape.ntasks = ntasks;
	job->shape.req[1] = mem;
	job->shape.need[0] = cpu;
	job->task_mem_bytes = 1e9 * mem;
	job->submit = 0.0;
	job->virtual_time = vt;
	job->state = state;
	job->hosts = f->storage[j];
	for (int t = 0; t < ntasks; t++)
		job->hosts[t] = hosts ? hosts[t] : -1;
	job->yield = state == DFRS_JOB_RUNNING ? 0.5 : 0.0;
	return j;
}

dfrs_decisions_t online_fixture_decide(const dfrs_online_params_t *par,
				       online_fixture_t *f, dfrs_event_t ev,
				       int job)
{
	dfrs_decisions_t d;
	char err[256] = "";

	if (dfrs_online_decide(par, &f->cl, ev, job, &d, err, sizeof(err)))
		fail_msg("decide: %s", err);
	return d;
}
