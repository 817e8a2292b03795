/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_gang.c - gang scheduling drivers (sim_gang.c, gang.c;
 * Zhang et al. 2000): hand-worked schedules asserted exactly, MPL 1 against FCFS and
 * EASY, migration and its budget, and the invariants of a random workload.
 * Unless said otherwise: MPL 2, 10 s slices, no migration cost, every
 * process at 50 % CPU, all jobs queued at 0 in the order given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched_policy.h"
#include "sim/sim_engine.h"
#include "sim/sim_gang.h"
#include "sim/sim_params.h"
#include "sim/sim_policy.h"
#include "sim_fixture.h"

static void gang_model(sim_model_t *m, int mpl, double slice)
{
	fixture_ideal_model(m);
	m->gang_mpl = mpl;
	m->gang_slice = slice;
}

static void run_policy(const char *policy, const sim_workload_t *w,
		       const sim_model_t *m, sim_result_t *r)
{
	sim_policy_t p;
	char err[256] = "";
	assert_int_equal(sim_policy_find(policy, &p), 0);
	assert_null(p.engine);
	int rc = sim_policy_run(&p, w, m, r, err, sizeof(err));
	if (rc)
		print_message("%s: %s\n", policy, err);
	assert_int_equal(rc, 0);
}

/* Replay spec under policy and assert each job's start, finish and
 * migrations (gang never preempts). */
static void replay(const char *policy, int nnodes, const job_spec_t *spec,
		   size_t n, const sim_model_t *m, const expect_t *want,
		   sim_result_t *r)
{
	fixture_t f;
	fixture_build(&f, nnodes, spec, n);
	run_policy(policy, &f.w, m, r);
	fixture_check(policy, r, want, n);	/* every want has 0 preemptions */
}

/*
 * 2 nodes: J1(2,20) row 0, J2(2,20) row 1.  Slices: J1 0-10, J2 10-20,
 * J1 20-30 (done: 20 s), then J2 alone 30-40.  Events at 0, 10, 20, 30,
 * 40; busy CPU 2 x 0.5 x 20 per job.
 */
static void test_two_rows_alternate(void **state)
{
	static const job_spec_t spec[] = { { 2, 20, { 0 } }, { 2, 20, { 0 } } };
	static const expect_t want[] = { { 0, 30, 0, 0 }, { 10, 40, 0, 0 } };
	sim_model_t m;
	sim_result_t r;
	gang_model(&m, 2, 10);
	for (int bf = 0; bf < 2; bf++) {
		replay(bf ? "gang-backfill" : "gang", 2, spec, 2, &m, want, &r);
		assert_true(r.makespan == 40);
		assert_true(r.busy_cpu_seconds == 40);
		assert_true(r.nbuckets >= 1 && r.busy_buckets[0] == 40);
		assert_true(r.bucket_seconds == 3600);
		assert_int_equal(r.events, 5);
		assert_int_equal(r.decisions, 2);
		sim_result_free(&r);
	}
}

/* One occupied row: no slices, each job runs straight through (events
 * only at 0, 25 and 35). */
static void test_single_row_runs_continuously(void **state)
{
	static const job_spec_t spec[] = { { 1, 25, { 0 } }, { 1, 35, { 0 } } };
	static const expect_t want[] = { { 0, 25, 0, 0 }, { 0, 35, 0, 0 } };
	sim_model_t m;
	sim_result_t r;
	gang_model(&m, 2, 10);
	replay("gang", 2, spec, 2, &m, want, &r);
	assert_int_equal(r.events, 3);
	assert_true(r.busy_cpu_seconds == 0.5 * 25 + 0.5 * 35);
	sim_result_free(&r);
}

/*
 * 3 nodes: J1(2,20) J2(3,20) J3(3,10) J4(1,x).
 * gang: J1 row 0 {0,1}, J2 row 1; J3 fits in no row and blocks J4.
 *   J1 0-10, J2 10-20, J1 20-30 done; J3 takes row 0; J2 30-40 done;
 *   J4 takes row 1; J3 40-50 done; J4 alone from 50.
 * gang-backfill: J3 reserves row 0 (J1's 20 s left frees 3 columns,
 *   extra 0; row 1 ties at 20, the first row wins).  J4(1,10): 10 <= 20,
 *   so it backfills row 0's hole {2} at 0 and ends at 10; the rest as gang.
 *   J4(1,30) would delay J3 and row 1 is full: it waits, as under gang.
 */
static const job_spec_t holes[] = {
	{ 2, 20, { 0 } }, { 3, 20, { 0 } }, { 3, 10, { 0 } }, { 1, 10, { 0 } },
};

static void test_backfill_fills_holes(void **state)
{
	static const expect_t gang[] = {
		{ 0, 30, 0, 0 }, { 10, 40, 0, 0 }, { 40, 50, 0, 0 },
		{ 50, 60, 0, 0 },
	};
	static const expect_t backfill[] = {
		{ 0, 30, 0, 0 }, { 10, 40, 0, 0 }, { 40, 50, 0, 0 },
		{ 0, 10, 0, 0 },
	};
	sim_model_t m;
	sim_result_t r;
	gang_model(&m, 2, 10);
	replay("gang", 3, holes, 4, &m, gang, &r);
	sim_result_free(&r);
	replay("gang-backfill", 3, holes, 4, &m, backfill, &r);
	sim_result_free(&r);
}

static void test_backfill_keeps_reservation(void **state)
{
	job_spec_t spec[4];
	memcpy(spec, holes, sizeof(spec));
	spec[3].runtime = 30;
	static const expect_t want[] = {
		{ 0, 30, 0, 0 }, { 10, 40, 0, 0 }, { 40, 50, 0, 0 },
		{ 50, 80, 0, 0 },
	};
	sim_model_t m;
	sim_result_t r;
	gang_model(&m, 2, 10);
	replay("gang", 3, spec, 4, &m, want, &r);
	sim_result_free(&r);
	replay("gang-backfill", 3, spec, 4, &m, want, &r);
	sim_result_free(&r);
}

/*
 * 4 nodes: A(2,50) row 0 {0,1}, C(2,10) row 0 {2,3}, B(2,50) row 1 {0,1}.
 * At 10 C ends and row 1 becomes active.  Without migration A cannot join
 * row 1 (its nodes are B's there): A and B alternate, A ends at 90, B at
 * 100.  gang-migrate moves A to row 1's free nodes {2,3} (option 2) at the
 * cost of 5 s: A runs 10-55 (40 + 5 s left), B 10-60, one row, no slices.
 * With Q = 1 task per slice A (2 tasks) may not migrate.
 */
static const job_spec_t compactable[] = {
	{ 2, 50, { 0 } }, { 2, 10, { 0 } }, { 2, 50, { 0 } },
};

static void test_migration_compacts(void **state)
{
	static const expect_t without[] = {
		{ 0, 90, 0, 0 }, { 0, 10, 0, 0 }, { 10, 100, 0, 0 },
	};
	static const expect_t with[] = {
		{ 0, 55, 0, 1 }, { 0, 10, 0, 0 }, { 10, 60, 0, 0 },
	};
	sim_model_t m;
	sim_result_t r;
	gang_model(&m, 2, 10);
	m.migration_cost = 5;
	replay("gang", 4, compactable, 3, &m, without, &r);
	assert_true(r.busy_cpu_seconds == 110);
	sim_result_free(&r);
	replay("gang-backfill", 4, compactable, 3, &m, without, &r);
	sim_result_free(&r);
	replay("gang-migrate", 4, compactable, 3, &m, with, &r);
	/* the migration's 5 s of extra work count as busy, as in sim_run */
	assert_true(r.busy_cpu_seconds == 115);
	assert_true(r.makespan == 60);
	sim_result_free(&r);
	m.gang_migrate_q = 1;
	replay("gang-migrate", 4, compactable, 3, &m, without, &r);
	sim_result_free(&r);
}

/* MPL 1 is space sharing: gang is FCFS, gang-backfill is EASY (exact
 * estimates), job by job on Liu et al.'s Fig. 1. */
static void test_mpl1_is_fcfs_and_easy(void **state)
{
	static const char *pairs[][2] = { { "gang", "fcfs" },
					   { "gang-backfill", "easy" } };
	fixture_t f;
	sim_model_t m;
	char err[256];
	gang_model(&m, 1, 10);
	fixture_build(&f, 6, fixture_fig1, 6);
	for (int k = 0; k < 2; k++) {
		sim_result_t g, e;
		run_policy(pairs[k][0], &f.w, &m, &g);
		const sched_policy_t *p = sched_policy_find(pairs[k][1]);
		assert_non_null(p);
		assert_int_equal(sim_run(&f.w, p->engine, &m, &e, err,
					 sizeof(err)), 0);
		for (size_t i = 0; i < 6; i++) {
			assert_true(g.jobs[i].first_start ==
				    e.jobs[i].first_start);
			assert_true(g.jobs[i].finish == e.jobs[i].finish);
		}
		assert_true(fabs(g.busy_cpu_seconds - e.busy_cpu_seconds) <
			    1e-9);
		sim_result_free(&g);
		sim_result_free(&e);
	}
}

/* A job wider than the machine: an error, not an endless loop. */
static void test_too_wide_is_an_error(void **state)
{
	static const job_spec_t spec[] = { { 1, 5, { 0 } }, { 3, 5, { 0 } } };
	fixture_t f;
	sim_model_t m;
	sim_result_t r;
	sim_policy_t p;
	char err[256] = "";
	gang_model(&m, 2, 10);
	fixture_build(&f, 2, spec, 2);
	assert_int_equal(sim_policy_find("gang-backfill", &p), 0);
	assert_int_equal(sim_policy_run(&p, &f.w, &m, &r, err, sizeof(err)),
			 -1);
	print_message("%s\n", err);
	assert_non_null(strstr(err, "stalled"));
	assert_null(r.jobs);
	m.gang_mpl = 0;
	assert_int_equal(sim_policy_run(&p, &f.w, &m, &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "gang_mpl"));
}

/* The --param keys: whole MPL and Q, positive slice. */
static void test_params(void **state)
{
	sim_model_t m;
	char err[256];
	sim_model_defaults(&m);
	assert_true(m.gang_mpl == 4 && m.gang_slice == 30 &&
		    m.gang_migrate_q == 64);
	assert_int_equal(sim_param_set(&m, "gang_mpl", 3, err, sizeof(err)),
			 0);
	assert_true(m.gang_mpl == 3);
	assert_int_equal(sim_param_set(&m, "gang_mpl", 2.5, err,
				       sizeof(err)), -1);
	assert_non_null(strstr(err, "whole"));
	assert_int_equal(sim_param_set(&m, "gang_mpl", 0, err, sizeof(err)),
			 -1);
	assert_int_equal(sim_param_set(&m, "gang_slice", 0, err,
				       sizeof(err)), -1);
	assert_int_equal(sim_param_set(&m, "gang_slice", 60, err,
				       sizeof(err)), 0);
	assert_int_equal(sim_param_set(&m, "gang_migrate_q", 0, err,
				       sizeof(err)), 0);
	assert_true(m.gang_mpl == 3 && m.gang_slice == 60 &&
		    m.gang_migrate_q == 0);
}

/* --- a random workload: invariants -------------------------------------- */

#define RJOBS 80
#define RNODES 16

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static void random_workload(sim_workload_t *w, sim_job_t *jobs,
			    double *utils)
{
	uint64_t x = 42;
	double t = 0;
	size_t used = 0;
	for (int i = 0; i < RJOBS; i++) {
		t += (double)(lcg(&x) % 600) / 7.0;
		int nodes = 1 + (int)(lcg(&x) % RNODES);
		double runtime = 1 + (double)(lcg(&x) % 3000) / 3.0;
		jobs[i] = (sim_job_t){ .id = i + 1, .arrival = t,
				       .runtime = runtime,
				       .estimate = runtime * 1.5,
				       .nodes = nodes, .util = utils + used };
		for (int p = 0; p < nodes; p++)
			utils[used++] = 0.2 + (double)(lcg(&x) % 81) / 100.0;
	}
	*w = (sim_workload_t){ .jobs = jobs, .njobs = RJOBS,
			       .nodes = RNODES };
}

static void check_invariants(const sim_workload_t *w, const sim_model_t *m,
			     const sim_result_t *r)
{
	double work = 0, last = 0, buckets = 0;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		const sim_job_result_t *res = &r->jobs[i];
		double cpu = 0;
		for (int p = 0; p < j->nodes; p++)
			cpu += j->util[p];
		assert_true(res->first_start >= j->arrival);
		assert_true(res->finish >= j->arrival + j->runtime - 1e-6);
		assert_true(res->finish >= res->first_start + j->runtime -
					   1e-6);
		assert_int_equal(res->preemptions, 0);
		work += cpu * (j->runtime + m->migration_cost *
					    res->migrations);
		last = fmax(last, res->finish);
	}
	for (size_t k = 0; k < r->nbuckets; k++)
		buckets += r->busy_buckets[k];
	assert_true(r->makespan == last);
	assert_true(fabs(r->busy_cpu_seconds - work) < 1e-6 * work);
	assert_true(fabs(buckets - work) < 1e-6 * work);
	assert_true(r->events > 0);
}

static void test_random_workload(void **state)
{
	static const char *policies[] = { "gang", "gang-backfill",
					  "gang-migrate" };
	sim_job_t jobs[RJOBS];
	double utils[RJOBS * RNODES];
	sim_workload_t w;
	sim_model_t m;
	random_workload(&w, jobs, utils);
	for (int mpl = 1; mpl <= 5; mpl += 2)
		for (size_t k = 0; k < 3; k++) {
			sim_result_t r, again;
			gang_model(&m, mpl, 60);
			m.migration_cost = 20;
			m.bucket_seconds = 500;
			run_policy(policies[k], &w, &m, &r);
			check_invariants(&w, &m, &r);
			run_policy(policies[k], &w, &m, &again);
			for (size_t i = 0; i < w.njobs; i++)	/* deterministic */
				assert_true(r.jobs[i].finish ==
					    again.jobs[i].finish);
			print_message("%s mpl %d: makespan %g busy %g events "
				      "%zu\n", policies[k], mpl, r.makespan,
				      r.busy_cpu_seconds, r.events);
			sim_result_free(&r);
			sim_result_free(&again);
		}
}

/* Every driver's stall message (sim_stalled), with and without jobs
 * waiting. */
static void test_stalled_message(void **state)
{
	char err[160];

	(void)state;
	sim_stalled(err, sizeof(err), 120.4, 3, "policy bug");
	assert_string_equal(err, "simulation stalled at t=120 s: 3 jobs wait "
			    "on an idle machine (policy bug)");
	sim_stalled(err, sizeof(err), 7, 0, "driver bug");
	assert_string_equal(err, "simulation stalled at t=7 s (driver bug)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stalled_message),
		cmocka_unit_test(test_two_rows_alternate),
		cmocka_unit_test(test_single_row_runs_continuously),
		cmocka_unit_test(test_backfill_fills_holes),
		cmocka_unit_test(test_backfill_keeps_reservation),
		cmocka_unit_test(test_migration_compacts),
		cmocka_unit_test(test_mpl1_is_fcfs_and_easy),
		cmocka_unit_test(test_too_wide_is_an_error),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_random_workload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
