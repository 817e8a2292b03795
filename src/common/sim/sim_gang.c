/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gang.c - gang scheduling drivers for dfrs sim (sim_gang.h): an event
 * loop with time slices around the Ousterhout matrix of gang.c
 * (Zhang et al. 2000 sections 2-3).
 *
 * Events are arrivals, completions and the ends of time slices.  At every
 * arrival or completion the matrix is compacted and the queue scheduled
 * (gang.c).  The active row's jobs run, each at full speed on its own
 * nodes; the others are suspended.  A slice lasts gang_slice seconds, then
 * the next occupied row (in row order, cyclically) becomes active; an
 * active row that empties hands over at once.  With one occupied row there
 * are no slices: its jobs run until the next arrival or completion, and an
 * idle machine jumps to the next arrival, so the work is per event, not per
 * second.  A job ends exactly when its run time reaches its runtime, mid-
 * slice if so, and frees its columns then.
 *
 * As sim_run() (sim_engine.c): first_start is when a job first runs (not
 * when it is placed in a row), busy CPU is each process's CPU usage times
 * the time its job runs, a migration (gang-migrate: Zhang et al.'s option 2,
 * checkpoint then restart on other nodes) adds migration_cost seconds of
 * work (capacity loss migration_cost x |A|), events are loop turns and
 * decisions the matrix's starts, moves and migrations.  Row switches are
 * not counted as preemptions (Slurm's gang suspends and resumes jobs
 * without requeueing them) and cost nothing: SIGSTOP/SIGCONT in Slurm, no
 * context-switch cost in Zhang et al. 2000.
 *
 * On a workload of hosts (sim_workload_t.nhosts: --cpus-per-node, dfrs
 * advise) a column is a CPU of a host and the matrix places each job on
 * its request's hosts, memory and GPUs (gang.h: the host layer), as
 * Slurm's gang time-slices the cores of select/cons_tres.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/gang.h"
#include "sim_gang.h"

typedef struct {
	const sim_workload_t *w;
	const sim_model_t *m;
	const sim_gang_opts_t *o;
	sim_result_t *r;
	gang_matrix_t mx;
	sched_state_t view;	/* on hosts: the matrix's host layer */
	gang_job_t *jobs;	/* one per workload job */
	int *col_pool;		/* every job's cols[] */
	double *remaining;	/* seconds of work left */
	double *cpu;		/* CPU usage of all its processes */
	int *members;		/* jobs in the matrix */
	size_t nmembers;
	int *queue;		/* waiting jobs, arrival order */
	size_t nqueue;
	gang_decisions_t dec;
	double now, slice, slice_end;
	int cur;		/* the active row */
	int budget;		/* tasks that may still migrate this slice */
	size_t next;		/* next arrival */
	size_t finished;
} gang_sim_t;

static void start_slice(gang_sim_t *s)
{
	s->slice_end = s->now + s->slice;
	s->budget = s->o->migrate ? (int)s->m->gang_migrate_q : 0;
}

/* The earliest event: an arrival, the active row's first completion (its
 * job in *first) or the end of the slice when rows take turns. */
static double next_event(const gang_sim_t *s, int *first)
{
	double t = s->next < s->w->njobs ? s->w->jobs[s->next].arrival
					 : INFINITY;
	*first = -1;
	if (gang_rows_used(&s->mx) >= 2 && s->slice_end < t)
		t = s->slice_end;
	for (size_t i = 0; i < s->nmembers; i++) {
		int j = s->members[i];
		if (s->jobs[j].row == s->cur &&
		    s->now + s->remaining[j] < t) {
			t = s->now + s->remaining[j];
			*first = j;
		}
	}
	return t < s->now ? s->now : t;
}

/* The active row's jobs run from now to t. */
static int advance(gang_sim_t *s, double t)
{
	double dt = t - s->now, cpu = 0;
	for (size_t i = 0; i < s->nmembers && dt > 0; i++) {
		int j = s->members[i];
		if (s->jobs[j].row != s->cur)
			continue;
		s->remaining[j] -= dt;
		s->jobs[j].ran += dt;
		cpu += s->cpu[j];
		if (s->r->jobs[j].first_start < 0)
			s->r->jobs[j].first_start = s->now;
	}
	if (sim_result_add_busy(s->r, s->now, t, cpu))
		return -1;
	s->now = t;
	return 0;
}

/* The active row's jobs whose work is done leave; how many. */
static int complete(gang_sim_t *s, int first)
{
	int n = 0;
	for (size_t i = 0; i < s->nmembers;) {
		int j = s->members[i];
		if (s->jobs[j].row != s->cur ||
		    (j != first && s->remaining[j] > 1e-6)) {
			i++;
			continue;
		}
		sim_job_result_t *res = &s->r->jobs[j];
		if (res->first_start < 0)
			res->first_start = s->now;
		sim_result_finish(s->r, j, s->now);
		gang_remove(&s->mx, s->jobs, j);
		s->members[i] = s->members[--s->nmembers];
		s->finished++;
		n++;
	}
	return n;
}

static int arrive(gang_sim_t *s)
{
	int n = 0;
	for (; s->next < s->w->njobs &&
	       s->w->jobs[s->next].arrival <= s->now; s->next++, n++)
		s->queue[s->nqueue++] = (int)s->next;
	return n;
}

/* Compact, schedule the queue, and apply the decisions. */
static int schedule(gang_sim_t *s)
{
	s->dec.count = 0;
	if (gang_compact(&s->mx, s->jobs, s->members, s->nmembers, s->cur,
			 &s->budget, &s->dec) ||
	    gang_fill(&s->mx, s->jobs, s->queue, &s->nqueue, s->o->backfill,
		      &s->dec))
		return -1;
	for (size_t i = 0; i < s->dec.count; i++) {
		const gang_decision_t *d = &s->dec.items[i];
		if (d->action == GANG_START)
			s->members[s->nmembers++] = d->job;
		else if (d->action == GANG_MIGRATE) {
			s->remaining[d->job] += s->m->migration_cost;
			s->r->jobs[d->job].migrations++;
		}
	}
	s->r->decisions += s->dec.count;
	return 0;
}

/* An emptied active row hands over; one occupied row runs untimed. */
static void settle(gang_sim_t *s)
{
	int k = gang_rows_used(&s->mx);
	if (k == 0) {
		s->slice_end = INFINITY;
		return;
	}
	if (s->mx.used[s->cur] == 0) {
		s->cur = gang_next_row(&s->mx, s->cur);
		start_slice(s);
	}
	if (k == 1)
		s->slice_end = INFINITY;
	else if (isinf(s->slice_end))
		start_slice(s);
}

/* The matrix's jobs (running or in their rows' off slices, as Slurm's
 * gang scheduler shows them running and suspended) into the drift guard:
 * their run stretch from the work they did. */
static void feed_drift(gang_sim_t *s)
{
	stretch_drift_sum_t sum = { 0 };

	for (size_t i = 0; i < s->nmembers; i++) {
		int j = s->members[i];

		sim_result_drift_add(s->r, &sum, (size_t)j, s->now,
				     s->w->jobs[j].runtime - s->remaining[j]);
	}
	sim_result_drift(s->r, s->now, &sum);
}

static int run(gang_sim_t *s, char *err, size_t errlen)
{
	while (s->finished < s->w->njobs) {
		int first, rows = gang_rows_used(&s->mx);
		double t = next_event(s, &first);
		if (isinf(t) && s->nqueue) {
			const sim_job_t *head = &s->w->jobs[s->queue[0]];
			char why[96];

			snprintf(why, sizeof(why), "job %ld needs %d of %d nodes",
				 head->id, head->nodes, s->w->nodes);
			sim_stalled(err, errlen, s->now, s->nqueue, why);
			return -1;
		}
		if (isinf(t)) {
			sim_stalled(err, errlen, s->now, 0, "driver bug");
			return -1;
		}
		if (advance(s, t))
			goto oom;
		int changed = complete(s, first) + arrive(s);
		if (rows >= 2 && s->now >= s->slice_end) {
			s->cur = gang_next_row(&s->mx, s->cur);
			start_slice(s);
		}
		if (changed && schedule(s))
			goto oom;
		settle(s);
		feed_drift(s);
		s->r->events++;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

static int check_model(const sim_workload_t *w, const sim_model_t *m,
		       char *err, size_t errlen)
{
	if (!(m->gang_mpl >= 1 && m->gang_mpl <= 1024 &&
	      m->gang_mpl == floor(m->gang_mpl))) {
		snprintf(err, errlen, "gang_mpl=%g must be a whole number "
			 "from 1 to 1024", m->gang_mpl);
		return -1;
	}
	if (!(m->gang_slice >= 0.001 && isfinite(m->gang_slice))) {
		snprintf(err, errlen, "gang_slice=%g must be at least 0.001 s",
			 m->gang_slice);
		return -1;
	}
	if (!(m->gang_migrate_q >= 0 && m->gang_migrate_q <= 1e9)) {
		snprintf(err, errlen, "gang_migrate_q=%g must be 0..1e9",
			 m->gang_migrate_q);
		return -1;
	}
	if (w->nodes < 1 || w->njobs > (size_t)0x7fffffff) {
		snprintf(err, errlen, "workload of %zu jobs on %d nodes is "
			 "out of range", w->njobs, w->nodes);
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++)
		if (w->jobs[i].nodes < 1) {
			snprintf(err, errlen, "job %ld needs %d nodes",
				 w->jobs[i].id, w->jobs[i].nodes);
			return -1;
		}
	return 0;
}

/* On hosts: the view gang.h's host layer fits and accounts on, a slot per
 * column, a sched_job_t per workload job over its columns. */
static int setup_hosts(gang_sim_t *s)
{
	const sim_workload_t *w = s->w;
	sched_state_t *v = &s->view;
	size_t n = w->njobs ? w->njobs : 1;
	int *slot_host = malloc((size_t)w->nodes * sizeof(*slot_host));

	v->nnodes = w->nodes;
	v->nhosts = w->nhosts;
	v->hosts = calloc((size_t)w->nhosts, sizeof(*v->hosts));
	v->nodes = malloc((size_t)w->nodes * sizeof(*v->nodes));
	v->jobs = calloc(n, sizeof(*v->jobs));
	v->slot_host = slot_host;
	if (!slot_host || !v->hosts || !v->nodes || !v->jobs)
		return -1;
	for (int h = 0; h < w->nhosts; h++)
		v->hosts[h] = (sched_host_t){ .cpus = w->cpus_per_node,
					      .mem = w->host_mem_mb,
					      .gpus = w->host_gpus };
	sched_hosts_layout(v->hosts, w->nhosts, slot_host);
	for (int c = 0; c < w->nodes; c++)
		v->nodes[c] = (sched_node_t){ -1, -1, -1, -1 };
	for (size_t i = 0; i < w->njobs; i++)
		v->jobs[i] = (sched_job_t){ .id = (long)i,
					    .nodes = w->jobs[i].nodes,
					    .estimate = w->jobs[i].estimate,
					    .alloc = s->jobs[i].cols,
					    .req = w->jobs[i].req };
	v->njobs = w->njobs;
	s->mx.hosts = v;
	return 0;
}

/* Per-job arrays; every job's columns in one pool. */
static int setup(gang_sim_t *s)
{
	const sim_workload_t *w = s->w;
	size_t n = w->njobs ? w->njobs : 1, total = 0;
	for (size_t i = 0; i < w->njobs; i++)
		total += w->jobs[i].nodes > 0 ? (size_t)w->jobs[i].nodes : 0;
	s->r->jobs = malloc(n * sizeof(*s->r->jobs));
	s->jobs = malloc(n * sizeof(*s->jobs));
	s->col_pool = malloc((total ? total : 1) * sizeof(*s->col_pool));
	s->remaining = malloc(n * sizeof(*s->remaining));
	s->cpu = malloc(n * sizeof(*s->cpu));
	s->members = malloc(n * sizeof(*s->members));
	s->queue = malloc(n * sizeof(*s->queue));
	if (!s->r->jobs || !s->jobs || !s->col_pool || !s->remaining ||
	    !s->cpu || !s->members || !s->queue ||
	    gang_matrix_init(&s->mx, (int)s->m->gang_mpl, w->nodes))
		return -1;
	int *cols = s->col_pool;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *wj = &w->jobs[i];
		s->r->jobs[i] = (sim_job_result_t){ .first_start = -1,
						    .finish = -1 };
		s->jobs[i] = (gang_job_t){ .nodes = wj->nodes, .row = -1,
					   .cols = cols,
					   .estimate = wj->estimate };
		cols += wj->nodes > 0 ? wj->nodes : 0;
		s->remaining[i] = wj->runtime;
		s->cpu[i] = 0;
		for (int p = 0; p < wj->nodes; p++)
			s->cpu[i] += wj->util[p];
	}
	s->slice = s->m->gang_slice;
	s->slice_end = INFINITY;
	return w->nhosts > 0 ? setup_hosts(s) : 0;
}

static void teardown(gang_sim_t *s)
{
	gang_matrix_free(&s->mx);
	free(s->view.hosts);
	free(s->view.nodes);
	free(s->view.jobs);
	free((int *)s->view.slot_host);
	gang_decisions_free(&s->dec);
	free(s->jobs);
	free(s->col_pool);
	free(s->remaining);
	free(s->cpu);
	free(s->members);
	free(s->queue);
}


int sim_gang_run(const sim_workload_t *w, const sim_model_t *m,
		 const sim_gang_opts_t *o, sim_result_t *r, char *err,
		 size_t errlen)
{
	sim_result_start(r, m);
	r->njobs = w->njobs;
	gang_sim_t s = { .w = w, .m = m, .o = o, .r = r };
	int rc = check_model(w, m, err, errlen);
	if (!rc && setup(&s)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	if (!rc)
		rc = run(&s, err, errlen);
	teardown(&s);
	if (rc)
		sim_result_free(r);
	sim_result_stop(r);
	return rc;
}

int sim_gang_plain(const sim_workload_t *w, const sim_model_t *m,
		   sim_result_t *r, char *err, size_t errlen)
{
	static const sim_gang_opts_t o = { .backfill = 0, .migrate = 0 };
	return sim_gang_run(w, m, &o, r, err, errlen);
}

int sim_gang_backfill(const sim_workload_t *w, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen)
{
	static const sim_gang_opts_t o = { .backfill = 1, .migrate = 0 };
	return sim_gang_run(w, m, &o, r, err, errlen);
}

int sim_gang_migrate(const sim_workload_t *w, const sim_model_t *m,
		     sim_result_t *r, char *err, size_t errlen)
{
	static const sim_gang_opts_t o = { .backfill = 1, .migrate = 1 };
	return sim_gang_run(w, m, &o, r, err, errlen);
}
