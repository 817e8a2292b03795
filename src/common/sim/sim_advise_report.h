/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_advise_report.h - dfrs advise's report for people (a text page under
 * 120 columns: verdict first, policies as rows, times as [D-]HH:MM:SS,
 * percentiles beside means, job counts) and as JSON; plus the recommended
 * SchedulerParameters line (printed whole, to be pasted: a site's long
 * line makes it the one line past 120 columns) and the blockers found in
 * the history.
 */
#ifndef DFRS_SIM_ADVISE_REPORT_H
#define DFRS_SIM_ADVISE_REPORT_H

#include <stdio.h>

#include "sim_advise.h"
#include "trace/trace.h"

typedef struct {
	const char *history;		/* path */
	const trace_t *trace;		/* blockers, partitions, skipped */
	const sim_advise_t *a;
	const char *policy;		/* the deployed mode */
	int stretch_priority;	/* the deployed mode orders by DFRS
				   stretch and overwrites pending jobs'
				   priority (amcbf_mode=dfrs,
				   amcbf_priority=stretch) */
	const char *params;		/* SchedulerParameters as given ("") */
	const char *params_from;	/* "--params", "slurm.conf", "defaults" */
	double util_threshold, bg_min_rate;	/* as deployed */
	double cpu_default;		/* dfrs_cpu_need */
	int procs_per_node;	/* CPUs per node */
	int cpu_granularity;	/* jobs take CPUs, memory and GPUs of
				   nodes (sim_workload_t.nhosts), not
				   whole nodes */
	long node_mem_mb;	/* with cpu_granularity: RealMemory (0) */
	int node_gpus;		/* with cpu_granularity: its GPUs */
	const char *nodes_from;		/* "--nodes", "slurm.conf", "the
					   history (a guess)" */
	const char *priority_type;	/* slurm.conf's PriorityType or "" */
	const char *sched_type;		/* slurm.conf's SchedulerType or "" */
} sim_advise_report_t;

/* What sched/amcbf needs in SchedulerParameters to start jobs itself:
 * slurmctld's main scheduler off (dfrs_params_check.h). */
#define SIM_ADVISE_OWN_STARTS "defer,sched_interval=-1"

/*
 * The SchedulerParameters line to deploy, complete, so that pasting it
 * works (it passes dfrs params --check when params parses): first
 * SIM_ADVISE_OWN_STARTS, then params' items in their order with the
 * spaces around them trimmed, except empty ones, "defer" and any
 * sched_interval= (given first), amcbf_util_threshold= and
 * amcbf_bg_min_rate= (set last, to util and rate); every other item of
 * the site's (Slurm's own, sched/backfill's bf_*, which slurmctld reads
 * too, the other amcbf_ and dfrs_ keys) is kept.  Keys are matched with
 * case ignored.  0, or -1 if buf is too small.
 */
int sim_advise_recommend(const char *params, double util, double rate,
			 char *buf, size_t len);

/* The line the report recommends: sim_advise_recommend() of r->params
 * with the sweep's best point (without a sweep, the deployed values). */
int sim_advise_recommended(const sim_advise_report_t *r, char *buf,
			   size_t len);

void sim_advise_report_table(FILE *out, const sim_advise_report_t *r);
/* The table's last part: what in the history (r->trace) and slurm.conf
 * sched/amcbf does not start, or the simulation does not model. */
void sim_advise_report_blockers(FILE *out, const sim_advise_report_t *r);
void sim_advise_report_json(FILE *out, const sim_advise_report_t *r);

#endif
