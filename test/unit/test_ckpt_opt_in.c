/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ckpt_opt_in.c - the checkpoint signal goes only to a batch job
 * that asked for that very signal with --signal, to where it asked (the
 * batch shell with B:, else its steps); every other job gets none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>

#include "rules/ckpt_opt_in.h"

static void test_asked(void **state)
{
	(void)state;
	/* --signal=B:USR1@60 with amcbf_ckpt_signal=USR1 */
	assert_int_equal(ckpt_opt_in(SIGUSR1, 60, 1, SIGUSR1, 1), CKPT_TO_BATCH);
	/* --signal=USR1@60: its steps, as Slurm sends it */
	assert_int_equal(ckpt_opt_in(SIGUSR1, 60, 1, SIGUSR1, 0), CKPT_TO_STEPS);
}

static void test_not_asked(void **state)
{
	(void)state;
	/* no --signal: a script that may not trap it; none */
	assert_int_equal(ckpt_opt_in(SIGUSR1, 60, 1, 0, 0), CKPT_NONE);
	/* another signal asked for */
	assert_int_equal(ckpt_opt_in(SIGUSR1, 60, 1, SIGUSR2, 1), CKPT_NONE);
	/* no site signal, or no wait */
	assert_int_equal(ckpt_opt_in(0, 60, 1, SIGUSR1, 1), CKPT_NONE);
	assert_int_equal(ckpt_opt_in(SIGUSR1, 0, 1, SIGUSR1, 1), CKPT_NONE);
	/* not a batch job: never requeued anyway */
	assert_int_equal(ckpt_opt_in(SIGUSR1, 60, 0, SIGUSR1, 1), CKPT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asked),
		cmocka_unit_test(test_not_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
