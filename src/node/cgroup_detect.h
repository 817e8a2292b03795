/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_detect.h - which cgroup hierarchy a node runs: the unified v2
 * hierarchy alone (the normal case today), v1 alone, or a hybrid of both;
 * and so which of dfrs-nodeagent's writers applies the CPU weights: the v1
 * one (cgroup_cpu.c) when the cpu controller is bound to a v1 hierarchy,
 * else the v2 one (cgroup_v2.c) when a cgroup2 mount offers cpu.
 */
#ifndef DFRS_CGROUP_DETECT_H
#define DFRS_CGROUP_DETECT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum {
	CGROUP_NONE,	/* no cgroup file system mounted */
	CGROUP_V1,	/* only v1 hierarchies */
	CGROUP_HYBRID,	/* v1 hierarchies and a cgroup2 mount */
	CGROUP_V2,	/* only the unified hierarchy */
} cgroup_layout_t;

typedef struct {
	cgroup_layout_t layout;
	bool v1_cpu;		/* the cpu controller is on a v1 hierarchy */
	bool v2_cpu;		/* the cgroup2 mount offers cpu */
	char v2_mount[PATH_MAX];	/* where cgroup2 is mounted, or "" */
} cgroup_hier_t;

/*
 * Read a mounts table (normally /proc/self/mounts) and, for a cgroup2
 * mount, its cgroup.controllers.  Returns 0, or -1 with err naming the file
 * when the table cannot be read.
 */
int cgroup_detect(const char *mounts, cgroup_hier_t *h, char *err,
		  size_t errlen);

/* "unified (v2)", "legacy (v1)", "hybrid (v1 + v2)" or "none". */
const char *cgroup_layout_name(cgroup_layout_t layout);

/* Whether word (e.g. "cpu") is one of the space-separated words of text. */
bool cgroup_has_word(const char *text, const char *word);

#endif
