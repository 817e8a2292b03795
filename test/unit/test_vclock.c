/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_vclock.c - virtual time charged at sub-second resolution (sched/
 * amcbf's cycles, amcbf/vclock.h), and what it changes for GreedyPM
 * (Stillwell et al. 2010): a job that has run half a second, charged in
 * the same second it started, has a finite flow time / virtual time^2
 * and is suspended for a new arrival that needs its host.  Charged in
 * whole seconds it would have virtual time 0, the infinite priority of a
 * job that never ran, and keep its host.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/vclock.h"
#include "dfrs/dfrs_priority.h"
#include "online_fixture.h"

#define EPS 1e-9

static void test_charge(void **state)
{
	double vt = 0, tick = 0;

	(void)state;
	/* read pending at 100.2 (never charged: nothing to count) */
	assert_float_equal(vclock_charge(&vt, &tick, 100.2, 0, false), 0, EPS);
	assert_float_equal(tick, 100.2, EPS);
	/* started then; the next cycle, at 100.7, counts half a second */
	assert_float_equal(vclock_charge(&vt, &tick, 100.7, 1, true), 0.5, EPS);
	assert_float_equal(vt, 0.5, EPS);
	/* at yield 0.5 for 0.75 s */
	assert_float_equal(vclock_charge(&vt, &tick, 101.45, 0.5, true), 0.75,
			   EPS);
	assert_float_equal(vt, 0.875, EPS);
	/* the clock went back: nothing counted, the tick follows it */
	assert_float_equal(vclock_charge(&vt, &tick, 101.0, 1, true), -0.45,
			   EPS);
	assert_float_equal(vt, 0.875, EPS);
	assert_float_equal(tick, 101.0, EPS);
	/* not running: the time passes, the virtual time does not grow */
	assert_float_equal(vclock_charge(&vt, &tick, 103.0, 1, false), 2, EPS);
	assert_float_equal(vt, 0.875, EPS);
}

static void test_clock(void **state)
{
	struct timespec ts = { .tv_sec = 1700000000, .tv_nsec = 250000000 };
	double before = vclock_now();

	(void)state;
	assert_float_equal(vclock_of(&ts), 1700000000.25, 1e-6);
	/* the clock moves within the second */
	while (vclock_now() == before)
		;
	assert_true(vclock_now() - before < 1);
	assert_true(vclock_now() > before);
}

/*
 * Host 0 runs X, which started at 100.2; N arrives and the next cycle, at
 * 100.7, decides it: N needs host 0's memory beside X's on one host of
 * one.  GreedyPM, flow time / virtual time^2: X has run 0.5 s, N never
 * ran: N first, X is suspended.
 */
static void test_greedypm_suspends_job_of_half_a_second(void **state)
{
	online_fixture_t f;
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	int h0[] = { 0 };
	double vt = 0, tick = 0;
	int x, n;

	(void)state;
	vclock_charge(&vt, &tick, 100.2, 0, false);	/* read pending */
	vclock_charge(&vt, &tick, 100.7, 1, true);	/* ran since */
	online_fixture_init(&f, 1, 100.7);
	x = online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, vt, h0);
	n = online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);
	f.jobs[x].submit = f.jobs[n].submit = 100;
	assert_true(isfinite(dfrs_priority_value(DFRS_PRIO_FT_VT2, 100, vt,
						 100.7)));
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
	par.priority = DFRS_PRIO_FT_VT2;
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, n);
	assert_int_equal(d.job[n].action, DFRS_ACT_START);
	assert_int_equal(d.job[x].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.nsuspended, 1);
	dfrs_decisions_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charge),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_greedypm_suspends_job_of_half_a_second),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
