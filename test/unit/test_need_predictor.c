/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_need_predictor.c - the CPU-need history: the fallback order (job
 * name, user, default), the estimate's exact values (mean + one standard
 * deviation, at least the floor, clamped), the window that follows a
 * change, the bound on keys (least recent forgotten), and the state file:
 * exact text, round trip, and every corrupt input refused with a message
 * and an empty history.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "need/need_predictor.h"

#define EPS 1e-12

static void test_fallback_order(void **state)
{
	need_predictor_t p;
	need_source_t from;

	assert_int_equal(need_predictor_init(&p, 0), 0);
	assert_int_equal(p.capacity, NEED_CAPACITY_DEFAULT);
	assert_float_equal(need_predictor_predict(&p, 1001, "a", 0.7, &from),
			   0.7, EPS);
	assert_int_equal(from, NEED_FROM_DEFAULT);
	assert_int_equal(need_predictor_observe(&p, 1001, "a", 0.4), 0);
	/* stable so far: the mean plus the floor */
	assert_float_equal(need_predictor_predict(&p, 1001, "a", 0.7, &from),
			   0.42, EPS);
	assert_int_equal(from, NEED_FROM_JOB);
	assert_float_equal(need_predictor_predict(&p, 1001, "b", 0.7, &from),
			   0.42, EPS);
	assert_int_equal(from, NEED_FROM_USER);
	assert_float_equal(need_predictor_predict(&p, 1001, NULL, 0.7, &from),
			   0.42, EPS);
	assert_int_equal(from, NEED_FROM_USER);
	assert_float_equal(need_predictor_predict(&p, 1002, "a", 0.7, &from),
			   0.7, EPS);
	assert_int_equal(from, NEED_FROM_DEFAULT);
	/* a job without a name feeds only its user's key */
	assert_int_equal(need_predictor_observe(&p, 1003, "", 0.5), 0);
	assert_float_equal(need_predictor_predict(&p, 1003, "", 1, &from),
			   0.52, EPS);
	assert_int_equal(from, NEED_FROM_USER);
	assert_int_equal(p.used, 3);
	need_predictor_free(&p);
}

static void test_estimate_values(void **state)
{
	need_predictor_t p;

	assert_int_equal(need_predictor_init(&p, 16), 0);
	/* job a: 0.4 then 0.6, mean 0.5, sd 0.1 */
	need_predictor_observe(&p, 7, "a", 0.4);
	need_predictor_observe(&p, 7, "a", 0.6);
	assert_float_equal(need_predictor_predict(&p, 7, "a", 1, NULL),
			   0.6, EPS);
	/* user 8: 0.2, 0.2, 0.8, 0.8 over two names: mean 0.5, sd 0.3 */
	need_predictor_observe(&p, 8, "x", 0.2);
	need_predictor_observe(&p, 8, "x", 0.2);
	need_predictor_observe(&p, 8, "y", 0.8);
	need_predictor_observe(&p, 8, "y", 0.8);
	assert_float_equal(need_predictor_predict(&p, 8, "z", 1, NULL),
			   0.8, EPS);
	assert_float_equal(need_predictor_predict(&p, 8, "x", 1, NULL),
			   0.22, EPS);
	/* clamped to 0.01..1 */
	need_predictor_observe(&p, 9, "full", 1.0);
	assert_float_equal(need_predictor_predict(&p, 9, "full", 0.5, NULL),
			   1.0, EPS);
	need_predictor_observe(&p, 9, "idle", 0.0);
	assert_float_equal(need_predictor_predict(&p, 9, "idle", 0.5, NULL),
			   0.02, EPS);
	need_predictor_free(&p);
}

static void test_window_follows_change(void **state)
{
	need_predictor_t p;

	assert_int_equal(need_predictor_init(&p, 4), 0);
	for (int i = 0; i < 100; i++)
		need_predictor_observe(&p, 1, "w", 0.5);
	assert_float_equal(need_predictor_predict(&p, 1, "w", 1, NULL),
			   0.52, EPS);
	/* weight 1/8 now: mean 0.55, variance 7/8 * 1/8 * 0.16 */
	need_predictor_observe(&p, 1, "w", 0.9);
	assert_float_equal(need_predictor_predict(&p, 1, "w", 1, NULL),
			   0.55 + sqrt(0.0175), 1e-9);
	need_predictor_free(&p);
}

static void test_bad_observation(void **state)
{
	need_predictor_t p;

	assert_int_equal(need_predictor_init(&p, 4), 0);
	assert_int_equal(need_predictor_observe(&p, 1, "a", -0.1), -1);
	assert_int_equal(need_predictor_observe(&p, 1, "a", 1.5), -1);
	assert_int_equal(need_predictor_observe(&p, 1, "a", NAN), -1);
	assert_int_equal(p.used, 0);
	assert_int_equal(p.clock, 0);
	need_predictor_free(&p);
}

static void test_bounded_least_recent_forgotten(void **state)
{
	need_predictor_t p;
	need_source_t from;

	assert_int_equal(need_predictor_init(&p, 2), 0);
	need_predictor_observe(&p, 1, NULL, 0.1);
	need_predictor_observe(&p, 2, NULL, 0.2);
	need_predictor_observe(&p, 1, NULL, 0.1);	/* 1 is recent again */
	need_predictor_observe(&p, 3, NULL, 0.3);	/* 2 goes */
	assert_int_equal(p.used, 2);
	need_predictor_predict(&p, 2, NULL, 0.9, &from);
	assert_int_equal(from, NEED_FROM_DEFAULT);
	assert_float_equal(need_predictor_predict(&p, 1, NULL, 0.9, &from),
			   0.12, EPS);
	assert_int_equal(from, NEED_FROM_USER);
	assert_float_equal(need_predictor_predict(&p, 3, NULL, 0.9, &from),
			   0.32, EPS);
	/* a named job takes two keys: both others go */
	need_predictor_observe(&p, 4, "n", 0.6);
	need_predictor_predict(&p, 1, NULL, 0.9, &from);
	assert_int_equal(from, NEED_FROM_DEFAULT);
	need_predictor_predict(&p, 4, "n", 0.9, &from);
	assert_int_equal(from, NEED_FROM_JOB);
	need_predictor_free(&p);
}

static void test_long_names_share_prefix(void **state)
{
	need_predictor_t p;
	char a[100], b[100];
	need_source_t from;

	memset(a, 'x', 99);
	a[99] = 0;
	memcpy(b, a, sizeof(a));
	b[80] = 'y';
	assert_int_equal(need_predictor_init(&p, 8), 0);
	need_predictor_observe(&p, 1, a, 0.3);
	assert_float_equal(need_predictor_predict(&p, 1, b, 1, &from), 0.32,
			   EPS);
	assert_int_equal(from, NEED_FROM_JOB);
	assert_int_equal(strlen(p.entries[0].name), NEED_NAME_MAX - 1);
	need_predictor_free(&p);
}

static void test_state_text_exact_and_round_trip(void **state)
{
	need_predictor_t p, q;
	char err[256] = "", *text;

	assert_int_equal(need_predictor_init(&p, 8), 0);
	need_predictor_observe(&p, 1001, "my job%1", 0.5);
	need_predictor_observe(&p, 1002, NULL, 0.25);
	text = need_predictor_to_text(&p);
	assert_non_null(text);
	assert_string_equal(text, "dfrs-need-history 1\n"
			    "j 1001 1 0.5 0 1 my%20job%251\n"
			    "u 1001 1 0.5 0 1\n"
			    "u 1002 1 0.25 0 2\n");
	assert_int_equal(need_predictor_init(&q, 8), 0);
	assert_int_equal(need_predictor_parse(&q, text, err, sizeof(err)), 0);
	assert_int_equal(q.used, 3);
	assert_int_equal(q.clock, 2);
	assert_float_equal(need_predictor_predict(&q, 1001, "my job%1", 1,
						  NULL), 0.52, EPS);
	assert_float_equal(need_predictor_predict(&q, 1002, "z", 1, NULL),
			   0.27, EPS);
	/* the clock goes on from the file's */
	need_predictor_observe(&q, 1003, NULL, 0.1);
	assert_int_equal(q.entries[3].last, 3);
	free(text);
	/* a history with varied needs survives exactly */
	need_predictor_observe(&p, 1001, "my job%1", 0.9);
	text = need_predictor_to_text(&p);
	assert_int_equal(need_predictor_parse(&q, text, err, sizeof(err)), 0);
	assert_true(need_predictor_predict(&q, 1001, "my job%1", 1, NULL) ==
		    need_predictor_predict(&p, 1001, "my job%1", 1, NULL));
	free(text);
	need_predictor_free(&p);
	need_predictor_free(&q);
}

static void test_parse_keeps_most_recent_within_capacity(void **state)
{
	need_predictor_t p;
	char err[256] = "";
	need_source_t from;

	assert_int_equal(need_predictor_init(&p, 2), 0);
	assert_int_equal(need_predictor_parse(&p, "dfrs-need-history 1\n"
			 "u 1 1 0.1 0 5\nu 2 1 0.2 0 1\nu 3 1 0.3 0 9\n",
			 err, sizeof(err)), 0);
	assert_int_equal(p.used, 2);
	need_predictor_predict(&p, 2, NULL, 0.9, &from);
	assert_int_equal(from, NEED_FROM_DEFAULT);
	need_predictor_predict(&p, 1, NULL, 0.9, &from);
	assert_int_equal(from, NEED_FROM_USER);
	assert_int_equal(p.clock, 9);
	/* empty lines at the end are fine (a writer adds a newline) */
	assert_int_equal(need_predictor_parse(&p, "dfrs-need-history 1\n"
			 "u 1 1 0.1 0 5\n\n\n", err, sizeof(err)), 0);
	assert_int_equal(p.used, 1);
	/* no final newline is fine; so is a history with no key */
	assert_int_equal(need_predictor_parse(&p, "dfrs-need-history 1",
					      err, sizeof(err)), 0);
	assert_int_equal(p.used, 0);
	need_predictor_free(&p);
}

static void expect_refused(const char *text, const char *message)
{
	need_predictor_t p;
	char err[256] = "";

	assert_int_equal(need_predictor_init(&p, 4), 0);
	need_predictor_observe(&p, 5, "before", 0.5);
	assert_int_equal(need_predictor_parse(&p, text, err, sizeof(err)), -1);
	assert_string_equal(err, message);
	assert_int_equal(p.used, 0);	/* empty, not half-parsed */
	assert_int_equal(p.clock, 0);
	need_predictor_free(&p);
}

static void test_corrupt_refused(void **state)
{
	expect_refused("", "line 1: not a need history of version 1 "
		       "(expected 'dfrs-need-history 1')");
	expect_refused("dfrs-need-history 2\n", "line 1: not a need history "
		       "of version 1 (expected 'dfrs-need-history 1')");
	expect_refused("dfrs-need-history 1\nu 1 1 1.5 0 1\n",
		       "line 2: mean is not in 0..1");
	expect_refused("dfrs-need-history 1\nu 1 1 0.5 0 1\nu 2 1 0.5 -1 1\n",
		       "line 3: variance is not in 0..1");
	expect_refused("dfrs-need-history 1\nu 1 0 0.5 0 1\n",
		       "line 2: n is 0");
	expect_refused("dfrs-need-history 1\nu 1 1 nan 0 1\n",
		       "line 2: expected <user> <n> <mean> <variance> <last>");
	expect_refused("dfrs-need-history 1\nu 4294967296 1 0.5 0 1\n",
		       "line 2: expected <user> <n> <mean> <variance> <last>");
	expect_refused("dfrs-need-history 1\nu 1 1 0.5 0 1 x\n",
		       "line 2: text after a user's key");
	expect_refused("dfrs-need-history 1\nj 1 1 0.5 0 1\n",
		       "line 2: no job name");
	expect_refused("dfrs-need-history 1\nj 1 1 0.5 0 1 a%2\n",
		       "line 2: a '%' in the name is not followed by two hex "
		       "digits");
	expect_refused("dfrs-need-history 1\nj 1 1 0.5 0 1 a%00\n",
		       "line 2: the name holds %00");
	expect_refused("dfrs-need-history 1\nu 1 1 0.5 0 1\nu 1 1 0.5 0 2\n",
		       "line 3: the key appears twice");
	expect_refused("dfrs-need-history 1\n\nu 1 1 0.5 0 1\n",
		       "line 2: empty line");
	expect_refused("dfrs-need-history 1\nx 1 1 0.5 0 1\n",
		       "line 2: not 'u ...' or 'j ...'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback_order),
		cmocka_unit_test(test_estimate_values),
		cmocka_unit_test(test_window_follows_change),
		cmocka_unit_test(test_bad_observation),
		cmocka_unit_test(test_bounded_least_recent_forgotten),
		cmocka_unit_test(test_long_names_share_prefix),
		cmocka_unit_test(test_state_text_exact_and_round_trip),
		cmocka_unit_test(test_parse_keeps_most_recent_within_capacity),
		cmocka_unit_test(test_corrupt_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
