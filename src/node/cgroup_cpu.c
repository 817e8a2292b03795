/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_cpu.c - per-job cpu cgroups through libcgroup, the node side of
 * Stillwell et al. 2010's yields and of Liu et al. 2013's fg/bg tiers: each
 * job's cpu.shares is its weight, under the node's parent group (and a twin
 * group under cpuacct when that is its own hierarchy, for the CPU time).
 */
#include "cgroup_cpu.h"
#include "cgroup_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <libcgroup.h>

static void job_path(const cgroup_cpu_t *cg, uint32_t job_id, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s/job_%u", cg->parent, job_id);
}

/* A libcgroup description of path under cpu (and cpuacct), or NULL. */
static struct cgroup *describe(const cgroup_cpu_t *cg, const char *path,
			       struct cgroup_controller **cpu)
{
	struct cgroup *g = cgroup_new_cgroup(path);
	struct cgroup_controller *c;

	if (!g || !(c = cgroup_add_controller(g, cg->controller)) ||
	    (cg->acct[0] && !cgroup_add_controller(g, cg->acct))) {
		cgroup_free(&g);
		return NULL;
	}
	if (cpu)
		*cpu = c;
	return g;
}

/* cpuacct on a hierarchy of its own (not co-mounted with cpu), writable. */
static void find_acct(cgroup_cpu_t *cg)
{
	char *mount = NULL;

	cg->acct[0] = '\0';
	if (cgroup_get_subsys_mount_point("cpuacct", &mount) || !mount)
		return;
	if (strcmp(mount, cg->mount) && !access(mount, W_OK)) {
		snprintf(cg->acct, sizeof(cg->acct), "cpuacct");
		snprintf(cg->acct_mount, sizeof(cg->acct_mount), "%s", mount);
	}
	free(mount);
}

static int lcg_error(int rc, const char *what, char *err, size_t errlen)
{
	const char *why = rc == ECGOTHER ? strerror(cgroup_get_last_errno()) :
		cgroup_strerror(rc);
	snprintf(err, errlen, "%s: %s", what, why);
	return -1;
}

int cgroup_cpu_open(cgroup_cpu_t *cg, const char *controller,
		    const char *parent, char *err, size_t errlen)
{
	char *mount = NULL;
	struct cgroup *g;
	int rc;

	memset(cg, 0, sizeof(*cg));
	snprintf(cg->controller, sizeof(cg->controller), "%s", controller);
	snprintf(cg->parent, sizeof(cg->parent), "%s", parent);
	if ((rc = cgroup_init()))
		return lcg_error(rc, "libcgroup cannot initialize", err, errlen);
	if (cgroup_get_subsys_mount_point(controller, &mount) || !mount) {
		snprintf(err, errlen,
			 "the '%s' cgroup controller is not mounted (cgroup v1)",
			 controller);
		return -1;
	}
	snprintf(cg->mount, sizeof(cg->mount), "%s", mount);
	free(mount);
	if (access(cg->mount, W_OK)) {
		snprintf(err, errlen, "%s is not writable: %s", cg->mount,
			 strerror(errno));
		return -1;
	}
	find_acct(cg);
	if (!(g = describe(cg, cg->parent, NULL))) {
		snprintf(err, errlen, "libcgroup: cannot describe group %s",
			 cg->parent);
		return -1;
	}
	rc = cgroup_create_cgroup(g, 0);
	cgroup_free(&g);
	if (rc) {
		char what[PATH_MAX + 320];
		snprintf(what, sizeof(what), "cannot create %s/%s", cg->mount,
			 cg->parent);
		return lcg_error(rc, what, err, errlen);
	}
	return 0;
}

int cgroup_cpu_set_weight(const cgroup_cpu_t *cg, uint32_t job_id,
			  unsigned weight, char *err, size_t errlen)
{
	char path[512];
	struct cgroup *g;
	struct cgroup_controller *c;
	int rc;

	job_path(cg, job_id, path, sizeof(path));
	if (!(g = describe(cg, path, &c)) ||
	    cgroup_add_value_uint64(c, "cpu.shares", weight)) {
		cgroup_free(&g);
		snprintf(err, errlen, "libcgroup: cannot describe group %s", path);
		return -1;
	}
	/* creates the group, or writes the value into the existing one */
	rc = cgroup_create_cgroup(g, 0);
	cgroup_free(&g);
	if (rc)
		return lcg_error(rc, path, err, errlen);
	return 0;
}

int cgroup_cpu_attach(const cgroup_cpu_t *cg, uint32_t job_id,
		      const pid_t *pids, size_t npids, char *err, size_t errlen)
{
	char path[512];
	struct cgroup *g;
	int rc = 0;

	job_path(cg, job_id, path, sizeof(path));
	if (!(g = describe(cg, path, NULL))) {
		snprintf(err, errlen, "libcgroup: cannot describe group %s", path);
		return -1;
	}
	for (size_t i = 0; i < npids; i++) {
		int r = cgroup_attach_task_pid(g, pids[i]);
		/* a process that exited meanwhile is not an error */
		if (r && kill(pids[i], 0) == 0 && !rc)
			rc = lcg_error(r, path, err, errlen);
	}
	cgroup_free(&g);
	return rc;
}

size_t cgroup_cpu_list_jobs(const cgroup_cpu_t *cg, uint32_t **ids)
{
	char path[PATH_MAX + 300];

	snprintf(path, sizeof(path), "%s/%s", cg->mount, cg->parent);
	return cgroup_tree_list_jobs(path, ids);
}

int cgroup_cpu_remove(const cgroup_cpu_t *cg, uint32_t job_id)
{
	char path[512];
	struct cgroup *g;
	int rc;

	job_path(cg, job_id, path, sizeof(path));
	if (!(g = describe(cg, path, NULL)))
		return -1;
	rc = cgroup_delete_cgroup(g, 1);
	cgroup_free(&g);
	return rc ? -1 : 0;
}

void cgroup_cpu_close(const cgroup_cpu_t *cg)
{
	cgroup_tree_remove_upwards(cg->mount, cg->parent);
	if (cg->acct[0])
		cgroup_tree_remove_upwards(cg->acct_mount, cg->parent);
}
