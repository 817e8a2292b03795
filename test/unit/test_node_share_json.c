/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node_share_json.c - select/dfrs's export and the dfrs status table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs/node_share.h"
#include <json-c/json.h>

#include "suite/node_share_json.h"

static char *status_of(const char *json, int *rc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	*rc = node_share_print_status(json, out, err, errlen);
	fclose(out);
	return buf;
}

static void test_export_and_table(void **state)
{
	node_share_t s;
	int n1[1] = { 0 }, both[2] = { 0, 1 };
	share_job_t a = { .id = 7, .nnodes = 1, .nodes = n1, .mem = 0.25,
			  .need = 1, .min_yield = 0.25 };
	share_job_t b = { .id = 8, .nnodes = 2, .nodes = both, .mem = 0.5,
			  .need = 0.5, .min_yield = 0.25 };
	const char *names[3] = { "n1", "n2", "n3" };
	char err[128], *json, *table;
	int rc;

	setenv("TZ", "UTC", 1);
	node_share_init(&s, 3);
	assert_int_equal(node_share_add(&s, &a, err, sizeof(err)), 0);
	assert_int_equal(node_share_add(&s, &b, err, sizeof(err)), 0);
	assert_int_equal(node_share_set_suspended(&s, 7, 1), 0);
	json = node_share_to_json(&s, names, 86400);
	assert_non_null(json);
	assert_string_equal(json,
		"{\"updated\":86400,\"nodes\":["
		"{\"name\":\"n1\",\"cpu_load\":0.5,\"mem_used\":0.75,\"jobs\":["
		"{\"job_id\":7,\"yield\":0.0,\"need\":1.0,\"mem\":0.25,\"min_yield\":0.25,\"suspended\":true,\"weight\":2},"
		"{\"job_id\":8,\"yield\":1.0,\"need\":0.5,\"mem\":0.5,\"min_yield\":0.25,\"suspended\":false,\"weight\":5000}]},"
		"{\"name\":\"n2\",\"cpu_load\":0.5,\"mem_used\":0.5,\"jobs\":["
		"{\"job_id\":8,\"yield\":1.0,\"need\":0.5,\"mem\":0.5,\"min_yield\":0.25,\"suspended\":false,\"weight\":5000}]},"
		"{\"name\":\"n3\",\"cpu_load\":0.0,\"mem_used\":0.0,\"jobs\":[]}]}");
	table = status_of(json, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_string_equal(table,
		"select/dfrs model at 1970-01-02T00:00:00\n"
		"NODE       CPU_LOAD MEM_USED  JOBID      YIELD   NEED    MEM   MIN_Y  WEIGHT\n"
		"n1            0.500    0.750\n"
		"                              7          0.000      1   0.25    0.25       2  suspended\n"
		"                              8          1.000    0.5    0.5    0.25    5000\n"
		"n2            0.500    0.500\n"
		"                              8          1.000    0.5    0.5    0.25    5000\n"
		"n3            0.000    0.000  (idle)\n");
	free(table);
	free(json);
	node_share_free(&s);
}

/* Each node lists its jobs in the model's order, whichever of their nodes
 * comes first in a job, with the load and memory node_share_cpu_load and
 * node_share_mem_used give it (the export reads the jobs once, not once a
 * node). */
static void test_jobs_per_node(void **state)
{
	node_share_t s;
	int a_on[2] = { 2, 0 }, b_on[1] = { 1 }, c_on[2] = { 0, 1 };
	share_job_t a = { .id = 11, .nnodes = 2, .nodes = a_on, .mem = 0.125,
			  .need = 0.5, .min_yield = 0.1 };
	share_job_t b = { .id = 12, .nnodes = 1, .nodes = b_on, .mem = 0.25,
			  .need = 0.75, .min_yield = 0.1 };
	share_job_t c = { .id = 13, .nnodes = 2, .nodes = c_on, .mem = 0.5,
			  .need = 0.25, .min_yield = 0.1 };
	const uint32_t want[3][2] = { { 11, 13 }, { 12, 13 }, { 11, 0 } };
	char err[128], *json;
	json_object *root, *nodes;

	(void)state;
	node_share_init(&s, 4);
	assert_int_equal(node_share_add(&s, &a, err, sizeof(err)), 0);
	assert_int_equal(node_share_add(&s, &b, err, sizeof(err)), 0);
	assert_int_equal(node_share_add(&s, &c, err, sizeof(err)), 0);
	assert_int_equal(node_share_set_suspended(&s, 12, 1), 0);
	json = node_share_to_json(&s, NULL, 1);
	assert_non_null(json);
	root = json_tokener_parse(json);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "nodes", &nodes));
	assert_int_equal(json_object_array_length(nodes), 4);
	for (int n = 0; n < 4; n++) {
		json_object *node = json_object_array_get_idx(nodes, n), *f, *jobs;
		size_t njobs;

		assert_true(json_object_object_get_ex(node, "cpu_load", &f));
		assert_true(json_object_get_double(f) == node_share_cpu_load(&s, n));
		assert_true(json_object_object_get_ex(node, "mem_used", &f));
		assert_true(json_object_get_double(f) == node_share_mem_used(&s, n));
		assert_true(json_object_object_get_ex(node, "jobs", &jobs));
		njobs = json_object_array_length(jobs);
		assert_int_equal(njobs, n == 3 ? 0 : n == 2 ? 1 : 2);
		for (size_t k = 0; k < njobs; k++) {
			json_object *id;

			assert_true(json_object_object_get_ex(
				json_object_array_get_idx(jobs, k), "job_id", &id));
			assert_int_equal(json_object_get_int64(id), want[n][k]);
		}
	}
	/* node 1: job 12 suspended, so only job 13's need */
	assert_true(node_share_cpu_load(&s, 1) == 0.25);
	assert_true(node_share_mem_used(&s, 1) == 0.75);
	json_object_put(root);
	free(json);
	node_share_free(&s);
}

static void expect_bad(const char *json, const char *msg)
{
	char err[128] = "";
	int rc;
	char *table = status_of(json, &rc, err, sizeof(err));

	assert_int_equal(rc, -1);
	assert_string_equal(err, msg);
	free(table);
}

static void test_bad_exports(void **state)
{
	expect_bad("", "not a JSON object");
	expect_bad("[1,2]", "not a JSON object");
	expect_bad("{\"nodes\":[]}", "top level: missing or wrong type: \"updated\"");
	expect_bad("{\"updated\":1,\"nodes\":{}}", "top level: missing or wrong type: \"nodes\"");
	expect_bad("{\"updated\":1,\"nodes\":[{\"name\":\"n1\",\"cpu_load\":0,\"mem_used\":0}]}",
		   "node 0: missing or wrong type: \"jobs\"");
	expect_bad("{\"updated\":1,\"nodes\":[{\"name\":\"n1\",\"cpu_load\":0,\"mem_used\":0,"
		   "\"jobs\":[{\"job_id\":\"x\"}]}]}",
		   "node 0 job 0: missing or wrong type: \"job_id\"");
}

/* A time no calendar holds (found by fuzzing: localtime gave NULL and
 * strftime crashed on it) prints as "?". */
static void test_time_out_of_range(void **state)
{
	char err[128] = "";
	int rc;
	char *table = status_of("{\"updated\":9223372036854775807,\"nodes\":[]}",
				&rc, err, sizeof(err));

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(table, "select/dfrs model at ?\n"
			    "NODE       CPU_LOAD MEM_USED  JOBID      YIELD   NEED    MEM   MIN_Y  WEIGHT\n");
	free(table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_and_table),
		cmocka_unit_test(test_jobs_per_node),
		cmocka_unit_test(test_bad_exports),
		cmocka_unit_test(test_time_out_of_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
