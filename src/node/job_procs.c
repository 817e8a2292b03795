/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_procs.c - find the processes of Slurm jobs on this node by scanning
 * /proc/<pid>/environ.  Works with any proctrack plugin and with several
 * emulated slurmds on one machine: SLURMD_NODENAME tells the nodes apart and
 * SLURM_CLUSTER_NAME the clusters (emulated clusters side by side reuse node
 * names and job ids, so a node name alone would take another cluster's job).
 */
#include "job_procs.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read /proc/<pid>/environ into buf (NUL-separated); returns its length. */
static size_t read_environ(const char *proc_root, const char *pid,
			   char *buf, size_t len)
{
	char path[512];
	size_t used = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/environ", proc_root, pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	while (used + 1 < len &&
	       (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	buf[used] = '\0';
	return used;
}

static int by_job_then_pid(const void *a, const void *b)
{
	const job_proc_t *x = a, *y = b;

	if (x->job_id != y->job_id)
		return x->job_id < y->job_id ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The value of KEY (given with its '=') in a NUL-separated environment. */
static const char *env_value(const char *env, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (size_t off = 0; off < len; off += strlen(env + off) + 1)
		if (!strncmp(env + off, key, klen))
			return env + off + klen;
	return NULL;
}

/* Does a process with this environment belong to a job on node in cluster? */
static const char *job_of(const char *env, size_t len, const char *node,
			  const char *cluster)
{
	const char *job = env_value(env, len, "SLURM_JOB_ID=");
	const char *nodename, *name;

	if (!job)
		return NULL;
	nodename = env_value(env, len, "SLURMD_NODENAME=");
	if (node && (!nodename || strcmp(nodename, node)))
		return NULL;
	/* every batch script and step has it; a process that dropped it is
	 * still taken by node and job id */
	name = env_value(env, len, "SLURM_CLUSTER_NAME=");
	if (cluster && name && strcmp(name, cluster))
		return NULL;
	return job;
}

ssize_t job_procs_scan(const char *proc_root, const char *node,
		       const char *cluster, job_proc_t **out)
{
	DIR *dir = opendir(proc_root);
	struct dirent *de;
	job_proc_t *procs = NULL;
	size_t n = 0, cap = 0;
	char *env;
	const size_t env_len = 64 * 1024;

	*out = NULL;
	if (!dir)
		return -1;
	if (!(env = malloc(env_len))) {
		closedir(dir);
		return -1;
	}
	while ((de = readdir(dir))) {
		const char *job;
		size_t len;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		len = read_environ(proc_root, de->d_name, env, env_len);
		if (!(job = job_of(env, len, node, cluster)))
			continue;
		char *end;
		unsigned long id = strtoul(job, &end, 10);
		if (*end || end == job || id == 0 || id > UINT32_MAX)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			job_proc_t *p = realloc(procs, ncap * sizeof(*p));
			if (!p)
				break;
			procs = p;
			cap = ncap;
		}
		procs[n].job_id = (uint32_t)id;
		procs[n].pid = (pid_t)atol(de->d_name);
		n++;
	}
	free(env);
	closedir(dir);
	if (n)
		qsort(procs, n, sizeof(*procs), by_job_then_pid);
	*out = procs;
	return (ssize_t)n;
}
