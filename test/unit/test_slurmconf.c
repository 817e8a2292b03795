/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_slurmconf.c - dfrs advise's slurm.conf reader (slurmconf.c): the
 * machine and scheduler lines of a real-looking file, hostlist counts, and
 * one file:line message for each kind of malformed line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sim/slurmconf.h"

static int parse(const char *text, slurmconf_t *c, char *err, size_t len)
{
	return slurmconf_parse(text, strlen(text), "slurm.conf", c, err, len);
}

static void test_site(void **state)
{
	static const char conf[] =
		"# a site\n"
		"ClusterName=sample\n"
		"SchedulerType=sched/backfill   # today\n"
		"priorityType=priority/multifactor\n"
		"SchedulerParameters=amcbf_mode=cmbf,amcbf_interval=30\n"
		"NodeName=DEFAULT CPUs=16 RealMemory=64000\n"
		"NodeName=n[001-032] State=UNKNOWN\n"
		"NodeName=big[1-2] Sockets=2 CoresPerSocket=32 "
		"ThreadsPerCore=1 RealMemory=512000\r\n"
		"PartitionName=batch Nodes=ALL Default=YES\n"
		"PartitionName=short Nodes=n[001-008],big1 MaxTime=60\n";
	slurmconf_t c;
	char err[256];

	(void)state;
	assert_int_equal(parse(conf, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nodes, 34);
	assert_int_equal(c.cpus_min, 16);
	assert_int_equal(c.cpus_max, 64);
	assert_int_equal(c.mem_mb_min, 64000);
	assert_string_equal(c.sched_type, "sched/backfill");
	assert_string_equal(c.priority_type, "priority/multifactor");
	assert_string_equal(c.sched_params, "amcbf_mode=cmbf,amcbf_interval=30");
	assert_int_equal(c.npartitions, 2);
	assert_string_equal(c.partitions[0].name, "batch");
	assert_int_equal(c.partitions[0].nodes, 34);
	assert_int_equal(c.partitions[0].is_default, 1);
	assert_string_equal(c.partitions[1].name, "short");
	assert_int_equal(c.partitions[1].nodes, 9);
	assert_int_equal(c.partitions[1].is_default, 0);
}

static void test_hostlist(void **state)
{
	(void)state;
	assert_int_equal(slurmconf_hostlist_count("n1"), 1);
	assert_int_equal(slurmconf_hostlist_count("n[01-32,40],gpu1"), 34);
	assert_int_equal(slurmconf_hostlist_count("r[1-2]n[1-4]"), 8);
	assert_int_equal(slurmconf_hostlist_count("a,b,c"), 3);
	assert_int_equal(slurmconf_hostlist_count("n[1-"), -1);
	assert_int_equal(slurmconf_hostlist_count("n[3-1]"), -1);
	assert_int_equal(slurmconf_hostlist_count("n[1,]"), -1);
	assert_int_equal(slurmconf_hostlist_count("n1]"), -1);
	assert_int_equal(slurmconf_hostlist_count("n[a-b]"), -1);
	assert_int_equal(slurmconf_hostlist_count(""), -1);
	assert_int_equal(slurmconf_hostlist_count("a,,b"), -1);
}

static void expect_error(const char *text, const char *want)
{
	slurmconf_t c;
	char err[256];

	assert_int_equal(parse(text, &c, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_int_equal(c.nodes, 0);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("NodeName=n1 CPUs=8\nNodeName=n[1-\n",
		     "slurm.conf:2: NodeName=n[1- is not a hostlist (e.g. "
		     "n[001-032])");
	expect_error("\n\nNodeName=n1 CPUs=eight\n",
		     "slurm.conf:3: CPUs=eight is not a whole number above 0");
	expect_error("NodeName=n1 RealMemory=0\n",
		     "slurm.conf:1: RealMemory=0 is not a whole number above 0");
	expect_error("NodeName=n1\nPartitionName=p Nodes=n[2-x]\n",
		     "slurm.conf:2: PartitionName=p: Nodes=n[2-x] is not a "
		     "hostlist");
	expect_error("NodeName=n1 CPUs 8\n",
		     "slurm.conf:1: 'CPUs' is not Key=Value");
	expect_error("SchedulerParameters=\"amcbf_mode=amcbf\nNodeName=n1\n",
		     "slurm.conf:1: SchedulerParameters: unterminated quote");
	expect_error("PartitionName=p Nodes=n[1-4]\nNodeName=n[1-2]\n",
		     "slurm.conf: partition p names 4 nodes, the NodeName "
		     "lines 2");
	expect_error("# nothing\nClusterName=x\n",
		     "slurm.conf: no NodeName line (dfrs advise needs the "
		     "nodes)");
}

/* Gres=: the GPUs of every gpu entry, typed or not; none: 0; a gpu entry
 * without a count is refused with its line. */
static void test_gres_gpus(void **state)
{
	static const char conf[] =
		"NodeName=g[1-2] CPUs=64 Gres=gpu:a100:2(S:0),gpu:1,mps:100\n"
		"NodeName=g3 CPUs=64 Gres=gpu:8\n";
	static const char cpu_only[] = "NodeName=g[1-2] CPUs=64\n"
				       "NodeName=g3 CPUs=64 Gres=gpu:8\n";
	static const char bad[] = "NodeName=g1 CPUs=4 Gres=gpu:a100\n";
	slurmconf_t c;
	char err[256];

	(void)state;
	assert_int_equal(slurmconf_parse(conf, sizeof(conf) - 1, "c", &c, err,
					 sizeof(err)), 0);
	assert_int_equal(c.gpus_min, 3);
	assert_int_equal(slurmconf_parse(cpu_only, sizeof(cpu_only) - 1, "c",
					 &c, err, sizeof(err)), 0);
	assert_int_equal(c.gpus_min, 0);
	assert_int_equal(slurmconf_parse(bad, sizeof(bad) - 1, "b.conf", &c,
					 err, sizeof(err)), -1);
	assert_string_equal(err, "b.conf:1: Gres=gpu:a100: a gpu entry with "
			    "no count (e.g. gpu:4)");
}

static void test_read_file(void **state)
{
	slurmconf_t c;
	char err[256];

	(void)state;
	assert_int_equal(slurmconf_read(DFRS_TEST_DATA_DIR
		"/../../contribs/data/sample-slurm.conf", &c, err,
		sizeof(err)), 0);
	assert_int_equal(c.nodes, 32);
	assert_int_equal(c.cpus_min, 32);
	assert_int_equal(c.mem_mb_min, 128000);
	assert_int_equal(c.gpus_min, 4);
	assert_int_equal(c.npartitions, 2);
	assert_int_equal(slurmconf_read("/nonexistent/slurm.conf", &c, err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/slurm.conf"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_site),
		cmocka_unit_test(test_hostlist),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_gres_gpus),
		cmocka_unit_test(test_read_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
