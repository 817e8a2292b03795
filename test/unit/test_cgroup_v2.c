/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cgroup_v2.c - dfrs-nodeagent's cgroup v2 writer and its detection of
 * the hierarchy, on a directory tree made in a temporary directory (a fake
 * cgroup2 mount and a fake /proc): which hierarchy a mounts table describes,
 * the cpu.weight of a weight, Slurm's job group found from /proc/PID/cgroup
 * and written there without moving any process, cpu enabled in its parents'
 * cgroup.subtree_control only where it is not, the background tier by
 * cpu.idle or the lowest weight, the agent's own groups when Slurm has none,
 * and one clear message for each missing or malformed file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_detect.h"
#include "cgroup_v2.h"

static char root[64];

/* root/rel with its directories made, holding text. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* The text of root/rel ("<missing>" if there is no such file). */
static const char *get(const char *rel)
{
	static char buf[4][256];
	static int turn;
	char path[512], *b = buf[turn++ % 4];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!(f = fopen(path, "r")))
		return "<missing>";
	n = fread(b, 1, 255, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

static bool exists(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

/* A cgroup2 mount at root/cg as the kernel shows it, with Slurm's
 * cgroup/v2 layout for job 42 (slurmstepd made its groups and did not
 * enable cpu below system.slice), its task 123 and slurmd's process 555
 * outside any job group. */
static int make_tree(void **state)
{
	snprintf(root, sizeof(root), "/tmp/test_cgroup_v2.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("cg/cgroup.controllers", "cpuset cpu io memory pids\n");
	put("cg/cgroup.subtree_control", "cpuset memory\n");
	put("cg/system.slice/cgroup.subtree_control", "memory\n");
	put("cg/system.slice/slurmstepd.scope/cgroup.subtree_control", "\n");
	put("cg/system.slice/slurmstepd.scope/job_42/cgroup.subtree_control", "memory\n");
	put("cg/system.slice/slurmstepd.scope/job_42/cgroup.procs", "");
	put("cg/system.slice/slurmstepd.scope/job_42/cpu.weight", "100\n");
	put("cg/system.slice/slurmstepd.scope/job_42/cpu.idle", "0\n");
	put("cg/system.slice/slurmstepd.scope/job_42/step_0/user/task_0/cgroup.procs", "123\n");
	put("proc/123/cgroup", "0::/system.slice/slurmstepd.scope/job_42/step_0/user/task_0\n");
	put("proc/555/cgroup", "0::/system.slice/slurmd.service\n");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void open_v2(cgroup_v2_t *cg, cgroup_v2_bg_t bg)
{
	char mount[128], proc[128], err[512] = "";

	snprintf(mount, sizeof(mount), "%s/cg", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	if (cgroup_v2_open(cg, mount, "dfrs/n1", proc, bg, err, sizeof(err)))
		fail_msg("cgroup_v2_open: %s", err);
}

static void test_detect(void **state)
{
	char mounts[512], text[1024], err[256];
	cgroup_hier_t h;

	snprintf(mounts, sizeof(mounts), "%s/mounts", root);
	/* unified only */
	snprintf(text, sizeof(text), "proc /proc proc rw 0 0\n"
		 "cgroup2 %s/cg cgroup2 rw,nosuid,nodev,noexec 0 0\n", root);
	put("mounts", text);
	assert_int_equal(cgroup_detect(mounts, &h, err, sizeof(err)), 0);
	assert_int_equal(h.layout, CGROUP_V2);
	assert_true(h.v2_cpu);
	assert_false(h.v1_cpu);
	snprintf(text, sizeof(text), "%s/cg", root);
	assert_string_equal(h.v2_mount, text);
	assert_string_equal(cgroup_layout_name(h.layout), "unified (v2)");

	/* hybrid: cpu on v1, an empty cgroup2 beside it (systemd's default) */
	put("unified/cgroup.controllers", "\n");
	snprintf(text, sizeof(text),
		 "tmpfs /sys/fs/cgroup tmpfs rw 0 0\n"
		 "cgroup2 %s/unified cgroup2 rw 0 0\n"
		 "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n", root);
	put("mounts", text);
	assert_int_equal(cgroup_detect(mounts, &h, err, sizeof(err)), 0);
	assert_int_equal(h.layout, CGROUP_HYBRID);
	assert_true(h.v1_cpu);
	assert_false(h.v2_cpu);

	/* v1 only, cpu not among its controllers: "cpuacct" is not "cpu" */
	put("mounts", "cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\n"
	    "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0\n");
	assert_int_equal(cgroup_detect(mounts, &h, err, sizeof(err)), 0);
	assert_int_equal(h.layout, CGROUP_V1);
	assert_false(h.v1_cpu);
	assert_false(h.v2_cpu);

	put("mounts", "proc /proc proc rw 0 0\n");
	assert_int_equal(cgroup_detect(mounts, &h, err, sizeof(err)), 0);
	assert_int_equal(h.layout, CGROUP_NONE);

	snprintf(mounts, sizeof(mounts), "%s/no-such-mounts", root);
	assert_int_equal(cgroup_detect(mounts, &h, err, sizeof(err)), -1);
	snprintf(text, sizeof(text), "cannot read %s: No such file or directory", mounts);
	assert_string_equal(err, text);
}

static void test_weight_mapping(void **state)
{
	/* the kernel's correspondence: 100 <-> 1024 shares */
	assert_int_equal(cgroup_v2_weight(1024), 100);
	assert_int_equal(cgroup_v2_weight(7500), 732);
	assert_int_equal(cgroup_v2_weight(2500), 244);
	assert_int_equal(cgroup_v2_weight(10000), 977);
	assert_int_equal(cgroup_v2_weight(10240), 1000);
	/* clamped to 1..10000 */
	assert_int_equal(cgroup_v2_weight(2), 1);
	assert_int_equal(cgroup_v2_weight(0), 1);
	assert_int_equal(cgroup_v2_weight(102400), 10000);
	assert_int_equal(cgroup_v2_weight(262144), 10000);
	assert_int_equal(cgroup_v2_weight(4294967295u), 10000);
}

static void test_slurm_group(void **state)
{
	char where[512], err[512] = "";
	pid_t pids[] = { 555, 123 };
	cgroup_v2_t cg;

	open_v2(&cg, CGROUP_V2_BG_IDLE);
	assert_int_equal(cgroup_v2_apply(&cg, 42, pids, 2, 7500, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(where, "cpu.weight 732 in "
			    "system.slice/slurmstepd.scope/job_42 (Slurm's)");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.weight"), "732");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.idle"), "0\n");
	/* cpu enabled in each parent where it was not, not in the job's group */
	assert_string_equal(get("cg/cgroup.subtree_control"), "+cpu");
	assert_string_equal(get("cg/system.slice/cgroup.subtree_control"), "+cpu");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/cgroup.subtree_control"), "+cpu");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cgroup.subtree_control"), "memory\n");
	/* no process moved: Slurm's cgroup.procs untouched, no group of ours */
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cgroup.procs"), "");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/step_0/user/task_0/cgroup.procs"), "123\n");
	assert_false(exists("cg/system.slice/slurmd.service"));
	assert_false(exists("cg/dfrs"));

	/* in place: nothing written */
	put("cg/cgroup.subtree_control", "cpuset cpu memory\n");
	assert_int_equal(cgroup_v2_apply(&cg, 42, pids, 2, 7500, where,
					 sizeof(where), err, sizeof(err)), 0);
	assert_string_equal(get("cg/cgroup.subtree_control"), "cpuset cpu memory\n");

	/* background tier: cpu.idle, the weight left as it was */
	assert_int_equal(cgroup_v2_apply(&cg, 42, pids, 2, 2, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(where, "cpu.idle 1 in "
			    "system.slice/slurmstepd.scope/job_42 (Slurm's)");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.idle"), "1");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.weight"), "732");

	/* back to the foreground: out of idle, then the weight */
	assert_int_equal(cgroup_v2_apply(&cg, 42, pids, 2, 10000, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.idle"), "0");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cpu.weight"), "977");
	assert_string_equal(get("cg/system.slice/slurmstepd.scope/job_42/cgroup.procs"), "");
	assert_false(exists("cg/dfrs"));
}

static void test_background_by_weight(void **state)
{
	const char *w = "cg/system.slice/slurmstepd.scope/job_42/cpu.weight";
	const char *idle = "cg/system.slice/slurmstepd.scope/job_42/cpu.idle";
	char where[512], err[512] = "";
	pid_t pid = 123;
	cgroup_v2_t cg;

	/* as configured: the lowest weight, cpu.idle left at 0 */
	open_v2(&cg, CGROUP_V2_BG_WEIGHT);
	assert_int_equal(cgroup_v2_apply(&cg, 42, &pid, 1, 2, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(get(w), "1");
	assert_string_equal(get(idle), "0\n");

	/* a kernel without cpu.idle (before 5.15): the lowest weight, said */
	put(w, "100\n");
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", root, idle);
		assert_int_equal(unlink(path), 0);
	}
	open_v2(&cg, CGROUP_V2_BG_IDLE);
	assert_int_equal(cgroup_v2_apply(&cg, 42, &pid, 1, 2, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(get(w), "1");
	assert_false(exists(idle));
	assert_string_equal(where, "cpu.weight 1 (no cpu.idle: kernel before 5.15) "
			    "in system.slice/slurmstepd.scope/job_42 (Slurm's)");
}

static void test_own_groups(void **state)
{
	char where[512], err[512] = "", rel[PATH_MAX];
	pid_t pid = 555;
	uint32_t *ids;
	cgroup_v2_t cg;

	/* what the kernel makes in a new group (the test tree cannot) */
	put("cg/dfrs/cgroup.subtree_control", "\n");
	put("cg/dfrs/n1/cgroup.subtree_control", "\n");
	put("cg/dfrs/n1/job_7/cgroup.procs", "");
	put("cg/dfrs/n1/job_7/cpu.weight", "100\n");
	open_v2(&cg, CGROUP_V2_BG_IDLE);
	assert_int_equal(cgroup_v2_apply(&cg, 7, &pid, 1, 7500, where,
					 sizeof(where), err, sizeof(err)), 1);
	assert_string_equal(where, "cpu.weight 732 in dfrs/n1/job_7");
	assert_string_equal(get("cg/dfrs/n1/job_7/cpu.weight"), "732");
	assert_string_equal(get("cg/dfrs/n1/job_7/cgroup.procs"), "555");
	assert_string_equal(get("cg/cgroup.subtree_control"), "+cpu");
	assert_string_equal(get("cg/dfrs/cgroup.subtree_control"), "+cpu");
	assert_string_equal(get("cg/dfrs/n1/cgroup.subtree_control"), "+cpu");
	assert_int_equal(cgroup_v2_list_jobs(&cg, &ids), 1);
	assert_int_equal(ids[0], 7);
	free(ids);

	/* once there, the process is the agent's: not Slurm's, not moved again */
	put("proc/555/cgroup", "0::/dfrs/n1/job_7\n");
	assert_int_equal(cgroup_v2_slurm_group(&cg, 7, 555, rel, sizeof(rel),
					       err, sizeof(err)), 0);
	put("cg/dfrs/n1/job_7/cgroup.procs", "");
	assert_int_equal(cgroup_v2_apply(&cg, 7, &pid, 1, 7500, where,
					 sizeof(where), err, sizeof(err)), 0);
	assert_string_equal(get("cg/dfrs/n1/job_7/cgroup.procs"), "");
}

static void test_find_group(void **state)
{
	char rel[PATH_MAX], err[512] = "";
	cgroup_v2_t cg;

	open_v2(&cg, CGROUP_V2_BG_IDLE);
	assert_int_equal(cgroup_v2_slurm_group(&cg, 42, 123, rel, sizeof(rel),
					       err, sizeof(err)), 1);
	assert_string_equal(rel, "system.slice/slurmstepd.scope/job_42");
	/* another job's group, a prefix of the id, slurmd's group, gone */
	assert_int_equal(cgroup_v2_slurm_group(&cg, 4, 123, rel, sizeof(rel),
					       err, sizeof(err)), 0);
	put("proc/124/cgroup", "0::/system.slice/slurmstepd.scope/job_420/step_0\n");
	assert_int_equal(cgroup_v2_slurm_group(&cg, 42, 124, rel, sizeof(rel),
					       err, sizeof(err)), 0);
	assert_int_equal(cgroup_v2_slurm_group(&cg, 42, 555, rel, sizeof(rel),
					       err, sizeof(err)), 0);
	assert_int_equal(cgroup_v2_slurm_group(&cg, 42, 999, rel, sizeof(rel),
					       err, sizeof(err)), 0);
	/* a hybrid node's file: the v2 line among v1 lines; a multiple-slurmd
	 * node's scope name */
	put("proc/125/cgroup", "4:cpu,cpuacct:/\n"
	    "0::/system.slice/n1_slurmstepd.scope/job_42/step_batch/user/task_0\n");
	assert_int_equal(cgroup_v2_slurm_group(&cg, 42, 125, rel, sizeof(rel),
					       err, sizeof(err)), 1);
	assert_string_equal(rel, "system.slice/n1_slurmstepd.scope/job_42");
}

static void test_errors(void **state)
{
	char where[512], err[512] = "", want[640], mount[128], proc[128];
	pid_t pid = 123, bad = 126;
	cgroup_v2_t cg;

	/* a malformed /proc/PID/cgroup */
	put("proc/126/cgroup", "garbage\n");
	open_v2(&cg, CGROUP_V2_BG_IDLE);
	assert_int_equal(cgroup_v2_apply(&cg, 42, &bad, 1, 1024, where,
					 sizeof(where), err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/proc/126/cgroup: no cgroup v2 line ('0::/path')", root);
	assert_string_equal(err, want);

	/* Slurm's job group without cpu.weight: cpu not enabled for it */
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/cg/system.slice/slurmstepd.scope/job_42/cpu.weight", root);
		assert_int_equal(unlink(path), 0);
		snprintf(want, sizeof(want), "%s: No such file or directory (is "
			 "the cpu controller enabled for this group?)", path);
	}
	assert_int_equal(cgroup_v2_apply(&cg, 42, &pid, 1, 1024, where,
					 sizeof(where), err, sizeof(err)), -1);
	assert_string_equal(err, want);

	/* a parent without cgroup.subtree_control */
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/cg/system.slice/cgroup.subtree_control", root);
		assert_int_equal(unlink(path), 0);
		snprintf(want, sizeof(want), "cannot read %s: No such file or directory", path);
	}
	assert_int_equal(cgroup_v2_apply(&cg, 42, &pid, 1, 1024, where,
					 sizeof(where), err, sizeof(err)), -1);
	assert_string_equal(err, want);

	/* not a cgroup2 mount; a mount whose cpu is on v1 */
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(mount, sizeof(mount), "%s/proc", root);
	assert_int_equal(cgroup_v2_open(&cg, mount, "dfrs/n1", proc,
					CGROUP_V2_BG_IDLE, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/cgroup.controllers: No such file or "
		 "directory (not a cgroup v2 mount?)", mount);
	assert_string_equal(err, want);
	put("cg/cgroup.controllers", "cpuset io memory pids\n");
	snprintf(mount, sizeof(mount), "%s/cg", root);
	assert_int_equal(cgroup_v2_open(&cg, mount, "dfrs/n1", proc,
					CGROUP_V2_BG_IDLE, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/cgroup.controllers has no cpu controller "
		 "(it lists 'cpuset io memory pids'): the cpu controller is bound "
		 "to a v1 hierarchy", mount);
	assert_string_equal(err, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_detect, make_tree, remove_tree),
		cmocka_unit_test(test_weight_mapping),
		cmocka_unit_test_setup_teardown(test_slurm_group, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_background_by_weight, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_own_groups, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_find_group, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_errors, make_tree, remove_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
