/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stretch_drift.c - the drift guard (stretch_drift.h):
 * the run stretch sum, when it enters drift (on the cycle it should, not
 * before the window is half full, not on the cycle at the bound), that it
 * says so once and leaves once (hysteresis), window expiry, an empty
 * cluster, zero and negative durations, a clock going backwards.
 *
 * Window 600 s: buckets 10 s wide, ids t / 10; at id i the window is the
 * buckets i-60..i-1 and is judged once its oldest is at most i-30.
 */
#include <math.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/stretch_drift.h"

static void init(stretch_drift_t *d)
{
	stretch_drift_config_t c = { .window = 600, .factor = 3,
				     .min_work = 600 };

	stretch_drift_init(d, &c);
}

/* A cycle at t whose running jobs' mean run stretch is m (>= 1): one job
 * with 1000 s of work, started 1000 m s ago. */
static stretch_drift_event_t feed(stretch_drift_t *d, double t, double m)
{
	stretch_drift_sum_t s = { 0 };

	assert_int_equal(stretch_drift_add(&s, 1000 * m, 1000, 600), 0);
	return stretch_drift_feed(d, t, &s);
}

/* A cycle every 10 s on [from, to) at mean m, none changing the state. */
static void steady(stretch_drift_t *d, double from, double to, double m)
{
	for (double t = from; t < to; t += 10)
		assert_int_equal(feed(d, t, m), STRETCH_DRIFT_NONE);
}

static void test_sum(void **state)
{
	stretch_drift_sum_t s = { 0 };

	(void)state;
	assert_true(stretch_drift_mean(&s) == 0);
	/* 1200 s since its first start, 300 s of work: counts 600 s */
	assert_int_equal(stretch_drift_add(&s, 1200, 300, 600), 0);
	/* ran alone: 100 s since start, 1000 s of work: stretch 1 */
	assert_int_equal(stretch_drift_add(&s, 100, 1000, 600), 0);
	assert_true(s.span == 2200 && s.work == 1600 && s.n == 2);
	assert_true(stretch_drift_mean(&s) == 2200.0 / 1600.0);
	/* just started (0 s, 0 work), negative work: stretch 1 each */
	assert_int_equal(stretch_drift_add(&s, 0, 0, 600), 0);
	assert_int_equal(stretch_drift_add(&s, 0, -5, 600), 0);
	assert_true(s.span == 3400 && s.work == 2800 && s.n == 4);
	/* a start after now (clock behind), NaN, no min_work: not counted */
	assert_int_equal(stretch_drift_add(&s, -1, 100, 600), -1);
	assert_int_equal(stretch_drift_add(&s, NAN, 100, 600), -1);
	assert_int_equal(stretch_drift_add(&s, 10, INFINITY, 600), -1);
	assert_int_equal(stretch_drift_add(&s, 10, 100, 0), -1);
	assert_true(s.span == 3400 && s.work == 2800 && s.n == 4);
}

static void test_check(void **state)
{
	stretch_drift_config_t c;
	char err[128];

	(void)state;
	stretch_drift_defaults(&c);
	assert_true(c.window == 3600 && c.factor == 3 && c.min_work == 600);
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), 0);
	c.factor = 1;
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "factor"));
	c.factor = 3;
	c.window = -1;
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "window"));
	c.window = 0;	/* off */
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), 0);
	c.min_work = 0;
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "min_work"));
	c.min_work = NAN;
	assert_int_equal(stretch_drift_check(&c, err, sizeof(err)), -1);
}

/* Enters on the first cycle over factor x the window's mean, not at it;
 * says so once however long it lasts; leaves once, halfway back. */
static void test_enter_once_leave_once(void **state)
{
	stretch_drift_t d;

	(void)state;
	init(&d);
	steady(&d, 0, 300, 1.0);	/* ids 0..29 */
	/* id 30: the window (0..29, all 1.0) is half a window old */
	assert_int_equal(feed(&d, 300, 3.0), STRETCH_DRIFT_NONE);
	assert_int_equal(d.drifting, 0);
	assert_int_equal(feed(&d, 301, 3.001), STRETCH_DRIFT_ENTER);
	assert_true(d.baseline == 1.0 && d.window_mean == 1.0);
	assert_true(d.current == 3.001);
	assert_int_equal(d.entries, 1);
	/* no repeat while it lasts, even once the window is full of it */
	steady(&d, 310, 1500, 10.0);
	assert_int_equal(d.entries, 1);
	assert_int_equal(d.drifting, 1);
	/* leaves at (1 + 3) / 2 x the baseline, not above */
	assert_int_equal(feed(&d, 1500, 2.001), STRETCH_DRIFT_NONE);
	assert_int_equal(feed(&d, 1510, 2.0), STRETCH_DRIFT_LEAVE);
	assert_int_equal(d.drifting, 0);
	assert_true(stretch_drift_seconds(&d, 5000) == 1510 - 301);
	/* and stays out: the window now holds the drift */
	steady(&d, 1520, 1600, 2.0);
	assert_int_equal(d.entries, 1);
}

/* Swinging across the entry bound: one entry, no leave (hysteresis). */
static void test_no_flapping(void **state)
{
	stretch_drift_t d;
	int entered = 0, left = 0;

	(void)state;
	init(&d);
	steady(&d, 0, 300, 1.0);
	for (int i = 0; i < 40; i++) {
		stretch_drift_event_t e = feed(&d, 300 + 10 * i,
					       i % 2 ? 3.5 : 2.5);

		entered += e == STRETCH_DRIFT_ENTER;
		left += e == STRETCH_DRIFT_LEAVE;
	}
	assert_int_equal(entered, 1);
	assert_int_equal(left, 0);
	assert_true(stretch_drift_seconds(&d, 700) == 700 - 310);
}

/* Nothing is judged before the window is half a window old. */
static void test_not_before_half_window(void **state)
{
	stretch_drift_t d;

	(void)state;
	init(&d);
	/* nothing at all to compare with */
	assert_int_equal(feed(&d, 0, 100), STRETCH_DRIFT_NONE);
	init(&d);
	steady(&d, 0, 290, 1.0);	/* ids 0..28 */
	/* id 29: the oldest bucket, 0, is under half a window old */
	assert_int_equal(feed(&d, 290, 100), STRETCH_DRIFT_NONE);
	assert_true(d.window_mean == 0);
	/* id 30: buckets 0..28 at 1, 29 at 100 */
	assert_int_equal(feed(&d, 300, 100), STRETCH_DRIFT_ENTER);
	assert_true(fabs(d.baseline - 129.0 / 30.0) < 1e-12);
}

/* Buckets older than the window no longer count. */
static void test_window_expiry(void **state)
{
	stretch_drift_t d;

	(void)state;
	init(&d);
	steady(&d, 0, 300, 1.0);	/* ids 0..29 */
	/* nothing on ids 30..59 */
	steady(&d, 600, 900, 2.9);	/* ids 60..89 */
	/* id 90: the window is 30..89, i.e. only the 2.9s: 8.0 is under
	 * 3 x 2.9 (were ids 0..29 still counted, the mean would be 1.95
	 * and 8.0 a drift) */
	assert_int_equal(feed(&d, 900, 8.0), STRETCH_DRIFT_NONE);
	assert_true(fabs(d.window_mean - 2.9) < 1e-12);
	assert_int_equal(feed(&d, 901, 8.8), STRETCH_DRIFT_ENTER);
	/* a window gone quiet for longer than itself: nothing to judge */
	init(&d);
	steady(&d, 0, 600, 1.0);
	assert_int_equal(feed(&d, 1300, 50), STRETCH_DRIFT_NONE);
	assert_true(d.window_mean == 0);
}

/* A cycle with no running job is no sample and decides nothing. */
static void test_empty_cluster(void **state)
{
	stretch_drift_t d;
	stretch_drift_sum_t none = { 0 };

	(void)state;
	init(&d);
	steady(&d, 0, 300, 1.0);	/* ids 0..29 */
	for (double t = 300; t < 600; t += 10)
		assert_int_equal(stretch_drift_feed(&d, t, &none),
				 STRETCH_DRIFT_NONE);
	assert_true(d.current == 1.0);
	/* id 60: window 0..59 holds only the 1.0s (were the empty cycles
	 * zeros, its mean would be 0.5 and 2.0 a drift) */
	assert_int_equal(feed(&d, 600, 2.0), STRETCH_DRIFT_NONE);
	assert_true(d.window_mean == 1.0);
	assert_int_equal(feed(&d, 601, 3.01), STRETCH_DRIFT_ENTER);
	/* the cluster empties during a drift: no leave, no new entry */
	for (double t = 610; t < 2000; t += 10)
		assert_int_equal(stretch_drift_feed(&d, t, &none),
				 STRETCH_DRIFT_NONE);
	assert_int_equal(d.drifting, 1);
	assert_int_equal(d.entries, 1);
}

/* Window 0 is off: never a drift. */
static void test_off(void **state)
{
	stretch_drift_config_t c = { .window = 0, .factor = 3,
				     .min_work = 600 };
	stretch_drift_t d;

	(void)state;
	stretch_drift_init(&d, &c);
	for (double t = 0; t < 2000; t += 10)
		assert_int_equal(feed(&d, t, t < 1000 ? 1 : 1000),
				 STRETCH_DRIFT_NONE);
	assert_int_equal(d.entries, 0);
	/* a time before the epoch or not finite: nothing */
	init(&d);
	assert_int_equal(feed(&d, -10, 5), STRETCH_DRIFT_NONE);
	assert_int_equal(feed(&d, NAN, 5), STRETCH_DRIFT_NONE);
	assert_int_equal(d.fed, 0);
}

/* A clock going backwards empties the window; a drift keeps its
 * baseline and may still end. */
static void test_clock_backwards(void **state)
{
	stretch_drift_t d;

	(void)state;
	init(&d);
	steady(&d, 1000, 1600, 1.0);	/* ids 100..159 */
	/* back to id 150: had the window kept ids 100..149 (warm, mean 1),
	 * 100 would be a drift */
	assert_int_equal(feed(&d, 1500, 100), STRETCH_DRIFT_NONE);
	assert_true(d.window_mean == 0);
	/* it fills again from there (the 100 at id 150 leaves the window
	 * at id 211) */
	steady(&d, 1510, 2110, 1.0);	/* ids 151..210 */
	assert_int_equal(feed(&d, 2110, 5), STRETCH_DRIFT_ENTER);
	assert_true(d.baseline == 1.0);
	/* back again during the drift: it stays, then ends on its baseline */
	assert_int_equal(feed(&d, 2000, 10), STRETCH_DRIFT_NONE);
	assert_int_equal(d.drifting, 1);
	assert_int_equal(feed(&d, 2010, 1.5), STRETCH_DRIFT_LEAVE);
	assert_int_equal(d.entries, 1);
	/* none before the jump (2110 to 2110), 2000 to 2010 after it */
	assert_true(stretch_drift_seconds(&d, 2020) == 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_enter_once_leave_once),
		cmocka_unit_test(test_no_flapping),
		cmocka_unit_test(test_not_before_half_window),
		cmocka_unit_test(test_window_expiry),
		cmocka_unit_test(test_empty_cluster),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_clock_backwards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
