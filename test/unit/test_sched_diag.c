/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_diag.c - sched/amcbf's cycles counted into the backfill block
 * of Slurm's scheduler statistics as sched/backfill counts its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "suite/sched_diag.h"

/* Two cycles: the "last" fields are the second's, the sums both, the max
 * the longer one's, the times rounded to whole microseconds. */
static void test_two_cycles(void **state)
{
	sched_diag_bf_t bf = { 0 };
	sched_diag_cycle_t a = { .usec = 1520.4, .queue_len = 40, .depth = 30,
				 .depth_try = 25, .started = 6,
				 .when = 1795372025 };
	sched_diag_cycle_t b = { .usec = 980.6, .queue_len = 34, .depth = 34,
				 .depth_try = 33, .started = 2,
				 .when = 1795372026 };

	(void)state;
	sched_diag_add_cycle(&bf, &a);
	sched_diag_add_cycle(&bf, &b);
	assert_int_equal(bf.bf_cycle_counter, 2);
	assert_int_equal(bf.bf_cycle_last, 981);
	assert_int_equal(bf.bf_cycle_max, 1520);
	assert_int_equal(bf.bf_cycle_sum, 1520 + 981);
	assert_int_equal(bf.bf_last_depth, 34);
	assert_int_equal(bf.bf_last_depth_try, 33);
	assert_int_equal(bf.bf_depth_sum, 64);
	assert_int_equal(bf.bf_depth_try_sum, 58);
	assert_int_equal(bf.bf_queue_len, 34);
	assert_int_equal(bf.bf_queue_len_sum, 74);
	assert_int_equal(bf.backfilled_jobs, 8);
	assert_int_equal(bf.last_backfilled_jobs, 8);
	assert_int_equal(bf.bf_when_last_cycle, 1795372026);
	assert_int_equal(bf.exit_end, 2);
	assert_int_equal(bf.exit_timeout, 0);
}

/* After sdiag -r (Slurm zeroed the cycle counters, kept backfilled_jobs)
 * the counting goes on from what Slurm left, not from the plugin's own
 * totals. */
static void test_after_reset(void **state)
{
	sched_diag_bf_t bf = { .backfilled_jobs = 100, .bf_cycle_max = 0,
			       .bf_when_last_cycle = 1795372000 };
	sched_diag_cycle_t c = { .usec = 200, .queue_len = 3, .depth = 3,
				 .depth_try = 3, .started = 1,
				 .when = 1795372100 };

	(void)state;
	sched_diag_add_cycle(&bf, &c);
	assert_int_equal(bf.backfilled_jobs, 101);
	assert_int_equal(bf.last_backfilled_jobs, 1);
	assert_int_equal(bf.bf_cycle_counter, 1);
	assert_int_equal(bf.bf_cycle_max, 200);
	assert_int_equal(bf.bf_cycle_sum, 200);
}

/* A read cut short by amcbf_max_read_time is Slurm's "Timeout
 * (max_sched_time)" exit; an idle cycle still counts, with zero depth. */
static void test_exits_and_idle(void **state)
{
	sched_diag_bf_t bf = { 0 };
	sched_diag_cycle_t cut = { .usec = 5000, .queue_len = 2000,
				   .depth = 700, .depth_try = 690,
				   .read_cut = true, .when = 10 };
	sched_diag_cycle_t idle = { .usec = 40, .when = 11 };

	(void)state;
	sched_diag_add_cycle(&bf, &cut);
	assert_int_equal(bf.exit_timeout, 1);
	assert_int_equal(bf.exit_end, 0);
	assert_int_equal(bf.bf_last_depth, 700);
	sched_diag_add_cycle(&bf, &idle);
	assert_int_equal(bf.exit_timeout, 1);
	assert_int_equal(bf.exit_end, 1);
	assert_int_equal(bf.bf_cycle_counter, 2);
	assert_int_equal(bf.bf_last_depth, 0);
	assert_int_equal(bf.bf_queue_len, 0);
	assert_int_equal(bf.bf_queue_len_sum, 2000);
	assert_int_equal(bf.bf_cycle_last, 40);
	assert_int_equal(bf.bf_cycle_max, 5000);
}

/* Times beyond 32 bits stop at UINT32_MAX; negative or NaN ones are 0. */
static void test_time_bounds(void **state)
{
	sched_diag_bf_t bf = { 0 };
	sched_diag_cycle_t c = { .usec = 1e12 };

	(void)state;
	sched_diag_add_cycle(&bf, &c);
	assert_int_equal(bf.bf_cycle_last, UINT32_MAX);
	assert_int_equal(bf.bf_cycle_max, UINT32_MAX);
	assert_int_equal(bf.bf_cycle_sum, UINT32_MAX);
	c.usec = -3;
	sched_diag_add_cycle(&bf, &c);
	assert_int_equal(bf.bf_cycle_last, 0);
	c.usec = NAN;
	sched_diag_add_cycle(&bf, &c);
	assert_int_equal(bf.bf_cycle_last, 0);
	assert_int_equal(bf.bf_cycle_counter, 3);
	assert_int_equal(bf.bf_cycle_max, UINT32_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cycles),
		cmocka_unit_test(test_after_reset),
		cmocka_unit_test(test_exits_and_idle),
		cmocka_unit_test(test_time_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
