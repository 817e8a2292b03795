/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_baselines.c - the stronger baselines of dfrs sim: the per-user
 * run-time predictor of EASY++ and its correction (runtime_predictor.h),
 * SJBF backfilling (sched_sjf_backfill.c) on a schedule where the order of
 * the backfill candidates decides, and EASY++ (sim_easy_pp.c) on
 * schedules where its predictions and their correction decide; the
 * report's comparison with the best baseline (sim_report.c).  Every
 * expected time is worked out in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/runtime_predictor.h"
#include "sim/sim_policy.h"
#include "sim/sim_report.h"
#include "sim_fixture.h"

/* --- the predictor --------------------------------------------------- */

/* Fewer than two ended jobs: the user's estimate (none: none). */
static void test_predict_without_history(void **state)
{
	runtime_predictor_t p;

	runtime_predictor_init(&p);
	assert_true(runtime_predictor_predict(&p, 7, 3600) == 3600);
	assert_true(runtime_predictor_predict(&p, 7, -1) == -1);
	assert_int_equal(runtime_predictor_ended(&p, 7, 100), 0);
	assert_true(runtime_predictor_predict(&p, 7, 3600) == 3600);
	runtime_predictor_free(&p);
}

/* The mean of the last two run times, capped by the estimate; a third
 * run time pushes the oldest out. */
static void test_predict_last_two(void **state)
{
	runtime_predictor_t p;

	runtime_predictor_init(&p);
	assert_int_equal(runtime_predictor_ended(&p, 7, 100), 0);
	assert_int_equal(runtime_predictor_ended(&p, 7, 300), 0);
	assert_true(runtime_predictor_predict(&p, 7, 3600) == 200);
	assert_true(runtime_predictor_predict(&p, 7, 150) == 150);
	assert_true(runtime_predictor_predict(&p, 7, -1) == 200);
	assert_int_equal(runtime_predictor_ended(&p, 7, 500), 0);
	assert_true(runtime_predictor_predict(&p, 7, 3600) == 400);
	runtime_predictor_free(&p);
}

/* Users apart, whatever order they first end in; an unknown user (< 0)
 * is never recorded and always gets the estimate. */
static void test_predict_per_user(void **state)
{
	runtime_predictor_t p;
	static const int users[] = { 50, 3, 900, 1, 20 };

	runtime_predictor_init(&p);
	for (int round = 0; round < 2; round++)
		for (size_t u = 0; u < 5; u++)
			assert_int_equal(runtime_predictor_ended(
				&p, users[u], 10.0 * users[u] + round), 0);
	assert_int_equal(runtime_predictor_ended(&p, -1, 5), 0);
	assert_int_equal(runtime_predictor_ended(&p, -1, 5), 0);
	assert_int_equal(p.nusers, 5);
	for (size_t u = 0; u < 5; u++)
		assert_true(runtime_predictor_predict(&p, users[u], 1e9) ==
			    10.0 * users[u] + 0.5);
	assert_true(runtime_predictor_predict(&p, -1, 77) == 77);
	assert_true(runtime_predictor_predict(&p, 2, 77) == 77);
	runtime_predictor_free(&p);
}

/* Correction: unchanged while ahead of the elapsed time; raised by 1 min,
 * then 5 min, 15 min, ... until past it; never above the estimate. */
static void test_correct(void **state)
{
	int steps = 0;

	assert_true(runtime_predictor_correct(100, 50, 1e6, &steps) == 100);
	assert_int_equal(steps, 0);
	assert_true(runtime_predictor_correct(100, 100, 1e6, &steps) == 160);
	assert_int_equal(steps, 1);
	assert_true(runtime_predictor_correct(160, 200, 1e6, &steps) == 460);
	assert_int_equal(steps, 2);
	/* several steps at once: 100 +60 +300 +900 = 1360 > 1000 */
	steps = 0;
	assert_true(runtime_predictor_correct(100, 1000, 1e6, &steps) == 1360);
	assert_int_equal(steps, 3);
	/* capped by the estimate, and left there once reached */
	steps = 0;
	assert_true(runtime_predictor_correct(100, 100, 130, &steps) == 130);
	assert_true(runtime_predictor_correct(130, 200, 130, &steps) == 130);
	/* past the ladder's end: 100 h each */
	steps = 20;
	assert_true(runtime_predictor_correct(10, 10, -1, &steps) ==
		    10 + 360000);
	/* no estimate and no history: never expected to end */
	steps = 0;
	assert_true(runtime_predictor_correct(-1, 500, -1, &steps) == -1);
	assert_int_equal(steps, 0);
}

/* --- schedules --------------------------------------------------------- */

typedef struct {
	double arrival, runtime, estimate;
	int nodes, user;
} timed_spec_t;

static void replay_timed(const char *policy, int nnodes,
			 const timed_spec_t *spec, size_t n,
			 const expect_t *want)
{
	fixture_t f;
	job_spec_t plain[16];
	sim_model_t m;
	sim_result_t r;
	sim_policy_t p;
	char err[256] = "";

	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++)
		plain[i] = (job_spec_t){ spec[i].nodes, spec[i].runtime,
					 { 1, 1, 1, 1 } };
	fixture_build(&f, nnodes, plain, n);
	for (size_t i = 0; i < n; i++) {
		f.jobs[i].arrival = spec[i].arrival;
		f.jobs[i].estimate = spec[i].estimate;
		f.jobs[i].user = spec[i].user;
	}
	fixture_ideal_model(&m);
	assert_int_equal(sim_policy_find(policy, &p), 0);
	assert_int_equal(sim_policy_run(&p, &f.w, &m, &r, err, sizeof(err)),
			 0);
	fixture_check(policy, &r, want, n);
	sim_result_free(&r);
}

/*
 * Four nodes, all at 0: J1 (3 nodes, 100 s) starts and leaves one node;
 * J2 (4 nodes, 10 s) is the head, its reservation at 100 with no extra
 * node; J3 (1 node, 80 s) and J4 (1 node, 20 s) both end by 100, so
 * either may take the idle node.
 *   EASY, arrival order: J3 at 0 (ends 80), J4 then at 80 (ends 100),
 *   J2 100-110.
 *   SJBF, shortest first: J4 at 0 (ends 20), J3 at 20 (20 + 80 = 100,
 *   by the shadow time), J2 100-110.
 */
static const timed_spec_t order_jobs[] = {
	{ 0, 100, 100, 3, 1 }, { 0, 10, 10, 4, 1 },
	{ 0, 80, 80, 1, 1 }, { 0, 20, 20, 1, 1 },
};

static void test_order_easy(void **state)
{
	static const expect_t want[] = {
		{ 0, 100, 0, 0 }, { 100, 110, 0, 0 },
		{ 0, 80, 0, 0 }, { 80, 100, 0, 0 },
	};
	replay_timed("easy", 4, order_jobs, 4, want);
}

static void test_order_sjf_backfill(void **state)
{
	static const expect_t want[] = {
		{ 0, 100, 0, 0 }, { 100, 110, 0, 0 },
		{ 20, 100, 0, 0 }, { 0, 20, 0, 0 },
	};
	replay_timed("sjf-backfill", 4, order_jobs, 4, want);
}

/*
 * Predictions decide: user 1's J1 and J2 (1 node, 10 s, estimate 1000 s)
 * run 0-10.  At 20 user 2's J3 (3 nodes, 100 s) starts, J4 (4 nodes,
 * 10 s) is the head with its reservation at 120 and no extra node, and
 * user 1's J5 (1 node, 10 s, estimate 1000 s) arrives.
 *   EASY and sjf-backfill: J5 ends by its estimate at 1020 > 120: it
 *   waits for J4 (120-130) and runs 130-140.
 *   EASY++: J5's prediction is the mean of J1 and J2, 10 s: it ends by
 *   30 <= 120 and starts at 20.
 */
static const timed_spec_t predict_jobs[] = {
	{ 0, 10, 1000, 1, 1 }, { 0, 10, 1000, 1, 1 },
	{ 20, 100, 100, 3, 2 }, { 20, 10, 10, 4, 2 },
	{ 20, 10, 1000, 1, 1 },
};

static void test_predict_easy(void **state)
{
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 10, 0, 0 }, { 20, 120, 0, 0 },
		{ 120, 130, 0, 0 }, { 130, 140, 0, 0 },
	};
	replay_timed("easy", 4, predict_jobs, 5, want);
	replay_timed("sjf-backfill", 4, predict_jobs, 5, want);
}

static void test_predict_easy_pp(void **state)
{
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 10, 0, 0 }, { 20, 120, 0, 0 },
		{ 120, 130, 0, 0 }, { 20, 30, 0, 0 },
	};
	replay_timed("easy++", 4, predict_jobs, 5, want);
}

/*
 * The correction decides: user 1's J1 and J2 (1 node, 10 s) run 0-10.
 * At 20 user 1's J3 (2 nodes, 200 s, estimate 1000 s) starts with the
 * prediction 10 s; user 2's J4 (4 nodes, 10 s) is the head, its
 * reservation at J3's predicted end, 30, no extra node; J5 (2 nodes,
 * 50 s, no history: its estimate 50 s) would end at 70 > 30 and waits.
 * At 100 user 3's J6 (4 nodes, 10 s) arrives: J3 has run 80 s, past its
 * prediction, which is raised by 1 min (70, still past) and 5 min: 370.
 * J4's reservation moves to 20 + 370 = 390 and J5 (100 + 50 <= 390)
 * starts at 100, ends 150; J6 (shorter, tried first) does not fit.  J3
 * ends at 220: J4 220-230, J6 230-240.  Without the correction J3 would
 * be expected to end "now" at 100 and J5 (150 > 100) would wait for J4.
 */
static void test_correct_easy_pp(void **state)
{
	static const timed_spec_t jobs[] = {
		{ 0, 10, 1000, 1, 1 }, { 0, 10, 1000, 1, 1 },
		{ 20, 200, 1000, 2, 1 }, { 20, 10, 10, 4, 2 },
		{ 20, 50, 50, 2, 2 }, { 100, 10, 10, 4, 3 },
	};
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 10, 0, 0 }, { 20, 220, 0, 0 },
		{ 220, 230, 0, 0 }, { 100, 150, 0, 0 }, { 230, 240, 0, 0 },
	};
	replay_timed("easy++", 4, jobs, 6, want);
}

/* --- the report against the best baseline ------------------------------ */

static char *report(const sim_report_row_t *rows, size_t n, int json)
{
	sim_report_t rep = { .trace = "t.swf", .jobs = 1, .nodes = 4,
			     .load = 1, .seed = 1, .rows = rows, .nrows = n };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		sim_report_json(f, &rep);
	else
		sim_report_table(f, &rep);
	fclose(f);
	return buf;
}

/*
 * easy (mean bsld 4, response 100), sjf-backfill (2, 80) and amcbf (1,
 * 60): sjf-backfill is the best baseline; amcbf's ratios to it are 0.50
 * and 0.75, easy's 2.00 and 1.25; with no wait anywhere, no wait ratio.
 * With easy the only baseline there is no such block (the ratio to EASY
 * says it).
 */
static void test_report_best_baseline(void **state)
{
	sim_report_row_t rows[3] = {
		{ .policy = "easy" }, { .policy = "sjf-backfill" },
		{ .policy = "amcbf" },
	};
	static const double bsld[] = { 4, 2, 1 }, resp[] = { 100, 80, 60 };
	char *t;

	for (size_t i = 0; i < 3; i++) {
		rows[i].m.mean_bsld = bsld[i];
		rows[i].m.mean_response = resp[i];
		rows[i].m.mean_wait = resp[i] / 2;
	}
	t = report(rows, 3, 0);
	assert_non_null(strstr(t,
		"\nbest baseline                  sjf-backfill           "
		"sjf-backfill           sjf-backfill\n"
		"mean_bsld                              2.00                   "
		"1.00                   0.50\n"
		"mean_response                          1.25                   "
		"1.00                   0.75\n"));
	free(t);
	t = report(rows, 3, 1);
	assert_non_null(strstr(t, "\"vs_best_baseline\": {\n"
			       "        \"baseline\": \"sjf-backfill\",\n"
			       "        \"mean_bsld_ratio\": 0.5,\n"
			       "        \"mean_response_ratio\": 0.75,"));
	free(t);
	/* nobody waited under the best baseline: no ratio, not 0 */
	for (size_t i = 0; i < 3; i++)
		rows[i].m.mean_wait = 0;
	t = report(rows, 3, 0);
	assert_non_null(strstr(t, "\nmean_wait                                 "
			       "-                      -                      "
			       "-\n"));
	free(t);
	t = report(rows, 3, 1);
	assert_non_null(strstr(t, "\"mean_wait_ratio\": null"));
	assert_null(strstr(t, "\"mean_wait_ratio\": 0"));
	free(t);
	rows[1] = rows[2];
	t = report(rows, 2, 0);
	assert_null(strstr(t, "best baseline"));
	free(t);
	t = report(rows, 2, 1);
	assert_null(strstr(t, "vs_best_baseline"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_predict_without_history),
		cmocka_unit_test(test_predict_last_two),
		cmocka_unit_test(test_predict_per_user),
		cmocka_unit_test(test_correct),
		cmocka_unit_test(test_order_easy),
		cmocka_unit_test(test_order_sjf_backfill),
		cmocka_unit_test(test_predict_easy),
		cmocka_unit_test(test_predict_easy_pp),
		cmocka_unit_test(test_correct_easy_pp),
		cmocka_unit_test(test_report_best_baseline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
