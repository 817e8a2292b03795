/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trace_swf.c - the trace reader on SWF input: exact job fields from
 * a hand-made file (plain and gzip), every kind of malformed input with its
 * message and counts, and the two shared traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "trace/arrival_order.h"
#include "trace/trace.h"
#include "trace_test_util.h"

#define SMALL_SWF DFRS_TEST_DATA_DIR "/small.swf"

/* A valid job line with fields 1, 2, 4, 5 given. */
#define JOB(id, submit, run, procs) \
	#id " " #submit " -1 " #run " " #procs \
	" -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"

static void assert_small_swf(const trace_t *t)
{
	const trace_job_t *j;

	assert_int_equal(t->format, TRACE_FORMAT_SWF);
	assert_int_equal(t->njobs, 4);
	assert_int_equal(t->bad_lines, 0);
	assert_int_equal(t->skipped_jobs, 3);
	assert_int_equal(t->skipped_no_submit, 1);
	assert_int_equal(t->skipped_no_runtime, 1);
	assert_int_equal(t->skipped_no_procs, 1);
	assert_int_equal(t->skipped_unfinished, 0);
	assert_int_equal(t->skipped_steps, 0);
	assert_int_equal(t->header_max_jobs, 7);
	assert_int_equal(t->header_max_procs, 64);
	assert_int_equal(t->header_max_nodes, 32);
	assert_int_equal(t->has_req_time, 1);

	/* submit order, ties (100) in file order: 3, 1, 2, 6 */
	assert_int_equal(t->jobs[0].id, 3);
	assert_int_equal(t->jobs[1].id, 1);
	assert_int_equal(t->jobs[2].id, 2);
	assert_int_equal(t->jobs[3].id, 6);

	j = &t->jobs[0];	/* runtime 0 is kept */
	assert_true(j->submit == 0);
	assert_true(j->runtime == 0);
	assert_int_equal(j->procs, 1);
	assert_int_equal(j->line, 10);

	j = &t->jobs[1];	/* every field given */
	assert_true(j->submit == 10);
	assert_true(j->wait == 5);
	assert_true(j->runtime == 50);
	assert_int_equal(j->procs, 8);
	assert_true(j->cpu_used == 45.5);
	assert_true(j->mem_used_kb == 1024);
	assert_int_equal(j->req_procs, 8);
	assert_true(j->req_time == 60);
	assert_true(j->req_mem_kb == 2048);
	assert_int_equal(j->status, 1);
	assert_int_equal(j->user, 3);
	assert_int_equal(j->group, 2);
	assert_int_equal(j->queue, 1);
	assert_int_equal(j->partition, 1);
	assert_int_equal(j->line, 8);

	j = &t->jobs[2];	/* procs from field 8 when field 5 is -1 */
	assert_int_equal(j->procs, 4);
	assert_int_equal(j->req_procs, 4);
	assert_true(j->wait == -1);
	assert_true(j->cpu_used == -1);
	assert_int_equal(j->status, 0);
	assert_int_equal(j->queue, 0);

	j = &t->jobs[3];	/* tab separated; field 5 is 0: field 8 */
	assert_true(j->submit == 10);
	assert_int_equal(j->procs, 16);
	assert_true(j->runtime == 30);
	assert_int_equal(j->user, 5);
}

static void test_small_plain(void **state)
{
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_read(SMALL_SWF, NULL, &t, err, sizeof(err)), 0);
	assert_string_equal(t.source, SMALL_SWF);
	assert_small_swf(&t);
	trace_free(&t);
	assert_null(t.jobs);
	assert_int_equal(t.njobs, 0);
}

static void test_small_gzip(void **state)
{
	size_t len, gzlen;
	char *text = test_slurp(SMALL_SWF, &len);
	char *gz = test_gzip(text, len, &gzlen);
	char *path = test_write_temp(gz, gzlen);
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_read(path, NULL, &t, err, sizeof(err)), 0);
	assert_small_swf(&t);
	trace_free(&t);
	unlink(path);
	free(path);
	free(gz);
	free(text);
}

/* gzip(1) concatenates members (cat a.gz b.gz): all are read. */
static void test_gzip_two_members(void **state)
{
	const char *a = JOB(1, 0, 10, 2), *b = JOB(2, 5, 20, 4);
	size_t alen, blen;
	char *ga = test_gzip(a, strlen(a), &alen);
	char *gb = test_gzip(b, strlen(b), &blen);
	char *both = malloc(alen + blen);
	trace_t t;
	char err[256];

	(void)state;
	memcpy(both, ga, alen);
	memcpy(both + alen, gb, blen);
	assert_int_equal(trace_parse(both, alen + blen, "two.gz", NULL, &t,
				     err, sizeof(err)), 0);
	assert_int_equal(t.njobs, 2);
	assert_int_equal(t.jobs[1].id, 2);
	assert_true(t.jobs[1].runtime == 20);
	trace_free(&t);
	free(both);
	free(gb);
	free(ga);
}

/* One malformed line among good ones: message, count, the rest kept. */
static void check_bad_line(const char *bad, const char *message)
{
	char text[1024], expected[512], err[256], *diag;
	trace_t t;

	snprintf(text, sizeof(text), "%s%s%s", JOB(1, 0, 10, 2), bad,
		 JOB(3, 5, 20, 4));
	assert_int_equal(test_parse_capture(text, strlen(text), "t.swf", 0, 0,
					    0, &t, &diag, err, sizeof(err)), 0);
	snprintf(expected, sizeof(expected), "t.swf:2: %s\nt.swf: 2 jobs read, "
		 "1 malformed lines skipped, 0 records that cannot be "
		 "simulated skipped (0 no submit time, 0 no run time, 0 no "
		 "processors, 0 not ended, 0 job steps)\n", message);
	assert_string_equal(diag, expected);
	assert_int_equal(t.bad_lines, 1);
	assert_int_equal(t.njobs, 2);
	assert_int_equal(t.jobs[1].id, 3);
	trace_free(&t);
	free(diag);

	/* strict: the same message stops the read */
	assert_int_equal(test_parse_capture(text, strlen(text), "t.swf", 1, 0,
					    0, &t, &diag, err, sizeof(err)), -1);
	snprintf(expected, sizeof(expected), "t.swf:2: %s", message);
	assert_string_equal(err, expected);
	assert_string_equal(diag, "");
	assert_int_equal(t.njobs, 0);
	assert_null(t.jobs);
	trace_free(&t);
	free(diag);
}

static void test_too_few_fields(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 10 4\n",
		       "has 5 fields, an SWF job line has 18");
}

static void test_too_many_fields(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1 7\n",
		       "has more than 18 fields, an SWF job line has 18");
}

static void test_non_numeric(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 ten 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 4 (run time) is not a number: 'ten'");
	check_bad_line("2 3 -1 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 nan\n",
		       "field 18 (think time) is not a number: 'nan'");
	check_bad_line("2 3 -1 1e999 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 4 (run time) is not a number: '1e999'");
	check_bad_line("2 3 -1 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 "
		       "12345678901234567890123456789x\n",
		       "field 18 (think time) is not a number: "
		       "'123456789012345678901234...'");
}

static void test_negative_procs(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 10 -5 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 5 (allocated processors) is negative: '-5' "
		       "(the only negative value is -1, unknown)");
	check_bad_line("2 -3 -1 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 2 (submit time) is negative: '-3' (the only "
		       "negative value is -1, unknown)");
}

static void test_non_integer(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 10 1.5 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 5 (allocated processors) is not an integer in "
		       "range: '1.5'");
	check_bad_line("2 3 -1 10 99999999999 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 "
		       "-1 -1\n", "field 5 (allocated processors) is not an "
		       "integer in range: '99999999999'");
}

static void test_control_bytes_quoted(void **state)
{
	(void)state;
	check_bad_line("2 3 -1 1\x01\x7f 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
		       "field 4 (run time) is not a number: '1?" "?'");
}

static void test_bad_header_value(void **state)
{
	(void)state;
	check_bad_line("; MaxProcs: many\n",
		       "header MaxProcs is not a count: 'many'");
}

/* Decimal times and CRLF line ends are accepted. */
static void test_decimals_and_crlf(void **state)
{
	const char *text = "; MaxNodes: 16\r\n"
		"1 0.5 -1 10.25 2 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\r\n"
		"2 2.5 -1 3 2 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\r\n";
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(text, strlen(text), "crlf", NULL, &t, err,
				     sizeof(err)), 0);
	assert_int_equal(t.header_max_nodes, 16);
	assert_int_equal(t.njobs, 2);
	assert_true(t.jobs[0].runtime == 10.25);
	assert_true(t.jobs[1].submit == 2.0);
	assert_int_equal(t.has_req_time, 0);
	trace_free(&t);
}

static void test_max_diag(void **state)
{
	const char *text = "1 2\n" "3 4\n" "5 6\n" JOB(1, 0, 10, 2);
	char err[256], *diag;
	trace_t t;

	(void)state;
	assert_int_equal(test_parse_capture(text, strlen(text), "m", 0, 2, 0,
					    &t, &diag, err, sizeof(err)), 0);
	assert_string_equal(diag,
		"m:1: has 2 fields, an SWF job line has 18\n"
		"m:2: has 2 fields, an SWF job line has 18\n"
		"m: further messages about malformed lines are not shown\n"
		"m: 1 jobs read, 3 malformed lines skipped, 0 records that "
		"cannot be simulated skipped (0 no submit time, 0 no run "
		"time, 0 no processors, 0 not ended, 0 job steps)\n");
	assert_int_equal(t.bad_lines, 3);
	trace_free(&t);
	free(diag);

	/* exactly max_diag malformed lines: no "not shown" notice */
	assert_int_equal(test_parse_capture(text + 4, strlen(text + 4), "m", 0,
					    2, 0, &t, &diag, err,
					    sizeof(err)), 0);
	assert_string_equal(diag,
		"m:1: has 2 fields, an SWF job line has 18\n"
		"m:2: has 2 fields, an SWF job line has 18\n"
		"m: 1 jobs read, 2 malformed lines skipped, 0 records that "
		"cannot be simulated skipped (0 no submit time, 0 no run "
		"time, 0 no processors, 0 not ended, 0 job steps)\n");
	trace_free(&t);
	free(diag);
}

/* A whole read that fails: return -1, err exact, no jobs, no crash. */
static void check_fails(const char *data, size_t len, const char *err_text)
{
	char err[256], *diag;
	trace_t t;

	assert_int_equal(test_parse_capture(data, len, "f", 0, 0, 0, &t, &diag,
					    err, sizeof(err)), -1);
	assert_string_equal(err, err_text);
	assert_null(t.jobs);
	assert_int_equal(t.njobs, 0);
	trace_free(&t);
	free(diag);
}

static void test_empty_and_comments(void **state)
{
	(void)state;
	check_fails("", 0, "f: empty");
	check_fails("; MaxJobs: 3\n\n   \n;\n", 20,
		    "f: no job line (only comments or blank lines)");
}

static void test_binary_garbage(void **state)
{
	static const char nul[] = "1 2 3\n\x00\x01\x02\xff";
	static const char high[] = "\x80\x81\xfe\xff\x90\n\xc3\xa9\n";

	(void)state;
	check_fails(nul, sizeof(nul) - 1, "f: binary data, not an SWF or "
		    "sacct trace (a NUL byte at offset 6)");
	check_fails(high, sizeof(high) - 1, "f: no job that can be simulated "
		    "(2 malformed lines, 0 records skipped)");
}

/* Text that is neither format: one message for the whole file. */
static void test_not_a_trace(void **state)
{
	const char *csv = "; exported\n\nSubmit,Start,End\n"
		"2024-01-01T00:00:00,2024-01-01T00:00:00,2024-01-01T00:00:01\n";
	const char *prose = "hello world\n" JOB(1, 0, 10, 2);

	(void)state;
	check_fails(csv, strlen(csv), "f:3: neither an SWF job line (18 "
		    "numbers) nor a sacct header (a JobIDRaw or JobID column): "
		    "not a trace");
	check_fails(prose, strlen(prose), "f:1: neither an SWF job line (18 "
		    "numbers) nor a sacct header (a JobIDRaw or JobID column): "
		    "not a trace");
}

static void test_only_skipped_jobs(void **state)
{
	const char *text = JOB(1, 0, -1, 2) JOB(2, 0, 5, -1);

	(void)state;
	check_fails(text, strlen(text), "f: no job that can be simulated "
		    "(0 malformed lines, 2 records skipped)");
}

static void test_truncated_gzip(void **state)
{
	char text[8192];
	size_t len = 0, gzlen, i;
	char *gz;

	(void)state;
	for (i = 0; i < 100; i++)
		len += snprintf(text + len, sizeof(text) - len,
				"%zu %zu -1 10 2 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 "
				"-1 -1\n", i + 1, i * 7);
	gz = test_gzip(text, len, &gzlen);
	/* cut in the trailer: all data inflated, the end is missing */
	check_fails(gz, gzlen - 4, "f: truncated gzip data (5075 bytes "
		    "inflated before the end)");
	assert_int_equal(len, 5075);
	/* cut in the middle, and only the magic bytes */
	{
		char err[256], *diag;
		trace_t t;

		assert_int_equal(test_parse_capture(gz, gzlen / 2, "f", 0, 0, 0,
						    &t, &diag, err,
						    sizeof(err)), -1);
		assert_memory_equal(err, "f: truncated gzip data (", 24);
		free(diag);
		trace_free(&t);
	}
	check_fails(gz, 2, "f: truncated gzip data (0 bytes inflated before "
		    "the end)");
	free(gz);
}

static void test_corrupt_gzip(void **state)
{
	const char *text = JOB(1, 0, 10, 2) JOB(2, 5, 20, 4);
	size_t gzlen;
	char *gz = test_gzip(text, strlen(text), &gzlen);
	char *bad = malloc(gzlen + 3);

	(void)state;
	memcpy(bad, gz, gzlen);
	bad[gzlen - 8] ^= 0x55;		/* the CRC of the data */
	check_fails(bad, gzlen, "f: corrupt gzip data: incorrect data check");
	memcpy(bad, gz, gzlen);
	bad[2] = 7;			/* compression method: not deflate */
	check_fails(bad, gzlen, "f: corrupt gzip data: unknown compression "
		    "method");
	memcpy(bad, gz, gzlen);
	memcpy(bad + gzlen, "abc", 3);	/* trailing garbage */
	check_fails(bad, gzlen + 3, "f: data that is not gzip after the "
		    "compressed stream (byte 50)");
	assert_int_equal(gzlen, 50);
	free(bad);
	free(gz);
}

/* A small gzip file that inflates beyond max_bytes is refused. */
static void test_gzip_bomb(void **state)
{
	size_t len = 1 << 20, gzlen;
	char *zeros = calloc(1, len), *gz, err[256], *diag;
	trace_t t;

	(void)state;
	gz = test_gzip(zeros, len, &gzlen);
	assert_true(gzlen < 2000);
	assert_int_equal(test_parse_capture(gz, gzlen, "bomb", 0, 0, 100000,
					    &t, &diag, err, sizeof(err)), -1);
	assert_string_equal(err, "bomb: inflates to more than 100000 bytes");
	free(diag);
	free(gz);
	free(zeros);
}

static void test_file_errors(void **state)
{
	const char *text = JOB(1, 0, 10, 2);
	char *path = test_write_temp(text, strlen(text));
	trace_read_opts_t opts = { 0, NULL, 0, 10 };
	char err[256], expected[300];
	trace_t t;

	(void)state;
	assert_int_equal(trace_read("/nonexistent/x.swf", NULL, &t, err,
				    sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.swf: cannot open: No such "
			    "file or directory");
	assert_null(t.jobs);
	trace_free(&t);
	assert_int_equal(trace_read("/tmp", NULL, &t, err, sizeof(err)), -1);
	assert_string_equal(err, "/tmp: is a directory, not a trace file");
	assert_int_equal(trace_read(path, &opts, &t, err, sizeof(err)), -1);
	snprintf(expected, sizeof(expected), "%s: larger than 10 bytes", path);
	assert_string_equal(err, expected);
	trace_free(&t);
	unlink(path);
	free(path);
}

/* The two public traces shipped in test/data/traces (their provenance in
 * test/data/traces/README.md): the job counts and sums checked with awk. */
static void check_shared_trace(const char *file, size_t njobs, long max_jobs,
			       long max_procs, long max_nodes, double last,
			       double sum_runtime, double sum_area)
{
	char path[512], err[256];
	double runtime = 0, area = 0;
	trace_read_opts_t opts = { 1, stderr, 0, 0 };
	trace_t t;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", DFRS_TRACES_DIR, file);
	assert_int_equal(trace_read(path, &opts, &t, err, sizeof(err)), 0);
	assert_int_equal(t.njobs, njobs);
	assert_int_equal(t.bad_lines, 0);
	assert_int_equal(t.skipped_jobs, 0);
	assert_int_equal(t.header_max_jobs, max_jobs);
	assert_int_equal(t.header_max_procs, max_procs);
	assert_int_equal(t.header_max_nodes, max_nodes);
	assert_int_equal(t.has_req_time, 0);
	assert_true(t.jobs[0].submit == 0);
	assert_true(t.jobs[njobs - 1].submit == last);
	for (i = 0; i < t.njobs; i++) {
		runtime += t.jobs[i].runtime;
		area += t.jobs[i].runtime * t.jobs[i].procs;
		if (i)
			assert_true(t.jobs[i].submit >= t.jobs[i - 1].submit);
	}
	assert_true(runtime == sum_runtime);
	assert_true(area == sum_area);
	trace_free(&t);
}

static void test_nasa_trace(void **state)
{
	(void)state;
	/* the header's MaxJobs (42264) is the raw log's; cleaned: 18239 */
	check_shared_trace("NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 42264, 128,
			   128, 7948936, 13950781, 474238015);
}

static void test_lublin_trace(void **state)
{
	(void)state;
	/* no MaxProcs line; submits start at 5094 */
	check_shared_trace("lublin_256.swf.gz", 10000, 10000, -1, 256,
			   7711701 - 5094, 48627667, 2092781168.0);
}

/* The arrival order: earlier submit first, the key only on a tie. */
static void test_arrival_order(void **state)
{
	(void)state;
	assert_true(arrival_order(10, 9, 20, 1) < 0);
	assert_true(arrival_order(20, 1, 10, 9) > 0);
	assert_true(arrival_order(10, 1, 10, 2) < 0);
	assert_true(arrival_order(10, 2, 10, 1) > 0);
	assert_int_equal(arrival_order(10, 3, 10, 3), 0);
	assert_true(arrival_order(0.5, 7, 1, 1) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arrival_order),
		cmocka_unit_test(test_small_plain),
		cmocka_unit_test(test_small_gzip),
		cmocka_unit_test(test_gzip_two_members),
		cmocka_unit_test(test_too_few_fields),
		cmocka_unit_test(test_too_many_fields),
		cmocka_unit_test(test_non_numeric),
		cmocka_unit_test(test_negative_procs),
		cmocka_unit_test(test_non_integer),
		cmocka_unit_test(test_control_bytes_quoted),
		cmocka_unit_test(test_bad_header_value),
		cmocka_unit_test(test_decimals_and_crlf),
		cmocka_unit_test(test_max_diag),
		cmocka_unit_test(test_empty_and_comments),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_not_a_trace),
		cmocka_unit_test(test_only_skipped_jobs),
		cmocka_unit_test(test_truncated_gzip),
		cmocka_unit_test(test_corrupt_gzip),
		cmocka_unit_test(test_gzip_bomb),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_nasa_trace),
		cmocka_unit_test(test_lublin_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
