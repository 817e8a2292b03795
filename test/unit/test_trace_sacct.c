/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trace_sacct.c - the trace reader on sacct exports (exact fields,
 * skipped rows, malformed rows and headers) and the field conversions it
 * relies on (numbers, Slurm durations, sacct timestamps).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/trace.h"
#include "sim/sim_workload.h"
#include "trace/trace_parser.h"
#include "trace_test_util.h"

#define SMALL_SACCT DFRS_TEST_DATA_DIR "/small_sacct.csv"

static void test_small_sacct(void **state)
{
	trace_t t;
	const trace_job_t *j;
	char err[256];

	(void)state;
	assert_int_equal(trace_read(SMALL_SACCT, NULL, &t, err, sizeof(err)), 0);
	assert_int_equal(t.format, TRACE_FORMAT_SACCT);
	assert_string_equal(trace_format_name(t.format), "sacct");
	assert_int_equal(t.njobs, 4);
	assert_int_equal(t.bad_lines, 0);
	assert_int_equal(t.skipped_jobs, 4);
	assert_int_equal(t.skipped_no_runtime, 1);	/* 103: never started */
	assert_int_equal(t.skipped_unfinished, 2);	/* 104, 105 */
	assert_int_equal(t.skipped_steps, 1);		/* 107.batch */
	assert_int_equal(t.skipped_no_submit, 0);
	assert_int_equal(t.skipped_no_procs, 0);
	assert_int_equal(t.header_max_jobs, -1);
	assert_int_equal(t.header_max_nodes, -1);
	assert_int_equal(t.has_req_time, 1);

	/* submit order 102 (03:04:00), 101 and 106 (03:04:05), 108 */
	j = &t.jobs[0];
	assert_int_equal(j->id, 102);
	assert_true(j->submit == 0);
	assert_true(j->wait == 360);
	assert_true(j->runtime == 93784);	/* 1-02:03:04 */
	assert_int_equal(j->procs, 4);
	assert_int_equal(j->req_procs, 4);
	assert_true(j->req_time == 86400);
	assert_true(j->req_mem_kb == 4000.0 * 1024 / 4);
	assert_true(j->cpu_used == 0.5 / 4);
	assert_int_equal(j->status, 5);		/* "CANCELLED by 0" */
	assert_int_equal(j->user, 1001);
	assert_int_equal(j->group, 100);
	assert_int_equal(j->partition, 2);	/* debug: second name */
	assert_int_equal(j->queue, -1);
	assert_true(j->mem_used_kb == -1);
	assert_int_equal(j->line, 3);

	j = &t.jobs[1];
	assert_int_equal(j->id, 101);
	assert_true(j->submit == 5);
	assert_true(j->wait == 10);
	assert_true(j->runtime == 3600);
	assert_int_equal(j->procs, 8);
	assert_true(j->req_time == 7200);
	assert_true(j->req_mem_kb == 16.0 * 1024 * 1024 / 8);
	assert_true(j->cpu_used == 14400.0 / 8);
	assert_int_equal(j->status, 1);
	assert_int_equal(j->partition, 1);	/* batch */
	assert_int_equal(j->line, 2);

	j = &t.jobs[2];	/* AllocCPUS 0: ReqCPUS; "3Gc" is per CPU */
	assert_int_equal(j->id, 106);
	assert_true(j->submit == 5);
	assert_true(j->wait == 0);
	assert_int_equal(j->procs, 3);
	assert_true(j->req_mem_kb == 3.0 * 1024 * 1024);
	assert_true(j->cpu_used == -1);
	assert_int_equal(j->status, 0);		/* TIMEOUT */
	assert_int_equal(j->line, 7);

	j = &t.jobs[3];
	assert_int_equal(j->id, 108);
	assert_true(j->submit == 10);
	assert_true(j->runtime == 1);
	assert_true(j->req_time == -1);		/* Partition_Limit */
	assert_true(j->req_mem_kb == -1);
	assert_true(j->cpu_used == -1);		/* TotalCPU 0: unknown */
	assert_int_equal(j->status, 0);		/* FAILED */
	trace_free(&t);
}

/* sacct -p (trailing '|'), JobID of array tasks, names numbered, Raw
 * columns, a leap day. */
static void test_pipe_names_raw(void **state)
{
	const char *text =
		"JobID|Submit|Start|End|NCPUS|User|Group|TimelimitRaw|"
		"ElapsedRaw|\n"
		"7_1|2024-02-28T23:59:59|2024-02-29T00:00:09|"
		"2024-02-29T00:01:09|4|alice|hpc|90|60|\n"
		"\n"
		"7_2|2024-02-29T23:59:59|2024-03-01T00:00:00|"
		"2024-03-01T00:00:30|2|bob|hpc|UNLIMITED|30|\n"
		"9|2024-03-01T00:00:00|2024-03-01T00:00:00|"
		"2024-03-01T00:00:00|1|alice|ops||0|\n";
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(text, strlen(text), "p", NULL, &t, err,
				     sizeof(err)), 0);
	assert_int_equal(t.njobs, 3);
	assert_int_equal(t.jobs[0].id, 7);
	assert_true(t.jobs[0].wait == 10);
	assert_true(t.jobs[0].runtime == 60);
	assert_true(t.jobs[0].req_time == 5400);
	assert_int_equal(t.jobs[0].user, 1);
	assert_int_equal(t.jobs[0].group, 1);
	assert_int_equal(t.jobs[0].req_procs, -1);
	assert_int_equal(t.jobs[0].status, -1);		/* no State */
	assert_true(t.jobs[1].submit == 86400);		/* over 02-29 */
	assert_true(t.jobs[1].wait == 1);
	assert_int_equal(t.jobs[1].user, 2);
	assert_true(t.jobs[1].req_time == -1);
	assert_true(t.jobs[2].submit == 86401);
	assert_true(t.jobs[2].runtime == 0);
	assert_int_equal(t.jobs[2].user, 1);
	assert_int_equal(t.jobs[2].group, 2);
	assert_int_equal(t.jobs[2].line, 5);
	assert_int_equal(t.has_req_time, 1);
	trace_free(&t);
}

/* Without Elapsed the run time is End - Start; header in lower case. */
static void test_runtime_from_end(void **state)
{
	const char *text = "jobidraw,submit,start,end,alloccpus\n"
		"5,2023-12-31T22:00:00,2023-12-31T23:00:00,"
		"2024-01-01T01:00:00,2\n";
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(text, strlen(text), "e", NULL, &t, err,
				     sizeof(err)), 0);
	assert_int_equal(t.njobs, 1);
	assert_true(t.jobs[0].runtime == 7200);
	assert_true(t.jobs[0].wait == 3600);
	assert_int_equal(t.has_req_time, 0);
	trace_free(&t);
}

#define HEADER "JobIDRaw,Submit,Start,End,Elapsed,AllocCPUS,ReqMem\n"
#define GOOD_ROW "1,2024-01-01T00:00:00,2024-01-01T00:00:01," \
	"2024-01-01T00:00:11,00:00:10,2,\n"

/* A malformed row between good ones: message, count; strict stops. */
static void check_bad_row(const char *header, const char *bad,
			  const char *message)
{
	char text[1024], expected[512], err[256], *diag;
	trace_t t;

	snprintf(text, sizeof(text), "%s%s%s%s", header, GOOD_ROW, bad,
		 GOOD_ROW);
	assert_int_equal(test_parse_capture(text, strlen(text), "s.csv", 0, 0,
					    0, &t, &diag, err, sizeof(err)), 0);
	snprintf(expected, sizeof(expected), "s.csv:3: %s\ns.csv: 2 jobs read, "
		 "1 malformed lines skipped, 0 records that cannot be "
		 "simulated skipped (0 no submit time, 0 no run time, 0 no "
		 "processors, 0 not ended, 0 job steps)\n", message);
	assert_string_equal(diag, expected);
	assert_int_equal(t.bad_lines, 1);
	assert_int_equal(t.njobs, 2);
	trace_free(&t);
	free(diag);

	assert_int_equal(test_parse_capture(text, strlen(text), "s.csv", 1, 0,
					    0, &t, &diag, err, sizeof(err)), -1);
	snprintf(expected, sizeof(expected), "s.csv:3: %s", message);
	assert_string_equal(err, expected);
	assert_null(t.jobs);
	trace_free(&t);
	free(diag);
}

static void test_bad_rows(void **state)
{
	(void)state;
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:01\n",
		      "has 3 fields, the sacct header has 7");
	check_bad_row(HEADER, "2,2024-13-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,00:00:10,2,\n",
		      "Submit is not a time (YYYY-MM-DDTHH:MM:SS): "
		      "'2024-13-01T00:00:00'");
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,1:xx,2,\n",
		      "Elapsed is not a duration ([D-]HH:MM:SS): '1:xx'");
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,00:00:10,-2,\n",
		      "AllocCPUS is not a count: '-2'");
	check_bad_row(HEADER, "abc,2024-01-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,00:00:10,2,\n",
		      "JobIDRaw is not a job id: 'abc'");
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,00:00:10,2,lots\n",
		      "ReqMem is not a memory size (e.g. 4000M): 'lots'");
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:01,"
		      "2024-01-01T00:00:11,00:00:10,2,1e300P\n",
		      "ReqMem is not a memory size (e.g. 4000M): '1e300P'");
	/* empty Elapsed: End - Start is used, and must not be negative */
	check_bad_row(HEADER, "2,2024-01-01T00:00:00,2024-01-01T00:00:11,"
		      "2024-01-01T00:00:01,,2,\n", "End is before Start");
}

static void check_bad_header(const char *text, const char *err_text)
{
	char err[256], *diag;
	trace_t t;

	assert_int_equal(test_parse_capture(text, strlen(text), "h", 0, 0, 0,
					    &t, &diag, err, sizeof(err)), -1);
	assert_string_equal(err, err_text);
	assert_null(t.jobs);
	trace_free(&t);
	free(diag);
}

static void test_bad_headers(void **state)
{
	(void)state;
	check_bad_header("JobIDRaw,Submit,End,AllocCPUS\n",
			 "h:1: sacct header has no Start column "
			 "(doc/traces.md gives the sacct command)");
	check_bad_header("JobIDRaw,Submit,Start,End,Submit,AllocCPUS\n",
			 "h:1: sacct header names column Submit twice");
	check_bad_header("JobID,Submit,Start,End,State\n",
			 "h:1: sacct header has no CPU count column "
			 "(AllocCPUS, NCPUS or ReqCPUS)");
	check_bad_header(HEADER, "h: no job that can be simulated (0 "
			 "malformed lines, 0 records skipped)");
}

/* Found by the fuzzer: a header of 257 or more columns overran the field
 * array before it was refused. */
static void test_too_many_columns(void **state)
{
	char text[2048];
	size_t n = 0;
	int i;

	(void)state;
	n += snprintf(text + n, sizeof(text) - n, "JobIDRaw,Submit,Start,End,"
		      "AllocCPUS");
	for (i = 0; i < 300; i++)
		n += snprintf(text + n, sizeof(text) - n, ",");
	snprintf(text + n, sizeof(text) - n, "\n");
	check_bad_header(text, "h:1: sacct header has more than 256 columns");
	/* 256 columns, the last empty (sacct -p): accepted */
	n = snprintf(text, sizeof(text), "JobIDRaw,Submit,Start,End,AllocCPUS");
	for (i = 0; i < 251; i++)
		n += snprintf(text + n, sizeof(text) - n, ",");
	snprintf(text + n, sizeof(text) - n, "\n");
	check_bad_header(text, "h: no job that can be simulated (0 "
			 "malformed lines, 0 records skipped)");
}

/* A sacct export in which nothing has ended. */
static void test_nothing_ended(void **state)
{
	const char *text = "JobIDRaw|Submit|Start|End|AllocCPUS|State\n"
		"3|2024-01-01T00:00:00|Unknown|Unknown|0|PENDING\n";
	char err[256], *diag;
	trace_t t;

	(void)state;
	assert_int_equal(test_parse_capture(text, strlen(text), "n", 0, 0, 0,
					    &t, &diag, err, sizeof(err)), -1);
	assert_string_equal(err, "n: no job that can be simulated (0 "
			    "malformed lines, 1 records skipped)");
	assert_int_equal(t.skipped_unfinished, 1);
	trace_free(&t);
	free(diag);
}

/* What dfrs advise reports as blockers, counted on job rows only (the
 * step row 4.batch is not), and the partitions' names by number. */
static const char blockers[] =
	"JobID|JobIDRaw|Partition|Submit|Start|End|ElapsedRaw|AllocCPUS|"
	"TimelimitRaw|TotalCPU|AllocTRES|Reservation\n"
	"1|1|batch|2024-03-01T00:00:00|2024-03-01T00:00:00|"
	"2024-03-01T00:01:40|100|4|10|00:03:20|cpu=4,node=1|\n"
	"2_1|3|short|2024-03-01T00:00:10|2024-03-01T00:00:10|"
	"2024-03-01T00:00:20|10|4|10|00:00:00|cpu=4,gres/gpu=1,node=1|\n"
	"4+0|4|short|2024-03-01T00:00:20|2024-03-01T00:00:20|"
	"2024-03-01T00:00:50|30|4|10|00:00:00|cpu=4,node=1|maint\n"
	"4+1|5|batch|2024-03-01T00:00:30|2024-03-01T00:00:30|"
	"2024-03-01T00:00:40|10|4|10|00:00:00|cpu=4,node=1|\n"
	"4.batch|4.batch|short|2024-03-01T00:00:20|2024-03-01T00:00:20|"
	"2024-03-01T00:00:50|30|4|10|00:00:00|cpu=4,node=1|\n";

static void test_blockers(void **state)
{
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(blockers, strlen(blockers), "h.csv", NULL,
				     &t, err, sizeof(err)), 0);
	assert_int_equal(t.njobs, 4);
	assert_int_equal(t.skipped_steps, 1);
	assert_int_equal(t.array_tasks, 1);
	assert_int_equal(t.het_components, 2);
	assert_int_equal(t.gres_jobs, 1);
	assert_int_equal(t.reservation_jobs, 1);
	assert_int_equal(t.npartition_names, 2);
	assert_string_equal(t.partition_names[0], "batch");
	assert_string_equal(t.partition_names[1], "short");
	assert_int_equal(t.jobs[1].partition, 2);
	trace_free(&t);
}

/* AllocTRES: the nodes, GPUs and memory a job held, and on nodes of 4
 * CPUs, 16000 MB and 2 GPUs the request dfrs sim replays from them. */
static const char tres[] =
	"JobID|Submit|Start|End|AllocCPUS|AllocTRES\n"
	"1|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T00:01:40|8|"
	"billing=8,cpu=8,gres/gpu=3,mem=8G,node=2\n"
	"2|2024-03-01T00:00:10|2024-03-01T00:00:10|2024-03-01T00:00:20|1|"
	"cpu=1,mem=500M,node=1\n"
	"3|2024-03-01T00:00:20|2024-03-01T00:00:20|2024-03-01T00:00:30|1|"
	"cpu=1,node=x\n";

static void test_alloc_tres(void **state)
{
	trace_t t;
	char err[256];
	char *diag = NULL;
	size_t diag_len = 0;
	FILE *f = open_memstream(&diag, &diag_len);
	trace_read_opts_t o = { .diag = f };
	sim_workload_opts_t wo;
	sim_workload_t w;

	(void)state;
	assert_int_equal(trace_parse(tres, strlen(tres), "t.csv", &o, &t, err,
				     sizeof(err)), 0);
	fclose(f);
	assert_int_equal(t.njobs, 2);
	assert_int_equal(t.bad_lines, 1);
	assert_non_null(strstr(diag, "t.csv:4: AllocTRES is not node=<count>"));
	assert_int_equal(t.jobs[0].alloc_nodes, 2);
	assert_int_equal(t.jobs[0].alloc_gpus, 3);
	assert_true(t.jobs[0].alloc_mem_mb == 8192);
	assert_int_equal(t.jobs[1].alloc_nodes, 1);
	assert_int_equal(t.jobs[1].alloc_gpus, 0);
	assert_true(t.jobs[1].alloc_mem_mb == 500);

	sim_workload_opts_defaults(&wo);
	wo.nodes = 8;
	wo.cpus_per_node = 4;
	wo.host_mem_mb = 16000;
	wo.host_gpus = 2;
	assert_int_equal(sim_workload_build(&t, &wo, &w, err, sizeof(err)), 0);
	assert_int_equal(w.nhosts, 2);
	assert_int_equal(w.nodes, 8);
	/* 8 CPUs on 2 nodes: both whole, 1024 MB a CPU, 2 GPUs a node */
	assert_int_equal(w.jobs[0].nodes, 8);
	assert_int_equal(w.jobs[0].req.hosts, 2);
	assert_int_equal(w.jobs[0].req.exclusive, 1);
	assert_int_equal(w.jobs[0].req.mem_per_cpu, 1024);
	assert_int_equal(w.jobs[0].req.gpus_per_host, 2);
	assert_int_equal(w.jobs[1].req.hosts, 1);
	assert_int_equal(w.jobs[1].req.exclusive, 0);
	assert_int_equal(w.jobs[1].req.mem_per_cpu, 500);
	assert_int_equal(w.jobs[1].req.gpus, 0);
	assert_int_equal(w.clamped, 0);
	sim_workload_free(&w);
	trace_free(&t);
	free(diag);
}

static void test_parse_number(void **state)
{
	double v;

	(void)state;
	assert_int_equal(trace_parse_number("1e3", 3, &v), 0);
	assert_true(v == 1000);
	assert_int_equal(trace_parse_number("+5", 2, &v), 0);
	assert_true(v == 5);
	assert_int_equal(trace_parse_number(".5", 2, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(trace_parse_number("5.", 2, &v), 0);
	assert_true(v == 5);
	assert_int_equal(trace_parse_number("-1", 2, &v), 0);
	assert_true(v == -1);
	/* only the given length counts */
	assert_int_equal(trace_parse_number("12x", 2, &v), 0);
	assert_true(v == 12);
	assert_int_equal(trace_parse_number("", 0, &v), -1);
	assert_int_equal(trace_parse_number("-", 1, &v), -1);
	assert_int_equal(trace_parse_number(".", 1, &v), -1);
	assert_int_equal(trace_parse_number("1e", 2, &v), -1);
	assert_int_equal(trace_parse_number("inf", 3, &v), -1);
	assert_int_equal(trace_parse_number("0x10", 4, &v), -1);
	assert_int_equal(trace_parse_number(" 5", 2, &v), -1);
	assert_int_equal(trace_parse_number("1e400", 5, &v), -1);
}

static void test_parse_duration(void **state)
{
	static const struct {
		const char *text;
		double seconds;
	} good[] = {
		{ "1-02:03:04", 93784 }, { "02:03:04", 7384 }, { "05:06", 306 },
		{ "5", 300 }, { "1-02", 93600 }, { "1-02:03", 93780 },
		{ "00:00.500", 0.5 }, { "1-02:03:04.25", 93784.25 },
		{ "00:00:00", 0 }, { "365-00:00:00", 365 * 86400.0 },
	};
	static const char *const bad[] = {
		"", "-1", "1:2:3:4", "1-", "a", "1.5:00", "1:2.", "1:", ":1",
		"1234567890", "1-2-3", "01:02:03 ", "1--2",
	};
	size_t i;
	double s;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(trace_parse_duration(good[i].text,
						      strlen(good[i].text),
						      &s), 0);
		assert_true(s == good[i].seconds);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(trace_parse_duration(bad[i], strlen(bad[i]),
						      &s), -1);
}

static void test_parse_timestamp(void **state)
{
	static const struct {
		const char *text;
		double seconds;		/* checked with Python's timegm */
	} good[] = {
		{ "1970-01-01T00:00:00", 0 },
		{ "2024-01-02T03:04:05", 1704164645 },
		{ "2024-01-02 03:04:05", 1704164645 },
		{ "2024-02-29T00:00:00", 1709164800 },
		{ "1900-01-01T00:00:00", -2208988800.0 },
		{ "9999-12-31T23:59:59", 253402300799.0 },
	};
	static const char *const bad[] = {
		"2023-02-29T00:00:00", "2024-13-01T00:00:00",
		"2024-04-31T00:00:00", "2024-01-01T24:00:00",
		"2024-01-01T00:60:00", "2024-01-00T00:00:00",
		"2024-1-01T00:00:00", "2024-01-01T00:00:00Z", "Unknown",
		"1899-12-31T23:59:59", "2024-01-01X00:00:00",
		"2024-01-01T0a:00:00",
	};
	size_t i;
	double s;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(trace_parse_timestamp(good[i].text, 19, &s), 0);
		assert_true(s == good[i].seconds);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(trace_parse_timestamp(bad[i], strlen(bad[i]),
						       &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_sacct),
		cmocka_unit_test(test_pipe_names_raw),
		cmocka_unit_test(test_runtime_from_end),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_too_many_columns),
		cmocka_unit_test(test_nothing_ended),
		cmocka_unit_test(test_blockers),
		cmocka_unit_test(test_alloc_tres),
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_parse_timestamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
