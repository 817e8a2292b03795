/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_stats.h - sched/amcbf's statistics as the administrator sees them:
 * the plugin writes them as JSON into StateSaveLocation/amcbf-stats.json
 * after its cycles, and `dfrs status` prints them beside select/dfrs's
 * table.  Plain C (json-c), no Slurm headers.
 */
#ifndef DFRS_SCHED_STATS_H
#define DFRS_SCHED_STATS_H

#include <stdio.h>
#include <time.h>

/* The running jobs' yields are counted by these upper bounds (cumulative,
 * as a histogram's buckets: yields[i] jobs have a yield <= bound i). */
#define SCHED_STATS_YIELD_BUCKETS 5
extern const double sched_stats_yield_le[SCHED_STATS_YIELD_BUCKETS];

typedef struct {
	char mode[32];			/* the algorithm running: "amcbf", "dfrs(greedypm)", ... */
	unsigned long cycles;
	double mean_ms, max_ms;		/* cycle time, locks included */
	unsigned long started, preempted, promoted, demoted, refused;
	unsigned long pending, running;	/* jobs at the last cycle */
	time_t updated;
	/* The rest is for the metrics (sched_metrics.h); a file without
	 * them reads as 0. */
	unsigned long running_fg, running_bg;	/* running jobs per tier */
	unsigned long yields[SCHED_STATS_YIELD_BUCKETS];
	double yield_sum;		/* of the running jobs' yields */
	unsigned long migrated;		/* of preempted: by the availability
					   policy (migrations) */
	unsigned long avail_suspended, avail_resumed;	/* since start */
	unsigned long suspended_now;	/* waiting for their hosts now */
	double lock_hold_max_ms;	/* the longest hold of slurmctld's locks */
	unsigned long lock_yields;	/* holds given up for waiting RPCs */
	double read_hold_max_ms, read_hold_max_cpu_ms;	/* the longest read */
	unsigned long read_hold_max_jobs;	/* job records it read */
	/* the longest hold of the other phases, and the CPU time in it */
	double apply_hold_max_ms, apply_hold_max_cpu_ms;	/* decisions */
	double avail_hold_max_ms, avail_hold_max_cpu_ms;	/* availability */
	double other_hold_max_ms, other_hold_max_cpu_ms;	/* bookkeeping */
	unsigned long read_cuts, read_left;	/* reads stopped at
					   amcbf_max_read_time, jobs they left */
	unsigned long drifts, drift_active;	/* the drift guard */
	/* seconds added to running jobs' end times since start for the CPU
	 * they were denied (limit_charge.h), by what showed it: the node
	 * agents' measurements, or the tier or yield the plugin gave */
	unsigned long limit_added_measured, limit_added_believed;
	/* nodes by their agent's last report (measured_tag.h): fresh,
	 * stale, malformed, none; and the age in seconds of the oldest
	 * report that reads */
	unsigned long agents_fresh, agents_stale, agents_bad, agents_none;
	unsigned long agent_oldest_age;
} sched_stats_t;

/* Count a running job of this yield into s->yields and s->yield_sum. */
void sched_stats_add_yield(sched_stats_t *s, double yield);

/* JSON text (malloc'ed; NULL when out of memory). */
char *sched_stats_to_json(const sched_stats_t *s);

/* Parse a text made by sched_stats_to_json: 0, or -1 with err naming the
 * field that is missing or wrong. */
int sched_stats_from_json(const char *json, sched_stats_t *s, char *err,
			  size_t errlen);

/* Print as `dfrs status` shows it (a few lines). */
void sched_stats_print(const sched_stats_t *s, FILE *out);

#endif
