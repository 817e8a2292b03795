/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_detect.c - the node's cgroup hierarchy (v1, v2 or hybrid) from its
 * mounts table, so that dfrs-nodeagent enforces the weights of Stillwell et
 * al. 2010's yields and Liu et al. 2013's tiers with the writer that fits.
 */
#include "cgroup_detect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool cgroup_has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p += n) {
		bool start = p == text || p[-1] == ' ' || p[-1] == '\n' ||
			     p[-1] == ',' || p[-1] == '\t';
		char end = p[n];
		if (start && (end == '\0' || end == ' ' || end == '\n' ||
			      end == ',' || end == '\t'))
			return true;
	}
	return false;
}

/* cgroup.controllers of a cgroup2 mount lists cpu. */
static bool offers_cpu(const char *mount)
{
	char path[PATH_MAX + 32], line[512] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mount);
	if (!(f = fopen(path, "r")))
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return cgroup_has_word(line, "cpu");
}

int cgroup_detect(const char *mounts, cgroup_hier_t *h, char *err,
		  size_t errlen)
{
	char line[4096];
	bool v1 = false;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (!(f = fopen(mounts, "r"))) {
		snprintf(err, errlen, "cannot read %s: %s", mounts, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[PATH_MAX], type[64], opts[1024];

		if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup")) {
			v1 = true;
			if (cgroup_has_word(opts, "cpu"))
				h->v1_cpu = true;
		} else if (!strcmp(type, "cgroup2") && !h->v2_mount[0]) {
			snprintf(h->v2_mount, sizeof(h->v2_mount), "%s", dir);
		}
	}
	fclose(f);
	if (h->v2_mount[0])
		h->v2_cpu = offers_cpu(h->v2_mount);
	h->layout = v1 ? (h->v2_mount[0] ? CGROUP_HYBRID : CGROUP_V1) :
		(h->v2_mount[0] ? CGROUP_V2 : CGROUP_NONE);
	return 0;
}

const char *cgroup_layout_name(cgroup_layout_t layout)
{
	switch (layout) {
	case CGROUP_V1: return "legacy (v1)";
	case CGROUP_HYBRID: return "hybrid (v1 + v2)";
	case CGROUP_V2: return "unified (v2)";
	default: return "none";
	}
}
