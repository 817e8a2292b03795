/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stretch_drift.h - the guard against a running workload
 * drifting into the sharing policies' pathology (GreedyPM's and MCB's
 * requeues and starvation, which `dfrs sim` shows costing up to 27 times
 * EASY's mean response): sched/amcbf logs one line when the mean run
 * stretch of its running jobs climbs well above that of the last hour,
 * and one when it comes back; `dfrs sim` counts the same detector's
 * entries per policy run (sim_result_t.drift).
 *
 * Stretch is Stillwell et al. 2010's (Section 2, "Online Non-Clairvoyant
 * Problem"): a job's time in the system over the time it would take
 * alone.  Counted from a job's submission, it also holds its first wait,
 * which the load decides for every policy alike: on lublin_256, EASY's
 * own running jobs' stretch so counted doubles within an hour hundreds of
 * times in 100 days, as its queue grows (doc/performance-history.md,
 * "The drift detector's first version").  The guard counts from the
 * job's FIRST START instead, the part of its stretch the policy adds
 * once it has started a job:
 *
 *   run stretch = max(1, since first start / max(work, min_work))
 *
 * where work is its virtual time: the integral of its yield, 1 a second
 * when it runs alone (sched/amcbf's amcbf_known_t.vt; the simulators'
 * progress plus the progress a requeue lost).  It is 1 for a job that
 * runs alone, as every job does under EASY, and rises with everything the
 * sharing policies' pathology does: a yield under 1 (a shared node, the
 * background tier), a wait after a requeue (the clock runs, the work
 * stands), work redone after it.  min_work (600 s by default, as
 * amcbf_dfrs_minvt) bounds the stretch of a job that just started, as Liu
 * et al. 2013's bounded slowdown bounds a short job's (Section 5.2).  The
 * cycle's figure is the jobs' mean weighted by max(work, min_work), i.e.
 *
 *   sum of max(since, max(work, min_work)) / sum of max(work, min_work)
 *
 * so a long job weighs by the work it stands for, and a burst of fresh
 * starts does not swing it.  Pending jobs are not counted (they have no
 * run yet); they count once they start.
 *
 * Each cycle, the caller sums its running jobs (stretch_drift_add) and
 * feeds the sum (stretch_drift_feed).  The detector keeps a window of
 * `window` seconds of per-cycle means in
 * STRETCH_DRIFT_BUCKETS buckets (bounded memory whatever the cycle rate:
 * a bucket holds the mean of its cycles' means) and compares the cycle's
 * mean with the mean of the window's buckets, each bucket weighing the
 * same (a burst of cycles does not outweigh a quiet minute).  Hysteresis:
 *
 *   enters drift when the cycle's mean exceeds factor x the window's mean
 *     (once the window holds buckets at least half a window old), and
 *     that window mean is frozen as the baseline;
 *   leaves drift when a cycle's mean falls to (1 + factor) / 2 x the
 *     baseline or under (halfway back);
 *
 * so one report when it enters and one when it leaves, never one a cycle,
 * and a drift that lasts does not fade into the window it fills.  A cycle
 * with no running job is no sample and decides nothing; a clock that goes
 * backwards empties the window (the drift state and its baseline stay).
 * Plain C, no allocation.
 */
#ifndef DFRS_STRETCH_DRIFT_H
#define DFRS_STRETCH_DRIFT_H

#include <stddef.h>

/* Buckets of the window (each window / this seconds wide). */
#define STRETCH_DRIFT_BUCKETS 60

typedef struct {
	double window;		/* s of history compared with; 0: off */
	double factor;		/* drift: mean > factor x the window's */
	double min_work;	/* s: work so far counts at least this */
} stretch_drift_config_t;

typedef enum {
	STRETCH_DRIFT_NONE,	/* no change */
	STRETCH_DRIFT_ENTER,	/* the workload drifted into it */
	STRETCH_DRIFT_LEAVE,	/* it came back */
} stretch_drift_event_t;

typedef struct {
	long long id;		/* floor(time / bucket width); -1: empty */
	double sum;		/* of the per-cycle means in it */
	unsigned long n;	/* cycles in it */
} stretch_drift_bucket_t;

typedef struct {
	stretch_drift_config_t cfg;
	/* the window's buckets and the current one (ring) */
	stretch_drift_bucket_t bucket[STRETCH_DRIFT_BUCKETS + 1];
	int fed;		/* last is set */
	double last;		/* time of the last feed */
	int drifting;
	double baseline;	/* the window's mean when the drift began */
	double since;		/* when it began */
	double current;		/* the last cycle's mean (0: none yet) */
	double window_mean;	/* the window's mean at the last cycle with
				   running jobs (0: none) */
	unsigned long entries;	/* drifts entered */
	double drift_seconds;	/* time spent in drifts that ended */
} stretch_drift_t;

/* window 3600 s, factor 3, min_work 600 s. */
void stretch_drift_defaults(stretch_drift_config_t *c);

/* 0, or -1 with one line in err naming the bad field: window finite and
 * >= 0, factor finite and > 1, min_work finite and > 0. */
int stretch_drift_check(const stretch_drift_config_t *c, char *err,
			size_t errlen);

/* A fresh detector (empty window, not drifting) under c (checked by the
 * caller: stretch_drift_check). */
void stretch_drift_init(stretch_drift_t *d, const stretch_drift_config_t *c);

/* One cycle's running jobs, summed by stretch_drift_add (zero it first). */
typedef struct {
	double span;		/* sum of max(since, max(work, min_work)) */
	double work;		/* sum of max(work, min_work) */
	size_t n;		/* jobs added */
} stretch_drift_sum_t;

/*
 * Add a running job: since = seconds since its first start, work = its
 * virtual time (under 0 counts as 0).  Returns 0, or -1 and adds nothing
 * when since is under 0 (a clock behind the record) or a figure (or
 * min_work, which must be > 0) is not finite.
 */
int stretch_drift_add(stretch_drift_sum_t *s, double since, double work,
		      double min_work);

/* The sum's mean run stretch (>= 1), 0 when no job was added. */
double stretch_drift_mean(const stretch_drift_sum_t *s);

/*
 * One cycle at time now with its running jobs' sum.  No job (s->n == 0):
 * no sample, STRETCH_DRIFT_NONE.  Returns whether the detector entered or
 * left drift at this cycle.  Off (window 0): always STRETCH_DRIFT_NONE.
 */
stretch_drift_event_t stretch_drift_feed(stretch_drift_t *d, double now,
					 const stretch_drift_sum_t *s);

/* Seconds spent in drift up to now (the current one included). */
double stretch_drift_seconds(const stretch_drift_t *d, double now);

#endif
