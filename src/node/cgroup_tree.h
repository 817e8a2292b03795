/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup_tree.h - the agent's own groups as directories, the same on cgroup
 * v1 and v2: the job_<id> groups under the node's parent, and the removal of
 * the parent and its ancestors once they are empty.
 */
#ifndef DFRS_CGROUP_TREE_H
#define DFRS_CGROUP_TREE_H

#include <stddef.h>
#include <stdint.h>

/* Job ids of the job_<id> directories in dir; malloc'ed, count back. */
size_t cgroup_tree_list_jobs(const char *dir, uint32_t **ids);

/*
 * rmdir mount/rel, then each ancestor of rel up to (not including) mount,
 * stopping at the first that is not empty (rmdir fails on a group with
 * processes or children).
 */
void cgroup_tree_remove_upwards(const char *mount, const char *rel);

#endif
