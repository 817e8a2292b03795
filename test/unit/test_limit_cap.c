/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_limit_cap.c - the wall-clock bound on sched/amcbf's time-limit
 * extension: the smaller of partition MaxTime and QOS MaxWall from the
 * start (plus suspended time), a move that never passes it nor
 * shortens a job, and the end a resumed job gets back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/limit_cap.h"

static void test_cap_end(void **state)
{
	(void)state;
	/* no bound */
	assert_int_equal(limit_cap_end(1000, 0, 0, 0), 0);
	/* the partition's, the QOS's, the smaller of both */
	assert_int_equal(limit_cap_end(1000, 0, 5, 0), 1300);
	assert_int_equal(limit_cap_end(1000, 0, 0, 2), 1120);
	assert_int_equal(limit_cap_end(1000, 0, 5, 2), 1120);
	assert_int_equal(limit_cap_end(1000, 0, 2, 5), 1120);
	/* suspended time is not run time (Slurm's count) */
	assert_int_equal(limit_cap_end(1000, 40, 5, 0), 1340);
	assert_int_equal(limit_cap_end(1000, -3, 5, 0), 1300);
	/* not started: nothing to bound */
	assert_int_equal(limit_cap_end(0, 0, 5, 0), 0);
}

static void test_move(void **state)
{
	(void)state;
	/* no cap: moved by all of it */
	assert_int_equal(limit_cap_move(1100, 30, 0), 1130);
	/* under the cap */
	assert_int_equal(limit_cap_move(1100, 30, 1300), 1130);
	assert_int_equal(limit_cap_move(1100, 200, 1300), 1300);
	/* at the cap: stays */
	assert_int_equal(limit_cap_move(1300, 30, 1300), 1300);
	/* already past it (set by Slurm or an administrator): kept, not cut */
	assert_int_equal(limit_cap_move(1400, 30, 1300), 1400);
	/* nothing to add */
	assert_int_equal(limit_cap_move(1100, 0, 1300), 1100);
	assert_int_equal(limit_cap_move(1100, -5, 1300), 1100);
}

/* A job started at 1000 with a 10-minute limit, its end moved 120 s on
 * for CPU it was denied (1720), suspended at 1300 after 300 s of run and
 * resumed at 5000: Slurm's resume gives 5000 + 600 - 300 = 5300, and the
 * job had 420 s left when suspended. */
static void test_resume(void **state)
{
	(void)state;
	assert_int_equal(limit_cap_resume(5000, 5300, 1720, 1300, 0), 5420);
	/* nothing had been added: Slurm's own end */
	assert_int_equal(limit_cap_resume(5000, 5300, 1600, 1300, 0), 5300);
	/* an end already past when suspended: never earlier than Slurm's */
	assert_int_equal(limit_cap_resume(5000, 5300, 1250, 1300, 0), 5300);
	/* a --deadline: the addition stops there, Slurm's own end stays */
	assert_int_equal(limit_cap_resume(5000, 5300, 1720, 1300, 5350), 5350);
	assert_int_equal(limit_cap_resume(5000, 5300, 1720, 1300, 5200), 5300);
	assert_int_equal(limit_cap_resume(5000, 5300, 1720, 1300, 6000), 5420);
}

/* The room the caps leave an end time, and whether a job may be slowed
 * into it. */
static void test_room(void **state)
{
	(void)state;
	assert_true(limit_cap_room(1000, 0, 0) == -1);
	assert_true(limit_cap_room(1000, 1300, 0) == 300);
	assert_true(limit_cap_room(1000, 0, 1100) == 100);
	assert_true(limit_cap_room(1000, 1300, 1100) == 100);
	assert_true(limit_cap_room(1000, 1050, 1100) == 50);
	/* an end at or past a cap: no room */
	assert_true(limit_cap_room(1000, 1000, 0) == 0);
	assert_true(limit_cap_room(1000, 900, 1100) == 0);
	assert_true(limit_cap_room(1000, 1300, 900) == 0);
}

static void test_may_slow(void **state)
{
	(void)state;
	/* no cap */
	assert_int_equal(limit_cap_may_slow(3600, -1, 1), 1);
	/* a job that asked for its partition's MaxTime: no room */
	assert_int_equal(limit_cap_may_slow(3600, 0, 1), 0);
	assert_int_equal(limit_cap_may_slow(3600, 0, 0.75), 0);
	/* the background may cost it all of its run: room for all of it */
	assert_int_equal(limit_cap_may_slow(3600, 3599, 1), 0);
	assert_int_equal(limit_cap_may_slow(3600, 3600, 1), 1);
	/* a DFRS minimum yield of 0.25 costs at most 3/4 of the run */
	assert_int_equal(limit_cap_may_slow(3600, 2699, 0.75), 0);
	assert_int_equal(limit_cap_may_slow(3600, 2700, 0.75), 1);
	/* nothing to lose: a minimum yield of 1, or nothing left to run */
	assert_int_equal(limit_cap_may_slow(3600, 0, 0), 1);
	assert_int_equal(limit_cap_may_slow(0, 0, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_end),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_room),
		cmocka_unit_test(test_may_slow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
