/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node_share.c - select/dfrs's model of jobs sharing nodes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "dfrs/node_share.h"

#define EPS 1e-6
#define assert_near(a, b) do { \
	double a_ = (a), b_ = (b); \
	if (fabs(a_ - b_) > EPS) fail_msg("%s = %.9g, want %.9g", #a, a_, b_); \
} while (0)

static void add(node_share_t *s, uint32_t id, double mem, double need,
		double min_yield, int n0, int n1)
{
	int nodes[2] = { n0, n1 };
	share_job_t j = { .id = id, .nnodes = n1 < 0 ? 1 : 2, .nodes = nodes,
			  .mem = mem, .need = need, .min_yield = min_yield };
	char err[200] = "";

	if (node_share_add(s, &j, err, sizeof(err)))
		fail_msg("add job %u: %s", id, err);
}

static void test_two_full_cpu_jobs_share_a_node(void **state)
{
	node_share_t s;

	node_share_init(&s, 2);
	add(&s, 1, 0.2, 1.0, 0.25, 0, -1);
	assert_near(node_share_find(&s, 1)->yield, 1.0);
	add(&s, 2, 0.2, 1.0, 0.25, 0, -1);
	assert_near(node_share_find(&s, 1)->yield, 0.5);
	assert_near(node_share_find(&s, 2)->yield, 0.5);
	add(&s, 3, 0.2, 1.0, 0.25, 1, -1);
	assert_near(node_share_find(&s, 3)->yield, 1.0);
	/* a two-node job spanning both: node 0 has three tasks at need 1 */
	add(&s, 4, 0.2, 1.0, 0.25, 0, 1);
	assert_near(node_share_find(&s, 1)->yield, 1.0 / 3);
	assert_near(node_share_find(&s, 4)->yield, 1.0 / 3);
	/* node 1's leftover goes to job 3 (max-min, then leftover) */
	assert_near(node_share_find(&s, 3)->yield, 2.0 / 3);

	assert_int_equal(node_share_remove(&s, 2), 0);
	assert_null(node_share_find(&s, 2));
	assert_near(node_share_find(&s, 1)->yield, 0.5);
	assert_near(node_share_find(&s, 4)->yield, 0.5);
	assert_near(node_share_find(&s, 3)->yield, 0.5);
	assert_int_equal(node_share_remove(&s, 2), -1);
	node_share_free(&s);
}

static void test_different_needs(void **state)
{
	node_share_t s;

	node_share_init(&s, 1);
	add(&s, 1, 0.1, 0.4, 0.25, 0, -1);
	add(&s, 2, 0.1, 1.0, 0.25, 0, -1);
	/* equal yields y with 0.4 y + y = 1 */
	assert_near(node_share_find(&s, 1)->yield, 1 / 1.4);
	assert_near(node_share_find(&s, 2)->yield, 1 / 1.4);
	node_share_free(&s);
}

/* A running job's need changes (its nodes' agents measured it): the
 * yields of every job on its nodes follow, and a bad need changes nothing. */
static void test_set_need(void **state)
{
	node_share_t s;

	node_share_init(&s, 1);
	add(&s, 1, 0.1, 1.0, 0.25, 0, -1);
	add(&s, 2, 0.1, 1.0, 0.25, 0, -1);
	assert_near(node_share_find(&s, 1)->yield, 0.5);
	/* job 1 measured at 0.25: y (0.25 + 1) = 1 */
	assert_int_equal(node_share_set_need(&s, 1, 0.25), 0);
	assert_near(node_share_find(&s, 1)->need, 0.25);
	assert_near(node_share_find(&s, 1)->yield, 0.8);
	assert_near(node_share_find(&s, 2)->yield, 0.8);
	/* both measured low: each gets all it uses */
	assert_int_equal(node_share_set_need(&s, 2, 0.5), 0);
	assert_near(node_share_find(&s, 1)->yield, 1.0);
	assert_near(node_share_find(&s, 2)->yield, 1.0);
	assert_int_equal(node_share_set_need(&s, 2, 0), -1);
	assert_int_equal(node_share_set_need(&s, 2, 1.5), -1);
	assert_int_equal(node_share_set_need(&s, 9, 0.5), -1);
	assert_near(node_share_find(&s, 2)->need, 0.5);
	node_share_free(&s);
}

static void test_suspend_resume(void **state)
{
	node_share_t s;

	node_share_init(&s, 1);
	add(&s, 1, 0.5, 1.0, 0.5, 0, -1);
	add(&s, 2, 0.5, 1.0, 0.5, 0, -1);
	assert_int_equal(node_share_set_suspended(&s, 1, 1), 0);
	assert_near(node_share_find(&s, 1)->yield, 0.0);
	assert_near(node_share_find(&s, 2)->yield, 1.0);
	/* suspended, it still holds its memory */
	assert_near(node_share_mem_used(&s, 0), 1.0);
	assert_near(node_share_cpu_load(&s, 0), 1.0);
	assert_int_equal(node_share_set_suspended(&s, 1, 0), 0);
	assert_near(node_share_find(&s, 1)->yield, 0.5);
	assert_int_equal(node_share_set_suspended(&s, 99, 0), -1);
	node_share_free(&s);
}

static void test_resume_over_minimums(void **state)
{
	node_share_t s;

	node_share_init(&s, 1);
	add(&s, 1, 0.1, 1.0, 0.6, 0, -1);
	assert_int_equal(node_share_set_suspended(&s, 1, 1), 0);
	add(&s, 2, 0.1, 1.0, 0.6, 0, -1);	/* fits while 1 is suspended */
	/* both at 0.6 would need 1.2 CPUs: shared fairly, reported as 1 */
	assert_int_equal(node_share_set_suspended(&s, 1, 0), 1);
	assert_near(node_share_find(&s, 1)->yield, 0.5);
	assert_near(node_share_find(&s, 2)->yield, 0.5);
	node_share_free(&s);
}

static void test_choose_least_loaded_that_fit(void **state)
{
	node_share_t s;
	unsigned char allowed[4] = { 1, 1, 1, 1 };
	int chosen[4];
	char err[200];
	share_job_t j = { .id = 9, .mem = 0.3, .need = 1.0, .min_yield = 0.25 };

	node_share_init(&s, 4);
	add(&s, 1, 0.1, 1.0, 0.25, 0, -1);	/* node 0: load 2 */
	add(&s, 2, 0.1, 1.0, 0.25, 0, -1);
	add(&s, 3, 0.1, 0.5, 0.25, 1, -1);	/* node 1: load 0.5 */
	add(&s, 4, 0.8, 0.1, 0.25, 3, -1);	/* node 3: load 0.1, mem 0.8 */
	/* node 3 is the least loaded but has no memory left: 2 then 1 */
	assert_int_equal(node_share_choose(&s, &j, allowed, 2, chosen, err, sizeof(err)), 0);
	assert_int_equal(chosen[0], 1);
	assert_int_equal(chosen[1], 2);
	/* only allowed nodes */
	allowed[2] = 0;
	assert_int_equal(node_share_choose(&s, &j, allowed, 2, chosen, err, sizeof(err)), 0);
	assert_int_equal(chosen[0], 0);
	assert_int_equal(chosen[1], 1);
	/* at min yield 0.6 node 0 (two tasks at 0.25) cannot take it */
	j.min_yield = 0.6;
	assert_int_equal(node_share_choose(&s, &j, allowed, 2, chosen, err, sizeof(err)), -1);
	assert_string_equal(err, "job 9 (mem 0.3, need 1 at min yield 0.6 per node) fits on 1 of 3 allowed nodes, needs 2");
	assert_int_equal(node_share_choose(&s, &j, allowed, 5, chosen, err, sizeof(err)), -1);
	assert_string_equal(err, "job 9 asks for 5 nodes of 4");
	node_share_free(&s);
}

static void test_add_rejects(void **state)
{
	node_share_t s;
	int twice[2] = { 1, 1 }, far[1] = { 7 }, one[1] = { 0 };
	share_job_t j = { .id = 5, .nnodes = 2, .nodes = twice, .mem = 0.1,
			  .need = 1, .min_yield = 0.5 };
	char err[200];

	node_share_init(&s, 2);
	assert_int_equal(node_share_add(&s, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "job 5: node 1 twice");
	j.nnodes = 1;
	j.nodes = far;
	assert_int_equal(node_share_add(&s, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "job 5: node index 7 out of 0..1");
	j.nodes = one;
	assert_int_equal(node_share_add(&s, &j, err, sizeof(err)), 0);
	assert_int_equal(node_share_add(&s, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "job 5 is already placed");
	j.id = 6;
	j.min_yield = 0.6;	/* 0.5 + 0.6 > 1 */
	assert_int_equal(node_share_add(&s, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "job 6 does not fit at the minimum yields on its nodes");
	assert_null(node_share_find(&s, 6));
	assert_near(node_share_find(&s, 5)->yield, 1.0);
	node_share_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_full_cpu_jobs_share_a_node),
		cmocka_unit_test(test_different_needs),
		cmocka_unit_test(test_set_need),
		cmocka_unit_test(test_suspend_resume),
		cmocka_unit_test(test_resume_over_minimums),
		cmocka_unit_test(test_choose_least_loaded_that_fit),
		cmocka_unit_test(test_add_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
