/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_host.h - the host layer of the engines' state and a job's request
 * (doc/design.md, "The resource model: CPUs, memory and GPUs").  A host is
 * a Slurm node: CPUs, memory (MB) and GPUs.  A host of C CPUs is C slots of
 * sched_state_t.nodes[] (each a CPU with a fg and a bg place, Liu et al.
 * 2013 section 4 at CPU granularity), its slots contiguous.  A job's
 * sched_job_t.nodes is the number of slots (CPUs) it takes; its request
 * (job_request_t) says how they may be spread over hosts and what memory
 * and GPUs it holds on each host it uses.  sched_fit() chooses the slots
 * host by host.
 *
 * Without a host table (sched_state_t.hosts NULL) each slot is its own
 * host of 1 CPU without memory or GPU limits: the papers' machines, on
 * which every engine decides as it does on whole nodes.
 */
#ifndef DFRS_SCHED_HOST_H
#define DFRS_SCHED_HOST_H

#include "sched_tier.h"

typedef struct {
	int cpus;		/* its slots: first_slot .. first_slot+cpus-1 */
	int first_slot;
	long mem;		/* RealMemory, MB; 0: no limit */
	int gpus;		/* gres/gpu count */
	/* held by the jobs running on it, kept by the engines */
	long mem_fg, mem_bg;	/* MB */
	int gpus_fg, gpus_bg;
} sched_host_t;

/* Slurm's request beyond its CPU count (sched_job_t.nodes); all zero: any
 * slots anywhere, no memory, no GPUs (the whole-node model). */
typedef struct {
	int hosts;		/* -N: 0 any number of hosts, k exactly k */
	int cpus_per_host;	/* --ntasks-per-node x --cpus-per-task:
				   0 any split, c: c slots on each host */
	long mem_per_cpu;	/* --mem-per-cpu, MB per slot taken */
	long mem_per_host;	/* --mem, MB on each host it uses */
	int gpus_per_host;	/* --gpus-per-node, --gres=gpu:N */
	int gpus;		/* --gpus (per job): with `hosts` k, ceil(gpus
				   / k) on each host; without, on one host */
	int exclusive;		/* --exclusive: every slot of each host it
				   uses (its CPU count is then a multiple of
				   the hosts' CPUs) */
} job_request_t;

/* Places held for another job (the head's reservation): slots, and per
 * host memory and GPUs.  Any member may be NULL. */
typedef struct {
	const unsigned char *slot;	/* per slot: nonzero if held */
	const long *mem;		/* per host, MB */
	const int *gpus;		/* per host */
} sched_hold_t;

#endif
