/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_threshold.c - how long the migrate-or-wait thresholds take
 * (He et al. 2012, Theorem III.4): the full gamma partition for
 * n = 8, 64, 256 (targets: n=64 < 10 ms, n=256 < 1 s on one core), the
 * literal eq. (4) evaluation of the n+1 threshold policies for comparison
 * (n <= 64), and one cached decision (threshold_cache_get + policy lookup +
 * decision), which is what a controller pays per job per slot, and one
 * heterogeneous lookahead decision (migrate_or_wait_lookahead) that has to
 * recompute two cost-to-go vectors.
 *
 * Not a test: run it by hand (contribs/bench/bench_threshold.sh) and read
 * the figures.  Usage: bench_threshold [n ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "avail/migrate_or_wait.h"
#include "avail/threshold_cache.h"
#include "avail/threshold_policy.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* median seconds of `reps` full partitions */
static double time_partition(size_t n, int reps)
{
	threshold_model_t m = { .n = n, .beta = 0.999, .chain = { 0.1, 0.9 } };
	double *t = malloc((size_t)reps * sizeof(*t)), median;
	char err[256];

	for (int r = 0; r < reps; r++) {
		threshold_partition_t part;
		double t0 = now();

		if (threshold_partition_compute(&m, &part, err, sizeof(err))) {
			fprintf(stderr, "bench_threshold: %s\n", err);
			exit(1);
		}
		t[r] = now() - t0;
		threshold_partition_free(&part);
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	median = t[reps / 2];
	free(t);
	return median;
}

/* the same n+1 policies through eq. (4) literally, one O(n^3) solve each */
static double time_literal(size_t n)
{
	onoff_chain_t c = { 0.1, 0.9 };
	double *P = onoff_hosts_transition(n, &c);
	double *lambda = calloc(n + 1, sizeof(*lambda));
	bool *wait = malloc(n * sizeof(*wait));
	double proc, migr, t0 = now();

	lambda[n] = 1.0;
	for (size_t i = 0; i <= n; i++) {
		for (size_t s = 0; s < n; s++)
			wait[s] = s < i;
		threshold_stationary_evaluate(n, P, 0.999, lambda, wait, &proc, &migr);
	}
	t0 = now() - t0;
	free(P);
	free(lambda);
	free(wait);
	return t0;
}

/* mean seconds per cached decision, 64 jobs cycling over 8 group models */
static double time_cached_decision(size_t n, unsigned long *hits, unsigned long *misses)
{
	threshold_cache_t cache;
	char err[256];
	const long rounds = 1000000;
	size_t sink = 0;

	threshold_cache_init(&cache, 16, 0.001);
	double t0 = now();

	for (long k = 0; k < rounds; k++) {
		onoff_chain_t c = { 0.05 + 0.01 * (double)(k % 8), 0.9 };
		const threshold_partition_t *p = threshold_cache_get(&cache, n, 0.999, c, err,
								     sizeof(err));
		size_t policy = threshold_partition_policy(p, 2.5);

		sink += threshold_decide(policy, n, (size_t)k % (n + 1), n);
	}
	t0 = (now() - t0) / (double)rounds;
	*hits = cache.hits;
	*misses = cache.misses;
	threshold_cache_free(&cache);
	if (sink == 1)
		printf(" ");
	return t0;
}

/* mean seconds of one lookahead decision: n hosts, half OFF, n spare ON
 * servers, all of different chains, under a policy that waits */
static double time_lookahead(size_t n)
{
	migrate_or_wait_server_t *s = malloc(2 * n * sizeof(*s));
	migrate_or_wait_move_t *moves = malloc(2 * n * sizeof(*moves));
	size_t k;
	threshold_decision_t d;
	char err[256];
	int reps = n <= 64 ? 50 : 3;

	for (size_t h = 0; h < 2 * n; h++) {
		double x = (double)h / (double)(2 * n);

		s[h] = (migrate_or_wait_server_t){ { 0.05 + 0.9 * x, 0.95 - 0.4 * x }, h >= n || h % 2 == 0,
				       h < n };
	}
	double t0 = now();

	for (int r = 0; r < reps; r++)
		if (migrate_or_wait_lookahead(s, 2 * n, n, 0.999, 2.5, moves, &k, &d, err, sizeof(err))) {
			fprintf(stderr, "bench_threshold: %s\n", err);
			exit(1);
		}
	t0 = (now() - t0) / reps;
	free(s);
	free(moves);
	return t0;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 8, 64, 256 };
	int count = 3;

	if (argc > 1) {
		count = 0;
		for (int a = 1; a < argc && count < 16; a++) {
			char *end;
			long v = strtol(argv[a], &end, 10);

			if (*end || v < 1 || v > 1024) {
				fprintf(stderr, "bench_threshold: '%s': n must be an integer in 1..1024\n",
					argv[a]);
				return 2;
			}
			sizes[count++] = (size_t)v;
		}
	}
	printf("%6s %16s %16s %18s %14s %14s\n", "n", "partition_ms", "literal_eq4_ms",
	       "cached_decision_us", "cache_hit_rate", "lookahead_ms");
	for (int k = 0; k < count; k++) {
		size_t n = sizes[k];
		int reps = n <= 64 ? 101 : n <= 256 ? 11 : 3;
		unsigned long hits, misses;
		double part = time_partition(n, reps);
		double literal = n <= 64 ? time_literal(n) : -1.0;
		double cached = time_cached_decision(n, &hits, &misses);

		printf("%6zu %16.4f ", n, 1e3 * part);
		if (literal >= 0)
			printf("%16.3f ", 1e3 * literal);
		else
			printf("%16s ", "(skipped)");
		printf("%18.3f %14.6f %14.3f\n", 1e6 * cached, (double)hits / (double)(hits + misses),
		       1e3 * time_lookahead(n));
	}
	return 0;
}
