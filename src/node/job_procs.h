/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_procs.h - which processes on this machine belong to which Slurm job on
 * a given node, found by the SLURM_JOB_ID and SLURMD_NODENAME that slurmstepd
 * puts in every job process's environment.
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
 * (SLURMD_NODENAME; NULL accepts any node).  Returns the number found and sets
 * *out to a malloc'ed array sorted by job then pid (free() it), or -1 if
 * proc_root cannot be read.
 */
ssize_t job_procs_scan(const char *proc_root, const char *node,
		       job_proc_t **out);

#endif
