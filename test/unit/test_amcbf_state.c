/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_amcbf_state.c - sched/amcbf's restart state: a round trip keeps
 * every field; every corrupt input is refused with a message saying what
 * and where, and leaves nothing half-parsed.
 */
#include <malloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "amcbf/amcbf_state.h"

#include "heap_count.h"

static void test_round_trip(void **state)
{
	char *h1[] = { "n1", "n2" };
	amcbf_state_job_t jobs[] = {
		{ .id = 3, .vt = 0, .seen = 0 },
		{ .id = 12, .vt = 301.5, .seen = 1, .submit = 1699999000,
		  .hosts = h1, .nhosts = 2 },
	};
	amcbf_state_t in = { .params = "amcbf_mode=dfrs,amcbf_dfrs_minvt=60",
			     .last_periodic = 1700000000, .jobs = jobs,
			     .njobs = 2 }, out;
	char err[256], *text = amcbf_state_to_json(&in);

	assert_non_null(text);
	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), 0);
	assert_string_equal(out.params, in.params);
	assert_int_equal(out.last_periodic, 1700000000);
	assert_int_equal(out.njobs, 2);
	assert_int_equal(out.jobs[0].id, 3);
	assert_true(out.jobs[0].vt == 0);
	assert_int_equal(out.jobs[0].seen, 0);
	assert_int_equal(out.jobs[0].nhosts, 0);
	assert_int_equal(out.jobs[0].submit, 0);	/* not written: unknown */
	/* written for job 12 only */
	assert_non_null(strstr(text, "\"submit\":1699999000"));
	assert_null(strstr(strstr(text, "\"submit\"") + 1, "\"submit\""));
	assert_int_equal(out.jobs[1].submit, 1699999000);
	assert_int_equal(out.jobs[1].id, 12);
	assert_true(out.jobs[1].vt == 301.5);
	assert_int_equal(out.jobs[1].seen, 1);
	assert_int_equal(out.jobs[1].nhosts, 2);
	assert_string_equal(out.jobs[1].hosts[0], "n1");
	assert_string_equal(out.jobs[1].hosts[1], "n2");
	amcbf_state_free(&out);
	free(text);
}

static void test_empty_state(void **state)
{
	amcbf_state_t in = { 0 }, out;
	char err[256], *text = amcbf_state_to_json(&in);

	assert_non_null(text);
	assert_string_equal(text, "{\"version\":1,\"params\":null,\"last_periodic\":0,\"jobs\":[]}");
	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), 0);
	assert_null(out.params);
	assert_int_equal(out.njobs, 0);
	amcbf_state_free(&out);
	free(text);
}

/* text is refused with exactly this message, and leaves nothing */
static void refused(const char *text, const char *want)
{
	amcbf_state_t out;
	char err[256] = "";

	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	amcbf_state_free(&out);
	assert_null(out.jobs);
	assert_null(out.params);
}

#define HEAD "{\"version\":1,\"params\":\"amcbf_mode=cmbf\",\"last_periodic\":0,\"jobs\":"

static void test_corrupt(void **state)
{
	refused("", "not JSON: it ends early (truncated?)");
	refused(HEAD "[{\"id\":1,", "not JSON: it ends early (truncated?)");
	refused("{\"version\":1,]", "not JSON: quoted object property name expected at offset 13");
	refused(HEAD "[]} x", "not JSON: text after the object at offset 69");
	refused("[]", "not a JSON object");
	refused("{\"version\":2,\"last_periodic\":0,\"jobs\":[]}", "version: not 1");
	refused("{\"version\":1,\"params\":5,\"last_periodic\":0,\"jobs\":[]}",
		"params: not a string or null");
	refused("{\"version\":1,\"last_periodic\":-1,\"jobs\":[]}",
		"last_periodic: not a time >= 0");
	refused("{\"version\":1,\"last_periodic\":0}", "jobs: not an array");
	refused(HEAD "[7]}", "jobs[0]: not an object");
	refused(HEAD "[{\"vt\":0,\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].id: not a job id above the previous one (0)");
	refused(HEAD "[{\"id\":0,\"vt\":0,\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].id: not a job id above the previous one (0)");
	refused(HEAD "[{\"id\":4294967296,\"vt\":0,\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].id: not a job id above the previous one (0)");
	/* ids increase: no duplicate, no disorder */
	refused(HEAD "[{\"id\":5,\"vt\":0,\"seen\":true,\"hosts\":[]},"
		"{\"id\":5,\"vt\":0,\"seen\":true,\"hosts\":[]}]}",
		"jobs[1].id: not a job id above the previous one (5)");
	refused(HEAD "[{\"id\":5,\"vt\":-1,\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].vt: not a number >= 0");
	refused(HEAD "[{\"id\":5,\"vt\":\"1\",\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].vt: not a number >= 0");
	refused(HEAD "[{\"id\":5,\"vt\":NaN,\"seen\":true,\"hosts\":[]}]}",
		"jobs[0].vt: not a number >= 0");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":1,\"hosts\":[]}]}",
		"jobs[0].seen: not true or false");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":false}]}",
		"jobs[0].hosts: not an array");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":false,\"hosts\":[\"n1\",\"\"]}]}",
		"jobs[0].hosts[1]: not a node name");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":false,\"hosts\":[\"n1\",3]}]}",
		"jobs[0].hosts[1]: not a node name");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":false,\"submit\":-1,\"hosts\":[]}]}",
		"jobs[0].submit: not a time >= 0");
	refused(HEAD "[{\"id\":5,\"vt\":1,\"seen\":false,\"submit\":\"x\",\"hosts\":[]}]}",
		"jobs[0].submit: not a time >= 0");
}

/* The text json-c prints for the same values (JSON_C_TO_STRING_PLAIN), as
 * amcbf_state_to_json used to build it: the writer must match it byte for
 * byte. */
static char *json_c_text(const amcbf_state_t *s)
{
	json_object *root = json_object_new_object(), *jobs = json_object_new_array();
	char *text;

	json_object_object_add(root, "version", json_object_new_int(AMCBF_STATE_VERSION));
	json_object_object_add(root, "params",
			       s->params ? json_object_new_string(s->params) : NULL);
	json_object_object_add(root, "last_periodic",
			       json_object_new_int64(s->last_periodic));
	for (size_t i = 0; i < s->njobs; i++) {
		const amcbf_state_job_t *j = &s->jobs[i];
		json_object *o = json_object_new_object(), *hosts = json_object_new_array();

		json_object_object_add(o, "id", json_object_new_int64(j->id));
		json_object_object_add(o, "vt", json_object_new_double(j->vt));
		json_object_object_add(o, "seen", json_object_new_boolean(j->seen));
		if (j->submit)
			json_object_object_add(o, "submit", json_object_new_int64(j->submit));
		for (size_t h = 0; h < j->nhosts; h++)
			json_object_array_add(hosts, json_object_new_string(j->hosts[h]));
		json_object_object_add(o, "hosts", hosts);
		json_object_array_add(jobs, o);
	}
	json_object_object_add(root, "jobs", jobs);
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
	return text;
}

/* Written without json-c's objects, the same text as json-c's: doubles of
 * every kind, strings that need escaping, with and without submit times
 * and hosts; and it parses back to the same values. */
static void test_same_as_json_c(void **state)
{
	char *h1[] = { "n1", "rack/1\"a\\b", "tab\there\n\x01\x1f", "caf\xc3\xa9" };
	double vts[] = { 0, 5, 301.5, 1.0 / 3, 12345.678 * 3, 1e20, 1e-7,
			 123456789012345678.0, 0.1 + 0.2, 86400 };
	amcbf_state_job_t jobs[sizeof(vts) / sizeof(vts[0])];
	amcbf_state_t in = { .params = "amcbf_mode=dfrs,path=/var/x \"q\"",
			     .last_periodic = 1700000000, .jobs = jobs,
			     .njobs = sizeof(vts) / sizeof(vts[0]) }, out;
	char err[256], *mine, *theirs;

	(void)state;
	memset(jobs, 0, sizeof(jobs));
	for (size_t i = 0; i < in.njobs; i++) {
		jobs[i].id = 10 + 7 * (uint32_t)i;
		jobs[i].vt = vts[i];
		jobs[i].seen = (int)(i % 2);
		jobs[i].submit = i % 3 ? 1699999000 + (long)i : 0;
		jobs[i].hosts = i % 4 ? h1 : NULL;
		jobs[i].nhosts = i % 4 ? 1 + i % 4 : 0;
	}
	mine = amcbf_state_to_json(&in);
	theirs = json_c_text(&in);
	assert_non_null(mine);
	assert_string_equal(mine, theirs);
	assert_int_equal(amcbf_state_parse(mine, &out, err, sizeof(err)), 0);
	assert_string_equal(out.params, in.params);
	assert_int_equal(out.njobs, in.njobs);
	for (size_t i = 0; i < in.njobs; i++) {
		assert_int_equal(out.jobs[i].id, jobs[i].id);
		assert_true(out.jobs[i].vt == jobs[i].vt);
		assert_int_equal(out.jobs[i].submit, jobs[i].submit);
		assert_int_equal(out.jobs[i].nhosts, jobs[i].nhosts);
		for (size_t h = 0; h < jobs[i].nhosts; h++)
			assert_string_equal(out.jobs[i].hosts[h], h1[h]);
	}
	amcbf_state_free(&out);
	free(mine);
	free(theirs);
	in.params = NULL;
	in.njobs = 0;
	mine = amcbf_state_to_json(&in);
	theirs = json_c_text(&in);
	assert_string_equal(mine, theirs);
	free(mine);
	free(theirs);
}

/* The values of a file written by hand, whatever the spacing, key order
 * or strings that look like JSON; of a second "jobs" key the last wins,
 * as json-c reads it. */
static void test_read_by_job(void **state)
{
	const char *text =
		" {\n \"jobs\" : [ {\"hosts\":[\"a],{\\\"b\\\"\" , \"n/2\"], \"id\":7,"
		"\"vt\":1.5,\"seen\":true} ,\n{\"id\":9,\"vt\":0,\"seen\":false,"
		"\"submit\":1700000001,\"hosts\":[]} ] , \"params\":\"x,\\\"jobs\\\":[1]\","
		" \"version\" : 1, \"last_periodic\": 42 }\n ";
	const char *twice =
		"{\"version\":1,\"last_periodic\":0,\"jobs\":[{\"id\":5,\"vt\":0,"
		"\"seen\":true,\"hosts\":[]}],\"jobs\":[]}";
	amcbf_state_t out;
	char err[256];

	(void)state;
	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), 0);
	assert_string_equal(out.params, "x,\"jobs\":[1]");
	assert_int_equal(out.last_periodic, 42);
	assert_int_equal(out.njobs, 2);
	assert_int_equal(out.jobs[0].id, 7);
	assert_true(out.jobs[0].vt == 1.5);
	assert_int_equal(out.jobs[0].seen, 1);
	assert_int_equal(out.jobs[0].nhosts, 2);
	assert_string_equal(out.jobs[0].hosts[0], "a],{\"b\"");
	assert_string_equal(out.jobs[0].hosts[1], "n/2");
	assert_int_equal(out.jobs[1].id, 9);
	assert_int_equal(out.jobs[1].submit, 1700000001);
	amcbf_state_free(&out);
	assert_int_equal(amcbf_state_parse(twice, &out, err, sizeof(err)), 0);
	assert_int_equal(out.njobs, 0);
	amcbf_state_free(&out);
}

/* Many jobs written and read back, every value the same. */
static void test_many_jobs(void **state)
{
	enum { N = 20000 };
	amcbf_state_job_t *jobs = calloc(N, sizeof(*jobs));
	char *h[] = { "n1", "n1024" };
	amcbf_state_t in = { .params = "amcbf_mode=amcbf", .last_periodic = 7,
			     .jobs = jobs, .njobs = N }, out;
	char err[256], *text;

	(void)state;
	for (size_t i = 0; i < N; i++) {
		jobs[i].id = 1 + 3 * (uint32_t)i;
		jobs[i].vt = 0.25 * (double)i;
		jobs[i].seen = (int)(i % 2);
		jobs[i].submit = i % 5 ? 1700000000 + (long)i : 0;
		jobs[i].hosts = i % 7 ? NULL : h;
		jobs[i].nhosts = i % 7 ? 0 : 2;
	}
	text = amcbf_state_to_json(&in);
	assert_non_null(text);
	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), 0);
	assert_int_equal(out.njobs, N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(out.jobs[i].id, jobs[i].id);
		assert_true(out.jobs[i].vt == jobs[i].vt);
		assert_int_equal(out.jobs[i].seen, jobs[i].seen);
		assert_int_equal(out.jobs[i].submit, jobs[i].submit);
		assert_int_equal(out.jobs[i].nhosts, jobs[i].nhosts);
	}
	assert_string_equal(out.jobs[0].hosts[1], "n1024");
	amcbf_state_free(&out);
	free(text);
	free(jobs);
}

/* The read of 20,000 jobs takes little heap beyond its result (one
 * json-c tree of the whole text took about 1.4 kB a job, 27.5 MB). */
static void test_read_heap(void **state)
{
	enum { N = 20000 };
	amcbf_state_job_t *jobs;
	char *h[] = { "n1", "n2" };
	amcbf_state_t in = { .params = "amcbf_mode=dfrs", .njobs = N }, out;
	char err[256], *text;

	(void)state;
	/* before anything is allocated: a skip leaves the test at once */
	if (!HEAP_COUNTED)
		skip();
	in.jobs = jobs = calloc(N, sizeof(*jobs));
	for (size_t i = 0; i < N; i++) {
		jobs[i].id = 1 + (uint32_t)i;
		jobs[i].vt = 0.5 * (double)i;
		jobs[i].seen = 1;
		jobs[i].submit = 1700000000 + (long)i;
		jobs[i].hosts = i % 10 ? NULL : h;
		jobs[i].nhosts = i % 10 ? 0 : 2;
	}
	text = amcbf_state_to_json(&in);
	assert_non_null(text);
#if HEAP_COUNTED
	heap_now = heap_peak = 0;
	counting = true;
#endif
	assert_int_equal(amcbf_state_parse(text, &out, err, sizeof(err)), 0);
#if HEAP_COUNTED
	counting = false;
	/* the jobs (48 bytes each, the array grown by doubling: 1.6 MB at
	 * most, and the array before it while it moves) and their hosts */
	assert_true(heap_peak < 3 * 1000 * 1000);
#endif
	assert_int_equal(out.njobs, N);
	assert_int_equal(out.jobs[N - 1].id, N);
	assert_string_equal(out.jobs[N - 10].hosts[1], "n2");
	amcbf_state_free(&out);
	free(text);
	free(jobs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty_state),
		cmocka_unit_test(test_same_as_json_c),
		cmocka_unit_test(test_read_by_job),
		cmocka_unit_test(test_many_jobs),
		cmocka_unit_test(test_read_heap),
		cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
