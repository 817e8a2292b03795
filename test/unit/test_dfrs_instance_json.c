/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dfrs_instance_json.c - the JSON instance reader of dfrs pack: a good
 * instance, and one clear message naming the place for each kind of bad
 * input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs/dfrs_instance_json.h"
#include "dfrs/instance_generator.h"
#include "dfrs/placement_algorithm.h"

static void test_good_instance(void **state)
{
	const char *text =
		"{\"hosts\": [[1, 2], {\"cap\": [4, 8], \"elem\": [1, 8]}],\n"
		" \"jobs\": [{\"tasks\": 3, \"need\": [0.5, 0], \"req\": [0, 0.25], \"min_yield\": 0.1},\n"
		"          {\"need\": [1, 0]}, {\"need\": [4, 0], \"elem_need\": [1, 0]}]}\n";
	dfrs_instance_store_t s;
	char err[256] = "";

	assert_int_equal(dfrs_instance_parse_json(text, strlen(text), &s, err,
						  sizeof(err)), 0);
	assert_int_equal(s.inst.ndims, 2);
	assert_int_equal(s.inst.nhosts, 2);
	assert_int_equal(s.inst.njobs, 3);
	assert_true(s.hosts[0].cap[1] == 2.0 && s.hosts[0].elem[1] == 2.0);
	assert_true(s.hosts[1].cap[0] == 4.0 && s.hosts[1].elem[0] == 1.0);
	assert_int_equal(s.jobs[0].ntasks, 3);
	assert_true(s.jobs[0].req[1] == 0.25 && s.jobs[0].min_yield == 0.1);
	assert_int_equal(s.jobs[1].ntasks, 1);
	assert_true(s.jobs[1].need[0] == 1.0 && s.jobs[1].req[0] == 0.0);
	assert_int_equal(s.jobs[1].elem_given, 0);
	/* elem_need given, elem_req defaults to req */
	assert_int_equal(s.jobs[2].elem_given, 1);
	assert_true(s.jobs[2].elem_need[0] == 1.0 && s.jobs[2].need[0] == 4.0);
	assert_true(s.jobs[2].elem_req[1] == 0.0);
	dfrs_instance_store_free(&s);
}

static void expect_error(const char *text, const char *needle)
{
	dfrs_instance_store_t s;
	char err[256] = "";

	assert_int_equal(dfrs_instance_parse_json(text, strlen(text), &s, err,
						  sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
	assert_null(s.hosts);
	assert_null(s.jobs);
}

static void test_errors(void **state)
{
	expect_error("{\"hosts\": [[1, 1]],\n \"jobs\": [{\"tasks\": 1,]}",
		     "malformed JSON at line 2");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": []", "unexpected end of input");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": []} x", "malformed JSON");
	expect_error("[1]", "expected an object");
	expect_error("{\"jobs\": []}", "\"hosts\": expected a non-empty list");
	expect_error("{\"hosts\": [], \"jobs\": []}", "\"hosts\": expected a non-empty list");
	expect_error("{\"hosts\": [[1, 1]]}", "\"jobs\": expected a list");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [], \"extra\": 1}",
		     "unknown key \"extra\"");
	expect_error("{\"hosts\": [[1, 1], [1]], \"jobs\": []}",
		     "hosts[1]: 1 values, but hosts[0] has 2 dimensions");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"need\": [1]}]}",
		     "jobs[0].need: 1 values, but hosts[0] has 2 dimensions");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"req\": [0, -0.5]}]}",
		     "jobs[0].req[1]: -0.5 is negative");
	expect_error("{\"hosts\": [[1, \"a\"]], \"jobs\": []}",
		     "hosts[0][1]: expected a number");
	expect_error("{\"hosts\": [[1, 0]], \"jobs\": []}",
		     "host 0 dimension 1: capacity 0 must be a positive number");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"need\": [1.5, 0], \"min_yield\": 0.8}]}",
		     "job 0 dimension 0: need 1.5 at min_yield 0.8 (plus req 0) exceeds every host's capacity (largest 1)");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"need\": [0.5, 0], \"req\": [0.6, 0], \"min_yield\": 0.9}]}",
		     "job 0 dimension 0: need 0.5 at min_yield 0.9 (plus req 0.6) exceeds every host's capacity (largest 1)");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"tasks\": 0}]}",
		     "jobs[0].tasks: 0 is not an integer");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"tasks\": 1.5}]}",
		     "jobs[0].tasks: 1.5 is not an integer");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"min_yield\": 2}]}",
		     "jobs[0].min_yield: 2 is not in [0, 1]");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"needs\": [1, 1]}]}",
		     "jobs[0]: unknown key \"needs\"");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"need\": [1, 0], \"elem_need\": [0.5]}]}",
		     "jobs[0].elem_need: 1 values, but hosts[0] has 2 dimensions");
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [{\"need\": [0.5, 0], \"elem_need\": [0.6, 0]}]}",
		     "job 0 dimension 0: elem_need 0.6 exceeds need 0.5");
	expect_error("{\"hosts\": [{\"cap\": [2], \"elem\": [3]}], \"jobs\": []}",
		     "host 0 dimension 0: elementary capacity 3 must be in (0, 2]");
	expect_error("{\"hosts\": [[1,1,1,1,1]], \"jobs\": []}",
		     "5 resource dimensions, must be 1..4");
	{
		/* 11 jobs of 1000000 tasks: more than the 10^7 an instance holds */
		char text[1024];
		size_t n = (size_t)snprintf(text, sizeof(text), "{\"hosts\": [[1, 1]], \"jobs\": [");

		for (int i = 0; i < 11; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s{\"tasks\": 1000000}",
					      i ? ", " : "");
		snprintf(text + n, sizeof(text) - n, "]}");
		expect_error(text, "job 10: more than 10000000 tasks in all");
	}
}

/* Found by fuzzing: a key quoted into the message kept its newline, and a
 * NUL byte after the document passed for white space. */
static void test_control_characters(void **state)
{
	static const char nul[] = "{\"hosts\": [[1, 1]], \"jobs\": []}\n\0x";
	dfrs_instance_store_t s;
	char err[256] = "";

	(void)state;
	expect_error("{\"hosts\": [[1, 1]], \"jobs\": [], \"a\nb\x7f\": 1}",
		     "unknown key \"a?b?\"");
	assert_int_equal(dfrs_instance_parse_json("{\"a\tb\": 1}", 10, &s, err,
						  sizeof(err)), -1);
	assert_null(strchr(err, '\t'));
	assert_int_equal(dfrs_instance_parse_json(nul, sizeof(nul) - 1, &s, err,
						  sizeof(err)), -1);
	assert_string_equal(err, "malformed JSON at line 2 (byte 32): text after the end of the document");
}

static void test_missing_file(void **state)
{
	dfrs_instance_store_t s;
	char err[256] = "";

	assert_int_equal(dfrs_instance_read_json("/nonexistent/x.json", &s, err,
						 sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.json: No such file"));
}

/*
 * Corrupt a valid instance byte by byte (deterministic): the reader either
 * refuses it with a message or accepts an instance that the default
 * algorithm places within capacity (or reports infeasible).  Never a crash
 * (this runs under ASan+UBSan too).
 */
static void test_corrupted_instances(void **state)
{
	static const char good[] =
		"{\"hosts\": [[1, 1], [1, 0.5], {\"cap\": [2, 1], \"elem\": [1, 1]}],\n"
		" \"jobs\": [{\"tasks\": 2, \"need\": [0.5, 0], \"req\": [0, 0.3]},\n"
		"          {\"need\": [0.9, 0.1], \"req\": [0, 0.2], \"min_yield\": 0.25}]}\n";
	static const char alphabet[] = "{}[],:\"0123456789.-eE tasksneedreqmin_yieldhostscapelem";
	uint64_t rnd = 12345;
	int accepted = 0, refused = 0;

	for (int it = 0; it < 3000; it++) {
		char text[sizeof(good) + 8];
		size_t len = sizeof(good) - 1;
		dfrs_instance_store_t s;
		char err[256];

		memcpy(text, good, sizeof(good));
		for (int m = 0; m < 1 + it % 3; m++) {
			size_t pos;

			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			pos = (rnd >> 33) % len;
			if (it % 2 == 0) {
				/* half the time change a digit only: new numbers
				 * in a well-formed document */
				while (!(text[pos] >= '0' && text[pos] <= '9'))
					pos = (pos + 1) % len;
				text[pos] = (char)('0' + (rnd >> 20) % 10);
			} else {
				text[pos] = alphabet[(rnd >> 20) % (sizeof(alphabet) - 1)];
			}
		}
		if (dfrs_instance_parse_json(text, len, &s, err, sizeof(err))) {
			assert_true(strlen(err) > 0);
			refused++;
			continue;
		}
		accepted++;
		{
			dfrs_placement_t p;
			int failed = -1;
			int rc = placement_algorithm_run(&s.inst, NULL, &p, NULL, 0, &failed, err,
					    sizeof(err));

			assert_true(rc == 0 || rc == 1);
			if (rc == 0 && dfrs_placement_check(&s.inst, &p, err, sizeof(err)))
				fail_msg("iteration %d: %s", it, err);
			dfrs_placement_free(&p);
		}
		dfrs_instance_store_free(&s);
	}
	/* both paths are exercised */
	print_message("corrupted instances: %d accepted, %d refused\n", accepted, refused);
	assert_true(accepted > 300);
	assert_true(refused > 1000);
}

/* Writing an instance and reading it back gives the same numbers. */
static void test_round_trip(void **state)
{
	instance_gen_opts_t o = {
		.nhosts = 5, .njobs = 9, .tasks_per_job = 2, .memory_slack = 0.3,
		.cov = 0.7, .min_yield = 0.15, .seed = 31,
	};
	dfrs_instance_store_t a, b;
	char err[256] = "", *text;

	assert_int_equal(instance_generate(&o, &a), 0);
	a.hosts[2].elem[0] = a.hosts[2].cap[0] / 2;	/* an {"cap", "elem"} host */
	a.jobs[4].elem_given = 1;			/* and elementary amounts */
	a.jobs[4].elem_need[0] = a.jobs[4].need[0] / 3;
	a.jobs[4].elem_req[1] = a.jobs[4].req[1];
	text = dfrs_instance_to_json(&a.inst);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"elem\""));
	assert_non_null(strstr(text, "\"elem_need\""));
	if (dfrs_instance_parse_json(text, strlen(text), &b, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(b.inst.ndims, 2);
	assert_int_equal(b.inst.nhosts, 5);
	assert_int_equal(b.inst.njobs, 9);
	assert_memory_equal(a.hosts, b.hosts, 5 * sizeof(dfrs_host_t));
	assert_memory_equal(a.jobs, b.jobs, 9 * sizeof(dfrs_job_t));
	free(text);
	dfrs_instance_store_free(&a);
	dfrs_instance_store_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_instance),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_corrupted_instances),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
