/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_singleton_index.c - the per-cycle singleton index answers as
 * Slurm 22.05's scan (_find_singleton_job) does: same user and name (or a
 * job of that user without a name), running or suspended, or pending with
 * a smaller id.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/singleton_index.h"

static singleton_index_t *build(void)
{
	singleton_index_t *idx = singleton_index_new();

	assert_non_null(idx);
	/* user 1: "a" runs (job 5), "a" pending 7 and 9 */
	assert_int_equal(singleton_index_add(idx, 1, "a", SINGLETON_ACTIVE, 5), 0);
	assert_int_equal(singleton_index_add(idx, 1, "a", SINGLETON_PENDING, 9), 0);
	assert_int_equal(singleton_index_add(idx, 1, "a", SINGLETON_PENDING, 7), 0);
	/* user 1: "b" pending 12 and 20 */
	assert_int_equal(singleton_index_add(idx, 1, "b", SINGLETON_PENDING, 20), 0);
	assert_int_equal(singleton_index_add(idx, 1, "b", SINGLETON_PENDING, 12), 0);
	/* user 2: "a" pending 3 only */
	assert_int_equal(singleton_index_add(idx, 2, "a", SINGLETON_PENDING, 3), 0);
	singleton_index_seal(idx);
	return idx;
}

static void test_blocked(void **state)
{
	singleton_index_t *idx = build();

	(void)state;
	assert_int_equal(singleton_index_keys(idx), 3);
	/* a running job of the same name blocks every pending one */
	assert_true(singleton_index_blocked(idx, 1, "a", 7));
	assert_true(singleton_index_blocked(idx, 1, "a", 9));
	/* the smallest pending id is free, the later ones wait */
	assert_false(singleton_index_blocked(idx, 1, "b", 12));
	assert_true(singleton_index_blocked(idx, 1, "b", 20));
	assert_false(singleton_index_blocked(idx, 2, "a", 3));
	assert_true(singleton_index_blocked(idx, 2, "a", 4));
	/* other names and users are not blocked */
	assert_false(singleton_index_blocked(idx, 1, "c", 30));
	assert_false(singleton_index_blocked(idx, 3, "a", 30));
	/* no name: Slurm tests no singleton */
	assert_false(singleton_index_blocked(idx, 1, NULL, 30));
	singleton_index_free(idx);
}

/* A job of the user without a name matches every name (as Slurm's scan). */
static void test_unnamed(void **state)
{
	singleton_index_t *idx = singleton_index_new();

	(void)state;
	assert_int_equal(singleton_index_add(idx, 4, NULL, SINGLETON_PENDING, 50), 0);
	assert_int_equal(singleton_index_add(idx, 4, "x", SINGLETON_PENDING, 40), 0);
	singleton_index_seal(idx);
	assert_false(singleton_index_blocked(idx, 4, "x", 40));
	assert_true(singleton_index_blocked(idx, 4, "x", 51));
	assert_true(singleton_index_blocked(idx, 4, "y", 51));
	assert_false(singleton_index_blocked(idx, 4, "y", 50));
	assert_false(singleton_index_blocked(idx, 5, "y", 51));
	singleton_index_free(idx);
}

static void test_unsealed_and_empty(void **state)
{
	singleton_index_t *idx = singleton_index_new();

	(void)state;
	assert_int_equal(singleton_index_add(idx, 1, "a", SINGLETON_ACTIVE, 5), 0);
	/* not sealed: no answer but "not blocked" (the caller asks Slurm) */
	assert_false(singleton_index_blocked(idx, 1, "a", 9));
	singleton_index_seal(idx);
	assert_true(singleton_index_blocked(idx, 1, "a", 9));
	/* sealed: no more records */
	assert_int_equal(singleton_index_add(idx, 1, "b", SINGLETON_ACTIVE, 6), -1);
	assert_false(singleton_index_blocked(idx, 1, "b", 9));
	singleton_index_free(idx);

	idx = singleton_index_new();
	singleton_index_seal(idx);
	assert_int_equal(singleton_index_keys(idx), 0);
	assert_false(singleton_index_blocked(idx, 1, "a", 9));
	singleton_index_free(idx);
	assert_false(singleton_index_blocked(NULL, 1, "a", 9));
	assert_int_equal(singleton_index_add(NULL, 1, "a", SINGLETON_ACTIVE, 1), -1);
	singleton_index_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked),
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_unsealed_and_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
