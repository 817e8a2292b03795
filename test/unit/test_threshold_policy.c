/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_threshold_policy.c - the closed-form migrate-or-wait threshold policy
 * (He et al. 2012, Sec. III-C) against brute force over all 2^n
 * stationary wait/migrate policies (eq. (4) evaluated literally), against
 * the exact MDP of eq. (2), Proposition II.1, the myopic thresholds, and
 * degenerate chains.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "avail/mdp.h"
#include "avail/threshold_cache.h"
#include "avail/threshold_policy.h"

/* deterministic pseudo-random numbers: tests never depend on time */
static uint64_t rng_state = 88172645463325252ull;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

static void assert_close(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol * (1.0 + fabs(want))))
		fail_msg("%s: got %.15g, want %.15g (tol %g)", what, got, want, tol);
}

static threshold_partition_t partition_of(size_t n, double beta, double p01, double p11,
					  const double *lambda)
{
	threshold_model_t m = { .n = n, .beta = beta, .chain = { p01, p11 }, .lambda = lambda };
	threshold_partition_t part;
	char err[256];

	if (threshold_partition_compute(&m, &part, err, sizeof(err)))
		fail_msg("partition: %s", err);
	return part;
}

/* Fig. 2 of the paper: n=3, beta=0.9, p01=0.1, p11=0.9, lambda=(0,0,0,1).
 * T_0 (always migrate) runs every slot: P_0 = 1/(1-beta) = 10, and from
 * slot 2 on migrates the n(1-p11) = 0.3 hosts expected OFF: M_0 = 0.3*9.
 * T_3 waits for all hosts: no migration at all. */
static void test_fig2_setting(void **state)
{
	threshold_partition_t part = partition_of(3, 0.9, 0.1, 0.9, NULL);
	double myopic[3];

	assert_close(part.processing[0], 10.0, 1e-12, "P_0");
	assert_close(part.migrations[0], 2.7, 1e-12, "M_0");
	assert_close(part.migrations[3], 0.0, 1e-12, "M_3");
	assert_true(part.monotone);
	/* the values dfrs threshold prints for this setting */
	assert_close(part.thresholds[1], 1.19047619, 1e-8, "gamma_1");
	assert_close(part.thresholds[2], 1.643740535, 1e-8, "gamma_2");
	assert_close(part.thresholds[3], 2.535752278, 1e-8, "gamma_3");
	/* sticky hosts (an OFF host stays OFF 10 slots on average): the
	 * optimal policy migrates far more than the myopic one */
	threshold_myopic_thresholds(3, myopic);
	for (size_t i = 1; i <= 3; i++)
		assert_true(part.thresholds[i] > myopic[i - 1]);
	assert_int_equal(threshold_partition_policy(&part, 0.5), 0);
	assert_int_equal(threshold_partition_policy(&part, 1.5), 1);
	assert_int_equal(threshold_partition_policy(&part, 2.0), 2);
	assert_int_equal(threshold_partition_policy(&part, 3.0), 3);
	threshold_partition_free(&part);
}

/* Eq. (3) rows are distributions; a hand-computed entry for n=2. */
static void test_hosts_transition(void **state)
{
	onoff_chain_t c = { 0.3, 0.8 };
	double *P = onoff_hosts_transition(2, &c);

	/* from 1 ON of 2: to 2 ON = p11 p01, to 0 ON = p10 p00 */
	assert_close(P[1 * 3 + 2], 0.8 * 0.3, 1e-15, "P_12");
	assert_close(P[1 * 3 + 0], 0.2 * 0.7, 1e-15, "P_10");
	assert_close(P[1 * 3 + 1], 0.8 * 0.7 + 0.2 * 0.3, 1e-15, "P_11");
	assert_close(P[0 * 3 + 2], 0.09, 1e-15, "P_02");
	free(P);
	P = onoff_hosts_transition(40, &c);
	for (size_t i = 0; i <= 40; i++) {
		double sum = 0.0;

		for (size_t j = 0; j <= 40; j++)
			sum += P[i * 41 + j];
		assert_close(sum, 1.0, 1e-12, "row sum");
	}
	free(P);
}

/* A random probability, sometimes exactly 0 or 1 (degenerate chains). */
static double random_probability(void)
{
	double u = uniform01();

	if (u < 0.05)
		return 0.0;
	if (u < 0.1)
		return 1.0;
	return uniform01();
}

/* The threshold policy is the best of all 2^n stationary wait/migrate
 * policies (Lemmas III.1-III.2, Theorem III.4), and its P_i, M_i are
 * eq. (4) evaluated literally. */
static void test_brute_force_all_policies(void **state)
{
	int instances = 0;

	for (int trial = 0; trial < 300; trial++) {
		size_t n = 1 + (size_t)(uniform01() * 6); /* 1..6 */
		double beta = 0.5 + 0.49 * uniform01();
		double p01 = random_probability(), p11 = random_probability();
		double lambda[8], sum = 0.0;
		bool random_lambda = uniform01() < 0.5;

		for (size_t s = 0; s <= n; s++) {
			lambda[s] = random_lambda ? uniform01() : (s == n);
			sum += lambda[s];
		}
		for (size_t s = 0; s <= n; s++)
			lambda[s] /= sum;

		threshold_partition_t part = partition_of(n, beta, p01, p11, lambda);
		onoff_chain_t c = { p01, p11 };
		double *P = onoff_hosts_transition(n, &c);
		size_t npol = (size_t)1 << n;
		double *proc = malloc(npol * sizeof(double)), *migr = malloc(npol * sizeof(double));

		for (size_t code = 0; code < npol; code++) {
			bool wait[8];

			for (size_t s = 0; s < n; s++)
				wait[s] = (code >> s) & 1;
			assert_int_equal(threshold_stationary_evaluate(n, P, beta, lambda, wait,
								    &proc[code], &migr[code]), 0);
			/* threshold policy T_i: wait iff s < i, i.e. code = 2^i - 1 */
			for (size_t i = 0; i <= n; i++)
				if (code == ((size_t)1 << i) - 1) {
					assert_close(part.processing[i], proc[code], 1e-9, "P_i vs eq. (4)");
					assert_close(part.migrations[i], migr[code], 1e-9, "M_i vs eq. (4)");
				}
		}
		/* gammas: random, plus just around every threshold */
		double gammas[24];
		size_t ng = 0;

		for (int k = 0; k < 4; k++)
			gammas[ng++] = 5.0 * uniform01();
		for (size_t i = 1; i <= n; i++)
			if (isfinite(part.thresholds[i])) {
				gammas[ng++] = part.thresholds[i] * (1.0 - 1e-6);
				gammas[ng++] = part.thresholds[i] * (1.0 + 1e-6) + 1e-9;
			}
		for (size_t k = 0; k < ng; k++) {
			double best = -INFINITY, g = gammas[k];

			for (size_t code = 0; code < npol; code++)
				best = fmax(best, proc[code] - g * migr[code]);
			size_t i = threshold_partition_policy(&part, g);
			double got = part.processing[i] - g * part.migrations[i];

			if (!(got >= best - 1e-9 * (1.0 + fabs(best))))
				fail_msg("n=%zu beta=%g p01=%g p11=%g gamma=%g: T_%zu reward %.15g < best %.15g",
					 n, beta, p01, p11, g, i, got, best);
		}
		/* Theorem III.4: the partition is ordered */
		assert_true(part.monotone);
		instances++;
		free(proc);
		free(migr);
		free(P);
		threshold_partition_free(&part);
	}
	assert_int_equal(instances, 300);
}

/* Proposition II.1: as gamma grows the optimal policy migrates less and
 * waits more. */
static void test_proposition_II1(void **state)
{
	for (int trial = 0; trial < 50; trial++) {
		size_t n = 1 + (size_t)(uniform01() * 12);
		double beta = 0.5 + 0.49 * uniform01();
		threshold_partition_t part = partition_of(n, beta, uniform01(), uniform01(), NULL);
		double last_m = INFINITY, last_w = -INFINITY;

		for (double g = 0.0; g < 50.0; g += 0.05) {
			size_t i = threshold_partition_policy(&part, g);
			double m = part.migrations[i];
			double w = 1.0 / (1.0 - beta) - part.processing[i];

			assert_true(m <= last_m + 1e-12);
			assert_true(w >= last_w - 1e-12);
			last_m = m;
			last_w = w;
		}
		threshold_partition_free(&part);
	}
}

/* Myopic thresholds 1/(n-i+1); and when p01 = p11 (i.i.d. over time) the
 * myopic policy is optimal, so the optimal thresholds equal them. */
static void test_myopic(void **state)
{
	double my[10];

	threshold_myopic_thresholds(4, my);
	assert_true(my[0] == 0.25 && my[1] == 1.0 / 3.0 && my[2] == 0.5 && my[3] == 1.0);
	assert_int_equal(threshold_myopic_policy(4, 0.2), 0);  /* 4 OFF < 1/0.2 = 5: migrate always */
	assert_int_equal(threshold_myopic_policy(4, 0.3), 1);  /* 4 OFF >= 3.33: wait at s'=0 */
	assert_int_equal(threshold_myopic_policy(4, 0.4), 2);
	assert_int_equal(threshold_myopic_policy(4, 0.9), 3);
	assert_int_equal(threshold_myopic_policy(4, 1.0), 4);  /* 1 OFF, 1 < 1/1 false: wait */
	for (size_t n = 1; n <= 10; n++) {
		double p = 0.05 + 0.9 * uniform01();
		threshold_partition_t part = partition_of(n, 0.95, p, p, NULL);

		threshold_myopic_thresholds(n, my);
		for (size_t i = 1; i <= n; i++)
			assert_close(part.thresholds[i], my[i - 1], 1e-9, "iid thresholds");
		for (double g = 0.01; g < 2.0; g += 0.0371)
			assert_int_equal(threshold_partition_policy(&part, g), threshold_myopic_policy(n, g));
		threshold_partition_free(&part);
	}
}

static void test_decide(void **state)
{
	/* T_2 for n = 4 */
	assert_int_equal(threshold_decide(2, 4, 4, 0), THRESHOLD_RUN);
	assert_int_equal(threshold_decide(2, 4, 1, 10), THRESHOLD_WAIT);
	assert_int_equal(threshold_decide(2, 4, 2, 10), THRESHOLD_MIGRATE);
	assert_int_equal(threshold_decide(2, 4, 2, 2), THRESHOLD_MIGRATE);
	/* not enough ON servers to replace the 2 OFF hosts: wait */
	assert_int_equal(threshold_decide(2, 4, 2, 1), THRESHOLD_WAIT);
	assert_int_equal(threshold_decide(0, 4, 0, 3), THRESHOLD_WAIT);
	assert_int_equal(threshold_decide(0, 4, 0, 4), THRESHOLD_MIGRATE);
	assert_string_equal(threshold_decision_name(THRESHOLD_MIGRATE), "migrate");
}

/* Degenerate chains: finite numbers, an ordered partition, sane policies. */
static void test_degenerate_chains(void **state)
{
	/* always ON: nothing ever happens, every policy is the same */
	threshold_partition_t part = partition_of(3, 0.9, 1.0, 1.0, NULL);

	for (size_t i = 0; i <= 3; i++) {
		assert_close(part.processing[i], 10.0, 1e-12, "always ON P_i");
		assert_close(part.migrations[i], 0.0, 1e-12, "always ON M_i");
		assert_true(part.thresholds[i] == 0.0);
	}
	assert_int_equal(threshold_partition_policy(&part, 0.0), 3);
	threshold_partition_free(&part);

	/* an OFF host never comes back (p01 = 0): waiting never ends; it costs
	 * at most 1/(1-beta) = 10 slots, so the policy migrates while gamma is
	 * small and gives up (waits forever) when a migration costs more */
	part = partition_of(2, 0.9, 0.0, 0.5, NULL);
	assert_true(part.monotone);
	assert_int_equal(threshold_partition_policy(&part, 0.01), 0);
	assert_int_equal(threshold_partition_policy(&part, 1000.0), 2);
	assert_true(part.thresholds[2] > 0.01 && part.thresholds[2] < 10.0);
	for (size_t i = 0; i <= 2; i++)
		assert_true(isfinite(part.processing[i]) && isfinite(part.migrations[i]));
	threshold_partition_free(&part);

	/* ON hosts always turn OFF, OFF hosts always turn ON (p11=0, p01=1) */
	part = partition_of(2, 0.9, 1.0, 0.0, NULL);
	for (size_t i = 0; i <= 2; i++)
		assert_true(isfinite(part.thresholds[i]));
	assert_true(part.monotone);
	threshold_partition_free(&part);
}

static void expect_model_error(threshold_model_t m, const char *needle)
{
	threshold_partition_t part;
	char err[256] = "";

	assert_int_equal(threshold_partition_compute(&m, &part, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
	assert_null(part.processing);
}

static void test_bad_model(void **state)
{
	double bad_sum[3] = { 0.5, 0.4, 0.0 }, negative[3] = { -0.5, 0.5, 1.0 };

	expect_model_error((threshold_model_t){ .n = 0, .beta = 0.9, .chain = { .1, .9 } }, "n=0");
	expect_model_error((threshold_model_t){ .n = 2, .beta = 1.0, .chain = { .1, .9 } }, "beta=1");
	expect_model_error((threshold_model_t){ .n = 2, .beta = 0.9, .chain = { 1.5, .9 } }, "p01=1.5");
	expect_model_error((threshold_model_t){ .n = 2, .beta = 0.9, .chain = { .1, NAN } }, "p11=nan");
	expect_model_error((threshold_model_t){ .n = 2, .beta = 0.9, .chain = { .1, .9 },
						.lambda = bad_sum }, "lambda sums to 0.9");
	expect_model_error((threshold_model_t){ .n = 2, .beta = 0.9, .chain = { .1, .9 },
						.lambda = negative }, "lambda[0]=-0.5");
}

/* The exact MDP of eq. (2) on N = n + 4 i.i.d. servers with high
 * availability (so that fewer than n ON servers is rare: Pr < 2e-6 per
 * slot at stationarity) agrees with the threshold policy: same decision in
 * every state with enough ON servers, and the same cost up to that rare
 * event. */
static void check_against_mdp(size_t n, size_t N, double beta, double p01, double p11)
{
	onoff_chain_t servers[MDP_MAX_SERVERS];
	threshold_partition_t from[8];
	double lambda[8];
	size_t checked = 0;

	for (size_t h = 0; h < N; h++)
		servers[h] = (onoff_chain_t){ p01, p11 };
	for (size_t s = 0; s <= n; s++) {
		for (size_t j = 0; j <= n; j++)
			lambda[j] = j == s;
		from[s] = partition_of(n, beta, p01, p11, lambda);
	}
	/* a gamma inside each interval of the partition */
	for (size_t k = 0; k <= n; k++) {
		const double *t = from[n].thresholds;
		double g = k == 0 ? t[1] / 2 : k == n ? t[n] * 2 : (t[k] + t[k + 1]) / 2;
		mdp_model_t m = { .N = N, .n = n, .servers = servers, .beta = beta, .gamma = g };
		mdp_solution_t sol;
		char err[256];
		size_t policy = threshold_partition_policy(&from[n], g);

		assert_int_equal(policy, k);
		assert_int_equal(mdp_solve(&m, 1e-10, &sol, err, sizeof(err)), 0);
		for (size_t x = 0; x < sol.nsets; x++)
			for (unsigned a = 0; a < (1u << N); a++) {
				unsigned hosts = sol.sets[x];
				size_t on_hosts = (size_t)__builtin_popcount(hosts & a);
				size_t spare = (size_t)__builtin_popcount(a & ~hosts);

				if (on_hosts + spare < n)
					continue;
				size_t st = (x << N) | a;
				unsigned chosen = sol.sets[sol.action[st]];
				threshold_decision_t want = threshold_decide(policy, n, on_hosts, spare);

				if (want == THRESHOLD_MIGRATE) {
					assert_true((chosen & ~a) == 0); /* all ON */
					assert_int_equal(__builtin_popcount(hosts & ~chosen),
							 (int)(n - on_hosts));
				} else {
					assert_int_equal(chosen, hosts);
				}
				const threshold_partition_t *p = &from[on_hosts];
				double cost = 1.0 / (1.0 - beta) - p->processing[policy] +
					      g * p->migrations[policy];

				/* from a slot with at least N-1 servers ON the finite
				 * pool rarely runs short: the costs agree within
				 * 2e-5 (1 + cost); the largest gap seen for n=2 is
				 * 4.4e-6, at a cost of 0.085 */
				if (__builtin_popcount(a) >= (int)N - 1)
					assert_close(sol.cost[st], cost, 2e-5, "MDP cost vs threshold cost");
				checked++;
			}
		mdp_solution_free(&sol);
	}
	assert_true(checked > 1000);
	for (size_t s = 0; s <= n; s++)
		threshold_partition_free(&from[s]);
}

static void test_matches_exact_mdp(void **state)
{
	check_against_mdp(2, 6, 0.8, 0.6, 0.97);
	check_against_mdp(3, 7, 0.85, 0.7, 0.98);
}

/* The cache returns what a direct computation gives, counts hits and
 * misses, evicts the least recently used entry, and shares an entry between
 * estimates that round to the same quantum. */
static void test_cache(void **state)
{
	threshold_cache_t c;
	const threshold_partition_t *p;
	threshold_partition_t direct = partition_of(5, 0.95, 0.2, 0.7, NULL);
	char err[256] = "";

	assert_int_equal(threshold_cache_init(&c, 2, 0.001), 0);
	p = threshold_cache_get(&c, 5, 0.95, (onoff_chain_t){ 0.2, 0.7 }, err, sizeof(err));
	assert_non_null(p);
	assert_memory_equal(p->thresholds, direct.thresholds, 6 * sizeof(double));
	assert_memory_equal(p->migrations, direct.migrations, 6 * sizeof(double));
	/* 0.20032 and 0.69981 round to 0.2 and 0.7: a hit, same partition */
	assert_ptr_equal(threshold_cache_get(&c, 5, 0.95, (onoff_chain_t){ 0.20032, 0.69981 },
					     err, sizeof(err)), p);
	assert_int_equal(c.hits, 1);
	assert_int_equal(c.misses, 1);
	threshold_cache_get(&c, 3, 0.9, (onoff_chain_t){ 0.1, 0.9 }, err, sizeof(err));
	/* touch (5,...) so (3,...) is the least recently used, then a third key */
	threshold_cache_get(&c, 5, 0.95, (onoff_chain_t){ 0.2, 0.7 }, err, sizeof(err));
	threshold_cache_get(&c, 4, 0.9, (onoff_chain_t){ 0.1, 0.9 }, err, sizeof(err));
	assert_int_equal(c.misses, 3);
	threshold_cache_get(&c, 5, 0.95, (onoff_chain_t){ 0.2, 0.7 }, err, sizeof(err));
	assert_int_equal(c.hits, 3);
	threshold_cache_get(&c, 3, 0.9, (onoff_chain_t){ 0.1, 0.9 }, err, sizeof(err));
	assert_int_equal(c.misses, 4); /* it was evicted */
	/* invalid model: NULL and the reason, nothing cached */
	assert_null(threshold_cache_get(&c, 3, 1.5, (onoff_chain_t){ 0.1, 0.9 }, err, sizeof(err)));
	assert_string_equal(err, "beta=1.5: the discount factor must be in (0,1)");
	threshold_cache_free(&c);
	threshold_partition_free(&direct);
	assert_int_equal(threshold_cache_init(&c, 0, 0.0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fig2_setting),
		cmocka_unit_test(test_hosts_transition),
		cmocka_unit_test(test_brute_force_all_policies),
		cmocka_unit_test(test_proposition_II1),
		cmocka_unit_test(test_myopic),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_degenerate_chains),
		cmocka_unit_test(test_bad_model),
		cmocka_unit_test(test_matches_exact_mdp),
		cmocka_unit_test(test_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
