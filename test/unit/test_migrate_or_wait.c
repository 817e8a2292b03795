/*
 * test_migrate_or_wait.c - the slot decision on concrete heterogeneous
 * servers (He et al., seed 000: threshold policy with availability-ranked
 * replacements instead of random ones), evaluated exactly on the MDP of
 * eq. (2); and SSAC's availability-aware ranking (Xie & Qin, seed 002).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "availability_rank.h"
#include "mdp_reference.h"
#include "migrate_or_wait.h"
#include "threshold_policy.h"

static void test_decide_and_choose(void **state)
{
	/* hosts 0 (OFF), 1 (ON), 2 (OFF); spare ON servers 3, 4, 5 */
	mow_server_t s[6] = {
		{ { 0.2, 0.9 }, false, true },	{ { 0.2, 0.9 }, true, true },
		{ { 0.2, 0.9 }, false, true },	{ { 0.5, 0.6 }, true, false },
		{ { 0.1, 0.95 }, true, false }, { { 0.4, 0.95 }, true, false },
	};
	mow_move_t moves[6];
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

typedef struct {
	const onoff_chain_t *chains;
	size_t N;
	size_t policy;
	int random_choice;
} policy_ctx_t;

static void threshold_policy_fn(void *arg, const mdp_solution_t *space, unsigned hosts,
				unsigned on, double *weights)
{
	const policy_ctx_t *ctx = arg;
	mow_server_t s[MDP_MAX_SERVERS];
	mow_move_t moves[MDP_MAX_SERVERS];
	size_t k;

	for (size_t i = 0; i < space->nsets; i++)
		weights[i] = 0.0;
	for (size_t h = 0; h < ctx->N; h++)
		s[h] = (mow_server_t){ ctx->chains[h], (on >> h) & 1, (hosts >> h) & 1 };
	threshold_decision_t d = migrate_or_wait_decide(s, ctx->N, ctx->policy, moves, &k);

	if (d != THRESHOLD_MIGRATE) {
		weights[mdp_set_index(space, hosts)] = 1.0;
		return;
	}
	if (!ctx->random_choice) {
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
 * random ones (the paper's Fig. 4(b) loss), at every gamma tried, and never
 * less than the optimum. */
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
		policy_ctx_t ranked = { chains, N, threshold_partition_policy(&part, gammas[g]), 0 };
		policy_ctx_t random = ranked;
		mdp_solution_t opt, rk, rd;

		random.random_choice = 1;
		assert_int_equal(mdp_solve(&m, 1e-9, &opt, err, sizeof(err)), 0);
		assert_int_equal(mdp_evaluate(&m, threshold_policy_fn, &ranked, 1e-9, &rk, err,
					      sizeof(err)), 0);
		assert_int_equal(mdp_evaluate(&m, threshold_policy_fn, &random, 1e-9, &rd, err,
					      sizeof(err)), 0);
		double c_opt = start_cost(&opt, chains, N), c_rk = start_cost(&rk, chains, N),
		       c_rd = start_cost(&rd, chains, N);

		print_message("gamma=%g T_%zu: optimal %.4f ranked %.4f random %.4f\n", gammas[g],
			      ranked.policy, c_opt, c_rk, c_rd);
		assert_true(c_opt <= c_rk + 1e-7);
		if (ranked.policy < n) /* the policy migrates at all */
			assert_true(c_rk < c_rd * 0.97);
		/* every state, not just the average: ranked never worse */
		for (size_t st = 0; st < (opt.nsets << N); st++) {
			assert_true(opt.cost[st] <= rk.cost[st] + 1e-7);
		}
		mdp_solution_free(&opt);
		mdp_solution_free(&rk);
		mdp_solution_free(&rd);
	}
	threshold_partition_free(&part);
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
	const avail_candidate_t c[6] = {
		{ 0.95, 30.0 }, /* meets 0.9, slow */
		{ 0.99, 10.0 }, /* meets 0.9, fast */
		{ 0.80, 1.0 },	/* deficiency 0.1, fastest */
		{ NAN, 1.0 },	/* unknown: deficiency 0.9 */
		{ 0.91, 10.0 }, /* meets, ties with 1: index breaks the tie */
		{ 0.85, 5.0 },	/* deficiency 0.05 */
	};
	size_t order[6];
	const size_t want[6] = { 1, 4, 0, 5, 2, 3 };

	availability_rank(c, 6, 0.9, order);
	assert_memory_equal(order, want, sizeof(want));
	/* no requirement: response time only */
	const size_t want0[6] = { 2, 3, 5, 1, 4, 0 };

	availability_rank(c, 6, 0.0, order);
	assert_memory_equal(order, want0, sizeof(want0));
	assert_true(availability_deficiency(0.9, 0.8) == 0.9 - 0.8);
	assert_true(availability_deficiency(0.5, 0.8) == 0.0);
	/* M/G/1, eq. (3): exponential service of mean 2 (ES2 = 8) at rate
	 * 0.25: 2 + 0.25 * 8 / (2 * 0.5) = 4 */
	assert_true(mg1_response_time(0.25, 2.0, 8.0) == 4.0);
	assert_true(isinf(mg1_response_time(0.5, 2.0, 8.0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_and_choose),
		cmocka_unit_test(test_ranked_beats_random_heterogeneous),
		cmocka_unit_test(test_mdp_bad_model),
		cmocka_unit_test(test_availability_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
