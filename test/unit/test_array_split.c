/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_array_split.c - the tasks sched/amcbf splits off a job array's
 * pending record so that one cycle starts several of them: as many as the
 * machine runs at once, within the % throttle and the cycle's budget.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/array_split.h"

/* 1,000 one-CPU tasks on 8 x 2 CPUs: 15 split off, the record's own 16th */
static void test_machine_bound(void **state)
{
	array_split_in_t in = { .tasks_left = 1000, .task_cpus = 1,
				.cluster_cpus = 16, .budget = 256 };

	(void)state;
	assert_int_equal(array_split_count(&in), 15);
	/* the next cycle: 15 still pending (none started): nothing more */
	in.tasks_left = 985;
	in.pending_split = 15;
	assert_int_equal(array_split_count(&in), 0);
	/* 10 of them started: 10 more */
	in.pending_split = 5;
	assert_int_equal(array_split_count(&in), 10);
	/* two-CPU tasks: 8 at once */
	in = (array_split_in_t){ .tasks_left = 1000, .task_cpus = 2,
				 .cluster_cpus = 16, .budget = 256 };
	assert_int_equal(array_split_count(&in), 7);
}

/* %4 with 1 running: 3 may start, the record one of them: 2 split */
static void test_throttle(void **state)
{
	array_split_in_t in = { .tasks_left = 100, .throttle = 4,
				.running = 1, .task_cpus = 1,
				.cluster_cpus = 16, .budget = 256 };

	(void)state;
	assert_int_equal(array_split_count(&in), 2);
	in.running = 4;		/* at the throttle */
	assert_int_equal(array_split_count(&in), 0);
	in.running = 6;		/* over it (lowered by scontrol) */
	assert_int_equal(array_split_count(&in), 0);
	in.throttle = 1;	/* %1: the record's own start only */
	in.running = 0;
	assert_int_equal(array_split_count(&in), 0);
}

/* the last tasks, the budget, a task larger than the machine */
static void test_bounds(void **state)
{
	array_split_in_t in = { .tasks_left = 3, .task_cpus = 1,
				.cluster_cpus = 16, .budget = 256 };

	(void)state;
	assert_int_equal(array_split_count(&in), 2);
	in.tasks_left = 1;
	assert_int_equal(array_split_count(&in), 0);
	in = (array_split_in_t){ .tasks_left = 100000, .task_cpus = 1,
				 .cluster_cpus = 32768, .budget = 256 };
	assert_int_equal(array_split_count(&in), 256);
	in.budget = 0;
	assert_int_equal(array_split_count(&in), 0);
	in = (array_split_in_t){ .tasks_left = 10, .task_cpus = 64,
				 .cluster_cpus = 16, .budget = 256 };
	assert_int_equal(array_split_count(&in), 0);
	in.task_cpus = 0;	/* unknown: one CPU */
	assert_int_equal(array_split_count(&in), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_bound),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
