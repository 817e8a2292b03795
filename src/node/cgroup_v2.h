/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_v2.h - the agent's CPU weights on the unified cgroup v2 hierarchy.
 *
 * Each job's group gets cpu.weight (1..10000) from the suite's weight (v1
 * cpu.shares units, src/common/suite/cpu_weight.h), and the background tier
 * (the lowest weight) gets cpu.idle=1 (SCHED_IDLE for the whole group,
 * kernel 5.15 and later) or, without cpu.idle or when so configured,
 * cpu.weight=1.  Which group:
 *   - the job's own group that Slurm's cgroup/v2 plugin made (slurmstepd's
 *     .../job_<id>, found from /proc/PID/cgroup of the job's processes): the
 *     weight is written there, the cpu controller is enabled in its
 *     ancestors' cgroup.subtree_control if Slurm did not, and no process is
 *     ever moved (on v2 a process is in exactly one group: moving it would
 *     take it out of Slurm's memory limits and process tracking);
 *   - else (Slurm uses no cgroups) a group of the agent's own,
 *     <mount>/<parent>/job_<id>, under a subtree delegated to it, into
 *     which the job's processes are moved.
 */
#ifndef DFRS_CGROUP_V2_H
#define DFRS_CGROUP_V2_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum {
	CGROUP_V2_BG_IDLE,	/* cpu.idle=1, cpu.weight=1 if cpu.idle is absent */
	CGROUP_V2_BG_WEIGHT,	/* cpu.weight=1 */
} cgroup_v2_bg_t;

typedef struct {
	char mount[PATH_MAX];	/* where cgroup2 is mounted */
	char parent[256];	/* the agent's own groups, relative to mount */
	char proc[PATH_MAX];	/* "/proc" (a fake one in tests) */
	cgroup_v2_bg_t bg;
} cgroup_v2_t;

/*
 * Check that mount is a cgroup2 root offering cpu and is writable.  Creates
 * nothing: the agent's own parent is made when a job needs it.  Returns 0,
 * or -1 with err saying what is wrong and where.
 */
int cgroup_v2_open(cgroup_v2_t *cg, const char *mount, const char *parent,
		   const char *proc_root, cgroup_v2_bg_t bg, char *err,
		   size_t errlen);

/*
 * cpu.weight for a v1 weight (cpu.shares units): the kernel's own
 * correspondence (cpu.weight 100 = 1024 shares), rounded, clamped to
 * 1..10000.  Ratios between weights are kept in 10..1024000 shares.
 */
unsigned cgroup_v2_weight(unsigned shares);

/*
 * The group Slurm made for job_id that pid is in: reads <proc>/<pid>/cgroup
 * and returns 1 with rel set to the path, relative to the mount, that ends
 * in the component job_<id> (not one under the agent's parent); 0 when the
 * process is in no such group or has exited; -1 with err on a malformed file.
 */
int cgroup_v2_slurm_group(const cgroup_v2_t *cg, uint32_t job_id, pid_t pid,
			  char *rel, size_t rellen, char *err, size_t errlen);

/*
 * Give a job weight (v1 units; the lowest, CPU_WEIGHT_BACKGROUND, is the
 * background tier) in Slurm's group for it if its processes are in one,
 * else in the agent's own group, moving its processes there.  Values are
 * written only when they differ from the kernel's.  where gets the group's
 * path relative to the mount and how it was set ("cpu.weight 732" or
 * "cpu.idle 1").  Returns 1 when something was written, 0 when all was in
 * place, -1 with err (path and reason).
 */
int cgroup_v2_apply(const cgroup_v2_t *cg, uint32_t job_id, const pid_t *pids,
		    size_t npids, unsigned weight, char *where, size_t wlen,
		    char *err, size_t errlen);

/* Job ids that have a group under the agent's parent; malloc'ed. */
size_t cgroup_v2_list_jobs(const cgroup_v2_t *cg, uint32_t **ids);

/* Remove the agent's own group of a job (it must have no process left). */
int cgroup_v2_remove(const cgroup_v2_t *cg, uint32_t job_id);

/* Remove the agent's parent if empty, then its empty ancestors. */
void cgroup_v2_close(const cgroup_v2_t *cg);

#endif
