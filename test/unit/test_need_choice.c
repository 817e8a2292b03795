/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_need_choice.c - the CPU need the plugins decide on for a job:
 * declared wins, then the largest need measured over its nodes while every
 * node's report is fresh, then the prediction, then dfrs_cpu_need; a stale
 * or malformed report gives the default with the node named, never the
 * measured or predicted figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "need/need_choice.h"

#define assert_need(c, want) do { \
	if (fabs((c).need - (want)) > 1e-9) \
		fail_msg("need %.9g, want %.9g", (c).need, (double)(want)); \
} while (0)

static dfrs_params_t params(double dflt, int stale)
{
	dfrs_params_t p;

	dfrs_params_defaults(&p);
	p.share_cpu_need = dflt;
	p.need_stale = stale;
	return p;
}

static const char *names[] = { "n1", "n2" };

static need_job_t running(uint32_t id, const char *comment,
			  const char *const *extra, size_t n)
{
	need_job_t j = { .job_id = id, .user = 5, .name = "sim",
			 .comment = comment, .running = true, .extra = extra,
			 .node = names, .nnodes = n };
	return j;
}

static void test_declared_wins(void **state)
{
	const char *extra[] = { "dfrs:measured=7:0.90@1000" };
	need_job_t j = running(7, "dfrs:need=0.4", extra, 1);
	dfrs_params_t p = params(1, 180);
	need_choice_t c;

	need_choose(&j, &p, NULL, 1010, &c);
	assert_need(c, 0.4);
	assert_int_equal(c.from, NEED_CHOSEN_DECLARED);
	assert_int_equal(c.note, NEED_NOTE_NONE);
	/* a malformed Comment declares nothing: the measurement is used */
	j.comment = "dfrs:need=lots";
	need_choose(&j, &p, NULL, 1010, &c);
	assert_need(c, 0.9);
	assert_int_equal(c.from, NEED_CHOSEN_MEASURED);
}

static void test_measured_largest_over_nodes(void **state)
{
	const char *extra[] = { "rack=2 dfrs:measured=7:0.30,8:0.95@1000",
				"dfrs:measured=7:0.60@990 other" };
	need_job_t j = running(7, NULL, extra, 2);
	dfrs_params_t p = params(1, 180);
	need_choice_t c;

	need_choose(&j, &p, NULL, 1000, &c);
	assert_need(c, 0.6);
	assert_int_equal(c.from, NEED_CHOSEN_MEASURED);
	assert_int_equal(c.note, NEED_NOTE_NONE);
	/* an idle job needs 0.01 */
	extra[0] = "dfrs:measured=7:0.00@1000";
	extra[1] = "dfrs:measured=7:0.00@1000";
	need_choose(&j, &p, NULL, 1000, &c);
	assert_need(c, 0.01);
	/* 180 s old is still fresh, 181 s is not */
	need_choose(&j, &p, NULL, 1180, &c);
	assert_int_equal(c.from, NEED_CHOSEN_MEASURED);
}

static void test_stale_gives_default_naming_node(void **state)
{
	const char *extra[] = { "dfrs:measured=7:0.30@1000",
				"dfrs:measured=7:0.30@900" };
	need_job_t j = running(7, NULL, extra, 2);
	dfrs_params_t p = params(0.8, 20);
	need_predictor_t h;
	need_choice_t c;

	assert_int_equal(need_predictor_init(&h, 0), 0);
	assert_int_equal(need_predictor_observe(&h, 5, "sim", 0.3), 0);
	need_choose(&j, &p, &h, 1010, &c);
	/* not the prediction: the agent of n2 is not to be trusted */
	assert_need(c, 0.8);
	assert_int_equal(c.from, NEED_CHOSEN_DEFAULT);
	assert_int_equal(c.note, NEED_NOTE_STALE);
	assert_string_equal(c.why, "node n2's report is 110 s old "
			    "(dfrs_need_stale=20)");
	need_predictor_free(&h);
}

static void test_malformed_gives_default_naming_node(void **state)
{
	const char *extra[] = { "dfrs:measured=7:0.30@1000",
				"dfrs:measured=garbage" };
	need_job_t j = running(7, NULL, extra, 2);
	dfrs_params_t p = params(0.7, 180);
	need_choice_t c;

	need_choose(&j, &p, NULL, 1000, &c);
	assert_need(c, 0.7);
	assert_int_equal(c.from, NEED_CHOSEN_DEFAULT);
	assert_int_equal(c.note, NEED_NOTE_BAD);
	assert_int_equal(strncmp(c.why, "node n2's Extra: ", 17), 0);
	assert_true(strlen(c.why) > 17);
	/* a need out of 0..1 is malformed too */
	extra[1] = "dfrs:measured=7:1.50@1000";
	need_choose(&j, &p, NULL, 1000, &c);
	assert_int_equal(c.note, NEED_NOTE_BAD);
	assert_need(c, 0.7);
}

static void test_missing_gives_prediction_then_default(void **state)
{
	const char *extra[] = { "dfrs:measured=7:0.30@1000", NULL };
	need_job_t j = running(7, NULL, extra, 2);
	dfrs_params_t p = params(1, 180);
	need_predictor_t h;
	need_choice_t c;

	need_choose(&j, &p, NULL, 1000, &c);
	assert_need(c, 1);
	assert_int_equal(c.from, NEED_CHOSEN_DEFAULT);
	assert_int_equal(c.note, NEED_NOTE_MISSING);
	/* n2 reports other jobs only: still missing */
	extra[1] = "dfrs:measured=8:0.50@1000";
	assert_int_equal(need_predictor_init(&h, 0), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(need_predictor_observe(&h, 5, "sim", 0.3), 0);
	need_choose(&j, &p, &h, 1000, &c);
	/* stable history: 0.3 + NEED_K * NEED_SPREAD_FLOOR */
	assert_need(c, 0.3 + NEED_K * NEED_SPREAD_FLOOR);
	assert_int_equal(c.from, NEED_CHOSEN_PREDICTED);
	assert_int_equal(c.note, NEED_NOTE_MISSING);
	need_predictor_free(&h);
}

static void test_pending_and_turned_off(void **state)
{
	const char *extra[] = { "dfrs:measured=7:0.30@1000" };
	need_job_t j = running(7, NULL, extra, 1);
	dfrs_params_t p = params(0.9, 0);
	need_predictor_t h;
	need_choice_t c;

	/* dfrs_need_stale=0: measurements are not used */
	need_choose(&j, &p, NULL, 1000, &c);
	assert_need(c, 0.9);
	assert_int_equal(c.from, NEED_CHOSEN_DEFAULT);
	assert_int_equal(c.note, NEED_NOTE_NONE);
	/* a pending job: its nodes' reports are not its own */
	p.need_stale = 180;
	j.running = false;
	assert_int_equal(need_predictor_init(&h, 0), 0);
	assert_int_equal(need_predictor_observe(&h, 5, "other", 0.5), 0);
	need_choose(&j, &p, &h, 1000, &c);
	/* same user, another name: the user's key */
	assert_need(c, 0.5 + NEED_K * NEED_SPREAD_FLOOR);
	assert_int_equal(c.from, NEED_CHOSEN_PREDICTED);
	assert_int_equal(c.note, NEED_NOTE_NONE);
	j.user = 6;
	need_choose(&j, &p, &h, 1000, &c);
	assert_need(c, 0.9);
	assert_int_equal(c.from, NEED_CHOSEN_DEFAULT);
	assert_string_equal(need_chosen_name(c.from), "default");
	assert_string_equal(need_chosen_name(NEED_CHOSEN_MEASURED), "measured");
	need_predictor_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declared_wins),
		cmocka_unit_test(test_measured_largest_over_nodes),
		cmocka_unit_test(test_stale_gives_default_naming_node),
		cmocka_unit_test(test_malformed_gives_default_naming_node),
		cmocka_unit_test(test_missing_gives_prediction_then_default),
		cmocka_unit_test(test_pending_and_turned_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
