/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_avail_sim.c - the migrate-or-wait simulation (avail_sim.h) of He et
 * al. (He et al. 2012, Sec. IV): exact w and m of every policy on a tiny trace
 * worked out by hand, the simulated cost of each T_i against eq. (4),
 * myopic = threshold when nodes have no memory, always-wait never
 * migrating, the online estimate converging to the known chain, the
 * optimal policy's cost against the exact MDP's, and the
 * exact messages for malformed traces, specs and policy names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/avail_sim.h"
#include "avail/mdp.h"
#include "sim/avail_source.h"
#include "sim/avail_trace.h"
#include "avail/threshold_policy.h"

static char tmp_path[64];

/* A temporary file holding text; its path in tmp_path. */
static const char *write_tmp(const char *text)
{
	strcpy(tmp_path, "/tmp/test_avail_sim.XXXXXX");
	int fd = mkstemp(tmp_path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return tmp_path;
}

static const avail_sim_cell_t *cell(const avail_sim_result_t *r, size_t g, size_t p)
{
	return &r->cells[g * r->npolicies + p];
}

/* ---- trace file format ---- */

static void test_trace_read(void **state)
{
	(void)state;
	avail_trace_t t;
	char err[256];
	const char *path = write_tmp("# two nodes\n\n1 0\n  0\t1 \n# end\n1 1\n");

	assert_int_equal(avail_trace_read(path, &t, err, sizeof(err)), 0);
	assert_int_equal(t.slots, 3);
	assert_int_equal(t.nodes, 2);
	assert_true(avail_trace_on(&t, 0, 0) && !avail_trace_on(&t, 0, 1));
	assert_true(!avail_trace_on(&t, 1, 0) && avail_trace_on(&t, 1, 1));
	assert_true(avail_trace_on(&t, 2, 0) && avail_trace_on(&t, 2, 1));
	avail_trace_free(&t);
	unlink(path);
}

static void expect_trace_error(const char *text, const char *want_after_path)
{
	avail_trace_t t;
	char err[256], want[512];
	const char *path = write_tmp(text);

	assert_int_equal(avail_trace_read(path, &t, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s%s", path, want_after_path);
	assert_string_equal(err, want);
	assert_null(t.on);
	unlink(path);
}

static void test_trace_errors(void **state)
{
	(void)state;
	expect_trace_error("1 1 0\n0 x 1\n", ":2: field 2 is 'x', not 0 or 1");
	expect_trace_error("# c\n1 1 0\n\n1 0\n", ":4: 2 fields, line 2 has 3");
	expect_trace_error("1 1\n1 1 1\n", ":2: 3 fields, line 1 has 2");
	expect_trace_error("10 1\n", ":1: field 1 is '10', not 0 or 1");
	expect_trace_error("1 0.5\n", ":1: field 2 is '0.5', not 0 or 1");
	expect_trace_error("# only a comment\n\n", ": no slot lines");

	avail_trace_t t;
	char err[256];

	assert_int_equal(avail_trace_read("/nonexistent/avail.txt", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/avail.txt: cannot open: No such file or directory");
}

/* ---- availability specs ---- */

static void expect_spec_error(const char *spec, size_t nodes, int rc, const char *want)
{
	avail_source_t s;
	char err[512];

	assert_int_equal(avail_source_open(spec, nodes, &s, err, sizeof(err)), rc);
	assert_string_equal(err, want);
	assert_null(s.chains);
}

static void test_spec_errors(void **state)
{
	(void)state;
	static const struct {
		const char *spec;
		size_t nodes;
		int rc;
		const char *want;
	} cases[] = {
		{ "markov:p01=1.5,p11=0.9", 4, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=1.5,p11=0.9: p01=1.5: not a probability in [0,1]" },
		{ "markov:p01=0.1,p11=abc", 4, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=0.1,p11=abc: p11=abc: not a number" },
		{ "markov:p01=0.1", 4, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=0.1: missing p11 (markov:p01=X,p11=Y)" },
		{ "markov:p01=0.1,q=2,p11=0.5", 4, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=0.1,q=2,p11=0.5: 'q' is not p01=X or p11=Y" },
		{ "markov:p01=0.1,p01=0.2,p11=0.5", 4, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=0.1,p01=0.2,p11=0.5: p01 given twice" },
		{ "markov:p01=0.1/0.2/0.3,p11=0.9", 2, AVAIL_SOURCE_BAD_SPEC,
		  "markov:p01=0.1/0.2/0.3,p11=0.9: p01: more values than the 2 nodes" },
		{ "uniform:0.5", 4, AVAIL_SOURCE_BAD_SPEC,
		  "'uniform:0.5': expected markov:p01=X,p11=Y or trace:FILE" },
		{ "trace:", 0, AVAIL_SOURCE_BAD_SPEC, "trace:: needs a file name (trace:FILE)" },
		{ "trace:/nonexistent/a", 0, AVAIL_SOURCE_BAD_FILE,
		  "/nonexistent/a: cannot open: No such file or directory" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_spec_error(cases[i].spec, cases[i].nodes, cases[i].rc, cases[i].want);

	char spec[128], want[256];
	const char *path = write_tmp("1 0\n0 1\n");

	snprintf(spec, sizeof(spec), "trace:%s", path);
	snprintf(want, sizeof(want), "%s: 3 nodes asked, the trace has 2", spec);
	expect_spec_error(spec, 3, AVAIL_SOURCE_BAD_SPEC, want);
	unlink(path);
}

static void test_spec_per_node(void **state)
{
	(void)state;
	avail_source_t s;
	char err[256];

	/* K = 2 values cycle over 4 nodes; pooled p01 weighted by OFF share:
	 * availabilities 0.5 and 5/6, so (2*0.5*0.1 + 2*(1/6)*0.5) /
	 * (2*0.5 + 2/6) = 0.2 */
	assert_int_equal(avail_source_open("markov:p01=0.1/0.5,p11=0.9", 4, &s, err,
					   sizeof(err)), 0);
	assert_true(s.chains[0].p01 == 0.1 && s.chains[2].p01 == 0.1);
	assert_true(s.chains[1].p01 == 0.5 && s.chains[3].p01 == 0.5);
	assert_true(s.chains[3].p11 == 0.9);
	assert_false(s.identical);
	assert_true(fabs(s.pooled.p01 - 0.2) < 1e-12);
	assert_true(fabs(s.pooled.p11 - 0.9) < 1e-12);
	avail_source_free(&s);

	assert_int_equal(avail_source_open("markov:p01=0.1,p11=0.9", 3, &s, err, sizeof(err)),
			 0);
	assert_true(s.identical && s.pooled.p01 == 0.1 && s.pooled.p11 == 0.9);
	avail_source_free(&s);
}

static void test_policy_names(void **state)
{
	(void)state;
	avail_policy_t p;
	char err[256], name[32];
	const char *names[] = { "threshold", "threshold-est", "myopic", "wait", "migrate",
				"optimal", "lookahead", "T2" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(avail_policy_parse(names[i], 3, &p, err, sizeof(err)), 0);
		avail_policy_name(&p, name, sizeof(name));
		assert_string_equal(name, names[i]);
	}
	assert_int_equal(avail_policy_parse("T4", 3, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "policy 'T4': T_i needs 0 <= i <= n=3");
	assert_int_equal(avail_policy_parse("best", 3, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown policy 'best' (threshold, threshold-est, myopic, "
			    "wait, migrate, optimal, lookahead or T0..T3)");
	/* wait = T_n, migrate = T_0, whatever gamma */
	assert_int_equal(avail_policy_parse("wait", 3, &p, err, sizeof(err)), 0);
	assert_int_equal(avail_policy_index(&p, 3, NULL, 0.0), 3);
	assert_int_equal(avail_policy_parse("migrate", 3, &p, err, sizeof(err)), 0);
	assert_int_equal(avail_policy_index(&p, 3, NULL, 100.0), 0);
}

/* ---- exact outcomes on a tiny trace ---- */

/*
 * 4 nodes, 7 slots, a job of n = 2, beta = 1/2 (slot t weighs 2^-t).
 * Fits over the whole trace (p11): n0 3/5, n1 1/3, n2 3/4, n3 4/5, so the
 * ranking is n3, n2, n0, n1 and the job starts on {2, 3}.
 *   slot 3: n2 OFF, n3 ON, spare ON: n0.  T0, T1 move n2 -> n0 (m 1/8);
 *           T2 waits (w 1/8).
 *   slot 4: movers on {0, 3}: n3 OFF, spare ON n1: move n3 -> n1 (m 1/16).
 *           T2 on {2, 3}: both OFF: waits (w 1/16).
 *   slot 6: movers on {0, 1}: both OFF, spare ON n2, n3: T0 moves both
 *           (m 2/64), T1 waits (s' = 0 < 1: w 1/64).  T2 on {2, 3} runs.
 * So T0: w 0, m 0.21875; T1: w 0.015625, m 0.1875; T2: w 0.1875, m 0.
 */
static const char tiny_trace[] =
	"# n0 n1 n2 n3\n"
	"1 1 1 1\n"
	"1 0 1 1\n"
	"0 0 1 1\n"
	"1 0 0 1\n"
	"1 1 0 0\n"
	"1 1 1 1\n"
	"0 0 1 1\n";

static void test_tiny_trace_exact(void **state)
{
	(void)state;
	const char *path = write_tmp(tiny_trace);
	char spec[128], err[256];
	avail_source_t src;
	avail_sim_result_t res;
	avail_policy_t pol[7];
	const char *names[] = { "T0", "T1", "T2", "migrate", "wait", "myopic", "threshold" };
	double gammas[] = { 0.4, 0.6, 1.0 };

	snprintf(spec, sizeof(spec), "trace:%s", path);
	assert_int_equal(avail_source_open(spec, 0, &src, err, sizeof(err)), 0);
	assert_true(fabs(src.chains[3].p11 - 0.8) < 1e-12);
	assert_true(fabs(src.chains[1].p11 - 1.0 / 3.0) < 1e-12);
	for (size_t p = 0; p < 7; p++)
		assert_int_equal(avail_policy_parse(names[p], 2, &pol[p], err, sizeof(err)), 0);
	avail_sim_config_t cfg = { .n = 2, .beta = 0.5, .gammas = gammas, .ngammas = 3,
				   .policies = pol, .npolicies = 7, .runs = 1, .seed = 1 };

	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), 0);
	assert_int_equal(res.runs, 1);
	assert_int_equal(res.slots, 7);

	const double w[3] = { 0.0, 0.015625, 0.1875 }, m[3] = { 0.21875, 0.1875, 0.0 };
	/* myopic: migrate iff #OFF < 1/gamma: T0 at 0.4, T1 at 0.6, T2 at 1 */
	const size_t myopic[3] = { 0, 1, 2 };

	for (size_t g = 0; g < 3; g++) {
		for (size_t i = 0; i < 3; i++) {
			assert_true(cell(&res, g, i)->w == w[i]);
			assert_true(cell(&res, g, i)->m == m[i]);
			assert_true(cell(&res, g, i)->cost == w[i] + gammas[g] * m[i]);
			assert_int_equal(cell(&res, g, i)->index, i);
			assert_true(isnan(cell(&res, g, i)->analytic)); /* a trace: no eq. (4) */
		}
		assert_true(cell(&res, g, 3)->w == w[0] && cell(&res, g, 3)->m == m[0]);
		assert_true(cell(&res, g, 4)->w == w[2] && cell(&res, g, 4)->m == m[2]);
		assert_true(cell(&res, g, 5)->w == w[myopic[g]]);
		assert_true(cell(&res, g, 5)->m == m[myopic[g]]);

		/* threshold: the T_i optimal for the chain pooled over the
		 * trace, p01 = 4/7, p11 = 11/17 */
		threshold_model_t model = { .n = 2, .beta = 0.5, .chain = { 4.0 / 7, 11.0 / 17 } };
		threshold_partition_t part;

		assert_int_equal(threshold_partition_compute(&model, &part, err, sizeof(err)), 0);
		size_t i = threshold_partition_policy(&part, gammas[g]);

		assert_int_equal(res.optimal_index[g], i);
		assert_true(cell(&res, g, 6)->w == w[i] && cell(&res, g, 6)->m == m[i]);
		threshold_partition_free(&part);
	}
	avail_sim_result_free(&res);
	avail_source_free(&src);
	unlink(path);
}

/* 3 nodes, n = 2, beta = 1/2.  Fits: n1 never left ON, so it gets the
 * pooled chain (p11 1/2) and ranks first, then n0 (index); the job starts
 * on {0, 1}.  In slot 1 n0 is OFF and the only spare node, n2, too: even
 * always-migrate waits (w 1/2, m 0). */
static void test_no_migration_without_spare(void **state)
{
	(void)state;
	const char *path = write_tmp("1 1 1\n0 1 0\n1 1 1\n");
	char spec[128], err[256];
	avail_source_t src;
	avail_sim_result_t res;
	avail_policy_t pol;
	double gamma = 0.0;

	snprintf(spec, sizeof(spec), "trace:%s", path);
	assert_int_equal(avail_source_open(spec, 0, &src, err, sizeof(err)), 0);
	assert_int_equal(avail_policy_parse("migrate", 2, &pol, err, sizeof(err)), 0);
	avail_sim_config_t cfg = { .n = 2, .beta = 0.5, .gammas = &gamma, .ngammas = 1,
				   .policies = &pol, .npolicies = 1, .runs = 1 };

	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), 0);
	assert_true(cell(&res, 0, 0)->w == 0.5);
	assert_true(cell(&res, 0, 0)->m == 0.0);
	avail_sim_result_free(&res);
	avail_source_free(&src);
	unlink(path);
}

/* ---- Markov sources ---- */

static void run_markov(const char *spec, size_t nodes, avail_sim_config_t *cfg,
		       const char *const *names, avail_policy_t *pol, avail_sim_result_t *res)
{
	avail_source_t src;
	char err[256];

	assert_int_equal(avail_source_open(spec, nodes, &src, err, sizeof(err)), 0);
	for (size_t p = 0; p < cfg->npolicies; p++)
		assert_int_equal(avail_policy_parse(names[p], cfg->n, &pol[p], err, sizeof(err)),
				 0);
	cfg->policies = pol;
	if (avail_sim_run(&src, cfg, res, err, sizeof(err)))
		fail_msg("%s", err);
	avail_source_free(&src);
}

/* Each T_i's simulated cost within 4 standard errors of eq. (4)'s
 * 1/(1-beta) - P_i + gamma M_i (Fig. 2 setting, enough spare nodes that a
 * migration is never short of ON nodes in practice). */
static void test_threshold_costs_match_eq4(void **state)
{
	(void)state;
	const char *names[] = { "T0", "T1", "T2", "T3" };
	avail_policy_t pol[4];
	double gammas[] = { 0.0, 1.5 };
	avail_sim_config_t cfg = { .n = 3, .beta = 0.9, .gammas = gammas, .ngammas = 2,
				   .npolicies = 4, .runs = 20000, .seed = 7 };
	avail_sim_result_t res;
	threshold_model_t model = { .n = 3, .beta = 0.9, .chain = { 0.1, 0.9 } };
	threshold_partition_t part;
	char err[256];

	run_markov("markov:p01=0.1,p11=0.9", 40, &cfg, names, pol, &res);
	assert_int_equal(threshold_partition_compute(&model, &part, err, sizeof(err)), 0);
	for (size_t g = 0; g < 2; g++)
		for (size_t i = 0; i <= 3; i++) {
			const avail_sim_cell_t *c = cell(&res, g, i);
			double eq4 = 10.0 - part.processing[i] + gammas[g] * part.migrations[i];

			assert_true(fabs(c->analytic - eq4) < 1e-9);
			assert_true(c->cost_se < 0.06); /* the check has teeth */
			if (fabs(c->cost - eq4) > 4.0 * c->cost_se + 1e-4)
				fail_msg("T%zu gamma %g: simulated %g +- %g, eq. (4) %g", i,
					 gammas[g], c->cost, c->cost_se, eq4);
		}
	/* and the policies do differ: T0 and T3 by far more than the noise */
	assert_true(cell(&res, 1, 3)->cost - cell(&res, 1, 0)->cost > 1.0);
	threshold_partition_free(&part);
	avail_sim_result_free(&res);
}

/* p01 = p11: no memory, the myopic partition is the optimal one, so the
 * two policies make the same decision in every slot. */
static void test_memoryless_myopic_is_threshold(void **state)
{
	(void)state;
	const char *names[] = { "threshold", "myopic" };
	avail_policy_t pol[2];
	double gammas[] = { 0.2, 0.3, 0.4, 0.7, 2.0 }; /* away from 1/4, 1/3, 1/2, 1 */
	avail_sim_config_t cfg = { .n = 4, .beta = 0.9, .gammas = gammas, .ngammas = 5,
				   .npolicies = 2, .runs = 300, .seed = 3 };
	avail_sim_result_t res;

	run_markov("markov:p01=0.6,p11=0.6", 8, &cfg, names, pol, &res);
	for (size_t g = 0; g < 5; g++) {
		assert_int_equal(cell(&res, g, 0)->index, cell(&res, g, 1)->index);
		assert_true(cell(&res, g, 0)->w == cell(&res, g, 1)->w);
		assert_true(cell(&res, g, 0)->m == cell(&res, g, 1)->m);
	}
	/* the five gammas cover T0..T4: not one policy compared to itself */
	assert_int_equal(cell(&res, 0, 0)->index, 0);
	assert_int_equal(cell(&res, 2, 0)->index, 2);
	assert_int_equal(cell(&res, 4, 0)->index, 4);
	avail_sim_result_free(&res);

	/* sticky nodes (Fig. 2 chain), n = 4, gamma = 1: threshold migrates
	 * unless all hosts are OFF (T1), myopic never does (T4), and pays */
	double one = 1.0;

	cfg.gammas = &one;
	cfg.ngammas = 1;
	run_markov("markov:p01=0.1,p11=0.9", 10, &cfg, names, pol, &res);
	assert_int_equal(cell(&res, 0, 0)->index, 1);
	assert_int_equal(cell(&res, 0, 1)->index, 4);
	assert_true(cell(&res, 0, 0)->cost < 0.7 * cell(&res, 0, 1)->cost);
	avail_sim_result_free(&res);
}

static void test_wait_never_migrates(void **state)
{
	(void)state;
	const char *names[] = { "wait", "migrate" };
	avail_policy_t pol[2];
	double gammas[] = { 0.0, 100.0 };
	avail_sim_config_t cfg = { .n = 3, .beta = 0.9, .gammas = gammas, .ngammas = 2,
				   .npolicies = 2, .runs = 500, .seed = 5 };
	avail_sim_result_t res;

	run_markov("markov:p01=0.3,p11=0.8", 6, &cfg, names, pol, &res);
	for (size_t g = 0; g < 2; g++) {
		assert_true(cell(&res, g, 0)->m == 0.0);
		assert_true(cell(&res, g, 0)->w > 1.0);
		assert_true(cell(&res, g, 1)->m > 0.5);
		/* migrating cuts the wait but not to 0: sometimes too few ON */
		assert_true(cell(&res, g, 1)->w < cell(&res, g, 0)->w);
		assert_true(cell(&res, g, 1)->w > 0.0);
	}
	avail_sim_result_free(&res);
}

/* Same seed, same numbers; another seed, other numbers. */
static void test_deterministic(void **state)
{
	(void)state;
	const char *names[] = { "threshold-est", "T1" };
	avail_policy_t pol[2];
	double gamma = 1.0;
	avail_sim_config_t cfg = { .n = 3, .beta = 0.9, .gammas = &gamma, .ngammas = 1,
				   .npolicies = 2, .runs = 100, .seed = 11, .quantum = 0.001 };
	avail_sim_result_t a, b, c;

	run_markov("markov:p01=0.2,p11=0.7", 8, &cfg, names, pol, &a);
	run_markov("markov:p01=0.2,p11=0.7", 8, &cfg, names, pol, &b);
	cfg.seed = 12;
	run_markov("markov:p01=0.2,p11=0.7", 8, &cfg, names, pol, &c);
	for (size_t p = 0; p < 2; p++) {
		assert_true(cell(&a, 0, p)->cost == cell(&b, 0, p)->cost);
		assert_true(cell(&a, 0, p)->cost != cell(&c, 0, p)->cost);
	}
	avail_sim_result_free(&a);
	avail_sim_result_free(&b);
	avail_sim_result_free(&c);
}

/* With a long observation before the job, the online estimate is close
 * to the true chain: threshold-est costs what threshold costs (within the
 * noise: it ranks replacements by noisy estimates, so it does not take the
 * same nodes), and far less than myopic, which it would be stuck with
 * without a valid estimate (gamma = 1, sticky nodes: T0 against T3). */
static void test_estimate_converges(void **state)
{
	(void)state;
	const char *names[] = { "threshold", "threshold-est", "myopic" };
	avail_policy_t pol[3];
	double gamma = 1.0;
	avail_sim_config_t cfg = { .n = 3, .beta = 0.9, .gammas = &gamma, .ngammas = 1,
				   .npolicies = 3, .runs = 400, .seed = 2, .quantum = 0.001,
				   .warmup = 3000 };
	avail_sim_result_t res;

	run_markov("markov:p01=0.1,p11=0.9", 10, &cfg, names, pol, &res);
	assert_true(fabs(cell(&res, 0, 1)->cost / cell(&res, 0, 0)->cost - 1.0) < 0.05);
	assert_true(cell(&res, 0, 1)->cost < 0.6 * cell(&res, 0, 2)->cost);
	assert_int_equal(cell(&res, 0, 1)->index, SIZE_MAX);
	assert_true(isnan(cell(&res, 0, 1)->analytic));
	avail_sim_result_free(&res);
}

/* The optimal policy's simulated cost against the MDP's exact cost from
 * the start states: nodes start from their stationary law (ON w.p. 5/6;
 * fewer than 3 of 8 ON has probability 2e-4, ignored), the job on the 3
 * lowest-numbered ON nodes (identical chains rank by index). */
static void test_optimal_matches_mdp(void **state)
{
	(void)state;
	const char *names[] = { "optimal", "threshold" };
	avail_policy_t pol[2];
	double gammas[] = { 0.5, 3.0 };
	avail_sim_config_t cfg = { .n = 3, .beta = 0.9, .gammas = gammas, .ngammas = 2,
				   .npolicies = 2, .runs = 4000, .seed = 9 };
	avail_sim_result_t res;
	onoff_chain_t chains[8];
	char err[256];

	for (size_t h = 0; h < 8; h++)
		chains[h] = (onoff_chain_t){ 0.5, 0.9 };
	run_markov("markov:p01=0.5,p11=0.9", 8, &cfg, names, pol, &res);
	for (size_t g = 0; g < 2; g++) {
		mdp_model_t m = { .N = 8, .n = 3, .servers = chains, .beta = 0.9,
				  .gamma = gammas[g] };
		mdp_solution_t sol;
		double exact = 0.0, mass = 0.0;

		assert_int_equal(mdp_solve(&m, 1e-9, &sol, err, sizeof(err)), 0);
		for (unsigned on = 0; on < 256; on++) {
			int k = __builtin_popcount(on);
			unsigned hosts = 0;

			if (k < 3)
				continue;
			for (unsigned h = 0, taken = 0; h < 8 && taken < 3; h++)
				if (on >> h & 1u) {
					hosts |= 1u << h;
					taken++;
				}
			double p = pow(5.0 / 6.0, k) * pow(1.0 / 6.0, 8 - k);

			exact += p * sol.cost[(mdp_set_index(&sol, hosts) << 8) | on];
			mass += p;
		}
		exact /= mass;
		const avail_sim_cell_t *c = cell(&res, g, 0);

		if (fabs(c->cost - exact) > 4.0 * c->cost_se + 1e-3)
			fail_msg("gamma %g: optimal simulated %g +- %g, MDP %g", gammas[g], c->cost,
				 c->cost_se, exact);
		assert_true(c->cost_se < 0.05);
		assert_int_equal(c->index, SIZE_MAX);
		/* no policy does better in the same runs */
		assert_true(c->cost <= cell(&res, g, 1)->cost + 1e-9 + 2.0 * c->cost_se);
		mdp_solution_free(&sol);
	}
	avail_sim_result_free(&res);

	/* not on a trace */
	avail_source_t src;
	const char *path = write_tmp("1 1\n1 1\n");
	char spec[128];

	snprintf(spec, sizeof(spec), "trace:%s", path);
	assert_int_equal(avail_source_open(spec, 0, &src, err, sizeof(err)), 0);
	cfg.n = 1;
	cfg.policies = pol;
	cfg.npolicies = 1;
	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), -1);
	assert_string_equal(err, "policy optimal: needs a markov source of at most 12 nodes "
			    "(the exact MDP is exponential in the nodes)");
	avail_source_free(&src);
	unlink(path);
}

/* Lookahead: on identical nodes the threshold policy's decisions exactly
 * (migrate_or_wait.h); on very different nodes at gamma = 2, where the
 * pooled chain says "always wait", it migrates to sticky nodes and wins
 * back part of what threshold loses to the optimum (He et al. 2012, Fig. 4(b);
 * 5.66 against 5.84, optimum 5.26, with this seed). */
static void test_lookahead(void **state)
{
	(void)state;
	const char *names[] = { "threshold", "lookahead", "optimal" };
	avail_policy_t pol[3];
	double gammas[] = { 0.5, 1.5, 3.0 };
	avail_sim_config_t cfg = { .n = 2, .beta = 0.9, .gammas = gammas, .ngammas = 3,
				   .npolicies = 2, .runs = 300, .seed = 4 };
	avail_sim_result_t res;

	run_markov("markov:p01=0.1,p11=0.9", 6, &cfg, names, pol, &res);
	for (size_t g = 0; g < 3; g++) {
		assert_true(cell(&res, g, 0)->w == cell(&res, g, 1)->w);
		assert_true(cell(&res, g, 0)->m == cell(&res, g, 1)->m);
	}
	avail_sim_result_free(&res);

	double gamma = 2.0;

	cfg.gammas = &gamma;
	cfg.ngammas = 1;
	cfg.npolicies = 3;
	run_markov("markov:p01=0.02/0.05/0.1/0.2/0.3/0.5,p11=0.98/0.9/0.8/0.7/0.6/0.5", 6, &cfg,
		   names, pol, &res);
	const avail_sim_cell_t *thr = cell(&res, 0, 0), *look = cell(&res, 0, 1),
			       *opt = cell(&res, 0, 2);

	assert_true(thr->m == 0.0);		/* T_2: never migrates */
	assert_true(look->m > 0.0);
	assert_true(look->cost < 0.99 * thr->cost);
	assert_true(opt->cost < look->cost);
	avail_sim_result_free(&res);
}

static void test_bad_config(void **state)
{
	(void)state;
	avail_source_t src;
	avail_sim_result_t res;
	avail_policy_t pol = { .kind = AVAIL_POLICY_THRESHOLD };
	double gamma = -1.0;
	char err[256];
	avail_sim_config_t cfg = { .n = 5, .beta = 0.9, .gammas = &gamma, .ngammas = 1,
				   .policies = &pol, .npolicies = 1, .runs = 1 };

	assert_int_equal(avail_source_open("markov:p01=0.5,p11=0.5", 4, &src, err, sizeof(err)),
			 0);
	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), -1);
	assert_string_equal(err, "n=5: the job needs 1..4 tasks (one per node)");
	cfg.n = 2;
	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), -1);
	assert_string_equal(err, "gamma=-1: must be a number >= 0");
	gamma = 1.0;
	cfg.beta = 1.0;
	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), -1);
	assert_string_equal(err, "beta=1: the discount factor must be in (0,1)");
	avail_source_free(&src);

	/* a node that is never ON: the job can never start */
	assert_int_equal(avail_source_open("markov:p01=0,p11=0", 2, &src, err, sizeof(err)), 0);
	cfg.beta = 0.9;
	assert_int_equal(avail_sim_run(&src, &cfg, &res, err, sizeof(err)), -1);
	assert_string_equal(err, "run 0: fewer than n=2 of the 2 nodes ON for 100000 slots: the "
			    "job cannot start");
	avail_source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_read),
		cmocka_unit_test(test_trace_errors),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_spec_per_node),
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_tiny_trace_exact),
		cmocka_unit_test(test_no_migration_without_spare),
		cmocka_unit_test(test_threshold_costs_match_eq4),
		cmocka_unit_test(test_memoryless_myopic_is_threshold),
		cmocka_unit_test(test_wait_never_migrates),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_estimate_converges),
		cmocka_unit_test(test_optimal_matches_mdp),
		cmocka_unit_test(test_lookahead),
		cmocka_unit_test(test_bad_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
