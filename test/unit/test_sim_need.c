/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_need.c - the CPU needs a replay's engine sees (sim_need.h):
 * declared, none and measured (prediction while pending, measurement after
 * need_delay in a tier, a background measurement only raising, the
 * predictor learning at the end); and a replay where the three differ:
 * the engine decides on the need it sees while the jobs use their true
 * need.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sched/sched_policy.h"
#include "sim/sim_need.h"
#include "sim_fixture.h"

#define EPS 1e-12

/* jobs: user, app, util (one process each), on 4 nodes */
static void workload(fixture_t *f, const int *user, const int *app,
		     const double *util, size_t n)
{
	job_spec_t spec[16] = { 0 };

	for (size_t i = 0; i < n; i++) {
		spec[i].nodes = 1;
		spec[i].runtime = 100;
		spec[i].util[0] = util[i];
	}
	fixture_build(f, 4, spec, n);
	for (size_t i = 0; i < n; i++) {
		f->jobs[i].user = user[i];
		f->jobs[i].app = app[i];
	}
}

static void test_names(void **state)
{
	int src = -1;

	assert_int_equal(sim_need_find("measured", &src), 0);
	assert_int_equal(src, SIM_NEED_MEASURED);
	assert_int_equal(sim_need_find("guessed", &src), -1);
	assert_string_equal(sim_need_name(SIM_NEED_NONE), "none");
	assert_true(sim_need_matters("amcbf"));
	assert_true(sim_need_matters("CMCBF"));
	assert_false(sim_need_matters("easy"));
	assert_false(sim_need_matters("cmbf"));
}

static void test_declared_and_none(void **state)
{
	static const int user[] = { 1, 1 }, app[] = { 2, 2 };
	static const double util[] = { 0.3, 0.7 };
	fixture_t f;
	sim_need_t n;

	workload(&f, user, app, util, 2);
	assert_int_equal(sim_need_init(&n, &f.w, SIM_NEED_DECLARED, 1, 60), 0);
	sim_need_arrive(&n, 1);
	assert_float_equal(sim_need_view(&n, 1)[0], 0.7, EPS);
	sim_need_free(&n);
	assert_int_equal(sim_need_init(&n, &f.w, SIM_NEED_NONE, 0.9, 60), 0);
	sim_need_arrive(&n, 0);
	assert_float_equal(sim_need_view(&n, 0)[0], 0.9, EPS);
	sim_need_placed(&n, 0, 0);
	sim_need_running(&n, 0, 0, 1.0, 1000);	/* nothing measured */
	assert_float_equal(sim_need_view(&n, 0)[0], 0.9, EPS);
	sim_need_free(&n);
}

static void test_measured(void **state)
{
	static const int user[] = { 5, 5, 5, 6, 7, 5 };
	static const int app[] = { 3, 3, 9, 3, 1, 4 };
	static const double util[] = { 0.4, 0.6, 0.5, 0.5, 0.8, 0.6 };
	fixture_t f;
	sim_need_t n;

	workload(&f, user, app, util, 6);
	assert_int_equal(sim_need_init(&n, &f.w, SIM_NEED_MEASURED, 1, 60),
			 0);
	sim_need_arrive(&n, 0);
	assert_float_equal(sim_need_view(&n, 0)[0], 1, EPS);	/* no history */
	sim_need_placed(&n, 0, 0);
	sim_need_running(&n, 0, 0, 1.0, 59);
	assert_float_equal(sim_need_view(&n, 0)[0], 1, EPS);	/* too soon */
	sim_need_running(&n, 0, 0, 1.0, 60);
	assert_float_equal(sim_need_view(&n, 0)[0], 0.4, EPS);
	assert_false(sim_need_predictor_changed(&n));
	sim_need_finished(&n, 0);
	assert_true(sim_need_predictor_changed(&n));
	assert_false(sim_need_predictor_changed(&n));
	sim_need_arrive(&n, 1);		/* same user and app */
	assert_float_equal(sim_need_view(&n, 1)[0], 0.42, EPS);
	sim_need_arrive(&n, 2);		/* same user */
	assert_float_equal(sim_need_view(&n, 2)[0], 0.42, EPS);
	sim_need_arrive(&n, 3);		/* another user */
	assert_float_equal(sim_need_view(&n, 3)[0], 1, EPS);

	/* job 4 in bg at half speed shows 0.4 < its view: no change, and
	 * nothing learned from it */
	sim_need_arrive(&n, 4);
	sim_need_placed(&n, 4, 0);
	sim_need_running(&n, 4, 1, 0.5, 100);
	assert_float_equal(sim_need_view(&n, 4)[0], 1, EPS);
	sim_need_finished(&n, 4);
	assert_false(sim_need_predictor_changed(&n));

	/* a fg measurement after a tier move: job 5 (predicted from user 5)
	 * at rate 0.9 uses 0.54 */
	sim_need_arrive(&n, 5);
	sim_need_placed(&n, 5, 0);
	sim_need_placed(&n, 5, 50);
	sim_need_running(&n, 5, 0, 0.9, 100);
	assert_float_equal(sim_need_view(&n, 5)[0], 0.42, EPS);
	sim_need_running(&n, 5, 0, 0.9, 110);
	assert_float_equal(sim_need_view(&n, 5)[0], 0.54, EPS);
	sim_need_finished(&n, 5);
	/* user 5: 0.4 and 0.54: mean 0.47, sd 0.07; job 2 waits and
	 * follows, job 0 measured keeps its measurement */
	sim_need_queued(&n, 2);
	assert_float_equal(sim_need_view(&n, 2)[0], 0.54, 1e-9);
	sim_need_queued(&n, 0);
	assert_float_equal(sim_need_view(&n, 0)[0], 0.4, EPS);
	sim_need_free(&n);
}

/*
 * One node.  J0 (0.4, 10 s) runs alone; J1 and J2 (0.4 each, 100 s, the
 * same user and app) arrive at 20.  Declared: J2 goes to bg beside J1 at
 * once.  Measured: J0's measurement (at its end) predicts 0.42 for both,
 * so J2 goes to bg too.  None: every job needs 1, J2 waits for J1.  The
 * CPU used is the true need's in all three.
 */
static void test_replay_three_sources(void **state)
{
	static const double want_j2_finish[] = { 120, 120, 220 };
	static const double want_busy[] = { 84, 84, 84 };
	fixture_t f;
	job_spec_t spec[3] = { { 1, 10, { 0.4 } }, { 1, 100, { 0.4 } },
			       { 1, 100, { 0.4 } } };
	const sched_policy_t *p = sched_policy_find("amcbf");

	assert_non_null(p);
	for (int src = 0; src <= SIM_NEED_NONE; src++) {
		sim_model_t m;
		sim_result_t r;
		char err[256];

		fixture_build(&f, 1, spec, 3);
		for (int i = 0; i < 3; i++) {
			f.jobs[i].user = 5;
			f.jobs[i].app = 1;
		}
		f.jobs[1].arrival = f.jobs[2].arrival = 20;
		fixture_ideal_model(&m);
		m.need_source = src;
		m.need_default = 1;
		m.need_delay = 5;
		assert_int_equal(sim_run(&f.w, p->engine, &m, &r, err,
					 sizeof(err)), 0);
		assert_float_equal(r.jobs[0].finish, 10, 1e-9);
		assert_float_equal(r.jobs[1].finish, 120, 1e-9);
		assert_float_equal(r.jobs[2].finish, want_j2_finish[src], 1e-9);
		assert_float_equal(r.busy_cpu_seconds, want_busy[src], 1e-9);
		sim_result_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_declared_and_none),
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_replay_three_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
