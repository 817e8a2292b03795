/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_pack.c - benchmark of the DFRS static placement algorithms (Stillwell
 * et al. 2010, "Run Times" and "Vector-packing algorithms"): run time of METAVP,
 * METAHVP and METAGREEDY on 500 tasks / 64 hosts / 2 dimensions, and the
 * average distance from the LP bound (dfb) over random instances like the
 * seed's (64 hosts, 100/250/500 tasks, memory slack 0.1..0.9).
 *
 *   make contribs/bench/bench_pack && ./contribs/bench/bench_pack [NINSTANCES]
 *
 * Not a test: it prints figures and checks nothing but capacities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dfrs/instance_generator.h"
#include "dfrs/lp_bound.h"
#include "dfrs/placement_algorithm.h"

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
	int runs, failed;
	double seconds, max_seconds, dfb;
} stats_t;

static int run(const dfrs_instance_t *inst, const char *alg, stats_t *st)
{
	dfrs_placement_t p;
	char err[256], winner[32];
	double t0 = now_seconds(), dt, bound = lp_bound(inst);
	int rc = placement_algorithm_run(inst, alg, &p, winner, sizeof(winner), NULL, err,
			    sizeof(err));

	dt = now_seconds() - t0;
	if (rc < 0) {
		fprintf(stderr, "bench_pack: %s: %s\n", alg, err);
		return -1;
	}
	st->runs++;
	st->seconds += dt;
	if (dt > st->max_seconds)
		st->max_seconds = dt;
	if (rc == 1) {
		st->failed++;
	} else {
		if (dfrs_placement_check(inst, &p, err, sizeof(err))) {
			fprintf(stderr, "bench_pack: %s: bad placement: %s\n", alg, err);
			dfrs_placement_free(&p);
			return -1;
		}
		st->dfb += bound - p.min_scaled_yield;
	}
	dfrs_placement_free(&p);
	return 0;
}

static void report(const char *what, const stats_t *st)
{
	int ok = st->runs - st->failed;

	printf("%-34s runs %4d  mean %8.2f ms  max %8.2f ms  failed %3d  mean dfb %.4f\n",
	       what, st->runs, 1e3 * st->seconds / st->runs,
	       1e3 * st->max_seconds, st->failed, ok ? st->dfb / ok : 0.0);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	static const char *const algs[] = { "METAVP", "METAHVP", "METAGREEDY", "VP_CPSUM", "VP_FFSUM" };
	static const int sizes[] = { 100, 250, 500 };

	if (n < 1) {
		fprintf(stderr, "usage: bench_pack [NINSTANCES >= 1]\n");
		return 2;
	}
	printf("== run time, 500 tasks, 64 hosts, 2 dimensions (20 instances, slack 0.1..0.9)\n");
	for (int het = 0; het <= 1; het++)
		for (int a = 0; a < 3; a++) {
			stats_t st = { 0 };
			char what[64];

			for (int i = 0; i < 20; i++) {
				instance_gen_opts_t o = {
					.nhosts = 64, .njobs = 500, .tasks_per_job = 1,
					.memory_slack = 0.1 + 0.8 * i / 19.0,
					.cov = het ? 0.5 : 0.0, .seed = 4242 + i,
				};
				dfrs_instance_store_t s;

				if (instance_generate(&o, &s) || run(&s.inst, algs[a], &st))
					return 1;
				dfrs_instance_store_free(&s);
			}
			snprintf(what, sizeof(what), "%s hosts, %s",
				 het ? "unequal (cov 0.5)" : "equal", algs[a]);
			report(what, &st);
		}

	printf("\n== distance from the LP bound, %d instances: 64 hosts, 100/250/500 tasks, slack 0.1..0.9, equal hosts\n", n);
	for (int a = 0; a < 5; a++) {
		stats_t st = { 0 };

		if (a == 1)
			continue;	/* METAHVP: below, on unequal hosts */
		for (int i = 0; i < n; i++) {
			instance_gen_opts_t o = {
				.nhosts = 64, .njobs = sizes[i % 3], .tasks_per_job = 1,
				.memory_slack = 0.1 + 0.8 * ((i / 3) % 9) / 8.0,
				.seed = 99 + i,
			};
			dfrs_instance_store_t s;

			if (instance_generate(&o, &s) || run(&s.inst, algs[a], &st))
				return 1;
			dfrs_instance_store_free(&s);
		}
		report(algs[a], &st);
	}
	{
		stats_t st = { 0 };

		for (int i = 0; i < n; i++) {
			instance_gen_opts_t o = {
				.nhosts = 64, .njobs = sizes[i % 3], .tasks_per_job = 1,
				.memory_slack = 0.1 + 0.8 * ((i / 3) % 9) / 8.0,
				.cov = 0.5, .seed = 99 + i,
			};
			dfrs_instance_store_t s;

			if (instance_generate(&o, &s) || run(&s.inst, "METAHVP", &st))
				return 1;
			dfrs_instance_store_free(&s);
		}
		report("METAHVP (unequal hosts, cov 0.5)", &st);
	}
	return 0;
}
