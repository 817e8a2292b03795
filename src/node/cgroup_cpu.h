/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_cpu.h - one cgroup per job under the cpu controller, with libcgroup:
 * <cpu mount>/<parent>/job_<id>, its cpu.shares set to the job's weight.
 * The parent is dfrs/<node> by default, or the node's own group when the
 * node is a CPU slice (contribs/local-cluster --cpu-slice), so that the
 * weights divide the node's CPU budget.  When cpuacct is mounted as a
 * hierarchy of its own (cgroup v1), each job gets the same group there too,
 * so its cpuacct.usage tells the CPU time the weight bought.
 */
#ifndef DFRS_CGROUP_CPU_H
#define DFRS_CGROUP_CPU_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
	char controller[32];	/* "cpu" */
	char parent[256];	/* "dfrs/<node>", relative to the mount */
	char mount[PATH_MAX];	/* where the controller is mounted */
	char acct[32];		/* "cpuacct" on its own hierarchy, or "" */
	char acct_mount[PATH_MAX];	/* where acct is mounted */
} cgroup_cpu_t;

/*
 * Find the controller and create the parent group (relative to the mount,
 * e.g. "dfrs/n1"; kept if it exists, with its limits).  Returns 0, or -1
 * with err saying why (not mounted, not writable, libcgroup failed): the
 * caller then runs without enforcing weights.
 */
int cgroup_cpu_open(cgroup_cpu_t *cg, const char *controller,
		    const char *parent, char *err, size_t errlen);

/* Remove the parent group if empty, then its empty ancestors. */
void cgroup_cpu_close(const cgroup_cpu_t *cg);

/* Create the job's group if needed and set its cpu.shares. */
int cgroup_cpu_set_weight(const cgroup_cpu_t *cg, uint32_t job_id,
			  unsigned weight, char *err, size_t errlen);

/* Move pids into the job's group (ignores pids that have exited). */
int cgroup_cpu_attach(const cgroup_cpu_t *cg, uint32_t job_id,
		      const pid_t *pids, size_t npids, char *err, size_t errlen);

/* Job ids that have a group under the node's parent; malloc'ed, count back. */
size_t cgroup_cpu_list_jobs(const cgroup_cpu_t *cg, uint32_t **ids);

/* Remove the job's group (its remaining tasks go to the parent). */
int cgroup_cpu_remove(const cgroup_cpu_t *cg, uint32_t job_id);

#endif
