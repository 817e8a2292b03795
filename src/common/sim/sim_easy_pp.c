/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_easy_pp.c - EASY++ in the replay (sim_easy_pp.h): the simulator's
 * event loop (sim_run_estimated) with the SJBF engine, whose estimates this
 * file sets from the per-user predictor of Tsafrir, Etsion & Feitelson
 * 2007: each arriving job gets its prediction (the mean of its user's last
 * two ended jobs' run times, at most its estimate), each running job that
 * reached its prediction gets it raised, and each job that ends adds its
 * run time to its user's history.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sched/runtime_predictor.h"
#include "sched/sched_sjf_backfill.h"
#include "sim_easy_pp.h"

typedef struct {
	const sim_workload_t *w;
	runtime_predictor_t history;
	int *steps;		/* per workload job: corrections so far */
} easy_pp_t;

static int before(void *ctx, sched_state_t *st)
{
	easy_pp_t *e = ctx;

	for (size_t j = 0; j < st->njobs; j++) {
		sched_job_t *job = &st->jobs[j];
		const sim_job_t *wj = &e->w->jobs[job->id];

		if (job->is_new)
			job->estimate = runtime_predictor_predict(
				&e->history, wj->user, wj->estimate);
		else if (job->where != SCHED_QUEUED)
			job->estimate = runtime_predictor_correct(
				job->estimate, st->now - job->started,
				wj->estimate, &e->steps[job->id]);
	}
	return 0;
}

static int ended(void *ctx, size_t n)
{
	easy_pp_t *e = ctx;

	return runtime_predictor_ended(&e->history, e->w->jobs[n].user,
				       e->w->jobs[n].runtime);
}

int sim_easy_pp(const sim_workload_t *w, const sim_model_t *m,
		sim_result_t *r, char *err, size_t errlen)
{
	easy_pp_t e = { .w = w };
	sim_estimator_t est = { &e, before, ended };
	int rc;

	runtime_predictor_init(&e.history);
	e.steps = calloc(w->njobs ? w->njobs : 1, sizeof(int));
	if (!e.steps) {
		snprintf(err, errlen, "out of memory");
		sim_result_start(r, m);
		sim_result_stop(r);
		return -1;
	}
	rc = sim_run_estimated(w, sched_sjf_backfill, &est, m, r, err,
			       errlen);
	free(e.steps);
	runtime_predictor_free(&e.history);
	return rc;
}
