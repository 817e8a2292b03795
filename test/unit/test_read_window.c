/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_read_window.c - the time-bounded read's rotation: it starts where
 * the last one stopped, wraps around, and reads every job within
 * ceil(n / k) reads of k jobs each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/read_window.h"

static const uint32_t ids[] = { 10, 20, 30, 40, 50 };

static void test_start(void **state)
{
	(void)state;
	assert_int_equal(read_window_start(ids, 5, 0), 0);
	assert_int_equal(read_window_start(ids, 5, 10), 0);
	assert_int_equal(read_window_start(ids, 5, 30), 2);
	/* the job at the cursor ended: the next one */
	assert_int_equal(read_window_start(ids, 5, 31), 3);
	/* past the last: wrap around */
	assert_int_equal(read_window_start(ids, 5, 51), 0);
	assert_int_equal(read_window_start(NULL, 0, 30), 0);
	assert_int_equal(read_window_start(ids, 0, 30), 0);
}

static void test_next(void **state)
{
	(void)state;
	/* all read: start over */
	assert_int_equal(read_window_next(ids, 5, 2, 5), 0);
	assert_int_equal(read_window_next(ids, 5, 0, 7), 0);
	/* stopped after 2 of 5 from index 2: 50 next */
	assert_int_equal(read_window_next(ids, 5, 2, 2), 50);
	/* read 40, 50, 10: 20 next */
	assert_int_equal(read_window_next(ids, 5, 3, 3), 20);
	/* nothing read */
	assert_int_equal(read_window_next(ids, 5, 1, 0), 20);
	assert_int_equal(read_window_next(ids, 0, 0, 0), 0);
}

/* Reading 2 a cycle, every one of 5 jobs is read within 3 cycles, and no
 * job twice before each was read once. */
static void test_no_starvation(void **state)
{
	int seen[5] = { 0 };
	uint32_t cursor = 0;

	(void)state;
	for (int cycle = 0; cycle < 3; cycle++) {
		size_t start = read_window_start(ids, 5, cursor);
		size_t done = 0;
		for (; done < 2; done++) {
			size_t i = (start + done) % 5;
			if (cycle < 2)
				assert_int_equal(seen[i], 0);
			seen[i]++;
		}
		cursor = read_window_next(ids, 5, start, done);
	}
	for (int i = 0; i < 5; i++)
		assert_true(seen[i] >= 1);
	assert_int_equal(seen[0], 2);	/* cycle 3 wrapped to the head */
	assert_int_equal(cursor, 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_no_starvation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
