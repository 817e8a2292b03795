/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_v2.c - the node side of Stillwell et al. 2010's yields and Liu et
 * al. 2013's fg/bg tiers on the unified cgroup v2 hierarchy: cpu.weight from
 * the job's weight, cpu.idle (or the lowest weight) for the background tier,
 * in Slurm's own job group when it made one, else in the agent's own group.
 * Plain files only (no libcgroup), so that the unit tests run it on a
 * directory tree.
 */
#include "cgroup_v2.h"
#include "cgroup_detect.h"
#include "cgroup_tree.h"

#include "suite/cpu_weight.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define V2_WEIGHT_MIN 1u
#define V2_WEIGHT_MAX 10000u
#define V2_WEIGHT_DEFAULT 100u	/* = CPU_WEIGHT_DEFAULT shares */

unsigned cgroup_v2_weight(unsigned shares)
{
	unsigned long long w = ((unsigned long long)shares * V2_WEIGHT_DEFAULT +
				CPU_WEIGHT_DEFAULT / 2) / CPU_WEIGHT_DEFAULT;

	if (w < V2_WEIGHT_MIN)
		return V2_WEIGHT_MIN;
	return w > V2_WEIGHT_MAX ? V2_WEIGHT_MAX : (unsigned)w;
}

/* First line of a file, without its newline; -1 with errno if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* One write(2) of text into an existing control file (cgroupfs wants one
 * value per write; O_TRUNC so that a test tree's plain file holds it). */
static int write_ctl(const char *path, const char *text, char *err,
		     size_t errlen)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, text, strlen(text));
	if (n < 0 || (size_t)n != strlen(text)) {
		snprintf(err, errlen, "cannot write '%s' to %s: %s", text, path,
			 n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	if (close(fd)) {
		snprintf(err, errlen, "cannot write '%s' to %s: %s", text, path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int cgroup_v2_open(cgroup_v2_t *cg, const char *mount, const char *parent,
		   const char *proc_root, cgroup_v2_bg_t bg, char *err,
		   size_t errlen)
{
	char path[PATH_MAX + 32], line[512];

	memset(cg, 0, sizeof(*cg));
	snprintf(cg->mount, sizeof(cg->mount), "%s", mount);
	snprintf(cg->parent, sizeof(cg->parent), "%s", parent);
	snprintf(cg->proc, sizeof(cg->proc), "%s", proc_root);
	cg->bg = bg;
	snprintf(path, sizeof(path), "%s/cgroup.controllers", mount);
	if (read_line(path, line, sizeof(line))) {
		snprintf(err, errlen, "%s: %s (not a cgroup v2 mount?)", path,
			 strerror(errno));
		return -1;
	}
	if (!cgroup_has_word(line, "cpu")) {
		snprintf(err, errlen, "%s has no cpu controller (it lists '%s'): "
			 "the cpu controller is bound to a v1 hierarchy", path, line);
		return -1;
	}
	if (access(mount, W_OK)) {
		snprintf(err, errlen, "%s is not writable: %s", mount, strerror(errno));
		return -1;
	}
	return 0;
}

int cgroup_v2_slurm_group(const cgroup_v2_t *cg, uint32_t job_id, pid_t pid,
			  char *rel, size_t rellen, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], line[PATH_MAX + 64], comp[32];
	const char *cgpath = NULL;
	size_t plen = strlen(cg->parent), clen;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/cgroup", cg->proc, (long)pid);
	if (!(f = fopen(path, "r")))
		return 0;	/* exited */
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			cgpath = line + 3;
			break;
		}
	}
	fclose(f);
	if (!cgpath || cgpath[0] != '/') {
		snprintf(err, errlen, "%s: no cgroup v2 line ('0::/path')", path);
		return -1;
	}
	cgpath++;
	/* inside the agent's own groups: not Slurm's */
	if (plen && !strncmp(cgpath, cg->parent, plen) && cgpath[plen] == '/')
		return 0;
	clen = (size_t)snprintf(comp, sizeof(comp), "job_%u", job_id);
	for (const char *p = cgpath; *p;) {
		size_t n = strcspn(p, "/");
		if (n == clen && !strncmp(p, comp, clen)) {
			size_t end = (size_t)(p - cgpath) + n;
			if (end >= rellen) {
				snprintf(err, errlen, "%s: group path too long", path);
				return -1;
			}
			memcpy(rel, cgpath, end);
			rel[end] = '\0';
			return 1;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

/* Enable cpu in cgroup.subtree_control of the mount's root and of each
 * group down to rel (inclusive; "" is the root alone), where it is not. */
static int enable_cpu(const cgroup_v2_t *cg, const char *rel, char *err,
		      size_t errlen)
{
	char dir[2 * PATH_MAX + 64], path[2 * PATH_MAX + 128], line[512];
	size_t base = strlen(cg->mount), end = 0;

	snprintf(dir, sizeof(dir), rel[0] ? "%s/%s" : "%s", cg->mount, rel);
	for (;;) {
		char saved = dir[base + end];

		dir[base + end] = '\0';
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
		if (read_line(path, line, sizeof(line))) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			return -1;
		}
		if (!cgroup_has_word(line, "cpu") &&
		    write_ctl(path, "+cpu", err, errlen))
			return -1;
		dir[base + end] = saved;
		if (!saved)
			return 0;
		/* next component: skip the '/', then to the next '/' or end */
		end++;
		end += strcspn(dir + base + end, "/");
	}
}

/* Write value into dir/file if the kernel's differs; 1 if written. */
static int set_ctl(const char *dir, const char *file, unsigned value,
		   char *err, size_t errlen)
{
	char path[2 * PATH_MAX + 128], now[64], want[32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(want, sizeof(want), "%u", value);
	if (read_line(path, now, sizeof(now))) {
		snprintf(err, errlen, "%s: %s (is the cpu controller enabled "
			 "for this group?)", path, strerror(errno));
		return -1;
	}
	if (!strcmp(now, want))
		return 0;
	return write_ctl(path, want, err, errlen) ? -1 : 1;
}

/* The weight (or cpu.idle) of one group, given by its absolute dir. */
static int set_group(const cgroup_v2_t *cg, const char *dir, unsigned shares,
		     char *how, size_t howlen, char *err, size_t errlen)
{
	char idle_path[2 * PATH_MAX + 128];
	bool has_idle, bg = shares <= CPU_WEIGHT_BACKGROUND;
	unsigned w = cgroup_v2_weight(shares);
	int r1 = 0, r2 = 0;

	snprintf(idle_path, sizeof(idle_path), "%s/cpu.idle", dir);
	has_idle = access(idle_path, F_OK) == 0;
	snprintf(how, howlen, "cpu.weight %u%s", w,
		 bg && cg->bg == CGROUP_V2_BG_IDLE && !has_idle ?
		 " (no cpu.idle: kernel before 5.15)" : "");
	if (bg && cg->bg == CGROUP_V2_BG_IDLE && has_idle) {
		snprintf(how, howlen, "cpu.idle 1");
		return set_ctl(dir, "cpu.idle", 1, err, errlen);
	}
	/* an idle group refuses a weight: leave idle first */
	if (has_idle && (r1 = set_ctl(dir, "cpu.idle", 0, err, errlen)) < 0)
		return -1;
	if ((r2 = set_ctl(dir, "cpu.weight", w, err, errlen)) < 0)
		return -1;
	return r1 || r2;
}

/* Move pids into the agent's group rel (those already there stay). */
static int move_pids(const cgroup_v2_t *cg, const char *rel, const pid_t *pids,
		     size_t npids, char *err, size_t errlen)
{
	char procs[2 * PATH_MAX + 128], path[PATH_MAX + 32], line[PATH_MAX + 64];
	char pid_text[32];
	int rc = 0;

	snprintf(procs, sizeof(procs), "%s/%s/cgroup.procs", cg->mount, rel);
	for (size_t i = 0; i < npids; i++) {
		bool there = false;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%ld/cgroup", cg->proc, (long)pids[i]);
		if (!(f = fopen(path, "r")))
			continue;	/* exited */
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "0::/", 4)) {
				line[strcspn(line, "\n")] = '\0';
				there = !strcmp(line + 4, rel);
				break;
			}
		fclose(f);
		if (there)
			continue;
		snprintf(pid_text, sizeof(pid_text), "%ld", (long)pids[i]);
		if (write_ctl(procs, pid_text, err, errlen) &&
		    kill(pids[i], 0) == 0 && !rc)
			rc = -1;	/* a process that exited is not an error */
	}
	return rc;
}

/* mkdir mount/rel and its missing ancestors. */
static int make_dirs(const cgroup_v2_t *cg, const char *rel, char *err,
		     size_t errlen)
{
	char dir[2 * PATH_MAX + 64];
	size_t base = strlen(cg->mount) + 1;

	snprintf(dir, sizeof(dir), "%s/%s", cg->mount, rel);
	for (char *p = dir + base;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
			return -1;
		}
		*p = saved;
		if (!saved)
			return 0;
	}
}

int cgroup_v2_apply(const cgroup_v2_t *cg, uint32_t job_id, const pid_t *pids,
		    size_t npids, unsigned weight, char *where, size_t wlen,
		    char *err, size_t errlen)
{
	char rel[PATH_MAX], up[PATH_MAX], dir[2 * PATH_MAX + 64], how[96];
	int found = 0, rc;

	for (size_t i = 0; i < npids && found == 0; i++)
		if ((found = cgroup_v2_slurm_group(cg, job_id, pids[i], rel,
						   sizeof(rel), err, errlen)) < 0)
			return -1;
	if (found) {
		/* Slurm's group: enable cpu above it, never move a process */
		char *slash;
		snprintf(up, sizeof(up), "%s", rel);
		slash = strrchr(up, '/');
		if (slash)
			*slash = '\0';
		else
			up[0] = '\0';
		if (enable_cpu(cg, up, err, errlen))
			return -1;
	} else {
		snprintf(rel, sizeof(rel), "%s/job_%u", cg->parent, job_id);
		if (make_dirs(cg, rel, err, errlen) ||
		    enable_cpu(cg, cg->parent, err, errlen))
			return -1;
	}
	snprintf(dir, sizeof(dir), "%s/%s", cg->mount, rel);
	if ((rc = set_group(cg, dir, weight, how, sizeof(how), err, errlen)) < 0)
		return -1;
	snprintf(where, wlen, "%s in %s%s", how, rel, found ? " (Slurm's)" : "");
	if (!found && move_pids(cg, rel, pids, npids, err, errlen))
		return -1;
	return rc;
}

size_t cgroup_v2_list_jobs(const cgroup_v2_t *cg, uint32_t **ids)
{
	char path[2 * PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", cg->mount, cg->parent);
	return cgroup_tree_list_jobs(path, ids);
}

int cgroup_v2_remove(const cgroup_v2_t *cg, uint32_t job_id)
{
	char path[2 * PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s/job_%u", cg->mount, cg->parent, job_id);
	return rmdir(path) ? -1 : 0;
}

void cgroup_v2_close(const cgroup_v2_t *cg)
{
	cgroup_tree_remove_upwards(cg->mount, cg->parent);
}
