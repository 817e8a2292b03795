/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_procs.h - which processes on this machine belong to which Slurm job on
 * a given node of a given cluster, found by the SLURM_JOB_ID, SLURMD_NODENAME
 * and SLURM_CLUSTER_NAME that Slurm puts in every job process's environment.
 */
#ifndef DFRS_JOB_PROCS_H
#define DFRS_JOB_PROCS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
	uint32_t job_id;
	pid_t pid;
} job_proc_t;

/*
 * Scan proc_root (normally "/proc") for processes of jobs running on node
 * (SLURMD_NODENAME; NULL accepts any node) of cluster (SLURM_CLUSTER_NAME;
 * NULL accepts any cluster, and so does a process without the variable).
 * Returns the number found and sets *out to a malloc'ed array sorted by job
 * then pid (free() it), or -1 if proc_root cannot be read.
 */
ssize_t job_procs_scan(const char *proc_root, const char *node,
		       const char *cluster, job_proc_t **out);

#endif
