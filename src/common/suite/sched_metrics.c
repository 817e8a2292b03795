/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_metrics.c - sched/amcbf's statistics in Prometheus' text format
 * (sched_metrics.h).  Names follow Prometheus' conventions: the
 * slurm_dfrs_ prefix, the unit in the name (seconds), _total for counters.
 */
#include "sched_metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "# HELP" and "# TYPE" of one metric family. */
static void family(FILE *out, const char *name, const char *type,
		   const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void count(FILE *out, const char *name, const char *labels,
		  unsigned long v)
{
	fprintf(out, "%s%s %lu\n", name, labels, v);
}

static void real(FILE *out, const char *name, double v)
{
	fprintf(out, "%s %.9g\n", name, v);
}

/* A label value: backslash, double quote and newline escaped. */
static void label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(out, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

/* One sample per phase that holds the locks, ms given, seconds written. */
static void phases(FILE *out, const char *name, double read_ms,
		   double apply_ms, double avail_ms, double other_ms)
{
	fprintf(out, "%s{phase=\"read\"} %.9g\n", name, read_ms / 1000);
	fprintf(out, "%s{phase=\"apply\"} %.9g\n", name, apply_ms / 1000);
	fprintf(out, "%s{phase=\"availability\"} %.9g\n", name, avail_ms / 1000);
	fprintf(out, "%s{phase=\"bookkeeping\"} %.9g\n", name, other_ms / 1000);
}

static void jobs(FILE *out, const sched_stats_t *s)
{
	unsigned long tiered = s->running_fg + s->running_bg;
	char labels[48];

	family(out, "slurm_dfrs_pending_jobs", "gauge",
	       "Pending jobs sched/amcbf manages, at its last cycle");
	count(out, "slurm_dfrs_pending_jobs", "", s->pending);
	family(out, "slurm_dfrs_running_jobs", "gauge",
	       "Running jobs sched/amcbf manages, by tier (none: amcbf_mode=dfrs, or a job without one), at its last cycle");
	count(out, "slurm_dfrs_running_jobs", "{tier=\"fg\"}", s->running_fg);
	count(out, "slurm_dfrs_running_jobs", "{tier=\"bg\"}", s->running_bg);
	count(out, "slurm_dfrs_running_jobs", "{tier=\"none\"}",
	      s->running > tiered ? s->running - tiered : 0);
	family(out, "slurm_dfrs_running_jobs_by_yield", "gauge",
	       "Running jobs whose yield (share of their CPUs they get) is at most yield_le, at the last cycle");
	for (int i = 0; i < SCHED_STATS_YIELD_BUCKETS; i++) {
		snprintf(labels, sizeof(labels), "{yield_le=\"%g\"}",
			 sched_stats_yield_le[i]);
		count(out, "slurm_dfrs_running_jobs_by_yield", labels,
		      s->yields[i]);
	}
	family(out, "slurm_dfrs_running_jobs_yield_sum", "gauge",
	       "Sum of the running jobs' yields (over slurm_dfrs_running_jobs: their mean yield)");
	real(out, "slurm_dfrs_running_jobs_yield_sum", s->yield_sum);
}

static void actions(FILE *out, const sched_stats_t *s)
{
	unsigned long migrated = s->migrated < s->preempted ?
		s->migrated : s->preempted;

	family(out, "slurm_dfrs_jobs_started_total", "counter",
	       "Jobs sched/amcbf started");
	count(out, "slurm_dfrs_jobs_started_total", "", s->started);
	family(out, "slurm_dfrs_preemptions_total", "counter",
	       "Running jobs sched/amcbf requeued, by cause: scheduler (for another job, or a repack), availability (migrated off nodes that went OFF)");
	count(out, "slurm_dfrs_preemptions_total", "{cause=\"scheduler\"}",
	      s->preempted - migrated);
	count(out, "slurm_dfrs_preemptions_total", "{cause=\"availability\"}",
	      migrated);
	family(out, "slurm_dfrs_tier_changes_total", "counter",
	       "Running jobs moved between the consolidation tiers in place, by the tier moved to");
	count(out, "slurm_dfrs_tier_changes_total", "{to=\"fg\"}", s->promoted);
	count(out, "slurm_dfrs_tier_changes_total", "{to=\"bg\"}", s->demoted);
	family(out, "slurm_dfrs_starts_refused_total", "counter",
	       "Starts sched/amcbf decided that Slurm refused");
	count(out, "slurm_dfrs_starts_refused_total", "", s->refused);
	family(out, "slurm_dfrs_availability_suspensions_total", "counter",
	       "Jobs the availability policy suspended to wait for their nodes");
	count(out, "slurm_dfrs_availability_suspensions_total", "",
	      s->avail_suspended);
	family(out, "slurm_dfrs_availability_resumptions_total", "counter",
	       "Jobs the availability policy resumed once their nodes were back");
	count(out, "slurm_dfrs_availability_resumptions_total", "",
	      s->avail_resumed);
	family(out, "slurm_dfrs_suspended_jobs", "gauge",
	       "Jobs suspended by the availability policy, waiting for their nodes now");
	count(out, "slurm_dfrs_suspended_jobs", "", s->suspended_now);
}

static void cycles(FILE *out, const sched_stats_t *s)
{
	family(out, "slurm_dfrs_cycles_total", "counter",
	       "sched/amcbf scheduling cycles");
	count(out, "slurm_dfrs_cycles_total", "", s->cycles);
	family(out, "slurm_dfrs_cycle_seconds_total", "counter",
	       "Time sched/amcbf's cycles took (locks, yields and the decision with no lock held)");
	real(out, "slurm_dfrs_cycle_seconds_total",
	     s->mean_ms * (double)s->cycles / 1000);
	family(out, "slurm_dfrs_cycle_max_seconds", "gauge",
	       "The longest sched/amcbf cycle");
	real(out, "slurm_dfrs_cycle_max_seconds", s->max_ms / 1000);
	family(out, "slurm_dfrs_lock_hold_max_seconds", "gauge",
	       "The longest time sched/amcbf held slurmctld's job and node locks at once");
	real(out, "slurm_dfrs_lock_hold_max_seconds", s->lock_hold_max_ms / 1000);
	family(out, "slurm_dfrs_lock_yields_total", "counter",
	       "Times a long hold gave slurmctld's locks up for waiting RPCs (amcbf_yield_interval)");
	count(out, "slurm_dfrs_lock_yields_total", "", s->lock_yields);
	family(out, "slurm_dfrs_read_hold_max_seconds", "gauge",
	       "The longest hold that read slurmctld's job records at a cycle's start");
	real(out, "slurm_dfrs_read_hold_max_seconds", s->read_hold_max_ms / 1000);
	family(out, "slurm_dfrs_read_hold_max_cpu_seconds", "gauge",
	       "CPU time the scheduler's thread had in that longest read (the rest it waited for a CPU)");
	real(out, "slurm_dfrs_read_hold_max_cpu_seconds",
	     s->read_hold_max_cpu_ms / 1000);
	family(out, "slurm_dfrs_phase_hold_max_seconds", "gauge",
	       "The longest hold of slurmctld's locks by each phase of sched/amcbf that takes them");
	phases(out, "slurm_dfrs_phase_hold_max_seconds", s->read_hold_max_ms,
	       s->apply_hold_max_ms, s->avail_hold_max_ms, s->other_hold_max_ms);
	family(out, "slurm_dfrs_phase_hold_max_cpu_seconds", "gauge",
	       "CPU time the scheduler's thread had in each phase's longest hold (the rest it waited: for a CPU, or asleep)");
	phases(out, "slurm_dfrs_phase_hold_max_cpu_seconds",
	       s->read_hold_max_cpu_ms, s->apply_hold_max_cpu_ms,
	       s->avail_hold_max_cpu_ms, s->other_hold_max_cpu_ms);
	family(out, "slurm_dfrs_read_hold_max_jobs", "gauge",
	       "Job records that longest read read");
	count(out, "slurm_dfrs_read_hold_max_jobs", "", s->read_hold_max_jobs);
	family(out, "slurm_dfrs_read_cuts_total", "counter",
	       "Reads stopped at amcbf_max_read_time (the read window)");
	count(out, "slurm_dfrs_read_cuts_total", "", s->read_cuts);
	family(out, "slurm_dfrs_read_deferred_jobs_total", "counter",
	       "Pending jobs those reads left to the next cycle");
	count(out, "slurm_dfrs_read_deferred_jobs_total", "", s->read_left);
	family(out, "slurm_dfrs_drifts_total", "counter",
	       "Times the drift guard found the running jobs' mean run stretch over amcbf_drift_factor times its window's");
	count(out, "slurm_dfrs_drifts_total", "", s->drifts);
	family(out, "slurm_dfrs_drift_active", "gauge",
	       "1 while a drift the guard logged is under way");
	count(out, "slurm_dfrs_drift_active", "", s->drift_active ? 1 : 0);
}

/* Time added to end times, and the node agents' reports. */
static void ends_and_agents(FILE *out, const sched_stats_t *s)
{
	family(out, "slurm_dfrs_time_limit_added_seconds_total", "counter",
	       "Seconds added to running jobs' end times for CPU they were denied, by what showed it: measured (the node agents), believed (the tier or yield given)");
	count(out, "slurm_dfrs_time_limit_added_seconds_total",
	      "{basis=\"measured\"}", s->limit_added_measured);
	count(out, "slurm_dfrs_time_limit_added_seconds_total",
	      "{basis=\"believed\"}", s->limit_added_believed);
	family(out, "slurm_dfrs_node_agent_reports", "gauge",
	       "Nodes by their dfrs-nodeagent's last report in Extra: fresh (at most dfrs_need_stale s old), stale (its agent stopped), malformed, none (no job measured: idle, or no agent)");
	count(out, "slurm_dfrs_node_agent_reports", "{state=\"fresh\"}",
	      s->agents_fresh);
	count(out, "slurm_dfrs_node_agent_reports", "{state=\"stale\"}",
	      s->agents_stale);
	count(out, "slurm_dfrs_node_agent_reports", "{state=\"malformed\"}",
	      s->agents_bad);
	count(out, "slurm_dfrs_node_agent_reports", "{state=\"none\"}",
	      s->agents_none);
	family(out, "slurm_dfrs_node_agent_report_max_age_seconds", "gauge",
	       "Age of the oldest node agent's report that reads (fresh or stale), when the plugin looked");
	count(out, "slurm_dfrs_node_agent_report_max_age_seconds", "",
	      s->agent_oldest_age);
}

/* A node's name as a label: {node="..."} */
static void node_label(FILE *out, const char *name, const char *metric)
{
	fprintf(out, "%s{node=\"", metric);
	label_value(out, name);
	fputs("\"}", out);
}

static void nodes_of(FILE *out, const sched_metrics_node_t *nodes, size_t n)
{
	if (!n)
		return;
	family(out, "slurm_dfrs_node_availability_ratio", "gauge",
	       "The availability model's estimate of the long-run fraction of slots a node is ON (its learned ON/OFF chain), for nodes with an estimate");
	for (size_t i = 0; i < n; i++) {
		if (isnan(nodes[i].availability))
			continue;
		node_label(out, nodes[i].name, "slurm_dfrs_node_availability_ratio");
		fprintf(out, " %.9g\n", nodes[i].availability);
	}
	family(out, "slurm_dfrs_node_on", "gauge",
	       "1 when a node was ON at the availability model's last slot, 0 when OFF or DOWN, for nodes it has seen");
	for (size_t i = 0; i < n; i++) {
		if (nodes[i].on < 0)
			continue;
		node_label(out, nodes[i].name, "slurm_dfrs_node_on");
		fprintf(out, " %d\n", nodes[i].on ? 1 : 0);
	}
}

int sched_metrics_write(const sched_stats_t *s,
			const sched_metrics_node_t *nodes, size_t nnodes,
			FILE *out)
{
	family(out, "slurm_dfrs_info", "gauge",
	       "sched/amcbf's mode (amcbf_mode; the DFRS policy, or stretch priorities)");
	fputs("slurm_dfrs_info{mode=\"", out);
	label_value(out, s->mode);
	fputs("\"} 1\n", out);
	cycles(out, s);
	actions(out, s);
	jobs(out, s);
	ends_and_agents(out, s);
	nodes_of(out, nodes, nnodes);
	family(out, "slurm_dfrs_stats_updated_timestamp_seconds", "gauge",
	       "When sched/amcbf wrote these statistics (Unix time)");
	fprintf(out, "slurm_dfrs_stats_updated_timestamp_seconds %lld\n",
		(long long)s->updated);
	return ferror(out) ? -1 : 0;
}

char *sched_metrics_text(const sched_stats_t *s,
			 const sched_metrics_node_t *nodes, size_t nnodes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int rc;

	if (!out)
		return NULL;
	rc = sched_metrics_write(s, nodes, nnodes, out);
	if (fclose(out) || rc) {
		free(buf);
		return NULL;
	}
	return buf;
}
