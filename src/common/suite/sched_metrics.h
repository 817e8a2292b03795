/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_metrics.h - sched/amcbf's statistics as Prometheus metrics
 * (slurm_dfrs_*), in the text exposition format (version 0.0.4) that
 * node_exporter's textfile collector reads and OpenMetrics scrapers
 * accept: what no Slurm counter carries (jobs per tier, the running jobs'
 * yields, preemptions by cause, suspensions, lock holds, the read window,
 * the drift guard, time added to end times, the node agents' reports, the
 * availability model's estimate of each node).  The plugin writes them to amcbf_metrics_file;
 * `dfrs status --format openmetrics` prints them from amcbf-stats.json.
 * Plain C, no Slurm headers.
 */
#ifndef DFRS_SCHED_METRICS_H
#define DFRS_SCHED_METRICS_H

#include <stdio.h>

#include "sched_stats.h"

/* A node as the availability model sees it (avail_monitor.h), for the
 * per-node series. */
typedef struct {
	const char *name;
	double availability;	/* the estimated long-run fraction of slots
				   it is ON; NaN: no estimate yet */
	int on;			/* ON at the last slot: 1, 0; -1 not seen */
} sched_metrics_node_t;

/* Write s's metrics and the nodes' (nnodes may be 0): 0, or -1 on a write
 * error. */
int sched_metrics_write(const sched_stats_t *s,
			const sched_metrics_node_t *nodes, size_t nnodes,
			FILE *out);

/* The same as a string (malloc'ed; NULL when out of memory). */
char *sched_metrics_text(const sched_stats_t *s,
			 const sched_metrics_node_t *nodes, size_t nnodes);

#endif
