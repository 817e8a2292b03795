/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_fixture.c - hand-made workloads for the simulator tests
 * (sim_fixture.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sched/sched_policy.h"
#include "sim_fixture.h"

const job_spec_t fixture_fig1[6] = {
	{ 1, 20, { 0 } }, { 2, 5, { 0 } }, { 6, 5, { 0 } },
	{ 4, 5, { 0 } }, { 2, 15, { 0 } }, { 1, 10, { 0 } },
};

void fixture_build(fixture_t *f, int nnodes, const job_spec_t *spec,
		   size_t n)
{
	size_t used = 0;
	memset(f, 0, sizeof(*f));
	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++) {
		assert_true(used + (size_t)spec[i].nodes <= 64);
		f->jobs[i] = (sim_job_t){ .id = (long)i + 1, .arrival = 0,
					  .runtime = spec[i].runtime,
					  .estimate = spec[i].runtime,
					  .nodes = spec[i].nodes,
					  .util = f->utils + used };
		for (int p = 0; p < spec[i].nodes; p++)
			f->utils[used++] = p < 4 && spec[i].util[p] > 0
						   ? spec[i].util[p] : 0.5;
	}
	f->w.jobs = f->jobs;
	f->w.njobs = n;
	f->w.nodes = nnodes;
}

void fixture_ideal_model(sim_model_t *m)
{
	sim_model_defaults(m);
	sched_config_paper(&m->sched);	/* the figures are Liu et al.'s */
	m->ideal = 1;
	m->migration_cost = 0;
}

void fixture_replay(const char *policy, int nnodes, const job_spec_t *spec,
		    size_t n, const sim_model_t *m, const expect_t *want,
		    sim_result_t *r)
{
	fixture_t f;
	char err[256] = "";

	fixture_build(&f, nnodes, spec, n);
	const sched_policy_t *p = sched_policy_find(policy);
	assert_non_null(p);
	assert_int_equal(sim_run(&f.w, p->engine, m, r, err, sizeof(err)), 0);
	fixture_check(policy, r, want, n);
}

void fixture_check(const char *policy, const sim_result_t *r,
		   const expect_t *want, size_t n)
{
	assert_int_equal(r->njobs, n);
	for (size_t i = 0; i < n; i++) {
		print_message("%s J%zu: start %g finish %g preempt %d migr %d\n",
			      policy, i + 1, r->jobs[i].first_start,
			      r->jobs[i].finish, r->jobs[i].preemptions,
			      r->jobs[i].migrations);
		assert_true(r->jobs[i].first_start == want[i].start);
		assert_true(r->jobs[i].finish == want[i].finish);
		assert_int_equal(r->jobs[i].preemptions, want[i].preemptions);
		assert_int_equal(r->jobs[i].migrations, want[i].migrations);
	}
}
