/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cpu_window.c - the node agent's windowed CPU measurement on
 * synthetic samples: exact fractions over the window, processes that
 * start, end or reuse a pid, time that does not advance, clamping, jobs
 * that leave, and a dfrs-work-like duty cycle measured within 0.05 after
 * three agent intervals.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cpu_window.h"

#define EPS 1e-12

static void sample1(cpu_window_t *w, uint32_t job, double now, double cpu)
{
	cpu_sample_t s = { .pid = 100, .cpu = cpu };

	assert_int_equal(cpu_window_sample(w, job, now, &s, 1), 0);
}

static void test_window_fraction(void **state)
{
	cpu_window_t w;
	double need, span;

	cpu_window_init(&w, 3);
	cpu_window_begin(&w);
	sample1(&w, 7, 10, 50);		/* the base: nothing measured yet */
	assert_int_equal(cpu_window_measure(&w, 7, 1, &need, &span), -1);
	sample1(&w, 7, 12, 51);
	assert_int_equal(cpu_window_measure(&w, 7, 1, &need, &span), 0);
	assert_float_equal(need, 0.5, EPS);
	assert_float_equal(span, 2, EPS);
	sample1(&w, 7, 14, 51);		/* idle */
	sample1(&w, 7, 16, 52);
	sample1(&w, 7, 18, 53);
	/* the last three intervals: 0 + 1 + 1 CPU s over 6 s */
	assert_int_equal(cpu_window_measure(&w, 7, 1, &need, &span), 0);
	assert_float_equal(need, 2.0 / 6, EPS);
	assert_float_equal(span, 6, EPS);
	/* of 2 CPUs held */
	assert_int_equal(cpu_window_measure(&w, 7, 2, &need, NULL), 0);
	assert_float_equal(need, 1.0 / 6, EPS);
	assert_int_equal(cpu_window_measure(&w, 7, 0, &need, NULL), -1);
	assert_int_equal(cpu_window_measure(&w, 8, 1, &need, NULL), -1);
	cpu_window_free(&w);
}

static void test_processes_come_and_go(void **state)
{
	cpu_window_t w;
	double need;
	cpu_sample_t a[] = { { 300, 5 }, { 200, 1 } };
	/* 200 grew by 1, 300 ended, 400 is new with 0.5 */
	cpu_sample_t b[] = { { 200, 2 }, { 400, 0.5 } };
	cpu_sample_t c[] = { { 400, 0.5 }, { 200, 2 }, { 300, 0.25 } };
	/* pid 400 reused: its time went down, so all of it counts */
	cpu_sample_t d[] = { { 400, 0.125 } };

	cpu_window_init(&w, 1);
	cpu_window_begin(&w);
	assert_int_equal(cpu_window_sample(&w, 1, 0, a, 2), 0);
	assert_int_equal(cpu_window_sample(&w, 1, 4, b, 2), 0);
	assert_int_equal(cpu_window_measure(&w, 1, 1, &need, NULL), 0);
	assert_float_equal(need, 1.5 / 4, EPS);
	/* pid 300 again, after a sample without it: a new process */
	assert_int_equal(cpu_window_sample(&w, 1, 5, c, 3), 0);
	assert_int_equal(cpu_window_measure(&w, 1, 1, &need, NULL), 0);
	assert_float_equal(need, 0.25, EPS);
	assert_int_equal(cpu_window_sample(&w, 1, 6, d, 1), 0);
	assert_int_equal(cpu_window_measure(&w, 1, 1, &need, NULL), 0);
	assert_float_equal(need, 0.125, EPS);
	cpu_window_free(&w);
}

static void test_time_not_advancing_and_clamp(void **state)
{
	cpu_window_t w;
	double need;

	cpu_window_init(&w, 0);		/* clamped to 1 */
	assert_int_equal(w.window, 1);
	cpu_window_init(&w, 1000);
	assert_int_equal(w.window, CPU_WINDOW_MAX);
	cpu_window_begin(&w);
	sample1(&w, 3, 5, 0);
	sample1(&w, 3, 5, 9);		/* ignored */
	sample1(&w, 3, 4, 9);		/* ignored */
	assert_int_equal(cpu_window_measure(&w, 3, 1, &need, NULL), -1);
	sample1(&w, 3, 6, 3);		/* 3 CPU s in 1 s on 1 CPU */
	assert_int_equal(cpu_window_measure(&w, 3, 1, &need, NULL), 0);
	assert_float_equal(need, 1, EPS);
	cpu_window_free(&w);
}

static void test_jobs_that_leave_are_forgotten(void **state)
{
	cpu_window_t w;
	double need;

	cpu_window_init(&w, 3);
	cpu_window_begin(&w);
	sample1(&w, 1, 0, 0);
	sample1(&w, 2, 0, 0);
	cpu_window_end(&w);
	cpu_window_begin(&w);
	sample1(&w, 2, 2, 1);
	cpu_window_end(&w);
	assert_int_equal(w.njobs, 1);
	assert_int_equal(cpu_window_measure(&w, 1, 1, &need, NULL), -1);
	assert_int_equal(cpu_window_measure(&w, 2, 1, &need, NULL), 0);
	assert_float_equal(need, 0.5, EPS);
	/* job 1 back: a new base */
	cpu_window_begin(&w);
	sample1(&w, 1, 4, 100);
	cpu_window_end(&w);
	assert_int_equal(cpu_window_measure(&w, 1, 1, &need, NULL), -1);
	cpu_window_free(&w);
}

/* dfrs-work's CPU time at t: each quantum q computes d * q, then sleeps */
static double duty_cpu(double t, double d, double q)
{
	double k = floor(t / q), in = t - k * q;

	return k * q * d + fmin(in, q * d);
}

static void test_duty_cycle_within_three_intervals(void **state)
{
	static const double duty[] = { 0.1, 0.25, 0.42, 0.75, 0.9 };
	/* passes every 2 s, late by up to 0.09 s (a loaded node) */
	static const double at[] = { 3.00, 5.07, 7.01, 9.09 };

	for (size_t d = 0; d < sizeof(duty) / sizeof(duty[0]); d++) {
		cpu_window_t w;
		double need;

		cpu_window_init(&w, CPU_WINDOW_DEFAULT);
		for (size_t i = 0; i < 4; i++) {
			cpu_window_begin(&w);
			sample1(&w, 9, at[i], duty_cpu(at[i], duty[d], 0.5));
			cpu_window_end(&w);
		}
		assert_int_equal(cpu_window_measure(&w, 9, 1, &need, NULL), 0);
		assert_true(fabs(need - duty[d]) <= 0.05);
		/* exactly the CPU time over the wall time */
		assert_float_equal(need, (duty_cpu(9.09, duty[d], 0.5) -
					  duty_cpu(3.00, duty[d], 0.5)) / 6.09,
				   1e-12);
		cpu_window_free(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_fraction),
		cmocka_unit_test(test_processes_come_and_go),
		cmocka_unit_test(test_time_not_advancing_and_clamp),
		cmocka_unit_test(test_jobs_that_leave_are_forgotten),
		cmocka_unit_test(test_duty_cycle_within_three_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
