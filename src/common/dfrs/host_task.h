/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_task.h - a job that holds CPUs, memory and GPUs on hosts of many
 * CPUs as a job of the DFRS model (Stillwell et al. 2010, "Requirements,
 * Needs, and Yield"; doc/design.md, "The resource model: CPUs, memory and
 * GPUs", the DFRS engine): one task per host it uses, all its tasks alike.
 *
 *   CPU     (dimension DFRS_DIM_CPU) a fluid need: the task's CPUs over
 *           the host's, times their use.  A one-CPU task busy on a 16-CPU
 *           host needs 1/16 of it; the yield scales this dimension only.
 *   memory  (DFRS_DIM_MEM) a rigid requirement, a share of the host's
 *           memory: per CPU times its CPUs, plus per host.
 *   GPUs    (DFRS_DIM_GPU, only when the hosts have GPUs) a rigid
 *           requirement, its GPUs over the host's: never shared by
 *           weights, so a host's GPUs are a capacity like its memory.
 *
 * Every dimension's capacity is 1 (a whole host).  On hosts of one CPU
 * without GPUs a job of b CPUs is b tasks of need `use` and memory
 * mem_per_cpu each: the papers' machines, one task per node.
 */
#ifndef DFRS_HOST_TASK_H
#define DFRS_HOST_TASK_H

#include <stddef.h>

#include "dfrs_model.h"

#define DFRS_DIM_CPU 0
#define DFRS_DIM_MEM 1
#define DFRS_DIM_GPU 2

typedef struct {
	int cpus;		/* CPUs the job holds in all, >= 1 */
	int hosts;		/* 0: as few hosts as its CPUs fill
				 * (ceil(cpus / host_cpus)); k: exactly k
				 * tasks, cpus / k CPUs each */
	double use;		/* CPU use of each of its CPUs at yield 1,
				 * 0..1 (more is taken as 1) */
	double mem_per_cpu;	/* shares of a host's memory */
	double mem_per_host;
	int gpus_per_host;	/* GPUs of each task */
	int gpus;		/* GPUs of the job, ceil(gpus / tasks) on each
				 * task (with gpus_per_host 0) */
} dfrs_host_request_t;

/* The dimensions of a cluster of such hosts: CPU and memory, and GPUs
 * when the hosts have some. */
static inline int dfrs_host_dims(int host_gpus)
{
	return host_gpus > 0 ? 3 : 2;
}

/*
 * The tasks of a job of `cpus` CPUs that asks for at least `min_hosts`
 * hosts (0: any number) on hosts of host_cpus CPUs: as few as its CPUs
 * fill, ceil(cpus / host_cpus), and at least min_hosts.  Slurm gives a job
 * without -N one node at least, whatever its CPUs: a job of 32 CPUs on
 * hosts of 8 is 4 tasks, not one task of 32 CPUs that no host holds.
 * At least 1 (for no CPU or no host size too).
 */
int dfrs_host_task_count(int cpus, int min_hosts, int host_cpus);

/*
 * Fill shape (zeroed first; min_yield is left 0 for the caller) for rq on
 * hosts of host_cpus CPUs and host_gpus GPUs.  Memory and GPUs above a
 * host's are cut to a host's.  Returns 0, or -1 with one message in err
 * when a task would hold more CPUs than a host has, or no CPU.
 */
int dfrs_host_task_shape(const dfrs_host_request_t *rq, int host_cpus,
			 int host_gpus, dfrs_job_t *shape, char *err,
			 size_t errlen);

#endif
