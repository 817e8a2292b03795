/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tier_premise.c - a tiered mode refuses to run where a background
 * job could share a node with a foreground one while Slurm does not count
 * memory; every other combination runs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "suite/tier_premise.h"

static void test_refused_without_memory(void **state)
{
	tier_premise_t p = { .mode = "cmcbf", .tiered = 1, .tiers_possible = 1 };
	char err[512] = "";

	(void)state;
	assert_int_equal(tier_premise_check(&p, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "amcbf_mode=cmcbf puts a background job on a node beside a foreground one, but SelectTypeParameters does not count memory, so their memory may overlap: set SelectTypeParameters=CR_Memory (or CR_Core_Memory, CR_CPU_Memory, CR_Socket_Memory) with DefMemPerNode or DefMemPerCPU");
	p.mode = "amcbf";
	assert_int_equal(tier_premise_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "amcbf_mode=amcbf puts"));
}

static void test_runs_otherwise(void **state)
{
	char err[512] = "untouched";
	tier_premise_t with_memory = { .mode = "amcbf", .tiered = 1, .tiers_possible = 1,
				       .memory = 1 };
	tier_premise_t no_sharing = { .mode = "amcbf", .tiered = 1 };
	tier_premise_t untiered = { .mode = "cmbf", .tiers_possible = 1 };

	(void)state;
	assert_int_equal(tier_premise_check(&with_memory, err, sizeof(err)), 0);
	assert_int_equal(tier_premise_check(&no_sharing, err, sizeof(err)), 0);
	assert_int_equal(tier_premise_check(&untiered, err, sizeof(err)), 0);
	assert_string_equal(err, "untouched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_without_memory),
		cmocka_unit_test(test_runs_otherwise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
