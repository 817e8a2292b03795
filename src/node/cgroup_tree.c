/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_tree.c - the agent's own job groups as directories (cgroup v1 and
 * v2 alike): listing them under the node's parent, and removing the parent
 * and its ancestors when they are empty.
 */
#include "cgroup_tree.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t cgroup_tree_list_jobs(const char *dir_path, uint32_t **ids)
{
	struct dirent *de;
	size_t n = 0, cap = 0;
	DIR *dir;

	*ids = NULL;
	if (!(dir = opendir(dir_path)))
		return 0;
	while ((de = readdir(dir))) {
		unsigned long id;
		char *end;
		if (strncmp(de->d_name, "job_", 4))
			continue;
		id = strtoul(de->d_name + 4, &end, 10);
		if (*end || id == 0 || id > UINT32_MAX)
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			uint32_t *p = realloc(*ids, ncap * sizeof(*p));
			if (!p)
				break;
			*ids = p;
			cap = ncap;
		}
		(*ids)[n++] = (uint32_t)id;
	}
	closedir(dir);
	return n;
}

void cgroup_tree_remove_upwards(const char *mount, const char *rel)
{
	char path[PATH_MAX + 300], *slash;
	size_t base = strlen(mount) + 1;

	snprintf(path, sizeof(path), "%s/%s", mount, rel);
	while (strlen(path) > base && rmdir(path) == 0 &&
	       (slash = strrchr(path + base, '/')))
		*slash = '\0';
}
