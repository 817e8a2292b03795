/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_workload.h - a trace turned into the jobs dfrs sim replays: machine
 * size, allocation unit, load scaling, runtime estimates for EASY and the
 * CPU usage of every process (Liu et al. 2013 section 5.2).
 */
#ifndef DFRS_SIM_WORKLOAD_H
#define DFRS_SIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "sched/sched_host.h"
#include "trace/trace.h"

typedef struct {
	long id;		/* the trace's job id */
	size_t line;		/* its line in the trace */
	double arrival;		/* t_a, after load scaling */
	double runtime;		/* t_e on a dedicated node */
	double estimate;	/* what EASY is told */
	int nodes;		/* b_i: units (slots) it takes, a process on
				   each */
	job_request_t req;	/* on hosts (sim_workload_t.nhosts): its
				   nodes, memory and GPUs, from sacct's
				   AllocTRES; zero otherwise */
	double *util;		/* CPU usage of each process, 0..1 */
	int user;		/* the trace's user (-1 unknown) */
	int app;		/* its executable, the job-name stand-in (-1) */
	int checkpoints;	/* keeps its progress over a requeue: it
				   asked for the deployed checkpoint signal
				   (sim_ckpt_checkpoints;
				   0 as built) */
} sim_job_t;

typedef struct {
	int nodes;		/* machine size in allocation units; 0: the
				   trace's MaxProcs (else MaxNodes, else the
				   largest job) */
	int procs_per_node;	/* trace processors per unit (default 1) */
	int cpus_per_node;	/* units (CPUs) per host: > 1 groups the
				   units into hosts of this many, and jobs
				   take units on them at CPU granularity as
				   cons_tres allocates (default 1: each unit
				   is a host, the whole-node model) */
	long host_mem_mb;	/* on hosts: each one's memory (0: no limit) */
	int host_gpus;		/* on hosts: each one's GPUs */
	double load;		/* arrival times are divided by this (> 0) */
	uint64_t seed;		/* for the CPU usage model */
	double cpu_usage;	/* > 0: every process uses this much CPU,
				   whatever the trace or the model says (1: no
				   idle CPU for a bg tier); 0: trace, else
				   Liu et al.'s model */
	double default_cpu_need; /* > 0: CPU usage of every process of a job
				   the trace gives none for, as sched/amcbf
				   assumes (dfrs_cpu_need); 0: Liu et al.'s
				   model */
	double estimate_factor;	/* > 0: every job's estimate is its run time
				   times this (1: exact); 0: the trace's
				   requested time where it has one, else the
				   run time (the default) */
} sim_workload_opts_t;

typedef struct {
	sim_job_t *jobs;	/* in arrival order */
	size_t njobs;
	size_t skipped_too_big;	/* needed more units than the machine has */
	size_t skipped_unusable; /* unknown size or runtime */
	int nodes;		/* units (slots), nhosts x cpus_per_node on
				   hosts */
	int nhosts;		/* 0: no host table (each unit a host) */
	int cpus_per_node;
	long host_mem_mb;
	int host_gpus;
	size_t clamped;		/* jobs whose memory or GPUs on a host were
				   more than a host has, cut to it */
	int estimates_exact;	/* 1: EASY gets exact runtimes (the trace has
				   no requested times) */
	int cpu_from_trace;	/* jobs whose usage came from the trace */
	double *util_pool;
} sim_workload_t;

void sim_workload_opts_defaults(sim_workload_opts_t *o);

/*
 * Build the workload.  CPU usage per process: the trace's average CPU time
 * per processor over the runtime when known, else o->default_cpu_need when
 * set, else Liu et al.'s model (one process: 100 %; more: uniform
 * 40..100 % per process), drawn from seed.
 * Returns 0, or -1 with a message in err (bad option, no job left).
 */
int sim_workload_build(const trace_t *t, const sim_workload_opts_t *o,
		       sim_workload_t *w, char *err, size_t errlen);

/* off[i] = processes of the jobs before job i, the offsets of a pool with
 * one entry per process (off: njobs entries); returns the total. */
size_t sim_workload_process_offsets(const sim_workload_t *w, size_t *off);

void sim_workload_free(sim_workload_t *w);

#endif
