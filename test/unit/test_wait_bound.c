/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_wait_bound.c - the availability policy's wait ends: at
 * amcbf_avail_wait_factor times the expected OFF period of the job's OFF
 * hosts (slot / p01, p01 floored at 0.01); and a node drained for
 * maintenance makes no job wait unless the site asks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "avail/wait_bound.h"

static void test_expected_off(void **state)
{
	(void)state;
	/* p01 0.25 with 60 s slots: 4 slots */
	assert_true(wait_bound_expected_off(0.25, 60) == 240);
	assert_true(wait_bound_expected_off(1, 60) == 60);
	/* never seen ending, or unknown: 100 slots, not for ever */
	assert_true(wait_bound_expected_off(0, 60) == 6000);
	assert_true(wait_bound_expected_off(NAN, 60) == 6000);
	assert_true(wait_bound_expected_off(0.001, 2) == 200);
}

static void test_limit(void **state)
{
	(void)state;
	/* the default factor 3 over 240 s */
	assert_true(wait_bound_limit(240, 3) == 720);
	/* 0: no bound */
	assert_true(wait_bound_limit(240, 0) == 0);
	assert_false(wait_bound_over(1e9, 0));
	assert_false(wait_bound_over(719, 720));
	assert_true(wait_bound_over(720, 720));
	assert_true(wait_bound_over(7200, 720));
}

static void test_off_acts(void **state)
{
	(void)state;
	/* drained for maintenance (up, responding, not loaded): no */
	assert_false(wait_bound_off_acts(false, false, false, true, false));
	/* unless the site asks */
	assert_true(wait_bound_off_acts(false, false, false, true, true));
	/* down, failing or loaded from outside: yes, drained or not */
	assert_true(wait_bound_off_acts(true, false, false, true, false));
	assert_true(wait_bound_off_acts(false, true, false, false, false));
	assert_true(wait_bound_off_acts(false, false, true, true, false));
	assert_true(wait_bound_off_acts(false, false, true, false, false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expected_off),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_off_acts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
