/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_live.c - a live run's jobcomp records read (jobcomp.c) and
 * turned into dfrs sim's figures (sim_live.c), worked out by hand; bad
 * records and missing jobs give one message naming file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "trace/jobcomp.h"
#include "sim/sim_live.h"
#include "sim/sim_metrics.h"
#include "sim/sim_report.h"
#include "trace/trace.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* The excerpt: three jobs named by their trace ids 7, 8, 9. */
static const char swf[] =
	"; MaxProcs: 2\n"
	"7 0 -1 20 1 10 -1 1 60 -1 1 -1 -1 -1 0 -1 -1 -1\n"
	"8 1 -1  5 2  5 -1 2 60 -1 1 -1 -1 -1 0 -1 -1 -1\n"
	"9 3 -1 30 1 30 -1 1 60 -1 1 -1 -1 -1 0 -1 -1 -1\n";

#define REC(id, name, state, sub, start, end) \
	"JobId=" id " UserId=root(0) GroupId=root(0) Name=" name \
	" JobState=" state " Partition=debug TimeLimit=1 StartTime=" start \
	" EndTime=" end " NodeList=n1 NodeCnt=1 ProcCnt=2 WorkDir=/tmp " \
	"SubmitTime=" sub " EligibleTime=" sub " ExitCode=0:0 \n"
#define T(s) "2026-11-22T10:00:" s

/*
 * Job 7 submitted at 0, runs 1..21; job 8 (2 nodes) submitted at 1, runs
 * 2..4, is preempted, runs again 22..27; job 9 submitted at 4, runs 5..36.
 * Time 0 is job 7's submit (10:00:10).
 */
static const char jobcomp[] =
	REC("1", "7", "COMPLETED", T("10"), T("11"), T("31"))
	REC("2", "8", "PREEMPTED", T("11"), T("12"), T("14"))
	"\n"
	REC("3", "9", "COMPLETED", T("14"), T("15"), T("46"))
	REC("2", "8", "COMPLETED", T("11"), T("32"), T("37"));

typedef struct {
	trace_t t;
	sim_workload_t w;
	sim_model_t m;
} fixture_t;

static void setup(fixture_t *f)
{
	sim_workload_opts_t o;
	char err[256];

	assert_int_equal(trace_parse(swf, strlen(swf), "ex.swf", NULL, &f->t,
				     err, sizeof(err)), 0);
	sim_workload_opts_defaults(&o);
	assert_int_equal(sim_workload_build(&f->t, &o, &f->w, err,
					    sizeof(err)), 0);
	sim_model_defaults(&f->m);
}

static void teardown(fixture_t *f)
{
	sim_workload_free(&f->w);
	trace_free(&f->t);
}

static void test_parse(void **state)
{
	jobcomp_t jc;
	char err[256];

	(void)state;
	assert_int_equal(jobcomp_parse(jobcomp, strlen(jobcomp), "jc.txt", &jc,
				       err, sizeof(err)), 0);
	assert_int_equal(jc.n, 4);
	assert_int_equal(jc.recs[1].job_id, 2);
	assert_string_equal(jc.recs[1].name, "8");
	assert_string_equal(jc.recs[1].state, "PREEMPTED");
	near(jc.recs[1].start - jc.recs[1].submit, 1);
	near(jc.recs[1].end - jc.recs[1].start, 2);
	assert_int_equal(jc.recs[2].line, 4);	/* after the blank line */
	jobcomp_free(&jc);
}

static void expect_parse_error(const char *text, const char *want)
{
	jobcomp_t jc;
	char err[256];

	assert_int_equal(jobcomp_parse(text, strlen(text), "jc.txt", &jc, err,
				       sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_null(jc.recs);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_parse_error(REC("1", "7", "COMPLETED", T("10"), T("11"), T("31"))
			   "garbage\n", "jc.txt:2: no JobId= (not a jobcomp "
			   "record)");
	expect_parse_error(REC("x1", "7", "COMPLETED", T("10"), T("11"),
			       T("31")), "jc.txt:1: JobId 'x1' is not a job id");
	expect_parse_error(REC("1", "7", "COMPLETED", T("10"), "2026-13-01T"
			       "00:00:00", T("31")), "jc.txt:1: JobId=1: "
			   "StartTime '2026-13-01T00:00:00' is not a time");
	expect_parse_error("JobId=3 Name=1 JobState=COMPLETED StartTime=Unknown"
			   " SubmitTime=" T("10") "\n",
			   "jc.txt:1: JobId=3: no EndTime=");
}

/*
 * Live arrivals 0, 1, 4; finishes 21, 27, 36; first starts 1, 2, 5:
 *   mean response (21 + 26 + 32) / 3; mean wait (1 + 1 + 1) / 3;
 *   bsld: 21/20, 26/10, 32/30; one preemption (job 8);
 *   busy CPU (usage per process from field 6 over field 4): job 7
 *   0.5 x 20, job 8 2 processes x 1 x (2 + 5), job 9 1 x 30 (it ran 31 s,
 *   but a run does no more work than the job's 30 s: time slicing and
 *   suspension do not count), over 2 nodes x makespan 36.  That work is
 *   spread over the run: in 1 s bins the last one (35..36), where only job
 *   9 runs, holds 30/31 of a CPU second, and the first (0..1) none.
 */
static void test_live_metrics(void **state)
{
	fixture_t f;
	jobcomp_t jc;
	sim_workload_t live;
	sim_result_t r;
	sim_metrics_t x;
	char err[256];

	(void)state;
	setup(&f);
	f.m.bucket_seconds = 1;
	assert_int_equal(jobcomp_parse(jobcomp, strlen(jobcomp), "jc.txt", &jc,
				       err, sizeof(err)), 0);
	assert_int_equal(sim_live_result(&f.w, &jc, &f.m, &live, &r, err,
					 sizeof(err)), 0);
	assert_true(r.nbuckets > 35);
	near(r.busy_buckets[35], 30.0 / 31);
	near(r.busy_buckets[0], 0);
	near(live.jobs[0].arrival, 0);
	near(live.jobs[1].arrival, 1);
	near(live.jobs[2].arrival, 4);
	near(r.jobs[1].first_start, 2);
	near(r.jobs[1].finish, 27);
	assert_int_equal(r.jobs[1].preemptions, 1);
	assert_int_equal(r.jobs[1].migrations, 1);
	sim_metrics_compute(&live, &r, SIM_BSLD_BOUND, &x);
	near(x.mean_response, (21.0 + 26 + 32) / 3);
	near(x.mean_wait, 1);
	near(x.mean_bsld, (21.0 / 20 + 26.0 / 10 + 32.0 / 30) / 3);
	near(x.max_bsld, 2.6);
	near(x.preemptions_per_job, 1.0 / 3);
	near(x.makespan, 36);
	near(x.utilization, (0.5 * 20 + 2 * 7 + 30) / (2 * 36.0));
	sim_result_free(&r);
	sim_live_free(&live);
	jobcomp_free(&jc);
	teardown(&f);
}

static void expect_live_error(const char *text, const char *want)
{
	fixture_t f;
	jobcomp_t jc;
	sim_workload_t live;
	sim_result_t r;
	char err[512];

	setup(&f);
	assert_int_equal(jobcomp_parse(text, strlen(text), "jc.txt", &jc, err,
				       sizeof(err)), 0);
	assert_int_equal(sim_live_result(&f.w, &jc, &f.m, &live, &r, err,
					 sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_null(live.jobs);
	assert_null(r.jobs);
	jobcomp_free(&jc);
	teardown(&f);
}

static void test_live_errors(void **state)
{
	(void)state;
	/* job 9 has no record, job 8 only a lost run, job 7 timed out */
	expect_live_error(REC("1", "7", "TIMEOUT", T("10"), T("11"), T("31"))
			  REC("2", "8", "PREEMPTED", T("11"), T("12"), T("14")),
			  "jc.txt: 3 of 3 jobs did not complete: 7 (TIMEOUT) "
			  "8 (PREEMPTED) 9 (no record)");
	expect_live_error(REC("1", "7", "COMPLETED", T("10"), T("11"), T("31"))
			  REC("5", "wrap", "COMPLETED", T("10"), T("11"),
			      T("31")),
			  "jc.txt:2: JobId=5 Name=wrap is no job of the "
			  "workload");
	expect_live_error(REC("1", "7", "COMPLETED", T("10"), T("11"), T("31"))
			  REC("1", "7", "COMPLETED", T("10"), T("11"), T("31")),
			  "jc.txt:2: job 7 completed twice (also line 1)");
}

static void test_predicted(void **state)
{
	(void)state;
	assert_string_equal(sim_live_predicted("slurm-backfill"), "easy");
	assert_string_equal(sim_live_predicted("slurm-amcbf"), "amcbf");
	assert_string_equal(sim_live_predicted("slurm-gang"), "gang");
	assert_null(sim_live_predicted("slurm-"));
	assert_null(sim_live_predicted("mine"));
}

/* The string at key in o (a failed assertion if there is none). */
static const char *key_string(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

/* A live row after its prediction: its ratio in the table's last part
 * and in the JSON's fidelity array. */
static void test_report_fidelity(void **state)
{
	sim_report_row_t rows[3] = {
		{ "easy", NULL, 0, { .mean_bsld = 2.0, .mean_wait = 10 }, NULL,
		  NULL },
		{ "slurm-backfill", NULL, 0,
		  { .mean_bsld = 2.1, .mean_wait = 9 }, "easy", NULL },
		{ "slurm-x", NULL, 0, { .mean_bsld = 1 }, "x", NULL },
	};
	sim_report_t r = { .trace = "t", .nodes = 4, .load = 1,
			   .rows = rows, .nrows = 3 };
	json_object *root, *fid, *o, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	sim_report_table(out, &r);
	fclose(out);
	assert_non_null(strstr(buf, "\nlive / predicted (ratio, % off):\n"
			       "slurm-backfill / easy:\n"
			       "  mean_response       0.000 (-100.0 %)\n"
			       "  mean_wait           0.900 (-10.0 %)\n"
			       "  mean_bsld           1.050 (+5.0 %)\n"));
	assert_null(strstr(buf, "slurm-x /"));	/* x is not in the report */
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	sim_report_json(out, &r);
	fclose(out);
	root = json_tokener_parse(buf);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "fidelity", &fid));
	assert_int_equal(json_object_array_length(fid), 1);
	o = json_object_array_get_idx(fid, 0);
	assert_string_equal(key_string(o, "live"), "slurm-backfill");
	assert_string_equal(key_string(o, "predicted"), "easy");
	assert_true(json_object_object_get_ex(o, "mean_bsld_ratio", &v));
	near(json_object_get_double(v), 1.05);
	assert_true(json_object_object_get_ex(root, "results", &v));
	assert_string_equal(key_string(json_object_array_get_idx(v, 1),
				       "predicted"), "easy");
	json_object_put(root);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_live_metrics),
		cmocka_unit_test(test_live_errors),
		cmocka_unit_test(test_predicted),
		cmocka_unit_test(test_report_fidelity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
