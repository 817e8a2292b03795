/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_gpu_count.c - the GPUs of a Slurm GRES or TRES list: node Gres=,
 * job tres_per_node and tres_per_job in 22.05's and later releases'
 * spelling, with types, socket lists and other GRES beside them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "amcbf/gpu_count.h"

static void test_node_gres(void **state)
{
	(void)state;
	assert_int_equal(gpu_count(NULL), 0);
	assert_int_equal(gpu_count(""), 0);
	assert_int_equal(gpu_count("gpu:4"), 4);
	assert_int_equal(gpu_count("gpu"), 1);
	assert_int_equal(gpu_count("gpu:a100"), 1);
	assert_int_equal(gpu_count("gpu:a100:2(S:0-1),gpu:v100:3"), 5);
	/* a comma inside the socket list is not a new entry */
	assert_int_equal(gpu_count("gpu:2(S:0,1),mps:200"), 2);
	assert_int_equal(gpu_count("mps:100,gpu:8"), 8);
	/* not GPUs */
	assert_int_equal(gpu_count("mps:100"), 0);
	assert_int_equal(gpu_count("gpuish:3"), 0);
	assert_int_equal(gpu_count("license/x:1"), 0);
}

static void test_job_tres(void **state)
{
	(void)state;
	/* 22.05: gres:NAME[:TYPE]:COUNT */
	assert_int_equal(gpu_count("gres:gpu:1"), 1);
	assert_int_equal(gpu_count("gres:gpu:tesla:2"), 2);
	/* from 23.02: gres/NAME[:TYPE]:COUNT, or =COUNT */
	assert_int_equal(gpu_count("gres/gpu:3"), 3);
	assert_int_equal(gpu_count("gres/gpu=2"), 2);
	assert_int_equal(gpu_count("cpu:2,gres/gpu:a100:1"), 1);
	assert_int_equal(gpu_count("gres/gpu:1k"), 1024);
}

static void test_malformed(void **state)
{
	(void)state;
	assert_int_equal(gpu_count("gpu:"), -1);
	assert_int_equal(gpu_count("gpu:4x"), -1);
	assert_int_equal(gpu_count("gres/gpu=x"), -1);
	assert_int_equal(gpu_count("mps:1,gpu:2q"), -1);
	/* malformed GRES that are not GPUs are not ours to judge */
	assert_int_equal(gpu_count("mps:zz,gpu:2"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_gres),
		cmocka_unit_test(test_job_tres),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
