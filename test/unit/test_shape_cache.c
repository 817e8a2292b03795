/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_shape_cache.c - the per-read cache of job shapes (shape_cache.h):
 * a key gives back exactly the value added for it (NULL included), other
 * keys miss, the table grows without losing keys, and each value held is
 * freed once when the cache is freed (the jobs only borrow them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/shape_cache.h"

static int freed;

static void count_free(void *p)
{
	freed++;
	free(p);
}

static shape_key_t key(uint64_t part, uint64_t mem)
{
	shape_key_t k;

	memset(&k, 0, sizeof(k));
	k.w[0] = part;
	k.w[3] = mem;
	return k;
}

static void test_find_add(void **state)
{
	shape_cache_t c;
	shape_key_t a = key(1, 0), b = key(1, 1024), nul = key(2, 0);
	unsigned char *mask = calloc(4, 1);
	void *v = (void *)0x1;

	(void)state;
	shape_cache_init(&c);
	assert_false(shape_cache_find(&c, &a, &v));
	assert_ptr_equal(v, (void *)0x1);	/* untouched on a miss */
	assert_int_equal(shape_cache_add(&c, &a, mask), 0);
	/* NULL (every node will do) is an answer too */
	assert_int_equal(shape_cache_add(&c, &nul, NULL), 0);
	assert_true(shape_cache_find(&c, &a, &v));
	assert_ptr_equal(v, mask);
	assert_true(shape_cache_find(&c, &nul, &v));
	assert_null(v);
	/* one word differs: another shape */
	assert_false(shape_cache_find(&c, &b, &v));
	/* a key is added once: the second value stays the caller's */
	assert_int_equal(shape_cache_add(&c, &a, (void *)0x2), -1);
	assert_true(shape_cache_find(&c, &a, &v));
	assert_ptr_equal(v, mask);
	assert_int_equal(shape_cache_count(&c), 2);
	assert_int_equal(c.hits, 3);
	assert_int_equal(c.misses, 2);
	freed = 0;
	shape_cache_free(&c, count_free);
	assert_int_equal(freed, 1);	/* the mask, once; not NULL */
	assert_int_equal(shape_cache_count(&c), 0);
	assert_false(shape_cache_find(&c, &a, &v));
}

/* Many keys (the table grows several times), each found with its own
 * value afterwards, and each freed once. */
static void test_grow(void **state)
{
	shape_cache_t c;
	enum { N = 5000 };

	(void)state;
	shape_cache_init(&c);
	for (uint64_t i = 0; i < N; i++) {
		shape_key_t k = key(i % 7, i);
		uint64_t *v = malloc(sizeof(*v));

		*v = i;
		assert_int_equal(shape_cache_add(&c, &k, v), 0);
	}
	assert_int_equal(shape_cache_count(&c), N);
	for (uint64_t i = 0; i < N; i++) {
		shape_key_t k = key(i % 7, i);
		void *v = NULL;

		assert_true(shape_cache_find(&c, &k, &v));
		assert_int_equal(*(uint64_t *)v, i);
		k = key(i % 7 + 1, i);	/* same memory, other partition */
		assert_false(shape_cache_find(&c, &k, &v));
	}
	freed = 0;
	shape_cache_free(&c, count_free);
	assert_int_equal(freed, N);
}

/* Without a free function the values are left to the caller. */
static void test_free_none(void **state)
{
	shape_cache_t c = { 0 };
	shape_key_t a = key(1, 0);
	int x = 0;

	(void)state;
	assert_int_equal(shape_cache_add(&c, &a, &x), 0);
	shape_cache_free(&c, NULL);
	assert_int_equal(shape_cache_count(&c), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_add),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_free_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
