/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_limit_charge.c - the time limit sched/amcbf gives back to a
 * running job: the CPU it was denied by the node agents' measurements
 * (a foreground job beside a background one, a background job that got
 * some idle CPU, a job alone on its nodes), the believed tier or yield
 * only where no fresh measurement exists, and the settling of what was
 * paid ahead for the next cycle.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/limit_charge.h"

static double denied(limit_charge_in_t in, limit_charge_basis_t want)
{
	limit_charge_basis_t b = (limit_charge_basis_t)-1;
	double d = limit_charge_denied(&in, &b);

	assert_int_equal(b, want);
	return d;
}

/* A foreground job at yield 1 that got half the CPU it uses alone: the
 * believed yield owes it nothing, the measurement half of the time. */
static void test_foreground_beside_background(void **state)
{
	(void)state;
	limit_charge_in_t in = { .yield = 1, .measured = 1, .used = 0.5,
				 .alone = 1, .shared = 1 };

	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0.5);
	in.measured = 0;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 0);
}

/* A background job that got a quarter of its need from idle CPU: owed
 * three quarters, not the whole wall time. */
static void test_background_got_some(void **state)
{
	(void)state;
	limit_charge_in_t in = { .background = 1, .yield = 1, .measured = 1,
				 .used = 0.125, .alone = 0.5, .shared = 1 };

	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0.75);
	in.measured = 0;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 1);
}

/* A DFRS yield the job did not get: measured 0.25 of a need of 1 at a
 * believed yield of 0.5 is owed 0.75. */
static void test_yield_not_received(void **state)
{
	(void)state;
	limit_charge_in_t in = { .yield = 0.5, .measured = 1, .used = 0.25,
				 .alone = 1, .shared = 1 };

	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0.75);
	in.measured = 0;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 0.5);
}

/* A job alone on its nodes had what it would have alone, whatever it
 * used; one that used more than its need was denied nothing. */
static void test_alone_or_more(void **state)
{
	(void)state;
	limit_charge_in_t in = { .background = 1, .yield = 0.25,
				 .measured = 1, .used = 0.25, .alone = 1 };

	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0);
	in.shared = 1;
	in.used = 1;
	in.alone = 0.5;
	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0);
	/* out-of-range figures are clamped, never negative or over 1 */
	in.used = -1;
	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 1);
	in.used = 0.5;
	in.alone = 0;
	assert_true(denied(in, LIMIT_CHARGE_MEASURED) == 0);
}

/* With no fresh measurement: the tier, the yield, or all of it when no
 * yield is known. */
static void test_believed(void **state)
{
	(void)state;
	limit_charge_in_t in = { .yield = -1 };

	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 1);
	in.yield = 0.75;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 0.25);
	in.yield = 1.5;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 0);
	in.background = 1;
	assert_true(denied(in, LIMIT_CHARGE_BELIEVED) == 1);
	assert_true(limit_charge_denied(&in, NULL) == 1);
}

/* Paid ahead for the next 30 s, settled at the next charge. */
static void test_step(void **state)
{
	(void)state;
	limit_charge_t c = { 0 };

	/* first charge: nothing elapsed, 30 s ahead at 0.5 */
	assert_int_equal(limit_charge_step(&c, 0.5, 0, 30), 15);
	assert_true(c.ahead == 15 && c.owed == 0);
	/* 40 s at 0.5: 20 due, 15 paid, 15 more ahead */
	assert_int_equal(limit_charge_step(&c, 0.5, 40, 30), 20);
	/* 30 s at 0.25 with 15 paid ahead: 7.5 - 15 + 7.5 = 0 */
	assert_int_equal(limit_charge_step(&c, 0.25, 30, 30), 0);
	assert_true(c.owed == 0 && c.ahead == 7.5);
	/* 10 s at 0: 0 - 7.5 + 0: nothing taken back, the balance kept */
	assert_int_equal(limit_charge_step(&c, 0, 10, 30), 0);
	assert_true(c.owed == -7.5 && c.ahead == 0);
	/* 20 s at 0.5 and 30 s ahead: -7.5 + 10 + 15 = 17.5 */
	assert_int_equal(limit_charge_step(&c, 0.5, 20, 30), 17);
	assert_true(c.owed == 0.5);
	/* no horizon: what elapsed less the 15 paid ahead: -12 kept */
	assert_int_equal(limit_charge_step(&c, 1, 2.5, 0), 0);
	assert_true(c.owed == -12 && c.ahead == 0);
	assert_int_equal(limit_charge_step(&c, 1, 13.75, 0), 1);
	assert_true(c.owed == 0.75);
	assert_int_equal(limit_charge_step(&c, 1, 0.25, -5), 1);
	assert_true(c.owed == 0 && c.ahead == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_foreground_beside_background),
		cmocka_unit_test(test_background_got_some),
		cmocka_unit_test(test_yield_not_received),
		cmocka_unit_test(test_alone_or_more),
		cmocka_unit_test(test_believed),
		cmocka_unit_test(test_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
