/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_migrate_or_wait.c - the slot decision on concrete heterogeneous
 * servers (He et al. 2012: threshold policy with availability-ranked
 * replacements instead of random ones), evaluated exactly on the MDP of
 * eq. (2); and SSAC's availability-aware ranking (Xie & Qin 2006).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "avail/ssac.h"
#include "avail/mdp.h"
#include "avail/migrate_or_wait.h"
#include "avail/threshold_policy.h"

static void test_decide_and_choose(void **state)
{
	/* hosts 0 (OFF), 1 (ON), 2 (OFF); spare ON servers 3, 4, 5 */
	migrate_or_wait_server_t s[6] = {
		{ { 0.2, 0.9 }, false, true },	{ { 0.2, 0.9 }, true, true },
		{ { 0.2, 0.9 }, false, true },	{ { 0.5, 0.6 }, true, false },
		{ { 0.1, 0.95 }, true, false }, { { 0.4, 0.95 }, true, false },
	};
	migrate_or_wait_move_t moves[6];
	size_t k;

	/* T_1: s' = 1 >= 1: migrate; best replacements: p11 0.95 twice,
	 * server 5 has the higher availability (0.4/0.45 vs 0.1/0.15) */
	assert_int_equal(migrate_or_wait_decide(s, 6, 1, moves, &k), THRESHOLD_MIGRATE);
	assert_int_equal(k, 2);
	assert_int_equal(moves[0].from, 0);
	assert_int_equal(moves[0].to, 5);
	assert_int_equal(moves[1].from, 2);
	assert_int_equal(moves[1].to, 4);
	/* T_2: s' = 1 < 2: wait */
	assert_int_equal(migrate_or_wait_decide(s, 6, 2, moves, &k), THRESHOLD_WAIT);
	assert_int_equal(k, 0);
	/* only one spare ON server for two OFF hosts: wait even under T_0 */
	s[4].on = s[5].on = false;
	assert_int_equal(migrate_or_wait_decide(s, 6, 0, moves, &k), THRESHOLD_WAIT);
	s[0].on = s[2].on = true;
	assert_int_equal(migrate_or_wait_decide(s, 6, 0, moves, &k), THRESHOLD_RUN);
}

/* ---- exact comparison on the MDP: ranked vs random replacements ---- */

typedef enum { RANKED, RANDOM, LOOKAHEAD } choice_t;

typedef struct {
	const onoff_chain_t *chains;
	size_t N;
	size_t policy;		/* threshold index for RANKED and RANDOM */
	choice_t choice;
	double beta, gamma;	/* for LOOKAHEAD */
} policy_ctx_t;

static void threshold_policy_fn(void *arg, const mdp_solution_t *space, unsigned hosts,
				unsigned on, double *weights)
{
	const policy_ctx_t *ctx = arg;
	migrate_or_wait_server_t s[MDP_MAX_SERVERS];
	migrate_or_wait_move_t moves[MDP_MAX_SERVERS];
	size_t k;

	for (size_t i = 0; i < space->nsets; i++)
		weights[i] = 0.0;
	for (size_t h = 0; h < ctx->N; h++)
		s[h] = (migrate_or_wait_server_t){ ctx->chains[h], (on >> h) & 1, (hosts >> h) & 1 };
	threshold_decision_t d;

	if (ctx->choice == LOOKAHEAD) {
		char err[256];

		if (migrate_or_wait_lookahead(s, ctx->N, ctx->policy, ctx->beta, ctx->gamma, moves,
					      &k, &d, err, sizeof(err)))
			fail_msg("lookahead: %s", err);
	} else {
		d = migrate_or_wait_decide(s, ctx->N, ctx->policy, moves, &k);
	}
	if (d != THRESHOLD_MIGRATE) {
		weights[mdp_set_index(space, hosts)] = 1.0;
		return;
	}
	if (ctx->choice != RANDOM) {
		unsigned to = hosts;

		for (size_t m = 0; m < k; m++)
			to = (to & ~(1u << moves[m].from)) | (1u << moves[m].to);
		weights[mdp_set_index(space, to)] = 1.0;
		return;
	}
	/* random: every set keeping the ON hosts, the rest among spare ON */
	unsigned keep = hosts & on, spare = on & ~hosts;
	size_t choices = 0;

	for (size_t i = 0; i < space->nsets; i++)
		if ((space->sets[i] & hosts) == keep && (space->sets[i] & ~hosts & ~spare) == 0)
			choices++;
	for (size_t i = 0; i < space->nsets; i++)
		if ((space->sets[i] & hosts) == keep && (space->sets[i] & ~hosts & ~spare) == 0)
			weights[i] = 1.0 / (double)choices;
}

/* expected cost from a job start: all hosts ON, servers at their
 * stationary law, the n hosts uniform among the ON servers */
static double start_cost(const mdp_solution_t *sol, const onoff_chain_t *chains, size_t N)
{
	double total = 0.0, mass = 0.0;

	for (unsigned a = 0; a < (1u << N); a++) {
		double pa = 1.0;
		size_t sets = 0;

		for (size_t h = 0; h < N; h++) {
			double x = onoff_chain_availability(&chains[h]);

			pa *= (a >> h) & 1 ? x : 1.0 - x;
		}
		for (size_t x = 0; x < sol->nsets; x++)
			sets += (sol->sets[x] & ~a) == 0;
		for (size_t x = 0; x < sol->nsets; x++)
			if ((sol->sets[x] & ~a) == 0) {
				total += pa / (double)sets * sol->cost[(x << N) | a];
				mass += pa / (double)sets;
			}
	}
	return total / mass;
}

/* Six servers of very different stickiness, a 2-task job: the threshold
 * policy of the pooled chain with ranked replacements costs less than with
 * random ones (the paper's Fig. 4(b) loss) wherever it migrates, and never
 * less than the optimum; where the pooled chain says "never migrate"
 * (gamma >= 2: 30 % above the optimum), the lookahead variant migrates onto
 * the sticky servers and stays within 2 % of the optimum at every gamma. */
static void test_ranked_beats_random_heterogeneous(void **state)
{
	const size_t N = 6, n = 2;
	const double beta = 0.9;
	const onoff_chain_t chains[6] = { { 0.3, 0.95 }, { 0.3, 0.9 }, { 0.3, 0.8 },
					  { 0.3, 0.6 },	 { 0.3, 0.4 }, { 0.3, 0.2 } };
	onoff_chain_t pooled = { 0.0, 0.0 };
	char err[256];

	for (size_t h = 0; h < N; h++) {
		pooled.p01 += chains[h].p01 / N;
		pooled.p11 += chains[h].p11 / N;
	}
	threshold_model_t tm = { .n = n, .beta = beta, .chain = pooled };
	threshold_partition_t part;

	assert_int_equal(threshold_partition_compute(&tm, &part, err, sizeof(err)), 0);
	const double gammas[] = { 0.25, 0.5, 1.0, 2.0, 4.0 };

	for (size_t g = 0; g < sizeof(gammas) / sizeof(gammas[0]); g++) {
		mdp_model_t m = { .N = N, .n = n, .servers = chains, .beta = beta,
				  .gamma = gammas[g] };
		policy_ctx_t ranked = { chains, N, threshold_partition_policy(&part, gammas[g]), RANKED,
					beta, gammas[g] };
		policy_ctx_t random = ranked, look = ranked;
		mdp_solution_t opt, rk, rd, la;

		random.choice = RANDOM;
		look.choice = LOOKAHEAD;
		assert_int_equal(mdp_solve(&m, 1e-9, &opt, err, sizeof(err)), 0);
		assert_int_equal(mdp_evaluate(&m, threshold_policy_fn, &ranked, 1e-9, &rk, err,
					      sizeof(err)), 0);
		assert_int_equal(mdp_evaluate(&m, threshold_policy_fn, &random, 1e-9, &rd, err,
					      sizeof(err)), 0);
		assert_int_equal(mdp_evaluate(&m, threshold_policy_fn, &look, 1e-9, &la, err,
					      sizeof(err)), 0);
		double c_opt = start_cost(&opt, chains, N), c_rk = start_cost(&rk, chains, N),
		       c_rd = start_cost(&rd, chains, N), c_la = start_cost(&la, chains, N);

		print_message("gamma=%g T_%zu: optimal %.4f lookahead %.4f ranked %.4f random %.4f\n",
			      gammas[g], ranked.policy, c_opt, c_la, c_rk, c_rd);
		assert_true(c_opt <= c_rk + 1e-7);
		assert_true(c_opt <= c_la + 1e-7);
		assert_true(c_la <= c_opt * 1.02);
		assert_true(c_la <= c_rk + 1e-7);
		if (ranked.policy < n) /* the policy migrates at all */
			assert_true(c_rk < c_rd * 0.97);
		/* every state, not just the average: ranked never worse */
		for (size_t st = 0; st < (opt.nsets << N); st++) {
			assert_true(opt.cost[st] <= rk.cost[st] + 1e-7);
			assert_true(opt.cost[st] <= la.cost[st] + 1e-7);
		}
		mdp_solution_free(&opt);
		mdp_solution_free(&rk);
		mdp_solution_free(&rd);
		mdp_solution_free(&la);
	}
	threshold_partition_free(&part);
}

/* With identical servers the lookahead makes the threshold policy's
 * decisions: the optimal ones (Bellman), for every s' and gamma. */
static void test_lookahead_homogeneous_is_threshold(void **state)
{
	const onoff_chain_t chains[] = { { 0.1, 0.9 }, { 0.3, 0.8 }, { 0.6, 0.3 }, { 0.05, 0.99 } };
	const size_t n = 4;
	size_t checked = 0;

	for (size_t c = 0; c < sizeof(chains) / sizeof(chains[0]); c++) {
		threshold_model_t tm = { .n = n, .beta = 0.95, .chain = chains[c] };
		threshold_partition_t part;
		char err[256];

		assert_int_equal(threshold_partition_compute(&tm, &part, err, sizeof(err)), 0);
		for (double g = 0.05; g < 30.0; g *= 1.37) {
			size_t policy = threshold_partition_policy(&part, g);
			bool near = false;

			for (size_t i = 1; i <= n; i++)
				near |= fabs(g - part.thresholds[i]) < 1e-6 * (1 + g);
			if (near)
				continue;
			for (size_t on = 0; on < n; on++) {
				/* n hosts, `on` of them ON, and n spare ON servers */
				migrate_or_wait_server_t s[8];
				migrate_or_wait_move_t moves[8];
				size_t k;
				threshold_decision_t d;

				for (size_t h = 0; h < 2 * n; h++)
					s[h] = (migrate_or_wait_server_t){ chains[c], h >= n || h < on, h < n };
				/* the lookahead alone: ask with the never-migrate policy */
				assert_int_equal(migrate_or_wait_lookahead(s, 2 * n, n, 0.95, g, moves, &k,
									   &d, err, sizeof(err)), 0);
				if (d != threshold_decide(policy, n, on, n))
					fail_msg("p01=%g p11=%g gamma=%g s'=%zu: lookahead %s, T_%zu %s",
						 chains[c].p01, chains[c].p11, g, on,
						 threshold_decision_name(d), policy,
						 threshold_decision_name(threshold_decide(policy, n, on, n)));
				assert_int_equal(k, d == THRESHOLD_MIGRATE ? n - on : 0);
				checked++;
			}
		}
		threshold_partition_free(&part);
	}
	assert_true(checked > 100);
}

static void test_mdp_bad_model(void **state)
{
	onoff_chain_t c[2] = { { 0.1, 0.9 }, { 1.5, 0.9 } };
	mdp_model_t m = { .N = 2, .n = 1, .servers = c, .beta = 0.9, .gamma = 1 };
	mdp_solution_t sol;
	char err[256];

	assert_int_equal(mdp_solve(&m, 1e-9, &sol, err, sizeof(err)), -1);
	assert_string_equal(err, "server 1: p01=1.5: not a probability in [0,1]");
	assert_null(sol.cost);
	m.N = 13;
	assert_int_equal(mdp_solve(&m, 1e-9, &sol, err, sizeof(err)), -1);
	assert_string_equal(err, "N=13 servers: the exact MDP handles 1..12");
	m.N = 2;
	m.n = 3;
	assert_int_equal(mdp_solve(&m, 1e-9, &sol, err, sizeof(err)), -1);
	assert_string_equal(err, "n=3 tasks on N=2 servers: need 1 <= n <= N");
}

/* ---- SSAC ranking ---- */

static void test_availability_rank(void **state)
{
	const ssac_candidate_t c[6] = {
		{ 0.95, 30.0 }, /* meets 0.9, slow */
		{ 0.99, 10.0 }, /* meets 0.9, fast */
		{ 0.80, 1.0 },	/* deficiency 0.1, fastest */
		{ NAN, 1.0 },	/* unknown: deficiency 0.9 */
		{ 0.91, 10.0 }, /* meets, ties with 1: index breaks the tie */
		{ 0.85, 5.0 },	/* deficiency 0.05 */
	};
	size_t order[6];
	const size_t want[6] = { 1, 4, 0, 5, 2, 3 };

	ssac_rank(c, 6, 0.9, order);
	assert_memory_equal(order, want, sizeof(want));
	/* no requirement: response time only */
	const size_t want0[6] = { 2, 3, 5, 1, 4, 0 };

	ssac_rank(c, 6, 0.0, order);
	assert_memory_equal(order, want0, sizeof(want0));
	assert_true(ssac_deficiency(0.9, 0.8) == 0.9 - 0.8);
	assert_true(ssac_deficiency(0.5, 0.8) == 0.0);
	/* M/G/1, eq. (3): exponential service of mean 2 (ES2 = 8) at rate
	 * 0.25: 2 + 0.25 * 8 / (2 * 0.5) = 4 */
	assert_true(ssac_mg1_response_time(0.25, 2.0, 8.0) == 4.0);
	assert_true(isinf(ssac_mg1_response_time(0.5, 2.0, 8.0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_and_choose),
		cmocka_unit_test(test_ranked_beats_random_heterogeneous),
		cmocka_unit_test(test_lookahead_homogeneous_is_threshold),
		cmocka_unit_test(test_mdp_bad_model),
		cmocka_unit_test(test_availability_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
