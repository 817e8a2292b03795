/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_metrics.c - the simulator's model and figures on schedules
 * worked out by hand: metric formulas (sim_metrics.c), the migration cost,
 * Liu et al.'s bg progress formula, the workload builder (load scaling,
 * skipping, allocation unit) and the shared traces' job counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/sched_policy.h"
#include "sim/sim_engine.h"
#include "sim/sim_gen.h"
#include "sim_fixture.h"
#include "sim/sim_metrics.h"
#include "sim/sim_report.h"
#include "sim/sim_workload.h"
#include "trace/trace.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/*
 * EASY on Fig. 1 (ideal model): responses 20, 5, 25, 20, 15, 10 (J3 starts
 * at 20, J4 at 15), every process at 50 % CPU.
 *   mean response 95/6; mean wait (20 + 15)/6;
 *   bounded slowdown (Gamma 10): J1 20/20, J2 5/10 -> 1, J3 25/10 = 2.5,
 *     J4 20/10 = 2, J5 15/15, J6 10/10: mean 8.5/6, max 2.5;
 *   stretch: 1, 1, 5, 4, 1, 1: mean 13/6, max 5;
 *   busy CPU 0.5 * (20 + 10 + 30 + 20 + 30 + 10) = 60 over 6 nodes * 25 s.
 */
static void test_metrics_fig1_easy(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 15, 20, 0, 0 }, { 0, 15, 0, 0 }, { 0, 10, 0, 0 },
	};
	fixture_t f;
	sim_model_t m;
	sim_result_t r;
	sim_metrics_t x;

	fixture_ideal_model(&m);
	fixture_replay("easy", 6, fixture_fig1, 6, &m, want, &r);
	fixture_build(&f, 6, fixture_fig1, 6);
	sim_metrics_compute(&f.w, &r, SIM_BSLD_BOUND, &x);
	assert_int_equal(x.jobs, 6);
	near(x.mean_response, 95.0 / 6);
	near(x.mean_wait, 35.0 / 6);
	near(x.mean_bsld, 8.5 / 6);
	near(x.max_bsld, 2.5);
	near(x.mean_stretch, 13.0 / 6);
	near(x.max_stretch, 5);
	near(x.utilization, 60.0 / (6 * 25));
	near(x.makespan, 25);
	near(x.migrations_per_job, 0);

	double mean[SIM_SIZE_CLASSES];
	size_t count[SIM_SIZE_CLASSES];
	sim_metrics_bsld_by_size(&f.w, &r, SIM_BSLD_BOUND, mean, count);
	assert_int_equal(count[0], 2);		/* J1, J6 */
	assert_int_equal(count[1], 3);		/* J2, J4, J5 */
	assert_int_equal(count[2], 1);		/* J3 */
	near(mean[0], 1);
	near(mean[1], 4.0 / 3);
	near(mean[2], 2.5);
	sim_result_free(&r);
}

static void test_bounded_slowdown(void **state)
{
	near(sim_bounded_slowdown(5, 1, 10), 1);	/* short job: >= 1 */
	near(sim_bounded_slowdown(50, 2, 10), 5);	/* Gamma bounds it */
	near(sim_bounded_slowdown(300, 100, 10), 3);
	assert_int_equal(sim_size_class(1), 0);
	assert_int_equal(sim_size_class(4), 1);
	assert_int_equal(sim_size_class(16), 2);
	assert_int_equal(sim_size_class(64), 3);
	assert_int_equal(sim_size_class(65), 4);
}

/*
 * CMBF on Fig. 1 with a 20 s migration cost: J5 (suspended at 5 with 10 s
 * left) resumes at 10 with 30 s of work; at 20 J1 ends and J3 sees 4 idle
 * nodes plus J5's 2 (J5 arrived later): J5 is suspended again with 20 s
 * left, J3 runs 20-25, J5 resumes at 25 with 40 s and ends at 65.
 */
static void test_migration_cost(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 5, 10, 0, 0 }, { 0, 65, 2, 2 }, { 0, 10, 0, 0 },
	};
	sim_model_t m;
	sim_result_t r;

	fixture_ideal_model(&m);
	m.migration_cost = 20;
	fixture_replay("cmbf", 6, fixture_fig1, 6, &m, want, &r);
	sim_result_free(&r);
}

/*
 * Liu et al. 2013's bg progress on one node: A (fg, 1 process at 50 %, 100 s)
 * and B (1 process at 100 %, 10 s) arriving at 0 under AMCBF: A takes the
 * fg slot, B the bg slot.  With eff fixed at 0.9 (lo = hi) B's idle CPU
 * (0.5) is below its need (1.0): rate 0.9 * 0.5 / 1.0 = 0.45, B ends at
 * 10 / 0.45.  A's overhead while B runs is at most 3.7 %: A ends between
 * 100 and 100 + 22.2 * 0.037.  Without B beside it A runs at full speed.
 */
static void test_bg_progress_model(void **state)
{
	static const job_spec_t jobs[] = {
		{ 1, 100, { 0.5 } }, { 1, 10, { 1.0 } },
	};
	fixture_t f;
	sim_model_t m;
	sim_result_t r;
	char err[256];

	fixture_build(&f, 1, jobs, 2);
	sim_model_defaults(&m);
	m.eff_single_lo = m.eff_single_hi = 0.9;
	assert_int_equal(sim_run(&f.w, sched_amcbf, &m, &r, err, sizeof(err)),
			 0);
	near(r.jobs[1].first_start, 0);
	near(r.jobs[1].finish, 10 / 0.45);
	assert_true(r.jobs[0].finish >= 100);
	assert_true(r.jobs[0].finish <= 100 + 10 / 0.45 * 0.037 + 1e-9);
	/* busy CPU: A 0.5 per s while it progresses, B 1.0 * 0.45 per s */
	assert_true(r.busy_cpu_seconds > 0.5 * 100 + 0.45 * (10 / 0.45) -
					     1e-6);
	/* diagnostics: B ran in bg all its life, A in fg all of its; B was
	 * the earliest job outside fg (the head of Q u J_bg) and in bg */
	near(r.jobs[1].bg_seconds, 10 / 0.45);
	near(r.jobs[1].fg_seconds, 0);
	near(r.jobs[0].fg_seconds, r.jobs[0].finish);
	near(r.jobs[0].bg_seconds, 0);
	near(r.head_bg_seconds, 10 / 0.45);
	near(r.head_queued_seconds, 0);
	sim_metrics_t x;
	sim_metrics_compute(&f.w, &r, SIM_BSLD_BOUND, &x);
	near(x.head_in_bg, 1);
	near(x.bg_time_share, (10 / 0.45) / (10 / 0.45 + r.jobs[0].finish));
	/* classes: A is 1 x 1-10m, B 1 x <1m; B's bsld (10/0.45)/10 */
	int ca = sim_class_of(1, 100), cb = sim_class_of(1, 10);
	assert_int_equal(ca, 1);
	assert_int_equal(cb, 0);
	assert_int_equal(x.classes[cb].jobs, 1);
	near(x.classes[cb].mean_bsld, 1 / 0.45);
	near(x.classes[cb].max_bsld, 1 / 0.45);
	near(x.classes[cb].bg_fraction, 1);
	near(x.classes[ca].bg_fraction, 0);
	near(x.classes[cb].mean_response, 10 / 0.45);
	near(x.classes[ca].mean_response, r.jobs[0].finish);
	double bsld_a = r.jobs[0].finish / 100;
	near(x.classes[ca].max_bsld, bsld_a);
	near(x.classes[cb].bsld_share, (1 / 0.45) / (1 / 0.45 + bsld_a));
	assert_int_equal(x.classes[sim_class_of(17, 4000)].jobs, 0);
	/* A leaves 0.5 of its CPU idle for 100 s, B none: 50 of 110 */
	near(sim_consolidation_potential(&f.w, &m.sched), 50.0 / 110);
	m.sched.util_threshold = 0.5;	/* A's node no longer takes bg work */
	near(sim_consolidation_potential(&f.w, &m.sched), 0);
	m.sched.util_threshold = 0.96;
	sim_result_free(&r);

	/* the same under EASY: B waits for A, nothing shares a node */
	assert_int_equal(sim_run(&f.w, sched_easy_backfill, &m, &r, err,
				 sizeof(err)), 0);
	near(r.jobs[0].finish, 100);
	near(r.jobs[1].first_start, 100);
	near(r.jobs[1].finish, 110);
	sim_result_free(&r);
}

static const char small_swf[] =
	"; MaxProcs: 8\n"
	"1 100 -1 50 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
	"2 300 -1 10 16 -1 -1 16 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	"3 500 -1 20 1 5 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	"4 700 -1 30 3 -1 -1 3 40 -1 1 1 1 -1 -1 -1 -1 -1\n";

/*
 * The workload builder: machine size from MaxProcs, the 16-processor job
 * skipped as too big, arrivals relative to the first and divided by the
 * load, requested times as EASY's estimates (the runtime where missing),
 * CPU usage from field 6 (5 s over 20 s: 25 %), procs per node rounding up.
 */
static void test_workload_build(void **state)
{
	trace_t t;
	sim_workload_t w;
	sim_workload_opts_t o;
	char err[256];

	assert_int_equal(trace_parse(small_swf, sizeof(small_swf) - 1, "small",
				     NULL, &t, err, sizeof(err)), 0);
	sim_workload_opts_defaults(&o);
	o.load = 2;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.nodes, 8);
	assert_int_equal(w.njobs, 3);
	assert_int_equal(w.skipped_too_big, 1);
	assert_int_equal(w.estimates_exact, 0);
	near(w.jobs[0].arrival, 0);
	near(w.jobs[1].arrival, 200);	/* (500 - 100) / 2 */
	near(w.jobs[2].arrival, 300);
	near(w.jobs[0].estimate, 60);
	near(w.jobs[1].estimate, 20);	/* no requested time: runtime */
	near(w.jobs[1].util[0], 0.25);
	assert_int_equal(w.cpu_from_trace, 1);
	for (int p = 0; p < 4; p++)	/* Liu et al.'s model: 40..100 % */
		assert_true(w.jobs[0].util[p] >= 0.4 &&
			    w.jobs[0].util[p] < 1.0);
	sim_workload_free(&w);

	o.load = 1;
	o.procs_per_node = 2;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.nodes, 4);
	assert_int_equal(w.njobs, 3);
	assert_int_equal(w.jobs[0].nodes, 2);
	assert_int_equal(w.jobs[2].nodes, 2);	/* 3 procs: 2 units */
	sim_workload_free(&w);

	o.procs_per_node = 1;
	o.nodes = 2;	/* nothing but the 1-proc job fits */
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.njobs, 1);
	assert_int_equal(w.skipped_too_big, 3);
	sim_workload_free(&w);

	/* --estimates exact and x2: the run time (50 s for job 1, whose
	 * requested time is 60 s), then twice it */
	o.nodes = 0;
	o.estimate_factor = 1;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.estimates_exact, 1);
	near(w.jobs[0].estimate, 50);
	near(w.jobs[1].estimate, 20);
	sim_workload_free(&w);
	o.estimate_factor = 2;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.estimates_exact, 0);
	near(w.jobs[0].estimate, 100);
	near(w.jobs[1].estimate, 40);
	sim_workload_free(&w);
	o.estimate_factor = 0;

	/* --cpu-usage 1: every process at 100 %, job 3's field 6 too */
	o.cpu_usage = 1;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	for (size_t i = 0; i < w.njobs; i++)
		for (int p = 0; p < w.jobs[i].nodes; p++)
			near(w.jobs[i].util[p], 1);
	sim_workload_free(&w);
	o.cpu_usage = 0;

	o.load = 0;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), -1);
	trace_free(&t);
}

/*
 * The shared traces give the job counts of their headers: Lublin's MaxJobs
 * 10000, none skipped, 256 nodes; the cleaned NASA log's MaxJobs 42264
 * minus the 24025 its header says were removed, 128 nodes.  Skipped (not
 * failed) when the traces are not beside the repository.
 */
static void check_trace(const char *path, size_t jobs, int nodes)
{
	trace_t t;
	sim_workload_t w;
	sim_workload_opts_t o;
	char err[512];

	assert_int_equal(trace_read(path, NULL, &t, err, sizeof(err)), 0);
	sim_workload_opts_defaults(&o);
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.njobs + w.skipped_too_big + t.skipped_jobs, jobs);
	assert_int_equal(w.njobs, jobs);
	assert_int_equal(w.nodes, nodes);
	assert_int_equal(w.estimates_exact, 1);
	sim_workload_free(&w);
	trace_free(&t);
}

static void test_shared_lublin(void **state)
{
	check_trace(DFRS_TRACES_DIR "/lublin_256.swf.gz", 10000, 256);
}

static void test_shared_nasa(void **state)
{
	check_trace(DFRS_TRACES_DIR "/NASA-iPSC-1993-3.1-cln.swf.gz", 42264 - 24025,
		    128);
}

/* The DFRS rows say which model they used: one table line per model
 * naming its rows, and dfrs_model in their JSON (none in other rows). */
static void test_report_dfrs_model(void **state)
{
	sim_report_row_t rows[3] = {
		{ "easy", "dfrs_requeue", 0, { .mean_bsld = 3 }, NULL, NULL },
		{ "greedypm", "dfrs_requeue", 0, { .mean_bsld = 2 }, NULL,
		  "free-migration" },
		{ "greedypm", "dfrs_requeue", 1, { .mean_bsld = 4 }, NULL,
		  "requeue" },
	};
	sim_report_t r = { .trace = "t", .nodes = 4, .load = 1,
			   .rows = rows, .nrows = 3 };
	json_object *root, *res, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	sim_report_table(out, &r);
	fclose(out);
	assert_non_null(strstr(buf, "\nDFRS model of greedypm dfrs_requeue=1: "
			       "requeue:\n  as amcbf_mode=dfrs live,"));
	assert_non_null(strstr(buf, "\nDFRS model of greedypm dfrs_requeue=0: "
			       "free-migration:\n  Stillwell et al. 2010's "
			       "model"));
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	sim_report_json(out, &r);
	fclose(out);
	root = json_tokener_parse(buf);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "results", &res));
	assert_false(json_object_object_get_ex(
		json_object_array_get_idx(res, 0), "dfrs_model", &v));
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(res, 1), "dfrs_model", &v));
	assert_string_equal(json_object_get_string(v), "free-migration");
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(res, 2), "dfrs_model", &v));
	assert_string_equal(json_object_get_string(v), "requeue");
	json_object_put(root);
	free(buf);
}

/* A sweep names, per policy, the setting with the lowest mean bounded
 * slowdown (the first on ties), in the table and in the JSON. */
static void test_sweep_best(void **state)
{
	sim_report_row_t rows[6] = {
		{ "easy", "util_threshold", 0.5, { .mean_bsld = 3.0 }, NULL, NULL },
		{ "amcbf", "util_threshold", 0.5, { .mean_bsld = 4.0 }, NULL, NULL },
		{ "easy", "util_threshold", 0.9, { .mean_bsld = 3.0 }, NULL, NULL },
		{ "amcbf", "util_threshold", 0.9, { .mean_bsld = 2.5 }, NULL, NULL },
		{ "easy", "util_threshold", 0.96, { .mean_bsld = 3.5 }, NULL, NULL },
		{ "amcbf", "util_threshold", 0.96, { .mean_bsld = 2.75 }, NULL, NULL },
	};
	sim_report_t r = { .trace = "t", .nodes = 4, .load = 1,
			   .rows = rows, .nrows = 6 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	sim_report_table(out, &r);
	fclose(out);
	assert_non_null(strstr(buf, "\nbest util_threshold by mean bounded "
			       "slowdown: easy 0.5 (3.00), amcbf 0.9 (2.50)\n"));
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	sim_report_json(out, &r);
	fclose(out);
	json_object *root = json_tokener_parse(buf), *best, *o, *v;
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "best", &best));
	assert_int_equal(json_object_array_length(best), 2);
	o = json_object_array_get_idx(best, 0);
	assert_true(json_object_object_get_ex(o, "policy", &v));
	assert_string_equal(json_object_get_string(v), "easy");
	assert_true(json_object_object_get_ex(o, "util_threshold", &v));
	assert_true(json_object_get_double(v) == 0.5);
	o = json_object_array_get_idx(best, 1);
	assert_true(json_object_object_get_ex(o, "policy", &v));
	assert_string_equal(json_object_get_string(v), "amcbf");
	assert_true(json_object_object_get_ex(o, "util_threshold", &v));
	assert_true(json_object_get_double(v) == 0.9);
	assert_true(json_object_object_get_ex(o, "mean_bsld", &v));
	assert_true(json_object_get_double(v) == 2.5);
	json_object_put(root);
	free(buf);
}

/* Offered load, mean run time and the share of jobs of one process and of
 * fewer than 20 processes of a generated trace. */
static void gen_stats(const trace_t *t, int nodes, double *offered,
		      double *mean_rt, double *one, double *under20)
{
	double work = 0, rt = 0, n1 = 0, n20 = 0;
	for (size_t i = 0; i < t->njobs; i++) {
		const trace_job_t *j = &t->jobs[i];
		assert_true(j->procs >= 1 && j->procs <= nodes);
		assert_true(j->runtime >= 0);
		if (i)
			assert_true(j->submit >= t->jobs[i - 1].submit);
		work += j->procs * j->runtime;
		rt += j->runtime;
		n1 += j->procs == 1;
		n20 += j->procs < 20;
	}
	*offered = work / (nodes * t->jobs[t->njobs - 1].submit);
	*mean_rt = rt / (double)t->njobs;
	*one = n1 / (double)t->njobs;
	*under20 = n20 / (double)t->njobs;
}

/*
 * dfrs gen's models at their defaults (320 nodes, load 0.7, seed 1): the
 * job counts of Liu et al. 2013 section 5.2, the mean run times the paper
 * implies (2,500 s and 11,250 s, section 5.4), JWorkload's 40 % of
 * one-process jobs and 86 % under 20 processes (section 5.3), the offered
 * load asked for; the same seed gives the same trace, another seed another.
 */
static void test_gen_models(void **state)
{
	sim_gen_opts_t o;
	trace_t t, u;
	char err[256];
	double load, rt, one, under20;

	sim_gen_opts_defaults(&o);
	assert_int_equal(sim_gen(&o, &t, err, sizeof(err)), 0);
	assert_int_equal(t.njobs, 20000);
	assert_int_equal(t.header_max_procs, 320);
	near(t.jobs[0].submit, 0);
	assert_int_equal(t.jobs[0].procs, 2);
	near(t.jobs[0].runtime, 532);
	gen_stats(&t, 320, &load, &rt, &one, &under20);
	assert_true(load > 0.65 && load < 0.75);
	assert_true(rt > 2250 && rt < 2750);
	assert_int_equal(sim_gen(&o, &u, err, sizeof(err)), 0);
	assert_memory_equal(t.jobs, u.jobs, t.njobs * sizeof(*t.jobs));
	trace_free(&u);
	o.seed = 2;
	assert_int_equal(sim_gen(&o, &u, err, sizeof(err)), 0);
	assert_true(memcmp(t.jobs, u.jobs, t.njobs * sizeof(*t.jobs)) != 0);
	trace_free(&u);
	trace_free(&t);

	sim_gen_opts_defaults(&o);
	assert_int_equal(sim_gen_model("jann97", &o.model), 0);
	o.load = 0.9;
	assert_int_equal(sim_gen(&o, &t, err, sizeof(err)), 0);
	assert_int_equal(t.njobs, 10000);
	gen_stats(&t, 320, &load, &rt, &one, &under20);
	assert_true(load > 0.85 && load < 0.95);
	assert_true(rt > 10000 && rt < 12500);
	assert_true(one > 0.38 && one < 0.42);
	assert_true(under20 > 0.84 && under20 < 0.88);
	trace_free(&t);

	assert_int_equal(sim_gen_model("lublin99", &o.model), -1);
	o.load = 0;
	assert_int_equal(sim_gen(&o, &t, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics_fig1_easy),
		cmocka_unit_test(test_bounded_slowdown),
		cmocka_unit_test(test_migration_cost),
		cmocka_unit_test(test_bg_progress_model),
		cmocka_unit_test(test_workload_build),
		cmocka_unit_test(test_shared_lublin),
		cmocka_unit_test(test_sweep_best),
		cmocka_unit_test(test_report_dfrs_model),
		cmocka_unit_test(test_shared_nasa),
		cmocka_unit_test(test_gen_models),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
