/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_pack_online.c - how long one online DFRS decision takes (Stillwell et al. 2010,
 * "Online Non-Clairvoyant Problem"): GreedyP, GreedyPM and MCB deciding at
 * the arrival of one job on 64 hosts that already hold NJOBS jobs (a mix of
 * running, suspended and waiting ones), and at a periodic event.
 *
 *   make contribs/bench/bench_pack_online && ./contribs/bench/bench_pack_online [NJOBS]
 *
 * Not a test: it prints timings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dfrs/dfrs_online.h"
#include "dfrs/instance_generator.h"

#define NHOSTS 64
#define MAXTASKS 4

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int njobs = argc > 1 ? atoi(argv[1]) : 300;
	dfrs_host_t hosts[NHOSTS];
	dfrs_online_job_t *jobs;
	int *storage;
	dfrs_cluster_t cl = { .ndims = 2, .nhosts = NHOSTS, .hosts = hosts };
	dfrs_online_params_t par;
	uint64_t rnd = 2024;
	char err[256];

	if (njobs < 1 || njobs > 100000) {
		fprintf(stderr, "usage: bench_pack_online [NJOBS 1..100000]\n");
		return 2;
	}
	jobs = calloc(njobs + 1, sizeof(*jobs));
	storage = calloc((size_t)(njobs + 1) * MAXTASKS, sizeof(int));
	if (!jobs || !storage)
		return 1;
	memset(hosts, 0, sizeof(hosts));
	for (int h = 0; h < NHOSTS; h++)
		for (int d = 0; d < 2; d++)
			hosts[h].cap[d] = hosts[h].elem[d] = 1.0;
	cl.jobs = jobs;

	/* Build a loaded state with GreedyP itself: jobs arrive one by one,
	 * 60 s apart, each running or waiting as GreedyP decides. */
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
	for (int i = 0; i < njobs; i++) {
		dfrs_online_job_t *j = &jobs[cl.njobs++];
		dfrs_decisions_t d;

		j->id = i;
		j->shape.ntasks = 1 + (int)(instance_gen_uniform(&rnd) * MAXTASKS);
		j->shape.need[0] = 0.05 + 0.95 * instance_gen_uniform(&rnd);
		j->shape.req[1] = 0.02 + 0.3 * instance_gen_uniform(&rnd);
		j->task_mem_bytes = 4e9 * j->shape.req[1];
		j->submit = cl.now;
		j->state = DFRS_JOB_PENDING;
		j->hosts = &storage[(size_t)i * MAXTASKS];
		if (dfrs_online_decide(&par, &cl, DFRS_EVENT_ARRIVAL, cl.njobs - 1,
				       &d, err, sizeof(err))) {
			fprintf(stderr, "bench_pack_online: %s\n", err);
			return 1;
		}
		dfrs_online_apply(&cl, &d);
		dfrs_decisions_free(&d);
		dfrs_online_advance(&cl, 60.0);
	}
	{
		int running = 0, suspended = 0, pending = 0, tasks = 0;

		for (int i = 0; i < cl.njobs; i++) {
			running += jobs[i].state == DFRS_JOB_RUNNING;
			suspended += jobs[i].state == DFRS_JOB_SUSPENDED;
			pending += jobs[i].state == DFRS_JOB_PENDING;
			tasks += jobs[i].shape.ntasks;
		}
		printf("state: %d hosts, %d jobs (%d tasks): %d running, %d suspended, %d pending\n",
		       NHOSTS, cl.njobs, tasks, running, suspended, pending);
	}

	/* one more arrival, and a periodic event, under each policy */
	{
		dfrs_online_job_t *j = &jobs[cl.njobs];

		*j = jobs[0];
		j->id = njobs;
		j->submit = cl.now;
		j->virtual_time = 0.0;
		j->state = DFRS_JOB_PENDING;
		j->hosts = &storage[(size_t)njobs * MAXTASKS];
		cl.njobs++;
	}
	for (int p = 0; p < 3; p++)
		for (int ev = 0; ev < 2; ev++) {
			dfrs_decisions_t d;
			double t0, best = 1e9, total = 0.0;
			const int reps = 5;

			dfrs_online_params_default(&par, (dfrs_policy_t)p);
			for (int r = 0; r < reps; r++) {
				t0 = now_seconds();
				if (dfrs_online_decide(&par, &cl,
						       ev ? DFRS_EVENT_PERIODIC : DFRS_EVENT_ARRIVAL,
						       ev ? -1 : cl.njobs - 1, &d, err, sizeof(err))) {
					fprintf(stderr, "bench_pack_online: %s\n", err);
					return 1;
				}
				t0 = now_seconds() - t0;
				total += t0;
				if (t0 < best)
					best = t0;
				if (r + 1 < reps)
					dfrs_decisions_free(&d);
			}
			int moved = 0, running = 0;

			for (int i = 0; i < d.njobs; i++) {
				moved += d.job[i].tasks_moved;
				running += d.job[i].state == DFRS_JOB_RUNNING;
			}
			printf("%-9s %-8s  mean %6.2f ms  best %6.2f ms  started %d suspended %d resumed %d migrated %d (%d tasks)  running %d  min scaled yield %.3f\n",
			       dfrs_online_policy_name((dfrs_policy_t)p),
			       ev ? "periodic" : "arrival", 1e3 * total / reps,
			       1e3 * best, d.nstarted, d.nsuspended, d.nresumed,
			       d.nmigrated, moved, running, d.min_scaled_yield);
			dfrs_decisions_free(&d);
		}
	free(jobs);
	free(storage);
	return 0;
}
