/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trace_excerpt.c - dfrs excerpt's window (trace_excerpt.c) and the
 * SWF writer (trace_write.c) on small traces worked out by hand.
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
#include "trace/trace_excerpt.h"

/*
 * Eight jobs on a machine of 16 processors (4 nodes of 4):
 *   id submit runtime procs req_time
 *    1     0     600     4     -1    1 node
 *    2   100    1200     8   1800    2 nodes
 *    3   200      30    20     -1    5 nodes: too big, never in a window
 *    4  1000      60     1     -1    1 node
 *    5  1100    6000    16   9000    4 nodes
 *    6  1200     120     2     -1    1 node
 *    7  5000      10     4     -1    1 node
 *    8  9000      10     4     -1    1 node
 * Windows of 3 (job 3 left out), load = node-seconds / (4 x span):
 *   1,2,4: (600 + 2400 + 60) / (4 x 1000)  = 0.765
 *   2,4,5: (2400 + 60 + 24000) / (4 x 1000) = 6.615
 *   4,5,6: (60 + 24000 + 120) / (4 x 200)  = 30.225
 *   5,6,7: (24000 + 120 + 10) / (4 x 3900) = 1.5468
 *   6,7,8: (120 + 10 + 10) / (4 x 7800)    = 0.00449
 */
static const char swf[] =
	"; MaxProcs: 16\n"
	"1    0 -1  600  4 -1 -1  4   -1 -1 1 1 1 -1 1 1 -1 -1\n"
	"2  100 -1 1200  8 -1 -1  8 1800 -1 1 1 1 -1 1 1 -1 -1\n"
	"3  200 -1   30 20 -1 -1 20   -1 -1 1 1 1 -1 1 1 -1 -1\n"
	"4 1000 -1   60  1 -1 -1  1   -1 -1 1 1 1 -1 1 1 -1 -1\n"
	"5 1100 -1 6000 16 -1 -1 16 9000 -1 1 1 1 -1 1 1 -1 -1\n"
	"6 1200 -1  120  2 -1 -1  2   -1 -1 1 1 1 -1 1 1 -1 -1\n"
	"7 5000 -1   10  4 -1 -1  4   -1 -1 1 1 1 -1 1 1 -1 -1\n"
	"8 9000 -1   10  4 -1 -1  4   -1 -1 1 1 1 -1 1 1 -1 -1\n";

static void read_small(trace_t *t)
{
	char err[256];

	assert_int_equal(trace_parse(swf, strlen(swf), "small", NULL, t, err,
				     sizeof(err)), 0);
	assert_int_equal(t->njobs, 8);
}

static void opts(trace_excerpt_opts_t *o, size_t n, double compress)
{
	trace_excerpt_opts_defaults(o);
	o->njobs = n;
	o->nodes = 4;
	o->compress = compress;
}

static void test_limit_minutes(void **state)
{
	(void)state;
	assert_int_equal(trace_excerpt_limit_minutes(1, -1, 5), 1);
	assert_int_equal(trace_excerpt_limit_minutes(55, -1, 5), 1);
	assert_int_equal(trace_excerpt_limit_minutes(56, -1, 5), 2);
	assert_int_equal(trace_excerpt_limit_minutes(10, 150, 5), 3);
	/* a request under the run time: the run time (+ margin) wins */
	assert_int_equal(trace_excerpt_limit_minutes(200, 60, 5), 4);
}

/* The first job of the excerpt (freed again), or -1 with err set. */
static long first_id(const trace_t *t, const trace_excerpt_opts_t *o,
		     char *err, size_t errlen)
{
	trace_excerpt_info_t info;
	trace_t ex;
	long id;

	if (trace_excerpt(t, o, &ex, &info, err, errlen))
		return -1;
	id = ex.jobs[0].id;
	trace_free(&ex);
	return id;
}

/* --offset 1000, compression 10: jobs 4, 5, 6 from time 0. */
static void test_offset(void **state)
{
	trace_excerpt_opts_t o;
	trace_excerpt_info_t info;
	trace_t t, ex;
	char err[256];

	(void)state;
	read_small(&t);
	opts(&o, 3, 10);
	o.offset = 1000;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)),
			 0);
	assert_int_equal(ex.njobs, 3);
	assert_int_equal(info.procs_per_node, 4);
	assert_int_equal(info.first, 3);
	assert_true(info.offset == 1000);
	assert_true(info.load > 30.2249 && info.load < 30.2251);
	assert_int_equal(ex.jobs[0].id, 4);
	assert_true(ex.jobs[0].submit == 0 && ex.jobs[0].runtime == 6);
	assert_int_equal(ex.jobs[0].procs, 1);
	assert_true(ex.jobs[0].req_time == 60);
	assert_int_equal(ex.jobs[1].id, 5);
	assert_true(ex.jobs[1].submit == 10 && ex.jobs[1].runtime == 600);
	assert_int_equal(ex.jobs[1].procs, 4);
	assert_int_equal(ex.jobs[1].req_procs, 4);
	assert_true(ex.jobs[1].req_time == 900);	/* 9000 / 10 = 15 min */
	assert_true(ex.jobs[2].submit == 20 && ex.jobs[2].runtime == 12);
	assert_true(ex.header_max_procs == 4 && ex.has_req_time);
	trace_free(&ex);

	/* from 100: jobs 2, 4, 5; job 3 (5 nodes) left out and counted */
	o.offset = 100;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)),
			 0);
	assert_int_equal(ex.jobs[0].id, 2);
	assert_int_equal(ex.jobs[1].id, 4);
	assert_int_equal(info.skipped_too_big, 1);
	assert_true(ex.jobs[0].req_time == 180);
	trace_free(&ex);

	/* a start latency of 1 s: every run time one second longer */
	o.start_latency = 1;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)),
			 0);
	assert_true(ex.jobs[0].runtime == 121 && ex.jobs[1].runtime == 7);
	assert_true(ex.jobs[0].req_time == 180);
	trace_free(&ex);
	o.start_latency = 0;

	/* from 5000 only two jobs are left */
	o.offset = 5000;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "small: only 2 jobs that fit from offset "
			    "5000 s, 3 wanted");
	trace_free(&t);
}

/* auto: the window closest to the target load; --max-runtime rules out
 * the windows holding job 5 (600 s once compressed by 10). */
static void test_auto(void **state)
{
	trace_excerpt_opts_t o;
	trace_t t;
	char err[256];

	(void)state;
	read_small(&t);
	opts(&o, 3, 10);
	o.target_load = 1.5;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), 5);
	o.target_load = 0.9;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), 1);
	o.target_load = 2;
	o.max_runtime = 500;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), 1); /* 0.765 */
	o.max_runtime = 0.5;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), -1);
	o.njobs = 8;
	o.max_runtime = 0;
	assert_int_equal(first_id(&t, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "small: only 7 jobs fit 4 nodes of 4 "
			    "processors, 8 wanted");
	trace_free(&t);
}

/* What trace_write_swf writes, trace_parse reads back. */
static void test_write_read_back(void **state)
{
	trace_excerpt_opts_t o;
	trace_excerpt_info_t info;
	trace_t t, ex, back;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	read_small(&t);
	opts(&o, 5, 7);
	o.offset = 0;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)),
			 0);
	ex.jobs[1].cpu_used = 85.5;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(trace_write_swf(f, &ex, "first\nsecond"), 0);
	fclose(f);
	assert_non_null(strstr(buf, "; first\n; second\n"));
	assert_int_equal(trace_parse(buf, len, "back", NULL, &back, err,
				     sizeof(err)), 0);
	assert_int_equal(back.njobs, 5);
	assert_int_equal(back.header_max_procs, 4);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(back.jobs[i].id, ex.jobs[i].id);
		assert_true(back.jobs[i].submit == ex.jobs[i].submit);
		assert_true(back.jobs[i].runtime == ex.jobs[i].runtime);
		assert_int_equal(back.jobs[i].procs, ex.jobs[i].procs);
		assert_true(back.jobs[i].req_time == ex.jobs[i].req_time);
		assert_true(back.jobs[i].cpu_used == ex.jobs[i].cpu_used);
	}
	/* 1200 / 7 = 171.43 -> 171 s; 1800 / 7 -> 5 min */
	assert_true(back.jobs[1].runtime == 171 && back.jobs[1].req_time == 300);
	free(buf);
	trace_free(&back);
	trace_free(&ex);
	trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_minutes),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_write_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
