/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_amcbf_order.c - sched/amcbf's queue order (amcbf_priority): Slurm's
 * job priority first by default, first submit time for fifo, DFRS stretch
 * for stretch; fixed jobs always first; ties by first submit, then id.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "amcbf/amcbf_order.h"
#include "suite/dfrs_params.h"

static amcbf_priority_t sort_order;

static int cmp(const void *a, const void *b)
{
	return amcbf_order_compare(sort_order, a, b);
}

/* Sort keys in the given order; ids in the resulting order into ids[]. */
static void sorted_ids(amcbf_priority_t order, const amcbf_order_key_t *in,
		       size_t n, uint32_t *ids)
{
	amcbf_order_key_t k[8];

	for (size_t i = 0; i < n; i++)
		k[i] = in[i];
	sort_order = order;
	qsort(k, n, sizeof(k[0]), cmp);
	for (size_t i = 0; i < n; i++)
		ids[i] = k[i].id;
}

/* Job 4 was submitted first but has the lowest Slurm priority; job 7 has
 * the highest stretch; job 9 is a fixed (exempt) running job. */
static const amcbf_order_key_t jobs[] = {
	{ .id = 4, .submit = 100, .slurm_prio = 10, .stretch = 1.0 },
	{ .id = 5, .submit = 200, .slurm_prio = 30, .stretch = 2.0 },
	{ .id = 6, .submit = 150, .slurm_prio = 30, .stretch = 0.5 },
	{ .id = 7, .submit = 300, .slurm_prio = 20, .stretch = INFINITY },
	{ .id = 9, .submit = 400, .slurm_prio = 1, .stretch = 0, .fixed = 1 },
};

static void test_priority_order(void **state)
{
	uint32_t ids[5];

	(void)state;
	sorted_ids(AMCBF_PRIO_PRIORITY, jobs, 5, ids);
	/* fixed first; 30 (6 before 5: earlier submit), 20, 10 */
	assert_int_equal(ids[0], 9);
	assert_int_equal(ids[1], 6);
	assert_int_equal(ids[2], 5);
	assert_int_equal(ids[3], 7);
	assert_int_equal(ids[4], 4);
}

static void test_fifo_order(void **state)
{
	uint32_t ids[5];

	(void)state;
	sorted_ids(AMCBF_PRIO_FIFO, jobs, 5, ids);
	assert_int_equal(ids[0], 9);
	assert_int_equal(ids[1], 4);
	assert_int_equal(ids[2], 6);
	assert_int_equal(ids[3], 5);
	assert_int_equal(ids[4], 7);
}

static void test_stretch_order(void **state)
{
	uint32_t ids[5];

	(void)state;
	sorted_ids(AMCBF_PRIO_STRETCH, jobs, 5, ids);
	assert_int_equal(ids[0], 9);
	assert_int_equal(ids[1], 7);	/* never ran: infinite */
	assert_int_equal(ids[2], 5);
	assert_int_equal(ids[3], 4);
	assert_int_equal(ids[4], 6);
}

static void test_ties(void **state)
{
	amcbf_order_key_t a = { .id = 12, .submit = 50, .slurm_prio = 7 };
	amcbf_order_key_t b = { .id = 11, .submit = 50, .slurm_prio = 7 };

	(void)state;
	/* same priority and submit: lower id first, in every order */
	assert_true(amcbf_order_compare(AMCBF_PRIO_PRIORITY, &b, &a) < 0);
	assert_true(amcbf_order_compare(AMCBF_PRIO_FIFO, &b, &a) < 0);
	assert_true(amcbf_order_compare(AMCBF_PRIO_STRETCH, &b, &a) < 0);
	assert_int_equal(amcbf_order_compare(AMCBF_PRIO_PRIORITY, &a, &a), 0);
}

/* PriorityTier first (Slurm's main scheduler's queue order), then the
 * job priority; the other orders ignore it. */
static void test_priority_tier(void **state)
{
	amcbf_order_key_t low = { .id = 1, .submit = 10, .slurm_prio = 900,
				  .part_tier = 1 };
	amcbf_order_key_t high = { .id = 2, .submit = 20, .slurm_prio = 5,
				   .part_tier = 2 };

	(void)state;
	assert_int_equal(amcbf_order_compare(AMCBF_PRIO_PRIORITY, &high, &low),
			 -1);
	assert_int_equal(amcbf_order_compare(AMCBF_PRIO_PRIORITY, &low, &high),
			 1);
	assert_int_equal(amcbf_order_compare(AMCBF_PRIO_FIFO, &low, &high), -1);
	high.part_tier = 1;
	assert_int_equal(amcbf_order_compare(AMCBF_PRIO_PRIORITY, &low, &high),
			 -1);
}

/* The key's default: amcbf_priority=priority. */
static void test_default_is_priority(void **state)
{
	dfrs_params_t p;
	char err[256];

	(void)state;
	dfrs_params_defaults(&p);
	assert_int_equal(p.priority, AMCBF_PRIO_PRIORITY);
	assert_int_equal(dfrs_params_parse("amcbf_priority=fifo", &p, err,
					   sizeof(err)), 0);
	assert_int_equal(p.priority, AMCBF_PRIO_FIFO);
	assert_int_equal(dfrs_params_parse("amcbf_priority=stretch", &p, err,
					   sizeof(err)), 0);
	assert_int_equal(p.priority, AMCBF_PRIO_STRETCH);
	assert_int_equal(dfrs_params_parse("amcbf_priority=priority", &p, err,
					   sizeof(err)), 0);
	assert_int_equal(p.priority, AMCBF_PRIO_PRIORITY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priority_order),
		cmocka_unit_test(test_fifo_order),
		cmocka_unit_test(test_stretch_order),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_priority_tier),
		cmocka_unit_test(test_default_is_priority),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
