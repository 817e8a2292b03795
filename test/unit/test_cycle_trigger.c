/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cycle_trigger.c - when a job's submission or end starts a
 * sched/amcbf cycle (amcbf/cycle_trigger.h): once slurmctld's job counters
 * moved, and four times the last cycle's length after it ended.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/cycle_trigger.h"

static void test_due_when_counters_move(void **state)
{
	cycle_trigger_t t = { 0 };

	(void)state;
	/* the first look: counters at 0, nothing seen yet */
	assert_false(cycle_trigger_due(&t, 0, 10.0));
	assert_true(cycle_trigger_due(&t, 3, 10.0));
	cycle_trigger_began(&t, 3);
	cycle_trigger_ended(&t, 10.0078125, 0.0078125);
	/* nothing moved since */
	assert_false(cycle_trigger_due(&t, 3, 10.5));
	/* a submission: due 4 x 7.8 ms after the end */
	assert_false(cycle_trigger_due(&t, 4, 10.03125));
	assert_true(cycle_trigger_due(&t, 4, 10.0390625));
	/* sdiag -r zeroed them: a move too */
	assert_true(cycle_trigger_due(&t, 0, 10.1));
}

/* a cycle of 250 ms: the next one for an event a second after it ended */
static void test_gap_follows_cycle_length(void **state)
{
	cycle_trigger_t t = { 0 };

	(void)state;
	cycle_trigger_began(&t, 100);
	cycle_trigger_ended(&t, 50.25, 0.25);
	assert_false(cycle_trigger_due(&t, 101, 51.125));
	assert_true(cycle_trigger_due(&t, 101, 51.25));
	/* a clock step back never makes a negative length */
	cycle_trigger_ended(&t, 51.5, -0.5);
	assert_true(cycle_trigger_due(&t, 101, 51.5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_due_when_counters_move),
		cmocka_unit_test(test_gap_follows_cycle_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
