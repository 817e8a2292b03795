/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_size_limits.c - job and machine sizes near the limits of their
 * types, where processors are turned into nodes (dfrs sim's workload,
 * dfrs excerpt): a job of 2147483600 processors at 10^8 per node needs 22
 * nodes (procs + ppn - 1 overflowed an int), and a machine too large for
 * the int that holds its node count (MaxProcs up to LONG_MAX / 2 is read)
 * is refused with one message instead of being truncated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim_workload.h"
#include "trace/trace.h"
#include "trace/trace_excerpt.h"

/* One job of 2147483600 processors; MaxProcs as given (NULL: none). */
static void read_big(trace_t *t, const char *max_procs)
{
	char text[512], err[256];

	snprintf(text, sizeof(text),
		 "%s%s%s"
		 "1 0 -1 600 2147483600 -1 -1 2147483600 -1 -1 1 1 1 -1 1 1 -1 -1\n"
		 "2 10 -1 60 1 -1 -1 1 -1 -1 1 1 1 -1 1 1 -1 -1\n",
		 max_procs ? "; MaxProcs: " : "", max_procs ? max_procs : "",
		 max_procs ? "\n" : "");
	assert_int_equal(trace_parse(text, strlen(text), "big", NULL, t, err,
				     sizeof(err)), 0);
	assert_int_equal(t->njobs, 2);
}

static void test_workload_units(void **state)
{
	sim_workload_opts_t o;
	sim_workload_t w;
	trace_t t;
	char err[256];

	(void)state;
	read_big(&t, NULL);
	sim_workload_opts_defaults(&o);
	o.procs_per_node = 100000000;
	o.nodes = 30;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.njobs, 2);
	assert_int_equal(w.jobs[0].nodes, 22);
	assert_int_equal(w.jobs[1].nodes, 1);
	sim_workload_free(&w);
	o.nodes = 21;	/* one node short */
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	assert_int_equal(w.njobs, 1);
	assert_int_equal(w.skipped_too_big, 1);
	sim_workload_free(&w);
	trace_free(&t);
}

static void test_workload_machine(void **state)
{
	sim_workload_opts_t o;
	sim_workload_t w;
	trace_t t;
	char err[256];

	(void)state;
	read_big(&t, "4000000000000000000");
	sim_workload_opts_defaults(&o);
	o.procs_per_node = 4;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), -1);
	assert_string_equal(err, "big: 4000000000000000000 processors make "
			    "1000000000000000000 units of 4, more than "
			    "100000000: give --nodes");
	trace_free(&t);
}

static void test_excerpt_units(void **state)
{
	trace_excerpt_opts_t o;
	trace_excerpt_info_t info;
	trace_t t, ex;
	char err[256];

	(void)state;
	read_big(&t, NULL);
	trace_excerpt_opts_defaults(&o);
	o.njobs = 2;
	o.nodes = 22;
	o.offset = 0;
	o.procs_per_node = 100000000;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)), 0);
	assert_int_equal(ex.njobs, 2);
	assert_int_equal(ex.jobs[0].procs, 22);
	trace_free(&ex);
	trace_free(&t);

	/* the machine spread over the nodes: more than an int per node */
	read_big(&t, "4000000000000000000");
	o.procs_per_node = 0;
	o.nodes = 2;
	assert_int_equal(trace_excerpt(&t, &o, &ex, &info, err, sizeof(err)), -1);
	assert_string_equal(err, "big: 4000000000000000000 processors on 2 "
			    "nodes: more than 2147483647 per node");
	trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload_units),
		cmocka_unit_test(test_workload_machine),
		cmocka_unit_test(test_excerpt_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
