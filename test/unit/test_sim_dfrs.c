/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_dfrs.c - dfrs sim's online DFRS drivers greedyp, greedypm and
 * mcb (sim_dfrs.c) on schedules worked out by hand: jobs that fit run
 * from their arrival at yield 1, CPU-bound jobs sharing a node at yield
 * 0.5, a suspension for a job that does not fit in memory and the resume
 * after it (the papers' free migrations) or the requeue (the default, as
 * live), the defaults against sched/amcbf's, and invariants plus
 * reproducibility on a random workload.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_dfrs.h"
#include "sim/sim_engine.h"
#include "sim_fixture.h"
#include "suite/dfrs_params.h"
#include "sim/sim_params.h"
#include "sim/sim_policy.h"
#include "sim/sim_random.h"
#include "sim/sim_workload.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)
#define MAXJOBS 64

static const char *const policies[] = { "greedyp", "greedypm", "mcb" };
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

typedef struct {
	double arrival, runtime;
	int nodes;
	double util[4];		/* per process */
} spec_t;

typedef struct {
	sim_workload_t w;
	sim_job_t jobs[MAXJOBS];
	double utils[MAXJOBS * 8];
} work_t;

static void build(work_t *f, int nnodes, const spec_t *spec, size_t n)
{
	size_t used = 0;

	memset(f, 0, sizeof(*f));
	assert_true(n <= MAXJOBS);
	for (size_t i = 0; i < n; i++) {
		f->jobs[i] = (sim_job_t){ .id = (long)i + 1,
					  .arrival = spec[i].arrival,
					  .runtime = spec[i].runtime,
					  .estimate = spec[i].runtime,
					  .nodes = spec[i].nodes,
					  .util = f->utils + used };
		for (int p = 0; p < spec[i].nodes; p++)
			f->utils[used++] = spec[i].util[p < 4 ? p : 3];
	}
	f->w.jobs = f->jobs;
	f->w.njobs = n;
	f->w.nodes = nnodes;
}

/* Default model, every task taking mem of its node's memory. */
static void model(sim_model_t *m, double mem)
{
	sim_model_defaults(m);
	m->dfrs_mem_lo = m->dfrs_mem_hi = mem;
}

/* The same under Stillwell et al. 2010's free migrations (progress kept,
 * migration_cost per resume or move): --param dfrs_requeue=0. */
static void papers_model(sim_model_t *m, double mem)
{
	char err[256] = "";

	model(m, mem);
	assert_int_equal(sim_param_set(m, "dfrs_requeue", 0, err,
				       sizeof(err)), 0);
}

static void run(const char *policy, const work_t *f, const sim_model_t *m,
		sim_result_t *r)
{
	sim_policy_t p;
	char err[256] = "";

	assert_int_equal(sim_policy_find(policy, &p), 0);
	assert_null(p.engine);
	assert_non_null(p.driver);
	if (sim_policy_run(&p, &f->w, m, r, err, sizeof(err)))
		fail_msg("%s: %s", policy, err);
}


/*
 * (a) Two nodes, memory 0.3 per task.  J1 (1 unit, 100 s, 100 % CPU)
 * arrives at 0 and runs alone on host 0.  J2 (2 units at 50 %, 50 s)
 * arrives at 10: its tasks go to the least loaded host, host 1 (load 0,
 * then 0.5 < J1's 1), both on it (memory 0.6), CPU 0.5 + 0.5 = 1: every
 * job has yield 1.  J1 ends at 100, J2 at 10 + 50 = 60.  Busy CPU
 * 100 * 1 + 50 * (0.5 + 0.5) = 150; events: 2 arrivals, 2 completions
 * (the first periodic event, 600, comes after the end); 2 starts.
 */
static void test_fit_concurrent(void **state)
{
	static const spec_t spec[] = {
		{ 0, 100, 1, { 1.0 } }, { 10, 50, 2, { 0.5, 0.5 } },
	};
	static const expect_t want[] = { { 0, 100, 0, 0 }, { 10, 60, 0, 0 } };
	work_t f;
	sim_model_t m;

	build(&f, 2, spec, 2);
	model(&m, 0.3);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		fixture_check(policies[p], &r, want, 2);
		near(r.makespan, 100);
		near(r.busy_cpu_seconds, 150);
		assert_int_equal(r.events, 4);
		assert_int_equal(r.decisions, 2);
		assert_true(r.nbuckets >= 1);
		near(r.busy_buckets[0], 150);
		assert_true(r.bucket_seconds == 3600);
		sim_result_free(&r);
	}
}

/*
 * (b) One node, memory 0.3 per task: J1 (100 s) and J2 (300 s), both
 * CPU-bound single-process jobs (need 1) arriving at 0, share the node.
 * Max-min yields on one CPU of capacity 1: 0.5 each.  J1's virtual time
 * reaches 100 at t = 100 / 0.5 = 200; J2 then has 100 s of its 300 done
 * and runs alone at yield 1: 200 s more, done at 400.  Busy CPU 400 over
 * 400 s of one node; no periodic event (600 > 400).
 */
static void test_share_node(void **state)
{
	static const spec_t spec[] = {
		{ 0, 100, 1, { 1.0 } }, { 0, 300, 1, { 1.0 } },
	};
	static const expect_t want[] = { { 0, 200, 0, 0 }, { 0, 400, 0, 0 } };
	work_t f;
	sim_model_t m;

	build(&f, 1, spec, 2);
	model(&m, 0.3);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		fixture_check(policies[p], &r, want, 2);
		near(r.makespan, 400);
		near(r.busy_cpu_seconds, 400);
		assert_int_equal(r.events, 4);
		sim_result_free(&r);
	}
}

/*
 * The schedule of the next four tests, on one node: J1 (1000 s, 100 %
 * CPU) arrives at 0, J2 (200 s, 100 %) at 100; and what test_preempt_resume
 * and test_period expect of it when J2's memory does not fit beside J1's.
 */
static const spec_t long_then_short[] = {
	{ 0, 1000, 1, { 1.0 } }, { 100, 200, 1, { 1.0 } },
};
static const expect_t preempt_resume_want[] = { { 0, 1220, 1, 1 },
						{ 100, 300, 0, 0 } };

/*
 * (c) The papers' model (dfrs_requeue=0): one node, memory 0.6 per task:
 * two tasks do not fit.  J1 (1000 s)
 * runs from 0.  J2 (200 s) arrives at 100 with infinite priority (it has
 * not run; J1's is ft/vt^2 = 100/100^2): J1 is suspended (virtual time
 * 100) and J2 runs 100..300.  At J2's completion J1 resumes on its node
 * and pays the penalty, --migration-cost 20 s: blocked until 320, then
 * 900 s more: done at 1220.  The periodic events at 600 and 1200 find J1
 * alone (GreedyPM's and MCB's repack keeps it on the only node).  The
 * same for the three policies: J1 is preempted once and resumed once
 * (counted as a migration, as sim_run counts a restart from checkpoint).
 * Busy CPU: 1000 + 200 (not during the 20 s penalty); events: 2
 * arrivals, 2 completions, 2 periodic; decisions: start J1, suspend J1,
 * start J2, resume J1.
 */
static void test_preempt_resume(void **state)
{
	work_t f;
	sim_model_t m;

	build(&f, 1, long_then_short, 2);
	papers_model(&m, 0.6);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		fixture_check(policies[p], &r, preempt_resume_want, 2);
		near(r.makespan, 1220);
		near(r.busy_cpu_seconds, 1200);
		assert_int_equal(r.events, 6);
		assert_int_equal(r.decisions, 4);
		sim_result_free(&r);
	}

	/* free migrations: J1 resumes at 300 and ends at 1200 */
	m.migration_cost = 0;
	sim_result_t r;
	run("greedyp", &f, &m, &r);
	near(r.jobs[0].finish, 1200);
	assert_int_equal(r.jobs[0].preemptions, 1);
	sim_result_free(&r);
}

/*
 * dfrs_period (amcbf_dfrs_period live) spaces the periodic events: the
 * schedule of test_preempt_resume (the papers' model), whose periodic events at 600 and 1200
 * change nothing, with none (0: 2 arrivals and 2 completions) and with one
 * at 1000; the jobs' times are the same.
 */
static void test_period(void **state)
{
	static const struct {
		double period;
		int events;
	} runs[] = { { 600, 6 }, { 0, 4 }, { 1000, 5 } };
	char err[256] = "";
	work_t f;
	sim_model_t m;

	(void)state;
	build(&f, 1, long_then_short, 2);
	papers_model(&m, 0.6);
	near(m.dfrs_period, 600);
	assert_int_equal(sim_param_set(&m, "dfrs_period", 0.5, err,
				       sizeof(err)), -1);
	assert_int_equal(sim_param_set(&m, "dfrs_period", 86401, err,
				       sizeof(err)), -1);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		assert_int_equal(sim_param_set(&m, "dfrs_period",
					       runs[i].period, err,
					       sizeof(err)), 0);
		for (size_t p = 0; p < NPOLICIES; p++) {
			sim_result_t r;

			run(policies[p], &f, &m, &r);
			fixture_check(policies[p], &r, preempt_resume_want, 2);
			assert_int_equal(r.events, runs[i].events);
			sim_result_free(&r);
		}
	}
}

/*
 * With room for both (memory 0.3), J2 does not preempt J1: they share
 * the node.  J1 runs alone 0..100 (virtual time 100), then both at 0.5:
 * J2 needs 400 s for its 200, J1 its 900 left in 1800, but J2 ends
 * first, at 500; J1 has 100 + 200 = 300 done, then 700 alone: 1200.
 */
static void test_no_preempt_when_fits(void **state)
{
	static const expect_t want[] = { { 0, 1200, 0, 0 },
					 { 100, 500, 0, 0 } };
	work_t f;
	sim_model_t m;

	build(&f, 1, long_then_short, 2);
	model(&m, 0.3);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		fixture_check(policies[p], &r, want, 2);
		sim_result_free(&r);
	}
}

/*
 * (c) under the requeue model (dfrs_requeue=1, the default: as live), with
 * dfrs_max_requeues.  Without a cap that binds (3, the default): J2's
 * arrival at 100 requeues J1, which loses its 100 s; J2 runs 100..300 and
 * J1 starts over at 300 (a restart costs no penalty): done at 1300, one
 * requeue and one restart.  With dfrs_max_requeues=0 no running job is
 * requeued: J2 waits for J1's end at 1000 and runs 1000..1200, through the
 * periodic event at 600 where J1 stays put.  The same for the three
 * policies.
 */
static void test_requeue_cap(void **state)
{
	static const expect_t requeued[] = { { 0, 1300, 1, 1 },
					     { 100, 300, 0, 0 } };
	static const expect_t capped[] = { { 0, 1000, 0, 0 },
					   { 1000, 1200, 0, 0 } };
	char err[256] = "";
	work_t f;
	sim_model_t m;

	(void)state;
	build(&f, 1, long_then_short, 2);
	model(&m, 0.6);
	near(m.dfrs_max_requeues, 3);
	near(m.dfrs_requeue, 1);
	assert_int_equal(sim_param_set(&m, "dfrs_max_requeues", 1.5, err,
				       sizeof(err)), -1);
	for (int cap = 0; cap <= 1; cap++) {
		if (cap)
			assert_int_equal(sim_param_set(&m, "dfrs_max_requeues",
						       0, err, sizeof(err)), 0);
		for (size_t p = 0; p < NPOLICIES; p++) {
			sim_result_t r;

			run(policies[p], &f, &m, &r);
			fixture_check(policies[p], &r, cap ? capped : requeued, 2);
			near(r.jobs[0].lost_seconds, cap ? 0 : 100);
			sim_result_free(&r);
		}
	}
}

/*
 * The scenario of (c) with dfrs_min_runtime (amcbf_min_runtime live): at
 * J2's arrival J1's run has lasted 100 s.  A bound of 100 s protects it:
 * the capped outcome, nothing lost; 101 s does not: requeued, 100 s lost.
 */
static void test_min_runtime(void **state)
{
	static const expect_t requeued[] = { { 0, 1300, 1, 1 },
					     { 100, 300, 0, 0 } };
	static const expect_t kept[] = { { 0, 1000, 0, 0 },
					 { 1000, 1200, 0, 0 } };
	char err[256] = "";
	work_t f;
	sim_model_t m;

	(void)state;
	build(&f, 1, long_then_short, 2);
	model(&m, 0.6);
	near(m.dfrs_min_runtime, 0);
	for (int bound = 100; bound <= 101; bound++) {
		assert_int_equal(sim_param_set(&m, "amcbf_min_runtime", bound,
					       err, sizeof(err)), 0);
		near(m.dfrs_min_runtime, bound);
		for (size_t p = 0; p < NPOLICIES; p++) {
			sim_result_t r;

			run(policies[p], &f, &m, &r);
			fixture_check(policies[p], &r, bound == 100 ? kept : requeued, 2);
			near(r.jobs[0].lost_seconds, bound == 100 ? 0 : 100);
			sim_result_free(&r);
		}
	}
}

/* A job of zero runtime completes at its arrival. */
static void test_zero_runtime(void **state)
{
	static const spec_t spec[] = {
		{ 0, 50, 1, { 1.0 } }, { 20, 0, 1, { 1.0 } },
	};
	static const expect_t want[] = { { 0, 50, 0, 0 }, { 20, 20, 0, 0 } };
	work_t f;
	sim_model_t m;

	build(&f, 1, spec, 2);
	model(&m, 0.3);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		fixture_check(policies[p], &r, want, 2);
		sim_result_free(&r);
	}
}

static void random_work(work_t *f, uint64_t seed, int nnodes, size_t n)
{
	spec_t spec[MAXJOBS];
	sim_random_t rng;
	double t = 0;

	sim_random_seed(&rng, seed);
	for (size_t i = 0; i < n; i++) {
		t += sim_random_uniform(&rng, 0, 300);
		spec[i].arrival = floor(t);
		spec[i].runtime = floor(sim_random_uniform(&rng, 1, 3000));
		spec[i].nodes = 1 + (int)(sim_random_unit(&rng) * nnodes);
		for (int p = 0; p < 4; p++)
			spec[i].util[p] = sim_random_uniform(&rng, 0.2, 1.0);
	}
	build(f, nnodes, spec, n);
}

static void same_result(const sim_result_t *a, const sim_result_t *b)
{
	assert_int_equal(a->njobs, b->njobs);
	assert_memory_equal(a->jobs, b->jobs, a->njobs * sizeof(*a->jobs));
	assert_true(a->busy_cpu_seconds == b->busy_cpu_seconds);
	assert_true(a->makespan == b->makespan);
	assert_int_equal(a->events, b->events);
	assert_int_equal(a->decisions, b->decisions);
	assert_int_equal(a->nbuckets, b->nbuckets);
	assert_memory_equal(a->busy_buckets, b->busy_buckets,
			    a->nbuckets * sizeof(*a->busy_buckets));
}

/*
 * (d) 40 random jobs on 8 nodes, memory drawn 0.1..0.5 from the seed, a
 * 300 s penalty (Stillwell et al. 2010's 5 minutes): every job ends, no earlier than
 * arrival + runtime (yields <= 1), starts no earlier than its arrival;
 * the busy CPU is exactly the work (sum of usage * runtime), plus under
 * the requeue model the work lost and done again (lost_seconds times the
 * job's usage; none under the papers' model); the buckets add up to it;
 * the same seed gives the same run.  Under both models.
 */
static void random_workload(double requeue)
{
	work_t f;
	sim_model_t m;
	size_t n = 40;

	random_work(&f, 42, 8, n);
	sim_model_defaults(&m);
	m.dfrs_requeue = requeue;
	m.migration_cost = 300;
	m.bucket_seconds = 600;
	double work = 0, work_all, last_arrival = 0;
	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < f.jobs[i].nodes; p++)
			work += f.jobs[i].util[p] * f.jobs[i].runtime;
		last_arrival = f.jobs[i].arrival;
	}
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r, again;
		double maxf = 0, sum = 0, redone = 0;
		int preempt = 0, migr = 0;

		run(policies[p], &f, &m, &r);
		for (size_t i = 0; i < n; i++) {
			const sim_job_t *j = &f.jobs[i];
			const sim_job_result_t *x = &r.jobs[i];

			assert_true(x->first_start >= j->arrival);
			assert_true(x->finish >= j->arrival + j->runtime - 1e-6);
			assert_true(x->finish >= x->first_start + j->runtime -
					1e-6);
			assert_true(x->migrations <= x->preemptions ||
				    strcmp(policies[p], "greedyp"));
			maxf = fmax(maxf, x->finish);
			for (int q = 0; q < j->nodes; q++)
				redone += x->lost_seconds * j->util[q];
			if (!requeue)
				near(x->lost_seconds, 0);
			preempt += x->preemptions;
			migr += x->migrations;
		}
		print_message("%s (requeue %g): makespan %g, %d preemptions, "
			      "%d migrations, %zu events, %zu decisions, "
			      "%g CPU s redone\n", policies[p], requeue,
			      r.makespan, preempt, migr, r.events,
			      r.decisions, redone);
		near(r.makespan, maxf);
		assert_true(r.makespan >= last_arrival);
		/* the work, and under the requeue model the work lost and
		 * done again */
		work_all = work + redone;
		assert_true(fabs(r.busy_cpu_seconds - work_all) <
			    1e-6 * work_all);
		for (size_t b = 0; b < r.nbuckets; b++) {
			assert_true(r.busy_buckets[b] <=
				    8 * m.bucket_seconds * (1 + 1e-9));
			sum += r.busy_buckets[b];
		}
		assert_true(fabs(sum - work_all) < 1e-6 * work_all);
		assert_true(r.wall_seconds >= 0);

		run(policies[p], &f, &m, &again);
		same_result(&r, &again);
		sim_result_free(&again);
		sim_result_free(&r);
	}
}

static void test_random_workload(void **state)
{
	(void)state;
	random_workload(1);	/* the default: as live */
	random_workload(0);	/* the papers' free migrations */
}

/* The memory range is a --param; a job larger than the machine is an
 * error, not a job that waits forever. */
static void test_params_and_errors(void **state)
{
	sim_model_t m;
	char err[256] = "";

	sim_model_defaults(&m);
	near(m.dfrs_mem_lo, 0.1);
	near(m.dfrs_mem_hi, 0.5);
	assert_int_equal(sim_param_set(&m, "dfrs_mem_lo", 0.2, err,
				       sizeof(err)), 0);
	assert_int_equal(sim_param_set(&m, "dfrs_mem_hi", 0.7, err,
				       sizeof(err)), 0);
	near(m.dfrs_mem_lo, 0.2);
	near(m.dfrs_mem_hi, 0.7);
	assert_int_equal(sim_param_set(&m, "dfrs_mem_hi", 1.5, err,
				       sizeof(err)), -1);

	static const spec_t spec[] = { { 0, 10, 3, { 1.0 } } };
	work_t f;
	sim_result_t r;

	build(&f, 2, spec, 1);
	assert_int_equal(sim_dfrs_greedyp(&f.w, &m, &r, err, sizeof(err)), -1);
	print_message("error: %s\n", err);
	assert_non_null(strstr(err, "3 units"));
	assert_null(r.jobs);
	sim_result_free(&r);
}

/*
 * The DFRS rows' defaults are sched/amcbf's in amcbf_mode=dfrs, so that a
 * default row predicts the plugin: the requeue model, amcbf_max_preempt 3,
 * amcbf_dfrs_starve_bsld 1000, amcbf_dfrs_period and _minvt 600, METAVP's
 * 14 algorithms cold to 1e-4, no checkpoint (amcbf_ckpt_signal=none),
 * dfrs_min_yield 0.25; each equal to the literal and to
 * dfrs_params_defaults(); the slurm.conf names set them.  The rows say
 * which model they used.
 */
static void test_defaults_as_live(void **state)
{
	sim_model_t m;
	dfrs_params_t live;
	sim_policy_t p;
	char err[256] = "";

	(void)state;
	sim_model_defaults(&m);
	dfrs_params_defaults(&live);
	assert_true(m.dfrs_requeue == 1);
	/* the model's field is the literal and the plugin's default */
#define AS_LIVE(field, value, plugin) \
	do { \
		assert_true(m.field == (value)); \
		assert_true(m.field == (double)live.plugin); \
	} while (0)
	AS_LIVE(dfrs_max_requeues, 3, max_preempt);
	AS_LIVE(dfrs_min_runtime, 0, min_runtime);
	AS_LIVE(dfrs_starve_bsld, 1000, dfrs_starve_bsld);
	AS_LIVE(dfrs_period, 600, dfrs_period);
	AS_LIVE(dfrs_minvt, 600, dfrs_minvt);
	AS_LIVE(dfrs_min_yield, 0.25, share_min_yield);
	AS_LIVE(dfrs_repack_algorithms, 14, dfrs_repack_algorithms);
	AS_LIVE(dfrs_repack_drift, 0, dfrs_repack_drift);
	AS_LIVE(dfrs_repack_tolerance, 0, dfrs_repack_tolerance);
#undef AS_LIVE
	assert_true(m.dfrs_ckpt_share == 0);
	assert_int_equal(live.ckpt_signal, AMCBF_CKPT_NONE);

	assert_int_equal(sim_param_set(&m, "amcbf_max_preempt", 7, err,
				       sizeof(err)), 0);
	assert_true(m.dfrs_max_requeues == 7);
	assert_int_equal(sim_param_set(&m, "amcbf_dfrs_minvt", 60, err,
				       sizeof(err)), 0);
	assert_true(m.dfrs_minvt == 60);
	assert_int_equal(sim_param_set(&m, "dfrs_min_yield", 1.5, err,
				       sizeof(err)), -1);

	assert_int_equal(sim_policy_find("greedypm", &p), 0);
	assert_string_equal(sim_policy_dfrs_model(&p, &m), "requeue");
	m.dfrs_requeue = 0;
	assert_string_equal(sim_policy_dfrs_model(&p, &m), "free-migration");
	assert_int_equal(sim_policy_find("easy", &p), 0);
	assert_null(sim_policy_dfrs_model(&p, &m));
}

/*
 * dfrs_min_yield reaches the drivers: one node, memory 0.1 per task, five
 * single-task CPU-bound jobs (need 1, 100 s) arriving at 0, no running
 * job taken off (dfrs_max_requeues=0).  At the default 0.25 four fit
 * (4 x 0.25 = 1), each at yield 0.25: done at 400; the fifth waits and
 * runs alone 400..500.  At 0 all five share the node at 0.2: done at 500.
 */
static void test_min_yield(void **state)
{
	static const spec_t spec[] = {
		{ 0, 100, 1, { 1.0 } }, { 0, 100, 1, { 1.0 } },
		{ 0, 100, 1, { 1.0 } }, { 0, 100, 1, { 1.0 } },
		{ 0, 100, 1, { 1.0 } },
	};
	static const expect_t bounded[] = {
		{ 0, 400, 0, 0 }, { 0, 400, 0, 0 }, { 0, 400, 0, 0 },
		{ 0, 400, 0, 0 }, { 400, 500, 0, 0 },
	};
	static const expect_t shared[] = {
		{ 0, 500, 0, 0 }, { 0, 500, 0, 0 }, { 0, 500, 0, 0 },
		{ 0, 500, 0, 0 }, { 0, 500, 0, 0 },
	};
	char err[256] = "";
	work_t f;
	sim_model_t m;

	(void)state;
	build(&f, 1, spec, 5);
	model(&m, 0.1);
	assert_int_equal(sim_param_set(&m, "dfrs_max_requeues", 0, err,
				       sizeof(err)), 0);
	for (int none = 0; none <= 1; none++) {
		if (none)
			assert_int_equal(sim_param_set(&m, "dfrs_min_yield", 0,
						       err, sizeof(err)), 0);
		for (size_t p = 0; p < NPOLICIES; p++) {
			sim_result_t r;

			run(policies[p], &f, &m, &r);
			fixture_check(policies[p], &r, none ? shared : bounded,
				      5);
			sim_result_free(&r);
		}
	}
}

/* The three drivers are in dfrs sim's policy table, after the engines. */
static void test_policies_listed(void **state)
{
	const char *names[] = { "greedyp", "greedypm", "mcb" };
	size_t seen = 0;

	for (size_t i = 0; i < sim_policy_count(); i++)
		for (size_t k = 0; k < 3; k++)
			seen += !strcmp(sim_policy_at(i).name, names[k]);
	assert_int_equal(seen, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_concurrent),
		cmocka_unit_test(test_share_node),
		cmocka_unit_test(test_preempt_resume),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_no_preempt_when_fits),
		cmocka_unit_test(test_requeue_cap),
		cmocka_unit_test(test_min_runtime),
		cmocka_unit_test(test_zero_runtime),
		cmocka_unit_test(test_random_workload),
		cmocka_unit_test(test_params_and_errors),
		cmocka_unit_test(test_defaults_as_live),
		cmocka_unit_test(test_min_yield),
		cmocka_unit_test(test_policies_listed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
