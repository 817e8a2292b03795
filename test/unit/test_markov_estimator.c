/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_markov_estimator.c - ON/OFF Markov estimation (He et al. 2012,
 * Sec. III-A): exact counts on deterministic patterns, recovery of known
 * p01, p11 from long synthetic chains, forgetting, pooling, the KS fit
 * figure, and the JSON state (round trip; corrupt and foreign files).
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

#include "avail/markov_estimator.h"
#include "avail/markov_models.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

static const markov_estimator_config_t keep_all = { .forgetting = 1.0 };

/* a synthetic chain of `slots` slots, starting ON */
static void feed_chain(markov_estimator_t *e, const markov_estimator_config_t *cfg, double p01,
		       double p11, long slots, int *state)
{
	for (long t = 0; t < slots; t++) {
		markov_estimator_observe(e, cfg, *state ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
		*state = uniform01() < (*state ? p11 : p01);
	}
}

/* ON ON ON OFF OFF, repeated: every count is known. */
static void test_deterministic_pattern(void **state)
{
	markov_estimator_t e;
	markov_estimate_t est;

	markov_estimator_init(&e);
	for (int cycle = 0; cycle < 100; cycle++)
		for (int k = 0; k < 5; k++)
			markov_estimator_observe(&e, &keep_all, k < 3 ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
	markov_estimate(&e, &est);
	/* 499 transitions: per cycle ON->ON 2, ON->OFF 1, OFF->OFF 1, OFF->ON 1
	 * (the last cycle has no OFF->ON) */
	assert_true(e.transitions[1][1] == 200 && e.transitions[1][0] == 100);
	assert_true(e.transitions[0][0] == 100 && e.transitions[0][1] == 99);
	assert_true(est.valid);
	assert_true(est.p11 == 2.0 / 3.0);
	assert_true(est.p01 == 99.0 / 199.0);
	/* the first ON interval is censored, the last OFF one is in progress */
	assert_true(est.on_intervals == 99 && est.off_intervals == 99);
	assert_true(e.on_lengths[2] == 99 && e.off_lengths[1] == 99);
	/* all ON intervals last 3; geometric fit 1-(2/3)^k: the gap is largest
	 * at k = 2: 5/9 */
	assert_true(fabs(est.ks_on - 5.0 / 9.0) < 1e-15);
	assert_true(fabs(est.mean_on - 3.0) < 1e-12);
	assert_true(est.slots == 500 && est.down_fraction == 0.0);
}

/* Long chains: p01, p11 within 0.01 (several standard errors: about 0.002
 * here), and a small KS distance since the data IS geometric. */
static void test_recovers_known_chain(void **state)
{
	const double cases[][2] = { { 0.2, 0.85 }, { 0.05, 0.95 }, { 0.7, 0.4 }, { 0.5, 0.5 } };

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		markov_estimator_t e;
		markov_estimate_t est;
		int s = 1;

		markov_estimator_init(&e);
		feed_chain(&e, &keep_all, cases[c][0], cases[c][1], 200000, &s);
		markov_estimate(&e, &est);
		assert_true(est.valid);
		if (fabs(est.p01 - cases[c][0]) > 0.01 || fabs(est.p11 - cases[c][1]) > 0.01)
			fail_msg("p01=%g p11=%g estimated as %g %g", cases[c][0], cases[c][1],
				 est.p01, est.p11);
		double avail = cases[c][0] / (cases[c][0] + 1 - cases[c][1]);

		assert_true(fabs(est.availability - avail) < 0.02);
		if (!(est.ks < 0.02))
			fail_msg("KS %g for a true Markov chain", est.ks);
	}
}

/* Behaviour changes half-way: with a 500-slot half-life the estimate
 * follows the new p11, without forgetting it averages old and new. */
static void test_forgetting_follows_drift(void **state)
{
	markov_estimator_config_t forget = { markov_forgetting_for_half_life(500) };
	markov_estimator_t slow, fast;
	markov_estimate_t es, ef;
	int s1 = 1, s2 = 1;
	uint64_t saved;

	assert_true(fabs(pow(forget.forgetting, 500) - 0.5) < 1e-12);
	assert_true(markov_forgetting_for_half_life(0) == 1.0);
	markov_estimator_init(&slow);
	markov_estimator_init(&fast);
	saved = rng_state;
	feed_chain(&slow, &keep_all, 0.3, 0.95, 50000, &s1);
	feed_chain(&slow, &keep_all, 0.3, 0.5, 50000, &s1);
	rng_state = saved;
	feed_chain(&fast, &forget, 0.3, 0.95, 50000, &s2);
	feed_chain(&fast, &forget, 0.3, 0.5, 50000, &s2);
	markov_estimate(&slow, &es);
	markov_estimate(&fast, &ef);
	if (!(fabs(ef.p11 - 0.5) < 0.06))
		fail_msg("with forgetting p11 = %g, want about 0.5", ef.p11);
	if (!(es.p11 > 0.75))
		fail_msg("without forgetting p11 = %g, want the blend > 0.75", es.p11);
	/* effective memory ~ half-life / ln 2 = 721 slots */
	assert_true(ef.slots > 700 && ef.slots < 745);
}

static void test_utilization_and_down(void **state)
{
	markov_estimator_t e;
	markov_estimate_t est;

	assert_int_equal(markov_from_utilization(0.15, 0.15, true), ONOFF_OBS_ON);
	assert_int_equal(markov_from_utilization(0.16, 0.15, true), ONOFF_OBS_OFF);
	assert_int_equal(markov_from_utilization(0.0, 0.15, false), ONOFF_OBS_DOWN);
	markov_estimator_init(&e);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_ON);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_DOWN);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_OFF);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_ON);
	markov_estimate(&e, &est);
	/* DOWN is OFF for the chain */
	assert_true(e.transitions[1][0] == 1 && e.transitions[0][0] == 1 &&
		    e.transitions[0][1] == 1);
	assert_true(est.down_fraction == 0.25);
	assert_true(e.off_lengths[1] == 1);
}

/* A node only ever seen ON: p11 = 1, p01 unknown: not valid, but its
 * availability is the observed ON share.  A gap breaks the chain. */
static void test_degenerate_and_gap(void **state)
{
	markov_estimator_t e;
	markov_estimate_t est;

	markov_estimator_init(&e);
	markov_estimate(&e, &est);
	assert_false(est.valid);
	assert_true(isnan(est.availability) && isnan(est.ks));
	for (int t = 0; t < 10; t++)
		markov_estimator_observe(&e, &keep_all, ONOFF_OBS_ON);
	markov_estimate(&e, &est);
	assert_false(est.valid);
	assert_true(est.p11 == 1.0 && isnan(est.p01));
	assert_true(est.availability == 1.0);
	assert_true(isinf(est.mean_on));
	markov_estimator_gap(&e);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_OFF);
	markov_estimator_observe(&e, &keep_all, ONOFF_OBS_ON);
	/* no ON->OFF across the gap; the OFF interval after it is censored */
	assert_true(e.transitions[1][0] == 0 && e.transitions[0][1] == 1);
	markov_estimate(&e, &est);
	assert_true(est.off_intervals == 0);
}

/* Pooling sums the counts: two deterministic nodes. */
static void test_pool(void **state)
{
	markov_estimator_t a, b;
	markov_estimate_t est;
	const markov_estimator_t *both[2] = { &a, &b };

	markov_estimator_init(&a);
	markov_estimator_init(&b);
	for (int t = 0; t < 10; t++) {
		markov_estimator_observe(&a, &keep_all, ONOFF_OBS_ON);	   /* 9 ON->ON */
		markov_estimator_observe(&b, &keep_all, t % 2 ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
	}
	/* b: OFF ON OFF ON ...: 5 OFF->ON, 4 ON->OFF */
	markov_estimate_pool(both, 2, &est);
	assert_true(est.valid);
	assert_true(est.p11 == 9.0 / 13.0);
	assert_true(est.p01 == 1.0);
}

static char *temp_path(const char *tag)
{
	static char path[256];

	snprintf(path, sizeof(path), "/tmp/test_markov_estimator.%ld.%s", (long)getpid(), tag);
	return path;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_state_round_trip(void **state)
{
	markov_node_model_t nodes[2];
	markov_estimator_config_t forget = { 0.999 };
	markov_node_model_t *back;
	size_t count;
	char err[512];
	int s = 1;

	nodes[0].name = "n1";
	nodes[1].name = "n2";
	markov_estimator_init(&nodes[0].model);
	markov_estimator_init(&nodes[1].model);
	feed_chain(&nodes[0].model, &forget, 0.3, 0.8, 5000, &s);
	markov_estimator_observe(&nodes[1].model, &keep_all, ONOFF_OBS_DOWN);

	char *path = temp_path("state");

	assert_int_equal(markov_models_save(path, nodes, 2, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(markov_models_load(path, &back, &count, err, sizeof(err)), 0);
	assert_int_equal(count, 2);
	assert_string_equal(back[0].name, "n1");
	assert_string_equal(back[1].name, "n2");
	/* bit-exact: the restored model continues as if never stopped */
	assert_memory_equal(&back[0].model, &nodes[0].model, sizeof(markov_estimator_t));
	assert_memory_equal(&back[1].model, &nodes[1].model, sizeof(markov_estimator_t));
	markov_models_free(back, count);
	unlink(path);
}

static void expect_load_error(const char *text, const char *needle)
{
	char *path = temp_path("bad");
	markov_node_model_t *back = (markov_node_model_t *)1;
	size_t count = 7;
	char err[512] = "";

	if (text)
		write_file(path, text);
	else
		unlink(path);
	assert_int_equal(markov_models_load(path, &back, &count, err, sizeof(err)), -1);
	assert_null(back);
	assert_int_equal(count, 0);
	if (!strstr(err, needle) || !strstr(err, path))
		fail_msg("error '%s' does not name the file and '%s'", err, needle);
	unlink(path);
}

#define HEAD "{\"format\":\"slurm-dfrs availability\",\"version\":1,\"length_bins\":64,"

static void test_state_corrupt_or_foreign(void **state)
{
	char good_node[4096], text[8192];
	int len = snprintf(good_node, sizeof(good_node),
			   "{\"name\":\"n1\",\"transitions\":[[1,2],[3,4]],\"slots\":[1,2,0],"
			   "\"on_lengths\":[");

	for (int b = 0; b < 64; b++)
		len += snprintf(good_node + len, sizeof(good_node) - len, "%s0", b ? "," : "");
	len += snprintf(good_node + len, sizeof(good_node) - len, "],\"off_lengths\":[");
	for (int b = 0; b < 64; b++)
		len += snprintf(good_node + len, sizeof(good_node) - len, "%s0", b ? "," : "");
	snprintf(good_node + len, sizeof(good_node) - len,
		 "],\"last\":1,\"run\":3,\"run_censored\":false}");

	expect_load_error(NULL, "No such file");
	expect_load_error("", "truncated");
	expect_load_error(HEAD "\"nodes\":[", "truncated");
	expect_load_error("{\"format\": 3", "not valid JSON");
	expect_load_error("[1,2,3]", "not a slurm-dfrs availability state");
	expect_load_error("{\"format\":\"something else\"}", "not a slurm-dfrs availability state");
	expect_load_error("{\"format\":\"slurm-dfrs availability\",\"version\":2}", "version 2 not supported");
	expect_load_error("{\"format\":\"slurm-dfrs availability\",\"version\":1,\"length_bins\":32}",
			  "length_bins 32");
	expect_load_error(HEAD "\"nodes\":{}}", "nodes: missing or not an array");
	expect_load_error(HEAD "\"nodes\":[7]}", "nodes[0]: not an object");
	snprintf(text, sizeof(text), HEAD "\"nodes\":[%s,{\"name\":\"n2\"}]}", good_node);
	expect_load_error(text, "nodes[1].transitions");

	static const char *const edits[][3] = {
		{ "[[1,2]", "[[-,2]", "not valid JSON" },
		{ "\"last\":1", "\"last\":5", "nodes[0].last=5: must be -1, 0 or 1" },
		{ "\"slots\":[1,2,0]", "\"slots\":[1,2]", "nodes[0].slots: expected an array of 3 numbers" },
		{ "[[1,2]", "[[1,\"x\"]", "nodes[0].transitions[0][1]: not a number" },
		{ "[[1,2]", "[[1,-2]", "nodes[0].transitions[0][1]=-2: not a non-negative number" },
		{ "\"run\":3", "\"run\":-3", "nodes[0].run=-3: must be >= 0" },
		{ "\"name\":\"n1\"", "\"name\":\"\"", "nodes[0].name: empty" },
		{ "\"run_censored\":false", "\"run_censored\":0", "nodes[0].run_censored: missing or not a boolean" },
		/* lists missing altogether (found by fuzzing: no message) */
		{ "\"slots\":[1,2,0],", "", "nodes[0].slots: expected an array of 3 numbers" },
		{ "\"on_lengths\"", "\"on_lengthz\"", "nodes[0].on_lengths: expected an array of 64 numbers" },
		{ "\"off_lengths\"", "\"off_lengthz\"", "nodes[0].off_lengths: expected an array of 64 numbers" },
	};

	for (size_t k = 0; k < sizeof(edits) / sizeof(edits[0]); k++) {
		char node[4096];
		const char *at = strstr(good_node, edits[k][0]);

		assert_non_null(at);
		snprintf(node, sizeof(node), "%.*s%s%s", (int)(at - good_node), good_node,
			 edits[k][1], at + strlen(edits[k][0]));
		snprintf(text, sizeof(text), HEAD "\"nodes\":[%s]}", node);
		expect_load_error(text, edits[k][2]);
	}

	/* and the good node loads */
	markov_node_model_t *back;
	size_t count;
	char err[512];
	char *path = temp_path("good");

	snprintf(text, sizeof(text), HEAD "\"nodes\":[%s]}", good_node);
	write_file(path, text);
	assert_int_equal(markov_models_load(path, &back, &count, err, sizeof(err)), 0);
	assert_int_equal(count, 1);
	assert_true(back[0].model.transitions[1][1] == 4 && back[0].model.run == 3);
	markov_models_free(back, count);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic_pattern),
		cmocka_unit_test(test_recovers_known_chain),
		cmocka_unit_test(test_forgetting_follows_drift),
		cmocka_unit_test(test_utilization_and_down),
		cmocka_unit_test(test_degenerate_and_gap),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_state_corrupt_or_foreign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
