/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_proc_cpu.c - a process's CPU time from a fake /proc/<pid>/stat:
 * utime + stime over the tick rate, a command name holding spaces and
 * parentheses, a process that is gone, a truncated line; and this test's
 * own process in the real /proc.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc_cpu.h"

static char root[64];

static void fake_stat(const char *pid, const char *line)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, pid);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/%s/stat", root, pid);
	assert_non_null(f = fopen(path, "w"));
	fputs(line, f);
	fclose(f);
}

static void test_fake_proc(void **state)
{
	double s = -1;

	snprintf(root, sizeof(root), "/tmp/test_proc_cpu.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* utime 250, stime 50 ticks */
	fake_stat("10", "10 (dfrs-work) R 1 10 10 0 -1 4194304 100 0 0 0 "
		  "250 50 0 0 20 0 1 0 100 1000 10 18446744073709551615\n");
	fake_stat("11", "11 (a b) c)) S 1 11 11 0 -1 0 0 0 0 0 7 3 0 0\n");
	fake_stat("12", "12 (short) S 1 12 12 0 -1 0 0 0 0 0 7\n");
	assert_int_equal(proc_cpu_seconds(root, 10, 100, &s), 0);
	assert_true(s == 3.0);
	assert_int_equal(proc_cpu_seconds(root, 11, 10, &s), 0);
	assert_true(s == 1.0);
	assert_int_equal(proc_cpu_seconds(root, 12, 100, &s), -1);
	assert_int_equal(proc_cpu_seconds(root, 13, 100, &s), -1);	/* gone */
	assert_int_equal(proc_cpu_seconds(root, 10, 0, &s), -1);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_own_process(void **state)
{
	double before, after;
	volatile double x = 0;

	assert_int_equal(proc_cpu_seconds("/proc", getpid(),
					  (double)sysconf(_SC_CLK_TCK),
					  &before), 0);
	for (long i = 0; i < 50000000L && x >= 0; i++)
		x += 1e-9;
	assert_int_equal(proc_cpu_seconds("/proc", getpid(),
					  (double)sysconf(_SC_CLK_TCK),
					  &after), 0);
	assert_true(after >= before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fake_proc),
		cmocka_unit_test(test_own_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
