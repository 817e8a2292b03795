/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_measure.h - dfrs-nodeagent's measured CPU needs: at each pass it
 * samples the CPU time of every job's processes on the node (proc_cpu.h)
 * into a sliding window (cpu_window.h) and reports each job's CPU
 * use over the window, as a fraction of the CPUs it holds here, in the
 * node's Extra field (need/measured_tag.h) with slurm_update_node: when a
 * need moved by JOB_MEASURE_STEP or more, the set of jobs changed, or
 * JOB_MEASURE_REFRESH seconds passed, or a third of slurmctld's
 * dfrs_need_stale when that is shorter (so a reader can tell a live
 * agent's report from a stale one).  Liu et al. 2013, section 4.1.
 */
#ifndef DFRS_JOB_MEASURE_H
#define DFRS_JOB_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include <slurm/slurm.h>

#include "cpu_window.h"
#include "need/measured_tag.h"

#define JOB_MEASURE_STEP 0.02
#define JOB_MEASURE_REFRESH 60

typedef struct {
	bool on;		/* --measure-window > 0 */
	cpu_window_t win;
	double cpu_scale;	/* CPU capacity of one of Slurm's CPUs here */
	double ticks;		/* sysconf(_SC_CLK_TCK) */
	measured_tag_t sent;	/* last reported */
	long sent_at;		/* wall time of that report, 0: none */
	int refresh;		/* s between reports of unchanged figures */
	bool failed_logged;
} job_measure_t;

void job_measure_init(job_measure_t *m, size_t window, double cpu_scale);

/* Report unchanged figures at least every need_stale / 3 seconds (at
 * least 1, at most JOB_MEASURE_REFRESH; need_stale <= 0: the latter). */
void job_measure_set_stale(job_measure_t *m, int need_stale);
void job_measure_free(job_measure_t *m);

/* A pass begins / samples one job's processes / ends. */
void job_measure_begin(job_measure_t *m);
void job_measure_job(job_measure_t *m, uint32_t job_id, const pid_t *pids,
		     size_t npids);
void job_measure_end(job_measure_t *m);

/*
 * Report the window's needs of the jobs slurmctld knows (jobs, may be
 * NULL: nothing known, nothing sent) in node's Extra when they changed
 * enough.  1: reported, jobs came or went (msg: what), 2: reported new
 * figures of the same jobs (msg: what), -1: the first failure of a
 * streak (msg: why), 0: nothing sent.
 */
int job_measure_report(job_measure_t *m, const char *node,
		       const job_info_msg_t *jobs, char *msg, size_t len);

#endif
