/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_job_procs.c - dfrs-nodeagent's scan of /proc/<pid>/environ: which
 * processes are a job's on this node of this cluster.  Runs on a fake /proc
 * (a temporary directory of <pid>/environ files).
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

#include "job_procs.h"

/* Write root/pid/environ from a list of variables. */
static void fake_proc(const char *root, const char *pid, const char **vars)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, pid);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/%s/environ", root, pid);
	assert_non_null(f = fopen(path, "w"));
	for (; *vars; vars++)
		fwrite(*vars, 1, strlen(*vars) + 1, f);	/* with its NUL */
	fclose(f);
}

static int make_root(void **state)
{
	char *root = strdup("/tmp/test_job_procs.XXXXXX");

	assert_non_null(mkdtemp(root));
	/* this cluster's jobs 7 (two processes) and 5 on node n1 */
	fake_proc(root, "300", (const char *[]){ "PATH=/bin", "SLURM_JOB_ID=7",
		  "SLURMD_NODENAME=n1", "SLURM_CLUSTER_NAME=here", NULL });
	fake_proc(root, "120", (const char *[]){ "SLURM_CLUSTER_NAME=here",
		  "SLURMD_NODENAME=n1", "SLURM_JOB_ID=7", NULL });
	fake_proc(root, "200", (const char *[]){ "SLURM_JOB_ID=5",
		  "SLURMD_NODENAME=n1", "SLURM_CLUSTER_NAME=here", NULL });
	/* the same job id and node, another cluster */
	fake_proc(root, "400", (const char *[]){ "SLURM_JOB_ID=7",
		  "SLURMD_NODENAME=n1", "SLURM_CLUSTER_NAME=there", NULL });
	/* another node of this cluster */
	fake_proc(root, "500", (const char *[]){ "SLURM_JOB_ID=7",
		  "SLURMD_NODENAME=n2", "SLURM_CLUSTER_NAME=here", NULL });
	/* no cluster name: taken by node and job id */
	fake_proc(root, "600", (const char *[]){ "SLURM_JOB_ID=9",
		  "SLURMD_NODENAME=n1", NULL });
	/* not a job: no id, a bad id, a name that only starts like the key */
	fake_proc(root, "700", (const char *[]){ "SLURMD_NODENAME=n1", NULL });
	fake_proc(root, "800", (const char *[]){ "SLURM_JOB_ID=7x",
		  "SLURMD_NODENAME=n1", NULL });
	fake_proc(root, "900", (const char *[]){ "SLURM_JOB_IDX=7",
		  "SLURMD_NODENAME=n1", NULL });
	*state = root;
	return 0;
}

static int remove_root(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	free(*state);
	return 0;
}

static void expect_procs(const job_proc_t *got, ssize_t n,
			 const job_proc_t *want, ssize_t nwant)
{
	assert_int_equal(n, nwant);
	for (ssize_t i = 0; i < n; i++) {
		assert_int_equal(got[i].job_id, want[i].job_id);
		assert_int_equal(got[i].pid, want[i].pid);
	}
}

static void test_this_node_and_cluster(void **state)
{
	const job_proc_t want[] = { { 5, 200 }, { 7, 120 }, { 7, 300 },
				    { 9, 600 } };
	job_proc_t *procs;
	ssize_t n = job_procs_scan(*state, "n1", "here", &procs);

	expect_procs(procs, n, want, 4);
	free(procs);
}

static void test_other_cluster(void **state)
{
	const job_proc_t want[] = { { 7, 400 }, { 9, 600 } };
	job_proc_t *procs;
	ssize_t n = job_procs_scan(*state, "n1", "there", &procs);

	expect_procs(procs, n, want, 2);
	free(procs);
}

static void test_any_cluster(void **state)
{
	const job_proc_t want[] = { { 5, 200 }, { 7, 120 }, { 7, 300 },
				    { 7, 400 }, { 9, 600 } };
	job_proc_t *procs;
	ssize_t n = job_procs_scan(*state, "n1", NULL, &procs);

	expect_procs(procs, n, want, 5);
	free(procs);
}

static void test_any_node(void **state)
{
	const job_proc_t want[] = { { 5, 200 }, { 7, 120 }, { 7, 300 },
				    { 7, 500 }, { 9, 600 } };
	job_proc_t *procs;
	ssize_t n = job_procs_scan(*state, NULL, "here", &procs);

	expect_procs(procs, n, want, 5);
	free(procs);
}

static void test_unreadable_root(void **state)
{
	job_proc_t dummy, *procs = &dummy;	/* must be reset */

	assert_int_equal(job_procs_scan("/nonexistent/proc", "n1", "here",
					&procs), -1);
	assert_null(procs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_this_node_and_cluster,
						make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_other_cluster,
						make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_any_cluster,
						make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_any_node,
						make_root, remove_root),
		cmocka_unit_test(test_unreadable_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
