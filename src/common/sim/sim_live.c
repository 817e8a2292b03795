/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_live.c - a live run's jobcomp records as a simulator result
 * (sim_live.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_live.h"

void sim_live_free(sim_workload_t *live)
{
	free(live->jobs);	/* util points into the simulated workload */
	*live = (sim_workload_t){ 0 };
}

const char *sim_live_predicted(const char *live_name)
{
	if (!strcmp(live_name, "slurm-backfill"))
		return "easy";
	if (!strncmp(live_name, "slurm-", 6) && live_name[6])
		return live_name + 6;
	return NULL;
}

/* Index in w of the job named name, or -1. */
static long job_index(const sim_workload_t *w, const char *name)
{
	char *end;
	long id;

	errno = 0;
	id = strtol(name, &end, 10);
	if (end == name || *end || errno)
		return -1;
	for (size_t i = 0; i < w->njobs; i++)
		if (w->jobs[i].id == id)
			return (long)i;
	return -1;
}

static int is_lost_run(const char *state)
{
	return !strcmp(state, "PREEMPTED") || !strcmp(state, "REQUEUED");
}

/* One line naming the jobs without a COMPLETED record (at most 10). */
static void name_missing(const sim_workload_t *w, const jobcomp_t *jc,
			 const long *final, const char *const *last,
			 char *err, size_t errlen)
{
	size_t missing = 0, used;

	for (size_t i = 0; i < w->njobs; i++)
		missing += final[i] < 0;
	used = (size_t)snprintf(err, errlen, "%s: %zu of %zu jobs did not "
				"complete:", jc->source, missing, w->njobs);
	for (size_t i = 0, k = 0; i < w->njobs && used < errlen; i++) {
		if (final[i] >= 0)
			continue;
		if (k++ == 10) {
			snprintf(err + used, errlen - used, " ...");
			break;
		}
		used += (size_t)snprintf(err + used, errlen - used, " %ld (%s)",
					 w->jobs[i].id,
					 last[i] ? last[i] : "no record");
	}
}

/* Check every record and find each job's COMPLETED one (final) and its
 * last state; the time origin is the earliest SubmitTime. */
static int match(const sim_workload_t *w, const jobcomp_t *jc, long *final,
		 const char **last, double *origin, char *err, size_t errlen)
{
	*origin = -1;
	for (size_t i = 0; i < w->njobs; i++)
		final[i] = -1;
	for (size_t k = 0; k < jc->n; k++) {
		const jobcomp_rec_t *rec = &jc->recs[k];
		long i = job_index(w, rec->name);

		if (i < 0) {
			snprintf(err, errlen, "%s:%zu: JobId=%ld Name=%s is no "
				 "job of the workload", jc->source, rec->line,
				 rec->job_id, rec->name);
			return -1;
		}
		if (!strcmp(rec->state, "COMPLETED")) {
			if (final[i] >= 0) {
				snprintf(err, errlen, "%s:%zu: job %s completed "
					 "twice (also line %zu)", jc->source,
					 rec->line, rec->name,
					 jc->recs[final[i]].line);
				return -1;
			}
			if (rec->start < 0 || rec->end < rec->start) {
				snprintf(err, errlen, "%s:%zu: job %s completed "
					 "without a start and an end",
					 jc->source, rec->line, rec->name);
				return -1;
			}
			final[i] = (long)k;
		}
		last[i] = rec->state;
		if (rec->submit >= 0 && (*origin < 0 || rec->submit < *origin))
			*origin = rec->submit;
	}
	for (size_t i = 0; i < w->njobs; i++)
		if (final[i] < 0) {
			name_missing(w, jc, final, last, err, errlen);
			return -1;
		}
	return 0;
}

static double job_cpu(const sim_job_t *j)
{
	double cpu = 0;

	for (int p = 0; p < j->nodes; p++)
		cpu += j->util[p];
	return cpu;
}

/* Every record of job i into *r and its arrival into *lj. */
static int add_runs(const sim_workload_t *w, const jobcomp_t *jc, size_t i,
		    double origin, sim_job_t *lj, sim_result_t *r)
{
	sim_job_result_t *res = &r->jobs[i];
	double submit = -1;

	res->first_start = -1;
	for (size_t k = 0; k < jc->n; k++) {
		const jobcomp_rec_t *rec = &jc->recs[k];

		if (job_index(w, rec->name) != (long)i)
			continue;
		if (rec->submit >= 0 && (submit < 0 || rec->submit < submit))
			submit = rec->submit;
		if (rec->start < 0)
			continue;
		if (res->first_start < 0 || rec->start - origin < res->first_start)
			res->first_start = rec->start - origin;
		/* a run does no more work than the job's run time: under
		 * gang scheduling or a DFRS yield a job shares its nodes (and
		 * jobcomp has no suspended time), so end - start overstates
		 * it; utilization counts the work, spread evenly over the run
		 * (at full rate from the start it would show the run's nodes
		 * busy first and idle later, while the job still held them) */
		double span = rec->end - rec->start;
		double work = span > lj->runtime ? lj->runtime : span;
		if (span > 0 &&
		    sim_result_add_busy(r, rec->start - origin,
					rec->end - origin,
					job_cpu(lj) * work / span))
			return -1;
		if (is_lost_run(rec->state)) {
			res->preemptions++;
			res->migrations++;
		} else if (!strcmp(rec->state, "COMPLETED")) {
			sim_result_finish(r, i, rec->end - origin);
		}
	}
	lj->arrival = submit >= 0 ? submit - origin : lj->arrival;
	return 0;
}

int sim_live_result(const sim_workload_t *w, const jobcomp_t *jc,
		    const sim_model_t *m, sim_workload_t *live,
		    sim_result_t *r, char *err, size_t errlen)
{
	size_t n = w->njobs ? w->njobs : 1;
	long *final = malloc(n * sizeof(*final));
	const char **last = calloc(n, sizeof(*last));
	double origin;
	int rc = -1;

	*live = *w;
	live->util_pool = NULL;
	live->jobs = malloc(n * sizeof(*live->jobs));
	sim_result_start(r, m);
	r->njobs = w->njobs;
	r->jobs = calloc(n, sizeof(*r->jobs));
	if (!final || !last || !live->jobs || !r->jobs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (match(w, jc, final, last, &origin, err, errlen))
		goto out;
	memcpy(live->jobs, w->jobs, w->njobs * sizeof(*live->jobs));
	for (size_t i = 0; i < w->njobs; i++)
		if (add_runs(w, jc, i, origin, &live->jobs[i], r)) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	rc = 0;
out:
	if (rc) {
		sim_live_free(live);
		sim_result_free(r);
	}
	r->wall_seconds = 0;
	free(final);
	free(last);
	return rc;
}
