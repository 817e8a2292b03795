/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dfrs_greedypmr.c - greedypmr (dfrs_online.h): GreedyPM (Stillwell
 * et al. 2010, "Online Non-Clairvoyant Problem") with a wide running job,
 * or one that has run long_time, never requeued, a long job's minimum
 * yield raised, and EASY's
 * reservation (Lifka 1995) for the oldest starving job.  Each test is a
 * hand-made instance whose decisions are worked out in its comments, and
 * the same instance under greedypm (or without the rule) deciding
 * otherwise, so that a broken rule fails the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "dfrs/dfrs_online.h"
#include "online_fixture.h"

#define EPS 1e-9

/* A job of ntasks tasks, memory mem and CPU need cpu each, minimum yield
 * 0.25, submitted at submit with the given estimate; running on hosts
 * (with virtual time vt) or pending (hosts NULL); its index is its rank
 * hint. */
static int add_job(online_fixture_t *f, int ntasks, double mem, double cpu,
		   double submit, double estimate, double vt, const int *hosts)
{
	int j = online_fixture_add(f, ntasks, mem, cpu,
				   hosts ? DFRS_JOB_RUNNING : DFRS_JOB_PENDING,
				   vt, hosts);
	dfrs_online_job_t *job = &f->jobs[j];

	job->shape.min_yield = 0.25;
	job->submit = submit;
	job->estimate = estimate;
	job->rank = j;
	return j;
}

/* The policy's defaults in the requeue model (as live), starve_bsld S. */
static dfrs_online_params_t params(dfrs_policy_t policy, double starve)
{
	dfrs_online_params_t par;

	dfrs_online_params_default(&par, policy);
	par.requeue = 1;
	par.starve_bsld = starve;
	return par;
}

static void test_names(void **state)
{
	dfrs_policy_t p;
	dfrs_online_params_t par;

	(void)state;
	assert_int_equal(dfrs_online_policy_parse("greedypmr", &p), 0);
	assert_int_equal(p, DFRS_POLICY_GREEDYPMR);
	assert_string_equal(dfrs_online_policy_name(p), "greedypmr");
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPMR);
	assert_float_equal(par.wide_share, 0.25, EPS);
	assert_float_equal(par.long_time, 3600.0, EPS);
	assert_float_equal(par.long_min_yield, 0.75, EPS);
	/* the other policies have none of it */
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
	assert_float_equal(par.wide_share, 0.0, EPS);
	assert_float_equal(par.long_min_yield, 0.0, EPS);
}

/*
 * 4 hosts, every host holding a running job of memory 0.6: W on hosts 0
 * and 1 (2 tasks: wide, over 0.25 x 4 hosts), B on host 2, C on host 3.
 * An arriving job N of memory 0.6 fits nowhere, so it takes running jobs
 * off, those that would lose the least virtual time first: W (10 s), then
 * B (50 s), then C (80 s); greedypmr keeps a wide job, and one that has
 * run long_time (3600 s).  GreedyPM requeues W and N starts on host 0;
 * greedypmr keeps W and requeues B, and N starts on host 2.
 */
static void test_wide_running_job_not_requeued(void **state)
{
	online_fixture_t f;
	int w_hosts[] = { 0, 1 }, b_host[] = { 2 }, c_host[] = { 3 };
	int w, b, c, n;
	dfrs_online_params_t par;
	dfrs_decisions_t d;

	(void)state;
	online_fixture_init(&f, 4, 1000);
	w = add_job(&f, 2, 0.6, 1.0, 0, 600, 10, w_hosts);
	b = add_job(&f, 1, 0.6, 1.0, 0, 600, 50, b_host);
	c = add_job(&f, 1, 0.6, 1.0, 0, 600, 80, c_host);
	n = add_job(&f, 1, 0.6, 1.0, 1000, 600, 0, NULL);

	par = params(DFRS_POLICY_GREEDYPM, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, n);
	assert_int_equal(d.job[w].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[w].requeued, 1);
	assert_float_equal(d.job[w].lost_seconds, 10.0, EPS);
	assert_int_equal(d.job[b].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[n].action, DFRS_ACT_START);
	assert_int_equal(d.job[n].hosts[0], 0);
	dfrs_decisions_free(&d);

	par = params(DFRS_POLICY_GREEDYPMR, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, n);
	assert_int_equal(d.job[w].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[w].state, DFRS_JOB_RUNNING);
	assert_int_equal(d.job[w].requeued, 0);
	assert_int_equal(d.job[b].action, DFRS_ACT_SUSPEND);
	assert_float_equal(d.job[b].lost_seconds, 50.0, EPS);
	assert_int_equal(d.job[c].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[n].action, DFRS_ACT_START);
	assert_int_equal(d.job[n].hosts[0], 2);
	assert_int_equal(d.reserved, -1);
	dfrs_decisions_free(&d);

	/* B has run long_time (3600 s): it would lose that much work, and
	 * is kept as well; C goes, and N starts on host 3 */
	f.jobs[b].virtual_time = 3600;
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, n);
	assert_int_equal(d.job[w].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[b].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[c].action, DFRS_ACT_SUSPEND);
	assert_float_equal(d.job[c].lost_seconds, 80.0, EPS);
	assert_int_equal(d.job[n].hosts[0], 3);
	dfrs_decisions_free(&d);
	f.jobs[b].virtual_time = 50;

	/* wide_share 0.5: W (2 of 4 hosts) is no longer wide, and is
	 * requeued as under greedypm */
	par = params(DFRS_POLICY_GREEDYPMR, 0);
	par.wide_share = 0.5;
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, n);
	assert_int_equal(d.job[w].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[n].hosts[0], 0);
	dfrs_decisions_free(&d);
}

/*
 * 4 hosts at t = 1000, starve_bsld 10.  R1 runs on host 0 and R2 on host
 * 1 (memory 0.5 each); by their estimates at their minimum yield 0.25,
 * R1 has (1000 - 900) / 0.25 = 400 s left and R2 (1000 - 800) / 0.25 =
 * 800 s.  Hosts 2 and 3 hold a job of memory 0.9 for days.  W (2 tasks of
 * memory 0.6, submitted at 0, estimate 50: wide, over 0.25 x 4 hosts) has
 * waited 1000 / 50 = 20 times its estimate: it starves, and fits only
 * once R1 and R2 are gone: its shadow time is 1000 + 800 = 1800.  X
 * (memory 0.5, estimate 3000) fits beside R1 now but may run until 1000
 * + 3000 / 0.25 = 13000, and W's task (0.6) does not fit beside it: it
 * would delay W, and waits.  Y (memory 0.5, estimate 100) ends by 1400,
 * before the shadow time: it starts, on host 0 (hosts 0 and 1 are
 * equally loaded).
 */
static void test_reservation_honoured(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 }, h1[] = { 1 }, h2[] = { 2 }, h3[] = { 3 };
	int w, x, y;
	dfrs_online_params_t par;
	dfrs_decisions_t d;

	(void)state;
	online_fixture_init(&f, 4, 1000);
	add_job(&f, 1, 0.5, 1.0, 0, 1000, 900, h0);
	add_job(&f, 1, 0.5, 1.0, 0, 1000, 800, h1);
	add_job(&f, 1, 0.9, 0.5, 0, 1e6, 800, h2);
	add_job(&f, 1, 0.9, 0.5, 0, 1e6, 800, h3);
	w = add_job(&f, 2, 0.6, 1.0, 0, 50, 0, NULL);
	x = add_job(&f, 1, 0.5, 0.1, 1000, 3000, 0, NULL);
	y = add_job(&f, 1, 0.5, 0.1, 1000, 100, 0, NULL);

	par = params(DFRS_POLICY_GREEDYPMR, 10);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.reserved, w);
	assert_float_equal(d.shadow, 1800.0, 1e-6);
	assert_int_equal(d.held, -1);
	assert_int_equal(d.job[w].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[x].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[x].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[y].action, DFRS_ACT_START);
	assert_int_equal(d.job[y].hosts[0], 0);
	dfrs_decisions_free(&d);

	/* nothing starves: no reservation, and X starts on host 0 (then Y
	 * on host 1, the less loaded of the two where it fits) */
	par = params(DFRS_POLICY_GREEDYPMR, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.reserved, -1);
	assert_int_equal(d.job[x].action, DFRS_ACT_START);
	assert_int_equal(d.job[x].hosts[0], 0);
	assert_int_equal(d.job[y].action, DFRS_ACT_START);
	assert_int_equal(d.job[y].hosts[0], 1);
	dfrs_decisions_free(&d);

	/* greedypm: the starving W keeps every job behind it waiting */
	par = params(DFRS_POLICY_GREEDYPM, 10);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.held, w);
	assert_int_equal(d.reserved, -1);
	assert_int_equal(d.job[x].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[y].state, DFRS_JOB_PENDING);
	dfrs_decisions_free(&d);
}

/*
 * 4 hosts; hosts 1-3 each hold a running job of memory 0.9 (virtual
 * times 300, 200, 100 s), so an arriving job fits only on host 0, where
 * the long job L runs (estimate 7200 s, over long_time 3600; CPU need 1).
 * The short job S (estimate 60, CPU need 1) starts beside it.  Max-min
 * yields: under greedypm both get 0.5; under greedypmr L keeps its raised
 * minimum yield 0.75 and S gets the rest, 0.25.  A long S (estimate 7200)
 * would need 0.75 as well and does not fit beside L: greedypm starts it
 * there all the same (0.25 + 0.25), greedypmr takes off the job that
 * loses the least work, on host 3 (100 s), and starts it there.
 */
static void test_long_job_keeps_its_yield(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 }, h1[] = { 1 }, h2[] = { 2 }, h3[] = { 3 };
	int l, s;
	dfrs_online_params_t par;
	dfrs_decisions_t d;

	(void)state;
	online_fixture_init(&f, 4, 1000);
	l = add_job(&f, 1, 0.2, 1.0, 0, 7200, 500, h0);
	add_job(&f, 1, 0.9, 0.5, 0, 600, 300, h1);
	add_job(&f, 1, 0.9, 0.5, 0, 600, 200, h2);
	add_job(&f, 1, 0.9, 0.5, 0, 600, 100, h3);
	s = add_job(&f, 1, 0.2, 1.0, 1000, 60, 0, NULL);

	par = params(DFRS_POLICY_GREEDYPM, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, s);
	assert_int_equal(d.job[s].action, DFRS_ACT_START);
	assert_int_equal(d.job[s].hosts[0], 0);
	assert_float_equal(d.job[l].yield, 0.5, 1e-6);
	assert_float_equal(d.job[s].yield, 0.5, 1e-6);
	dfrs_decisions_free(&d);

	par = params(DFRS_POLICY_GREEDYPMR, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, s);
	assert_int_equal(d.job[s].action, DFRS_ACT_START);
	assert_int_equal(d.job[s].hosts[0], 0);
	assert_float_equal(d.job[l].yield, 0.75, 1e-6);
	assert_float_equal(d.job[s].yield, 0.25, 1e-6);
	dfrs_decisions_free(&d);

	f.jobs[s].estimate = 7200;
	par = params(DFRS_POLICY_GREEDYPM, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, s);
	assert_int_equal(d.job[s].hosts[0], 0);
	assert_int_equal(d.nsuspended, 0);
	dfrs_decisions_free(&d);

	par = params(DFRS_POLICY_GREEDYPMR, 0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_ARRIVAL, s);
	assert_int_equal(d.job[s].action, DFRS_ACT_START);
	assert_int_equal(d.job[s].hosts[0], 3);
	assert_int_equal(d.job[3].action, DFRS_ACT_SUSPEND);
	assert_float_equal(d.job[3].lost_seconds, 100.0, EPS);
	assert_int_equal(d.job[l].action, DFRS_ACT_NONE);
	assert_float_equal(d.job[l].yield, 1.0, 1e-6);
	dfrs_decisions_free(&d);
}

/* Two long jobs already share host 0 at 0.5 each (started under another
 * policy): at their raised minimum yields (0.75 + 0.75) they would
 * overload it, so the decision counts them at their own (0.25) instead
 * of failing, and leaves them where they are. */
static void test_long_jobs_sharing_already(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_online_params_t par = params(DFRS_POLICY_GREEDYPMR, 0);
	dfrs_decisions_t d;

	(void)state;
	online_fixture_init(&f, 1, 1000);
	add_job(&f, 1, 0.2, 1.0, 0, 7200, 500, h0);
	add_job(&f, 1, 0.2, 1.0, 0, 7200, 400, h0);
	d = online_fixture_decide(&par, &f, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_float_equal(d.job[0].yield, 0.5, 1e-6);
	assert_float_equal(d.job[1].yield, 0.5, 1e-6);
	dfrs_decisions_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_wide_running_job_not_requeued),
		cmocka_unit_test(test_reservation_honoured),
		cmocka_unit_test(test_long_job_keeps_its_yield),
		cmocka_unit_test(test_long_jobs_sharing_already),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
