/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_host_index.c - the index of hosts by position, least key and most
 * room (host_index.h) that the online DFRS placement and yield allocation
 * search (Stillwell et al. 2010, "Task Placement Heuristics", "Resource
 * Allocation"): the exact host a search finds (the first in index order,
 * so of equal keys the lowest index) after sets, updates and removals,
 * the root's bounds, and a comparison with a scan of every host over
 * random indexes and searches.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "dfrs/host_index.h"

static const double levels1[HOST_INDEX_LEVELS] = {
	0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8
};

/* Six hosts, one dimension: keys (loads) and rooms, with ties. */
static void six_hosts(host_index_t *ix)
{
	static const double key[6] = { 0.5, 0.2, 0.2, 0.7, 0.2, 0.1 };
	static const double room[6] = { 0.4, 0.1, 0.3, 0.9, 0.3, 0.05 };

	assert_int_equal(host_index_init(ix, 6, 1, levels1), 0);
	for (int h = 0; h < 6; h++)
		host_index_set(ix, h, key[h], &room[h]);
}

/* The first host at or after `from` with key < below and room >= least. */
static int first(const host_index_t *ix, int from, double below, double least)
{
	return host_index_first(ix, from, below, &least, NULL, NULL);
}

static void test_first_in_index_order_ties_lowest(void **state)
{
	host_index_t ix;

	six_hosts(&ix);
	/* any key, any room: the first host at or after from */
	assert_int_equal(first(&ix, 0, INFINITY, -INFINITY), 0);
	assert_int_equal(first(&ix, 4, INFINITY, -INFINITY), 4);
	assert_int_equal(first(&ix, 6, INFINITY, -INFINITY), -1);
	/* keys below 0.3: hosts 1, 2, 4 tie at 0.2, 5 has 0.1 */
	assert_int_equal(first(&ix, 0, 0.3, -INFINITY), 1);
	assert_int_equal(first(&ix, 2, 0.3, -INFINITY), 2);
	assert_int_equal(first(&ix, 3, 0.3, -INFINITY), 4);
	/* below is strict: 0.2 is not below 0.2 */
	assert_int_equal(first(&ix, 0, 0.2, -INFINITY), 5);
	assert_int_equal(first(&ix, 0, 0.1, -INFINITY), -1);
	/* room at least 0.3 among the 0.2s: host 1 has 0.1 only */
	assert_int_equal(first(&ix, 0, 0.3, 0.3), 2);
	assert_int_equal(first(&ix, 3, 0.3, 0.3), 4);
	assert_int_equal(first(&ix, 0, 0.3, 0.31), -1);
	/* room is inclusive, key is not */
	assert_int_equal(first(&ix, 0, INFINITY, 0.9), 3);
	assert_int_equal(first(&ix, 0, 0.7, 0.9), -1);
	/* the root: least key, most room, sum of the positive rooms */
	assert_true(host_index_min_key(&ix) == 0.1);
	assert_true(host_index_max_room(&ix, 0) == 0.9);
	assert_float_equal(host_index_total_room(&ix, 0), 2.05, 1e-12);
	host_index_free(&ix);
}

static void test_updates_and_removals(void **state)
{
	host_index_t ix;
	double r;

	six_hosts(&ix);
	/* host 5 fills (a task placed): 0.1 -> 0.6, no room left */
	r = -0.01;
	host_index_set(&ix, 5, 0.6, &r);
	assert_true(host_index_min_key(&ix) == 0.2);
	assert_int_equal(first(&ix, 0, 0.25, -INFINITY), 1);
	assert_int_equal(first(&ix, 5, 0.7, -INFINITY), 5);
	assert_int_equal(first(&ix, 5, 0.7, 0.0), -1);
	assert_float_equal(host_index_total_room(&ix, 0), 2.0, 1e-12);
	/* host 1 empties (a task taken off): lowest now, at a tie with 0 */
	r = 0.4;
	host_index_set(&ix, 1, 0.0, &r);
	assert_int_equal(first(&ix, 0, 0.1, 0.35), 1);
	assert_int_equal(first(&ix, 2, 0.25, 0.35), -1);
	/* host 0 down to host 1's key: equal keys, the lower index first */
	host_index_set(&ix, 0, 0.0, &r);
	assert_int_equal(first(&ix, 0, 0.1, 0.35), 0);
	assert_int_equal(first(&ix, 1, 0.1, 0.35), 1);
	/* removal: a missing host (key +INFINITY, room -INFINITY) is never
	 * found, whatever the bounds */
	r = -INFINITY;
	host_index_set(&ix, 0, INFINITY, &r);
	assert_int_equal(first(&ix, 0, INFINITY, -INFINITY), 1);
	host_index_set(&ix, 1, INFINITY, &r);
	assert_int_equal(first(&ix, 0, 0.3, -INFINITY), 2);
	assert_true(host_index_max_room(&ix, 0) == 0.9);
	host_index_set(&ix, 3, INFINITY, &r);
	assert_true(host_index_max_room(&ix, 0) == 0.3);
	assert_float_equal(host_index_total_room(&ix, 0), 0.6, 1e-12);
	/* and back */
	r = 0.9;
	host_index_set(&ix, 3, 0.7, &r);
	assert_int_equal(first(&ix, 0, INFINITY, 0.5), 3);
	host_index_free(&ix);
}

/* accept: only the hosts in the mask; records what it was asked. */
typedef struct {
	unsigned mask;
	int asked[64], nasked;
} accept_t;

static int accept_masked(const void *ctx, int h)
{
	accept_t *a = (accept_t *)ctx;

	a->asked[a->nasked++] = h;
	return (a->mask >> h) & 1;
}

static void test_accept_rejects_and_search_goes_on(void **state)
{
	host_index_t ix;
	accept_t a = { .mask = 1u << 4 };

	six_hosts(&ix);
	/* hosts 1, 2, 4, 5 pass the key; only 4 is accepted, asked in order
	 * and no host that fails the bounds (0, 3) is asked */
	assert_int_equal(host_index_first(&ix, 0, 0.3, (double[]){ -INFINITY },
					  accept_masked, &a), 4);
	assert_int_equal(a.nasked, 3);
	assert_int_equal(a.asked[0], 1);
	assert_int_equal(a.asked[1], 2);
	assert_int_equal(a.asked[2], 4);
	a = (accept_t){ .mask = 0 };
	assert_int_equal(host_index_first(&ix, 0, 0.3, (double[]){ -INFINITY },
					  accept_masked, &a), -1);
	assert_int_equal(a.nasked, 4);
	host_index_free(&ix);
}

static void test_empty_and_single(void **state)
{
	host_index_t ix;
	double r = 1.0;

	assert_int_equal(host_index_init(&ix, 0, 1, levels1), 0);
	assert_int_equal(first(&ix, 0, INFINITY, -INFINITY), -1);
	assert_true(host_index_min_key(&ix) == INFINITY);
	host_index_free(&ix);
	assert_int_equal(host_index_init(&ix, 1, 1, levels1), 0);
	assert_int_equal(first(&ix, 0, INFINITY, -INFINITY), -1);
	host_index_set(&ix, 0, 0.25, &r);
	assert_int_equal(first(&ix, 0, INFINITY, 1.0), 0);
	assert_int_equal(first(&ix, 0, 0.25, 1.0), -1);
	assert_int_equal(first(&ix, -3, 0.5, 0.0), 0);
	host_index_free(&ix);
	/* no dimension: keys only (the yield allocation's use) */
	assert_int_equal(host_index_init(&ix, 3, 0, NULL), 0);
	host_index_set(&ix, 0, 2.0, NULL);
	host_index_set(&ix, 1, -INFINITY, NULL);
	host_index_set(&ix, 2, 2.0, NULL);
	assert_true(host_index_min_key(&ix) == -INFINITY);
	assert_int_equal(host_index_first(&ix, 0, nextafter(2.0, INFINITY), NULL,
					  NULL, NULL), 0);
	assert_int_equal(host_index_first(&ix, 2, 2.0, NULL, NULL, NULL), -1);
	host_index_free(&ix);
}

/* --- against a scan of every host ---------------------------------------- */

static uint64_t rnd = 45;

static unsigned next_rand(void)
{
	rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rnd >> 33);
}

/* keys and rooms from a few values, so that ties are common; some hosts
 * missing */
static double rand_key(void)
{
	static const double v[] = { 0.0, 0.1, 0.25, 0.25, 0.5, 1.0, 1.5, -0.5 };

	return next_rand() % 10 == 0 ? INFINITY : v[next_rand() % 8];
}

static double rand_room(void)
{
	static const double v[] = { -0.1, 0.0, 0.015, 0.05, 0.3, 0.31, 0.9, 2.0 };

	return next_rand() % 12 == 0 ? -INFINITY : v[next_rand() % 8];
}

typedef struct {
	int n, nd;
	double key[64], room[64][3];
} flat_t;

static int scan_first(const flat_t *f, int from, double below,
		      const double *least, unsigned mask)
{
	for (int h = from < 0 ? 0 : from; h < f->n; h++) {
		int ok = f->key[h] < below && ((mask >> (h % 32)) & 1);

		for (int d = 0; d < f->nd; d++)
			ok &= f->room[h][d] >= least[d];
		if (ok)
			return h;
	}
	return -1;
}

static int accept_mod(const void *ctx, int h)
{
	return (*(const unsigned *)ctx >> (h % 32)) & 1;
}

/* One random index, changed by sets and checked by searches. */
static void random_round(void)
{
	flat_t f = { .n = next_rand() % 64, .nd = next_rand() % 4 };
	double level[3 * HOST_INDEX_LEVELS], least[3];
	host_index_t ix;

	for (int d = 0; d < f.nd; d++)
		for (int l = 0; l < HOST_INDEX_LEVELS; l++)
			level[d * HOST_INDEX_LEVELS + l] = (l + 1) * 0.12 - 0.1;
	assert_int_equal(host_index_init(&ix, f.n, f.nd, level), 0);
	for (int h = 0; h < f.n; h++) {	/* all at once, then built */
		f.key[h] = rand_key();
		for (int d = 0; d < f.nd; d++)
			f.room[h][d] = rand_room();
		host_index_set_leaf(&ix, h, f.key[h], f.room[h]);
	}
	host_index_build(&ix);
	for (int step = 0; step < 60; step++) {
		unsigned mask = next_rand() % 4 ? ~0u : next_rand();
		double below = rand_key(), m = INFINITY, total = 0.0;
		int from = (int)(next_rand() % (f.n + 2)) - 1, h;

		if (f.n && next_rand() % 2) {	/* one host changes */
			h = next_rand() % f.n;
			f.key[h] = rand_key();
			for (int d = 0; d < f.nd; d++)
				f.room[h][d] = rand_room();
			host_index_set(&ix, h, f.key[h], f.room[h]);
		}
		for (int d = 0; d < f.nd; d++)
			least[d] = next_rand() % 3 ? rand_room() : -INFINITY;
		assert_int_equal(host_index_first(&ix, from, below, least,
						  mask == ~0u ? NULL : accept_mod,
						  &mask),
				 scan_first(&f, from, below, least, mask));
		for (h = 0; h < f.n; h++)
			m = f.key[h] < m ? f.key[h] : m;
		assert_true(host_index_min_key(&ix) == m);
		for (int d = 0; d < f.nd; d++) {
			m = -INFINITY, total = 0.0;
			for (h = 0; h < f.n; h++) {
				m = f.room[h][d] > m ? f.room[h][d] : m;
				total += f.room[h][d] > 0.0 ? f.room[h][d] : 0.0;
			}
			assert_true(host_index_max_room(&ix, d) == m);
			assert_float_equal(host_index_total_room(&ix, d), total,
					   1e-12);
		}
	}
	host_index_free(&ix);
}

static void test_matches_a_scan_of_every_host(void **state)
{
	for (int round = 0; round < 400; round++)
		random_round();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_in_index_order_ties_lowest),
		cmocka_unit_test(test_updates_and_removals),
		cmocka_unit_test(test_accept_rejects_and_search_goes_on),
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_matches_a_scan_of_every_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
