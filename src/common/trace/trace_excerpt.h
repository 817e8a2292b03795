/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_excerpt.h - a window of a trace made ready for a live replay on a
 * small Slurm cluster (contribs/live-compare): N consecutive jobs that fit
 * the cluster, sizes in nodes, times divided by a compression factor and
 * the time limit Slurm really applies (whole minutes) as the requested
 * time, so that dfrs sim's EASY is told what Slurm's backfill is told.
 */
#ifndef DFRS_TRACE_EXCERPT_H
#define DFRS_TRACE_EXCERPT_H

#include <stddef.h>
#include <stdio.h>

#include "trace.h"

typedef struct {
	size_t njobs;		/* jobs in the excerpt */
	double offset;		/* trace seconds: the first job submitted at
				   or after this; < 0: choose (target_load) */
	double compress;	/* times are divided by this (>= 1) */
	int nodes;		/* cluster size */
	int procs_per_node;	/* trace processors per node; 0: the trace's
				   machine (MaxProcs, else MaxNodes, else its
				   largest job) spread over the nodes */
	double target_load;	/* offset < 0: the window whose offered load
				   is closest to this */
	double max_runtime;	/* offset < 0: only windows whose jobs all run
				   at most this long once compressed (0: any) */
	double limit_margin;	/* a limit is at least runtime + this (s) */
	double start_latency;	/* s added to every run time: Slurm starts a
				   job about a second after the nodes free up;
				   the live job sleeps its run time less this */
} trace_excerpt_opts_t;

typedef struct {
	size_t first;		/* index in the source trace of the first job */
	double offset;		/* its submit time in the source trace */
	int procs_per_node;	/* as used */
	double load;		/* offered load: node-seconds of work over
				   nodes x (last submit - first submit) */
	size_t skipped_too_big;	/* jobs in the window's span left out: more
				   nodes than the cluster */
} trace_excerpt_info_t;

void trace_excerpt_opts_defaults(trace_excerpt_opts_t *o);

/*
 * Fill *out (trace_free it) with the excerpt of t: submit times from 0,
 * run times at least 1 s (plus start_latency), procs in nodes, req_time the Slurm limit in
 * seconds (a whole number of minutes, never under runtime + limit_margin),
 * ids and lines kept.  Returns 0, or -1 with one line in err (bad option,
 * fewer than njobs jobs fit from the offset, no window qualifies).
 */
int trace_excerpt(const trace_t *t, const trace_excerpt_opts_t *o,
		  trace_t *out, trace_excerpt_info_t *info,
		  char *err, size_t errlen);

/* The Slurm time limit (minutes) for a job of this run time and requested
 * time (-1: unknown), both already compressed. */
long trace_excerpt_limit_minutes(double runtime, double req_time,
				 double margin);

#endif
