/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_need.c - the scheduler's view of each job's CPU need in a replay:
 * declared, measured (need_predictor.h and the agent's measurement) or
 * none (sim_need.h; Liu et al. 2013, section 4.1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim_need.h"

static const char *names[] = { "declared", "measured", "none" };

int sim_need_matters(const char *policy)
{
	return !strcasecmp(policy, "cmcbf") || !strcasecmp(policy, "amcbf");
}

const char *sim_need_name(int source)
{
	return source >= 0 && source <= SIM_NEED_NONE ? names[source] : "?";
}

int sim_need_find(const char *name, int *source)
{
	for (int i = 0; i <= SIM_NEED_NONE; i++)
		if (!strcmp(name, names[i])) {
			*source = i;
			return 0;
		}
	return -1;
}

int sim_need_init(sim_need_t *n, const sim_workload_t *w, int source,
		  double default_need, double delay)
{
	size_t jobs = w->njobs ? w->njobs : 1;

	*n = (sim_need_t){ .source = source, .default_need = default_need,
			   .delay = delay, .w = w };
	n->off = malloc(jobs * sizeof(*n->off));
	size_t total = n->off ? sim_workload_process_offsets(w, n->off) : 0;
	n->view = malloc((total ? total : 1) * sizeof(*n->view));
	n->window = calloc(jobs, sizeof(*n->window));
	n->learned = malloc(jobs * sizeof(*n->learned));
	n->measured = calloc(jobs, 1);
	if (!n->off || !n->view || !n->window || !n->learned ||
	    !n->measured || need_predictor_init(&n->pred, 0)) {
		sim_need_free(n);
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++) {
		n->learned[i] = -1;
		memcpy(n->view + n->off[i], w->jobs[i].util,
		       (size_t)w->jobs[i].nodes * sizeof(double));
	}
	return 0;
}

void sim_need_free(sim_need_t *n)
{
	free(n->off);
	free(n->view);
	free(n->window);
	free(n->learned);
	free(n->measured);
	need_predictor_free(&n->pred);
	*n = (sim_need_t){ 0 };
}

double *sim_need_view(sim_need_t *n, size_t i)
{
	return n->view + n->off[i];
}

static void set_all(sim_need_t *n, size_t i, double v)
{
	double *view = sim_need_view(n, i);

	for (int p = 0; p < n->w->jobs[i].nodes; p++)
		view[p] = v;
}

/* The job's name for the history: its executable (SWF field 14), "" when
 * unknown.  A trace without users replays as one user (user -1). */
static void job_name(const sim_job_t *j, char name[24])
{
	name[0] = 0;
	if (j->app >= 0)
		snprintf(name, 24, "app%d", j->app);
}

static double predict(const sim_need_t *n, size_t i)
{
	const sim_job_t *j = &n->w->jobs[i];
	char name[24];

	job_name(j, name);
	return need_predictor_predict(&n->pred, (uint32_t)j->user, name,
				      n->default_need, NULL);
}

void sim_need_arrive(sim_need_t *n, size_t i)
{
	if (n->source == SIM_NEED_NONE)
		set_all(n, i, n->default_need);
	else if (n->source == SIM_NEED_MEASURED)
		set_all(n, i, predict(n, i));
}

void sim_need_placed(sim_need_t *n, size_t i, double now)
{
	n->window[i] = now;
}

void sim_need_running(sim_need_t *n, size_t i, int bg, double rate,
		      double now)
{
	if (n->source != SIM_NEED_MEASURED || now - n->window[i] < n->delay)
		return;
	const sim_job_t *j = &n->w->jobs[i];
	double *view = sim_need_view(n, i), most = 0;

	for (int p = 0; p < j->nodes; p++) {
		double seen = j->util[p] * rate;	/* CPU used / held */
		if (!bg || seen > view[p])
			view[p] = seen;
		if (seen > most)
			most = seen;
	}
	if (!bg) {
		n->measured[i] = 1;
		n->learned[i] = most;
	}
}

void sim_need_queued(sim_need_t *n, size_t i)
{
	if (n->source == SIM_NEED_MEASURED && !n->measured[i])
		set_all(n, i, predict(n, i));
}

void sim_need_finished(sim_need_t *n, size_t i)
{
	const sim_job_t *j = &n->w->jobs[i];
	char name[24];

	if (n->source != SIM_NEED_MEASURED || n->learned[i] < 0)
		return;
	job_name(j, name);
	need_predictor_observe(&n->pred, (uint32_t)j->user, name,
			       n->learned[i] > 1 ? 1 : n->learned[i]);
}

void sim_need_score(const sim_need_t *n, size_t i, sim_result_t *r)
{
	const sim_job_t *j = &n->w->jobs[i];
	const double *view = n->view + n->off[i];

	if (n->source != SIM_NEED_MEASURED)
		return;
	for (int p = 0; p < j->nodes; p++) {
		double err = view[p] - j->util[p];
		r->need_procs++;
		r->need_under += err < -1e-9;
		r->need_err_sum += err;
		r->need_abs_sum += fabs(err);
	}
}

int sim_need_predictor_changed(sim_need_t *n)
{
	int changed = n->pred.clock != n->pred_clock;

	n->pred_clock = n->pred.clock;
	return changed;
}
