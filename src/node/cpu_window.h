/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu_window.h - each job's CPU use on one node, measured over a sliding
 * window: dfrs-nodeagent samples the cumulative CPU time of every process
 * of every job at each pass (from /proc/PID/stat, on cgroup v1 and v2
 * alike), and the measured need is the CPU time the job used over the
 * last `window` intervals as a fraction of that time times the CPUs it
 * holds on the node.  Liu et al. 2013 (section 4.1) take each process's
 * CPU usage "from history"; this is what feeds the history.  Plain C, no
 * Slurm types, no /proc (the caller reads it).
 *
 * From one sample to the next, a job's CPU time is the sum over its
 * processes of: the growth of a process seen both times, and the whole
 * CPU time of a process that was not there before (it started in between;
 * at a job's first sample nothing is counted, that sample is the base).
 * A process that ended in between takes its last interval's CPU with it
 * (the measure is low by at most that).  A sample whose time does not
 * advance is ignored; a process whose CPU time went down (a reused pid)
 * counts as new.
 */
#ifndef DFRS_CPU_WINDOW_H
#define DFRS_CPU_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#define CPU_WINDOW_MAX 32	/* intervals a window can hold */
#define CPU_WINDOW_DEFAULT 3	/* dfrs-nodeagent --window */

typedef struct {
	int32_t pid;
	double cpu;		/* cumulative CPU seconds (user + system) */
} cpu_sample_t;

typedef struct {
	uint32_t job_id;
	unsigned generation;	/* the pass that last sampled it */
	double last;		/* time of the last sample, s */
	cpu_sample_t *procs;	/* the last sample, sorted by pid */
	size_t nprocs;
	double dt[CPU_WINDOW_MAX], dcpu[CPU_WINDOW_MAX];	/* a ring */
	size_t head, count;
} cpu_window_job_t;

typedef struct {
	cpu_window_job_t *jobs;
	size_t njobs;
	size_t window;		/* intervals per measure, 1..CPU_WINDOW_MAX */
	unsigned generation;
} cpu_window_t;

/* Empty, measuring over window intervals (clamped to 1..CPU_WINDOW_MAX). */
void cpu_window_init(cpu_window_t *w, size_t window);
void cpu_window_free(cpu_window_t *w);

/* Start a pass: jobs not sampled in it are dropped by cpu_window_end. */
void cpu_window_begin(cpu_window_t *w);

/*
 * Job job_id's processes (n of them, any order) at time now (seconds,
 * monotonic).  0, or -1 when out of memory (the job's history is dropped).
 */
int cpu_window_sample(cpu_window_t *w, uint32_t job_id, double now,
		      const cpu_sample_t *procs, size_t n);

/* End a pass: forget the jobs that were not sampled (they left). */
void cpu_window_end(cpu_window_t *w);

/*
 * The job's CPU use over the window as a fraction of cpus (> 0) CPUs,
 * clamped to 0..1, into *need; *span (may be NULL): the seconds it covers.
 * 0, or -1 when the job has no full interval yet (or is unknown).
 */
int cpu_window_measure(const cpu_window_t *w, uint32_t job_id, double cpus,
		       double *need, double *span);

#endif
