/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hold_budget.c - a hold of slurmctld's locks stops once one more
 * step as long as the longest of the last HOLD_BUDGET_RECENT would pass
 * its budget of wall time; a step that waited for a CPU counts at its wall
 * time; after the locks were given up and taken again the last steps stay
 * the estimate, and once HOLD_BUDGET_RECENT steps have followed a long one
 * it no longer counts.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/hold_budget.h"

/* Steps of 10 ms in a budget of 200 ms: the hold goes on while one more
 * fits (180 + 10 < 200), stops at 190 (190 + 10 is not under 200). */
static void test_even_steps(void **state)
{
	hold_budget_t b;

	(void)state;
	hold_budget_begin(&b, 200, 0);
	for (int t = 10; t <= 180; t += 10)
		assert_true(hold_budget_step(&b, t));
	assert_false(hold_budget_step(&b, 190));
	assert_int_equal(b.steps, 19);
	assert_true(b.step_ms == 10);
}

/* One step that waited 120 ms for a CPU: the next hold stops as soon as
 * that long a step would not fit, not at the budget's end. */
static void test_preempted_step(void **state)
{
	hold_budget_t b;

	(void)state;
	hold_budget_begin(&b, 200, 0);
	assert_true(hold_budget_step(&b, 5));
	assert_true(hold_budget_step(&b, 10));
	/* 10 -> 130: preempted; 130 + 120 passes 200 */
	assert_false(hold_budget_step(&b, 130));
	assert_true(b.step_ms == 120);
	/* taken again: from 0, a 120 ms step still expected */
	hold_budget_retaken(&b);
	assert_int_equal(b.steps, 0);
	assert_true(hold_budget_step(&b, 40));	/* 40 + 120 < 200 */
	assert_false(hold_budget_step(&b, 85));	/* 85 + 120 >= 200 */
	assert_int_equal(b.steps, 2);
	assert_true(b.step_ms == 120);
}

/* One step of 120 ms (the thread waited for a CPU), then steps of 5 ms:
 * the first holds after it stop early, and from the eighth short step on
 * the estimate is 5 ms again: the hold goes on to 195 ms (with the
 * longest step ever as the estimate it would stop at 80 ms, and every
 * later hold too). */
static void test_estimate_decays(void **state)
{
	hold_budget_t b;
	int t;

	(void)state;
	hold_budget_begin(&b, 200, 0);
	assert_true(hold_budget_step(&b, 5));
	assert_false(hold_budget_step(&b, 125));	/* 125 + 120 >= 200 */
	hold_budget_retaken(&b);
	/* 7 steps of 5 ms after it: the 120 ms step is still among the
	 * last 8 */
	for (t = 5; t <= 35; t += 5)
		assert_true(hold_budget_step(&b, t));
	assert_true(b.step_ms == 120);
	/* the eighth pushes it out */
	assert_true(hold_budget_step(&b, 40));
	assert_true(b.step_ms == 5);
	for (t = 45; t <= 190; t += 5)
		assert_true(hold_budget_step(&b, t));
	assert_false(hold_budget_step(&b, 195));	/* 195 + 5 >= 200 */
	assert_int_equal(b.steps, 39);
}

/* Steps counted from where they began (e.g. after the running jobs of a
 * read): the time before is no step. */
static void test_begin_late(void **state)
{
	hold_budget_t b;

	(void)state;
	hold_budget_begin(&b, 200, 150);
	assert_true(hold_budget_step(&b, 151));	/* 151 + 1 < 200 */
	assert_true(b.step_ms == 1);
	assert_true(hold_budget_step(&b, 170));	/* 170 + 19 < 200 */
	assert_false(hold_budget_step(&b, 185));	/* 185 + 19 >= 200 */
}

/* No budget: never stops, the steps still counted. */
static void test_no_budget(void **state)
{
	hold_budget_t b;

	(void)state;
	hold_budget_begin(&b, 0, 0);
	assert_true(hold_budget_step(&b, 500));
	assert_true(hold_budget_step(&b, 5000));
	assert_int_equal(b.steps, 2);
	assert_true(b.step_ms == 4500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_even_steps),
		cmocka_unit_test(test_preempted_step),
		cmocka_unit_test(test_estimate_decays),
		cmocka_unit_test(test_begin_late),
		cmocka_unit_test(test_no_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
