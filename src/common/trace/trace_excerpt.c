/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_excerpt.c - choose and scale a window of a trace for a live replay
 * (trace_excerpt.h).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_excerpt.h"

void trace_excerpt_opts_defaults(trace_excerpt_opts_t *o)
{
	*o = (trace_excerpt_opts_t){
		.njobs = 100, .offset = -1, .compress = 1, .nodes = 4,
		.procs_per_node = 0, .target_load = 0.9, .max_runtime = 0,
		.limit_margin = 5,
	};
}

long trace_excerpt_limit_minutes(double runtime, double req_time,
				 double margin)
{
	double want = req_time > 0 ? req_time : runtime;
	long minutes = (long)ceil(want / 60.0);
	long least = (long)ceil((runtime + margin) / 60.0);

	if (minutes < least)
		minutes = least;
	return minutes > 1 ? minutes : 1;
}

/* a / b rounded up, for a >= 0 and b > 0; a + b - 1 would overflow for
 * sizes near the type's limit. */
static long ceil_div(long a, long b)
{
	return a / b + (a % b != 0);
}

static int units(const trace_job_t *j, int ppn)
{
	return (int)ceil_div(j->procs, ppn);
}

static double scaled_runtime(const trace_job_t *j, double compress)
{
	double r = round(j->runtime / compress);

	return r > 1 ? r : 1;
}

/* Offered load of the window of n candidates from cand[k]; -1 when it
 * does not qualify (no span, or a job too long once compressed). */
static double window_load(const trace_t *t, const size_t *cand, size_t k,
			  const trace_excerpt_opts_t *o, int ppn)
{
	double work = 0;
	double span = t->jobs[cand[k + o->njobs - 1]].submit -
		      t->jobs[cand[k]].submit;

	if (span <= 0)
		return -1;
	for (size_t i = k; i < k + o->njobs; i++) {
		const trace_job_t *j = &t->jobs[cand[i]];

		if (o->max_runtime > 0 &&
		    scaled_runtime(j, o->compress) > o->max_runtime)
			return -1;
		work += (double)units(j, ppn) * j->runtime;
	}
	return work / ((double)o->nodes * span);
}

static void scale_job(trace_job_t *j, const trace_job_t *src, double first,
		      const trace_excerpt_opts_t *o, int ppn)
{
	double req = src->req_time > 0 ? src->req_time / o->compress : -1;

	*j = *src;
	j->submit = round((src->submit - first) / o->compress);
	j->wait = -1;
	j->runtime = scaled_runtime(src, o->compress) + o->start_latency;
	j->procs = j->req_procs = units(src, ppn);
	j->cpu_used = -1;
	j->req_time = 60.0 * (double)trace_excerpt_limit_minutes(j->runtime,
						req, o->limit_margin);
	j->status = 1;
}

static int check_opts(const trace_t *t, const trace_excerpt_opts_t *o,
		      int *ppn, char *err, size_t errlen)
{
	if (o->njobs < 1 || o->nodes < 1 || !(o->compress >= 1) ||
	    o->procs_per_node < 0 || o->limit_margin < 0 ||
	    o->start_latency < 0) {
		snprintf(err, errlen, "jobs and nodes must be at least 1, the "
			 "compression at least 1");
		return -1;
	}
	*ppn = o->procs_per_node;
	if (!*ppn) {
		long procs = trace_machine_procs(t);
		long per_node = ceil_div(procs > 0 ? procs : 0, o->nodes);

		if (per_node > INT_MAX) {
			snprintf(err, errlen, "%s: %ld processors on %d nodes: "
				 "more than %d per node", t->source, procs,
				 o->nodes, INT_MAX);
			return -1;
		}
		*ppn = per_node < 1 ? 1 : (int)per_node;
	}
	return 0;
}

int trace_excerpt(const trace_t *t, const trace_excerpt_opts_t *o,
		  trace_t *out, trace_excerpt_info_t *info,
		  char *err, size_t errlen)
{
	size_t *cand = NULL, ncand = 0, k = 0;
	int ppn, rc = -1;

	memset(out, 0, sizeof(*out));
	memset(info, 0, sizeof(*info));
	if (check_opts(t, o, &ppn, err, errlen))
		return -1;
	cand = malloc((t->njobs ? t->njobs : 1) * sizeof(*cand));
	if (!cand) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->njobs; i++)
		if (units(&t->jobs[i], ppn) <= o->nodes)
			cand[ncand++] = i;
	if (ncand < o->njobs) {
		snprintf(err, errlen, "%s: only %zu jobs fit %d nodes of %d "
			 "processors, %zu wanted", t->source, ncand, o->nodes,
			 ppn, o->njobs);
		goto out;
	}
	if (o->offset >= 0) {
		while (k < ncand && t->jobs[cand[k]].submit < o->offset)
			k++;
		if (k + o->njobs > ncand) {
			snprintf(err, errlen, "%s: only %zu jobs that fit from "
				 "offset %g s, %zu wanted", t->source,
				 ncand - k, o->offset, o->njobs);
			goto out;
		}
		info->load = window_load(t, cand, k, o, ppn);
	} else {
		double best = -1;

		for (size_t w = 0; w + o->njobs <= ncand; w++) {
			double load = window_load(t, cand, w, o, ppn);

			if (load >= 0 && (best < 0 ||
			    fabs(load - o->target_load) <
			    fabs(info->load - o->target_load))) {
				best = load;
				info->load = load;
				k = w;
			}
		}
		if (best < 0) {
			snprintf(err, errlen, "%s: no window of %zu jobs "
				 "spanning some time with every job under "
				 "%g s once compressed", t->source, o->njobs,
				 o->max_runtime);
			goto out;
		}
	}
	out->jobs = calloc(o->njobs, sizeof(*out->jobs));
	if (!out->jobs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	double first = t->jobs[cand[k]].submit;
	for (size_t i = 0; i < o->njobs; i++)
		scale_job(&out->jobs[i], &t->jobs[cand[k + i]], first, o, ppn);
	out->njobs = o->njobs;
	out->format = TRACE_FORMAT_SWF;
	out->header_max_jobs = (long)o->njobs;
	out->header_max_procs = out->header_max_nodes = o->nodes;
	out->has_req_time = 1;
	snprintf(out->source, sizeof(out->source), "%s", t->source);
	info->first = cand[k];
	info->offset = first;
	info->procs_per_node = ppn;
	info->skipped_too_big = cand[k + o->njobs - 1] - cand[k] + 1 -
				o->njobs;
	rc = 0;
out:
	free(cand);
	return rc;
}
