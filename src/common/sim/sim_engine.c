/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_engine.c - discrete-event replay of a workload through a decision
 * engine (sim_engine.h).  Events are job arrivals and completions; between
 * two events every running job progresses at a constant rate, Liu et al.'s
 * model (section 5.1):
 *
 *   fg job: 1, or 1 - o when a bg job shares one of its nodes, o drawn
 *     uniform in 0..fg_overhead_max (3.7 %) each time it is placed;
 *   bg process: 1 if the fg slot of its node is idle, else eff when the
 *     idle CPU (1 - fg usage) covers its usage, else eff * idle / usage;
 *     eff drawn each time the job is placed in bg: uniform 0.8..1 for one
 *     process, normal(0.428, 0.144) clipped to 0.2..0.8 for more;
 *   a job progresses at the rate of its slowest process.
 * The seed draws eff and the overhead per time slice; drawing them per
 * placement keeps the event count independent of any slice length with the
 * same means (doc/simulator.md).  A job resumed from its checkpoint or
 * moved to other nodes pays migration_cost seconds of extra work.
 * Busy CPU: each process uses its CPU usage times its job's rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim_engine.h"
#include "sim_need.h"
#include "sim_random.h"

void sim_model_defaults(sim_model_t *m)
{
	sched_config_defaults(&m->sched);
	m->migration_cost = 20.0;
	m->fg_overhead_max = 0.037;
	m->eff_single_lo = 0.8;
	m->eff_single_hi = 1.0;
	m->eff_multi_mu = 0.428;
	m->eff_multi_sigma = 0.144;
	m->eff_multi_lo = 0.2;
	m->eff_multi_hi = 0.8;
	m->ideal = 0;
	m->bucket_seconds = 3600.0;
	m->dfrs_mem_lo = 0.1;
	m->dfrs_mem_hi = 0.5;
	m->dfrs_repack_drift = 0.0;
	m->dfrs_repack_algorithms = 14;
	m->dfrs_repack_tolerance = 0.0;
	m->dfrs_requeue = 1;		/* as amcbf_mode=dfrs live */
	m->dfrs_ckpt_share = 0.0;
	m->dfrs_max_requeues = 3.0;	/* amcbf_max_preempt's */
	m->dfrs_min_runtime = 0.0;	/* amcbf_min_runtime's */
	m->dfrs_starve_bsld = 1000.0;	/* amcbf_dfrs_starve_bsld's */
	m->dfrs_wide_share = 0.25;	/* amcbf_dfrs_wide_share's */
	m->dfrs_long_time = 3600.0;	/* amcbf_dfrs_long_time's */
	m->dfrs_long_min_yield = 0.75;	/* amcbf_dfrs_long_min_yield's */
	m->dfrs_period = 600.0;		/* amcbf_dfrs_period's */
	m->dfrs_minvt = 600.0;		/* amcbf_dfrs_minvt's */
	m->dfrs_min_yield = 0.25;	/* dfrs_min_yield's */
	m->gang_mpl = 4;		/* Slurm's OverSubscribe=FORCE (FORCE:4) */
	m->gang_slice = 30.0;		/* Slurm's SchedulerTimeSlice default */
	m->gang_migrate_q = 64;	/* Zhang et al.'s Q */
	m->need_source = 0;		/* declared: the trace's needs */
	m->need_default = 1.0;		/* dfrs_cpu_need's default */
	m->need_delay = 60.0;
	stretch_drift_config_t dc;
	stretch_drift_defaults(&dc);
	m->drift_window = dc.window;
	m->drift_factor = dc.factor;
	m->drift_min_work = dc.min_work;
	m->seed = 1;
}

typedef struct {
	size_t w;		/* index in the workload */
	double remaining;	/* dedicated seconds of work left */
	double rate;		/* progress per second now */
	double cpu_rate;	/* CPU used per second now, all processes */
	double eff;		/* bg efficiency of the current placement */
	double overhead;	/* fg overhead of the current placement */
	int ran;		/* has run: its next start is a resume */
} active_t;

typedef struct {
	const sim_workload_t *w;
	const sim_model_t *m;
	sim_result_t *r;
	sched_state_t st;
	active_t *act;		/* parallel to st.jobs */
	int *alloc_pool;	/* every job's alloc[], at alloc_off[job] */
	size_t *alloc_off;
	size_t *map;		/* compaction scratch */
	sim_random_t rng;
	sched_where_t head;	/* where the earliest job of Q u J_bg is since
				   the last event; SCHED_RUNNING_FG: none */
	sim_need_t need;	/* the needs the engine sees (sim_need.h) */
	const sim_estimator_t *est;	/* NULL: the workload's estimates */
	int est_failed;		/* est->ended ran out of memory */
} sim_t;

int sim_result_add_busy(sim_result_t *r, double t0, double t1,
			double cpu_rate)
{
	if (cpu_rate <= 0 || t1 <= t0)
		return 0;
	r->busy_cpu_seconds += cpu_rate * (t1 - t0);
	double width = r->bucket_seconds;
	size_t last = (size_t)(t1 / width);
	if (last >= r->nbuckets) {
		size_t n = r->nbuckets ? r->nbuckets : 64;
		while (n <= last)
			n *= 2;
		double *b = realloc(r->busy_buckets, n * sizeof(*b));
		if (!b)
			return -1;
		memset(b + r->nbuckets, 0, (n - r->nbuckets) * sizeof(*b));
		r->busy_buckets = b;
		r->nbuckets = n;
	}
	for (size_t k = (size_t)(t0 / width); k <= last; k++) {
		double lo = fmax(t0, (double)k * width);
		double hi = fmin(t1, (double)(k + 1) * width);
		if (hi > lo)
			r->busy_buckets[k] += cpu_rate * (hi - lo);
	}
	return 0;
}

static void draw_placement(sim_t *s, size_t j)
{
	const sim_model_t *m = s->m;
	active_t *a = &s->act[j];
	a->overhead = sim_random_uniform(&s->rng, 0, m->fg_overhead_max);
	a->eff = s->st.jobs[j].nodes == 1
		? sim_random_uniform(&s->rng, m->eff_single_lo, m->eff_single_hi)
		: sim_random_normal_clipped(&s->rng, m->eff_multi_mu,
					    m->eff_multi_sigma,
					    m->eff_multi_lo, m->eff_multi_hi);
}

/* The CPU the fg process on node n really uses (the engine sees the
 * need sim_need.h gives it, which may differ). */
static double true_fg_util(const sim_t *s, int n)
{
	const sched_node_t *node = &s->st.nodes[n];

	if (node->fg_job < 0)
		return 0;
	return s->w->jobs[s->act[node->fg_job].w].util[node->fg_proc];
}

static void compute_rates(sim_t *s)
{
	const sched_state_t *st = &s->st;
	for (size_t j = 0; j < st->njobs; j++) {
		const sched_job_t *job = &st->jobs[j];
		active_t *a = &s->act[j];
		a->rate = 0;
		a->cpu_rate = 0;
		if (job->where == SCHED_QUEUED)
			continue;
		const double *util = s->w->jobs[a->w].util;	/* true */
		double rate = 1.0;
		for (int p = 0; p < job->nodes && !s->m->ideal; p++) {
			int n = job->alloc[p];
			double r = 1.0;
			if (job->where == SCHED_RUNNING_FG) {
				if (st->nodes[n].bg_job >= 0)
					r = 1.0 - a->overhead;
			} else if (st->nodes[n].fg_job >= 0) {
				double idle = 1.0 - true_fg_util(s, n);
				double need = util[p];
				r = idle >= need ? a->eff
						 : a->eff * idle / need;
			}
			if (r < rate)
				rate = r;
		}
		a->rate = rate;
		double usage = 0;
		for (int p = 0; p < job->nodes; p++)
			usage += util[p];
		a->cpu_rate = usage * rate;
	}
}

/* Apply the engine's decisions to progress and counters. */
static void account(sim_t *s, const sched_decisions_t *d)
{
	for (size_t i = 0; i < d->count; i++) {
		const sched_decision_t *dec = &d->items[i];
		active_t *a = &s->act[dec->job];
		sim_job_result_t *res = &s->r->jobs[a->w];
		if (dec->action != SCHED_REQUEUE)
			sim_need_placed(&s->need, a->w, s->st.now);
		switch (dec->action) {
		case SCHED_START:
			if (a->ran) {
				res->migrations++;
				a->remaining += s->m->migration_cost;
			}
			if (res->first_start < 0) {
				res->first_start = s->st.now;
				sim_need_score(&s->need, a->w, s->r);
			}
			a->ran = 1;
			draw_placement(s, dec->job);
			break;
		case SCHED_REQUEUE:
			res->preemptions++;
			break;
		case SCHED_TO_FG:
			if (dec->moved > 0) {
				res->migrations++;
				a->remaining += s->m->migration_cost;
			}
			draw_placement(s, dec->job);
			break;
		case SCHED_TO_BG:
			draw_placement(s, dec->job);
			break;
		}
	}
	s->r->decisions += d->count;
}

/* Drop the finished jobs from the active arrays, renumbering nodes. */
static void compact(sim_t *s, const char *done)
{
	sched_state_t *st = &s->st;
	size_t kept = 0;
	for (size_t j = 0; j < st->njobs; j++) {
		s->map[j] = kept;
		if (done[j])
			continue;
		st->jobs[kept] = st->jobs[j];
		s->act[kept] = s->act[j];
		kept++;
	}
	if (kept == st->njobs)
		return;
	for (int n = 0; n < st->nnodes; n++) {
		sched_node_t *node = &st->nodes[n];
		if (node->fg_job >= 0)
			node->fg_job = (int)s->map[node->fg_job];
		if (node->bg_job >= 0)
			node->bg_job = (int)s->map[node->bg_job];
	}
	st->njobs = kept;
}

/* Where the earliest job not in fg is (SCHED_RUNNING_FG: none). */
static sched_where_t head_where(const sched_state_t *st)
{
	for (size_t j = 0; j < st->njobs; j++)
		if (st->jobs[j].where != SCHED_RUNNING_FG)
			return st->jobs[j].where;
	return SCHED_RUNNING_FG;
}

static double monotonic_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void sim_result_start(sim_result_t *r, const sim_model_t *m)
{
	*r = (sim_result_t){ 0 };
	r->clock_start = monotonic_seconds();
	r->bucket_seconds = m->bucket_seconds > 0 ? m->bucket_seconds : 3600;
	stretch_drift_config_t dc;
	char err[128];
	stretch_drift_defaults(&dc);
	dc.window = m->drift_window;
	dc.factor = m->drift_factor;
	dc.min_work = m->drift_min_work;
	if (stretch_drift_check(&dc, err, sizeof(err)))
		dc.window = 0;	/* a model not from sim_model_defaults: off */
	stretch_drift_init(&r->drift, &dc);
}

void sim_result_drift_add(const sim_result_t *r, stretch_drift_sum_t *s,
			  size_t i, double t, double work)
{
	if (r->jobs[i].first_start >= 0)
		(void)stretch_drift_add(s, t - r->jobs[i].first_start, work,
					r->drift.cfg.min_work);
}

void sim_result_drift(sim_result_t *r, double t,
		      const stretch_drift_sum_t *s)
{
	(void)stretch_drift_feed(&r->drift, t, s);
}

void sim_result_finish(sim_result_t *r, size_t i, double t)
{
	r->jobs[i].finish = t;
	if (t > r->makespan)
		r->makespan = t;
}

void sim_stalled(char *err, size_t errlen, double now, size_t waiting,
		 const char *why)
{
	if (waiting)
		snprintf(err, errlen, "simulation stalled at t=%.0f s: %zu "
			 "jobs wait on an idle machine (%s)", now, waiting,
			 why);
	else
		snprintf(err, errlen, "simulation stalled at t=%.0f s (%s)",
			 now, why);
}

void sim_result_stop(sim_result_t *r)
{
	r->wall_seconds = monotonic_seconds() - r->clock_start;
	r->drift_seconds = stretch_drift_seconds(&r->drift, r->makespan);
}

/* Before the engine decides: what the agents measured, what the
 * predictor now says for the jobs that wait. */
static void update_needs(sim_t *s)
{
	const sched_state_t *st = &s->st;
	int learned = sim_need_predictor_changed(&s->need);

	for (size_t j = 0; j < st->njobs; j++) {
		size_t w = s->act[j].w;
		if (st->jobs[j].where == SCHED_QUEUED) {
			if (learned)
				sim_need_queued(&s->need, w);
		} else {
			sim_need_running(&s->need, w,
					 st->jobs[j].where == SCHED_RUNNING_BG,
					 s->act[j].rate, st->now);
		}
	}
}

/* When the next event is, arrival (the workload's job next) or the end
 * of a running job (*first, else (size_t)-1); INFINITY if none. */
static double next_event(const sim_t *s, size_t next, size_t *first)
{
	const sim_workload_t *w = s->w;
	const sched_state_t *st = &s->st;
	double t_arrival = next < w->njobs ? w->jobs[next].arrival : INFINITY;
	double t_finish = INFINITY;

	*first = (size_t)-1;
	for (size_t j = 0; j < st->njobs; j++)
		if (s->act[j].rate > 0) {
			double t = st->now +
				   s->act[j].remaining / s->act[j].rate;
			if (t < t_finish) {
				t_finish = t;
				*first = j;
			}
		}
	if (t_arrival < t_finish)
		*first = (size_t)-1;	/* nobody is due yet */
	return fmin(t_arrival, t_finish);
}

/* Every job's progress and the time it spends in each tier, from now to
 * t; the clock moves to t.  0, or -1 out of memory. */
static int progress(sim_t *s, double t)
{
	sched_state_t *st = &s->st;
	sim_result_t *r = s->r;
	double cpu = 0, dt = t - st->now;

	for (size_t j = 0; j < st->njobs; j++) {
		active_t *a = &s->act[j];
		a->remaining -= a->rate * dt;
		cpu += a->cpu_rate;
		sim_job_result_t *res = &r->jobs[a->w];
		if (st->jobs[j].where == SCHED_RUNNING_FG)
			res->fg_seconds += dt;
		else if (st->jobs[j].where == SCHED_RUNNING_BG)
			res->bg_seconds += dt;
	}
	if (s->head == SCHED_QUEUED)
		r->head_queued_seconds += dt;
	else if (s->head == SCHED_RUNNING_BG)
		r->head_bg_seconds += dt;
	if (sim_result_add_busy(r, st->now, t, cpu))
		return -1;
	st->now = t;
	return 0;
}

/* The jobs that end at t (first, and any with no work left) leave the
 * machine, counted in *finished; the events they make. */
static unsigned departures(sim_t *s, size_t first, double t, char *done,
			   size_t *finished)
{
	sched_state_t *st = &s->st;
	unsigned events = 0;

	memset(done, 0, st->njobs);
	for (size_t j = 0; j < st->njobs; j++) {
		active_t *a = &s->act[j];
		if (st->jobs[j].where == SCHED_QUEUED ||
		    (j != first && a->remaining > 1e-6))
			continue;
		events |= st->jobs[j].where == SCHED_RUNNING_BG
			? SCHED_EV_BG_DEPARTURE : SCHED_EV_FG_DEPARTURE;
		/* the agent's last report before the end */
		sim_need_running(&s->need, a->w,
				 st->jobs[j].where == SCHED_RUNNING_BG,
				 a->rate, t);
		sched_release(st, j);
		sim_result_finish(s->r, a->w, t);
		sim_need_finished(&s->need, a->w);
		if (s->est && s->est->ended(s->est->ctx, a->w))
			s->est_failed = 1;
		done[j] = 1;
		(*finished)++;
	}
	compact(s, done);
	return events;
}

/* The workload's jobs from *next that have arrived by t join the queue;
 * the events they make. */
static unsigned arrivals(sim_t *s, size_t *next, double t)
{
	const sim_workload_t *w = s->w;
	sched_state_t *st = &s->st;
	unsigned events = 0;

	for (; *next < w->njobs && w->jobs[*next].arrival <= t; (*next)++) {
		size_t n = *next;
		const sim_job_t *wj = &w->jobs[n];
		sched_job_t *job = &st->jobs[st->njobs];
		*job = (sched_job_t){
			.id = (long)n, .arrival = wj->arrival,
			.nodes = wj->nodes,
			.util = sim_need_view(&s->need, n),
			.estimate = wj->estimate, .is_new = 1,
			.where = SCHED_QUEUED,
			.alloc = s->alloc_pool + s->alloc_off[n],
			.req = wj->req,
		};
		s->act[st->njobs] = (active_t){ .w = n,
			.remaining = wj->runtime };
		sim_need_arrive(&s->need, n);
		st->njobs++;
		events |= SCHED_EV_ARRIVAL;
	}
	return events;
}

/* The running jobs' run stretch into the drift guard: work done is the
 * runtime less the work left (a resume's migration cost makes it less). */
static void feed_drift(sim_t *s, double t)
{
	const sched_state_t *st = &s->st;
	stretch_drift_sum_t sum = { 0 };

	for (size_t j = 0; j < st->njobs; j++) {
		const active_t *a = &s->act[j];

		if (st->jobs[j].where != SCHED_QUEUED)
			sim_result_drift_add(s->r, &sum, a->w, t,
					     s->w->jobs[a->w].runtime -
					     a->remaining);
	}
	sim_result_drift(s->r, t, &sum);
}

/* Event after event until every job has finished: progress to the next
 * event, departures, arrivals, then the engine decides and the rates
 * follow its decisions. */
static int run(sim_t *s, sched_engine_fn engine, char *err, size_t errlen)
{
	const sim_workload_t *w = s->w;
	sched_state_t *st = &s->st;
	sched_decisions_t dec = { 0 };
	char *done = calloc(w->njobs ? w->njobs : 1, 1);
	size_t next = 0, finished = 0, first;
	int rc = -1;
	if (!done)
		goto oom;

	while (finished < w->njobs) {
		double t = next_event(s, next, &first);
		if (isinf(t)) {
			sim_stalled(err, errlen, st->now, st->njobs,
				    "engine bug");
			goto out;
		}
		if (t < st->now)
			t = st->now;
		if (progress(s, t))
			goto oom;
		unsigned events = departures(s, first, t, done, &finished);
		events |= arrivals(s, &next, t);
		update_needs(s);
		if (s->est_failed ||
		    (s->est && s->est->before(s->est->ctx, st)))
			goto oom;
		sched_decisions_clear(&dec);
		if (engine(st, &s->m->sched, events, &dec))
			goto oom;
		account(s, &dec);
		for (size_t j = 0; j < st->njobs; j++)
			st->jobs[j].is_new = 0;
		compute_rates(s);
		s->head = head_where(st);
		feed_drift(s, t);
		s->r->events++;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	sched_decisions_free(&dec);
	free(done);
	return rc;
}

int sim_run(const sim_workload_t *w, sched_engine_fn engine,
	    const sim_model_t *m, sim_result_t *r, char *err, size_t errlen)
{
	return sim_run_estimated(w, engine, NULL, m, r, err, errlen);
}

int sim_run_estimated(const sim_workload_t *w, sched_engine_fn engine,
		      const sim_estimator_t *est, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen)
{
	sim_result_start(r, m);
	sim_t s = { .w = w, .m = m, .r = r, .head = SCHED_RUNNING_FG,
		    .est = est };
	sim_random_seed(&s.rng, m->seed);
	size_t n = w->njobs ? w->njobs : 1;
	r->njobs = w->njobs;
	r->jobs = malloc(n * sizeof(*r->jobs));
	s.st.jobs = calloc(n, sizeof(*s.st.jobs));
	s.act = calloc(n, sizeof(*s.act));
	s.map = malloc(n * sizeof(*s.map));
	s.alloc_off = malloc(n * sizeof(*s.alloc_off));
	size_t total = s.alloc_off ? sim_workload_process_offsets(w, s.alloc_off) : 0;
	s.alloc_pool = malloc((total ? total : 1) * sizeof(int));
	s.st.nnodes = w->nodes;
	s.st.nodes = malloc((size_t)w->nodes * sizeof(*s.st.nodes));
	sched_host_t *hosts = NULL;
	int *slot_host = NULL;
	if (w->nhosts > 0) {
		hosts = calloc((size_t)w->nhosts, sizeof(*hosts));
		slot_host = malloc((size_t)w->nodes * sizeof(*slot_host));
		if (hosts && slot_host) {
			for (int h = 0; h < w->nhosts; h++)
				hosts[h] = (sched_host_t){
					.cpus = w->cpus_per_node,
					.mem = w->host_mem_mb,
					.gpus = w->host_gpus };
			sched_hosts_layout(hosts, w->nhosts, slot_host);
			s.st.nhosts = w->nhosts;
			s.st.hosts = hosts;
			s.st.slot_host = slot_host;
		}
	}
	int rc = -1;
	int need_rc = sim_need_init(&s.need, w, m->need_source,
				    m->need_default, m->need_delay);
	if (need_rc || !r->jobs || !s.st.jobs || !s.act || !s.map ||
	    !s.st.nodes || !s.alloc_off || !s.alloc_pool ||
	    (w->nhosts > 0 && !s.st.hosts)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < w->njobs; i++)
		r->jobs[i] = (sim_job_result_t){ .first_start = -1,
						 .finish = -1 };
	for (int k = 0; k < w->nodes; k++)
		s.st.nodes[k] = (sched_node_t){ -1, -1, -1, -1 };
	rc = run(&s, engine, err, errlen);
out:
	if (!need_rc)
		sim_need_free(&s.need);
	free(s.st.jobs);
	free(s.act);
	free(s.map);
	free(s.st.nodes);
	free(hosts);
	free(slot_host);
	free(s.alloc_pool);
	free(s.alloc_off);
	if (rc)
		sim_result_free(r);
	sim_result_stop(r);
	return rc;
}

void sim_result_free(sim_result_t *r)
{
	free(r->jobs);
	free(r->busy_buckets);
	r->jobs = NULL;
	r->busy_buckets = NULL;
	r->nbuckets = 0;
}
