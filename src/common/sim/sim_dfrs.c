/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_dfrs.c - dfrs sim drivers for the online DFRS policies greedyp,
 * greedypm and mcb (sim_dfrs.h; Stillwell et al. 2010, "Online Non-Clairvoyant
 * Problem").  The workload is replayed exactly as
 * dfrs_online.h says a simulator drives the library: advance virtual time
 * to the next event, decide at each arrival, completion and periodic event,
 * apply, recompute the next completion.
 *
 * The job model (the workload has tasks and CPU usage, DFRS wants CPU
 * needs and memory requirements; dfrs/host_task.h makes the tasks):
 *   hosts   one per allocation unit of the workload, two dimensions: CPU
 *           (dimension 0) and memory (dimension 1), capacity 1 each.  On
 *           a workload of hosts (sim_workload_t.nhosts: --cpus-per-node,
 *           dfrs advise) one per host, and a third dimension, its GPUs,
 *           when the hosts have some.
 *   tasks   a job of b units is b identical tasks (its processes).  On
 *           hosts, one task per host the job keeps (its request's hosts),
 *           else ceil(b / CPUs per host) tasks, b over that many CPUs each.
 *   CPU     each task's fluid CPU need is the job's per-process CPU usage
 *           (sim_job_t.util, the usage the consolidation simulator uses),
 *           on hosts times the task's CPUs over the host's.
 *           DFRS tasks of a job are identical, so when the processes'
 *           usages differ (Liu et al.'s model draws one per process) the
 *           need is their maximum: the job's rate is that of its slowest
 *           process in sim_run as well, and a task given yield y of the
 *           largest need runs every process at rate y.  No rigid CPU
 *           requirement; every task's minimum yield is dfrs_min_yield
 *           (0.25, select/dfrs's default live): a job starts only where
 *           every job keeps its minimum, and runs at whatever yield the
 *           max-min allocation gives it above that (0: no minimum, as
 *           Stillwell et al. 2010).
 *   memory  traces carry no memory use, so each job's tasks get a rigid
 *           memory requirement drawn per job, uniform in
 *           dfrs_mem_lo..dfrs_mem_hi of a node (--param; default
 *           0.1..0.5), from --seed (a stream of its own, drawn in
 *           workload order: the same for every policy).  Memory is what
 *           limits how many tasks share a node (2 to 10 tasks of one
 *           job; CPU is shared by yields, max-min, yield_allocation.h),
 *           and what makes GreedyP preempt.  The seed's slides give no
 *           memory distribution for their online experiments (only that
 *           CPU needs and memory requirements follow the Google cluster
 *           data in the offline ones), so this is a plausible spread
 *           rather than Stillwell et al.'s; a fixed value is dfrs_mem_lo =
 *           dfrs_mem_hi.  On hosts with memory (slurm.conf's RealMemory)
 *           a task holds what its request says (sacct's AllocTRES mem=)
 *           over the host's; on hosts without, the draw times the task's
 *           CPUs over the host's.
 *   GPUs    on hosts with GPUs, a task's GPUs over the host's, rigid: a
 *           GPU is never shared by yields.
 *   time    a job completes when its virtual time (integral of its yield)
 *           reaches its runtime.  By default (dfrs_requeue=1) a
 *           suspension or a move is a requeue, as amcbf_mode=dfrs does
 *           live: a job that does not checkpoint loses its progress and
 *           starts over (a job checkpoints if it asked for the deployed
 *           checkpoint signal, sim_ckpt.h, none by default, or is in the
 *           share dfrs_ckpt_share drawn per job from --seed, 0 by
 *           default);
 *           lost_seconds adds it up; a running job requeued
 *           dfrs_max_requeues times (amcbf_max_preempt) stays put, and a
 *           job starving by dfrs_starve_bsld claims room.  With
 *           dfrs_requeue=0, the free-migration model of Stillwell et al.
 *           2010: every job keeps its progress and a resume or a
 *           migration costs the policy's penalty = --migration-cost
 *           seconds without progress (the paper's migration/preemption
 *           penalty).  No bandwidth cost.
 * Periodic events come every params.period seconds (600 by default) from
 * time 0, while jobs are in the system.  Not modelled: the plugin's
 * per-cycle bounds (amcbf_dfrs_max_start_per_cycle,
 * amcbf_max_preempt_per_cycle, no start in a cycle that requeued), which
 * delay a decision's rest by a cycle (seconds).  amcbf_min_runtime is
 * dfrs_min_runtime: a run that has lasted that long is no_preempt.
 *
 * The result means what sim_run's does: first_start is the first time the
 * job ran, finish its completion, preemptions its suspensions, migrations
 * every resume from a suspension (in place or elsewhere) and every move
 * of a running job: as in sim_run, the events that pay migration_cost.
 * busy_cpu_seconds integrates, over the time each job progresses (not
 * while it is blocked paying the penalty: that is I/O), its yield times
 * the CPU usage of its processes (sum of util[]; need * tasks when they
 * are equal): every process advances at the job's yield, as in sim_run a
 * process uses util times its job's rate.  So it adds up to the sum of
 * util * runtime over all processes, the same total as an engine's
 * schedule without migration costs, and utilization compares directly.
 * events counts the decide calls, decisions the jobs whose state or hosts
 * they changed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dfrs/host_task.h"
#include "sim_dfrs.h"
#include "sim_random.h"

/* mixed into --seed so that the memory draws are not the workload's
 * CPU-usage draws (same --seed) */
#define MEM_STREAM 0x6d656d6f72790001ULL
#define CKPT_STREAM 0x636b707400000001ULL

/* virtual seconds left at which a job counts as complete (rounding) */
#define DONE_EPS 1e-6

typedef struct {
	const sim_workload_t *w;
	const sim_model_t *m;
	const dfrs_online_params_t *par;
	sim_result_t *r;
	dfrs_host_t *hosts;
	dfrs_cluster_t cl;	/* cl.jobs: the jobs in the system, in
				   arrival order */
	size_t *widx;		/* parallel to cl.jobs: workload index */
	int *host_pool;		/* every job's hosts, at host_off[job] */
	size_t *host_off;
	double *mem;		/* per workload job: its memory draw, a share
				   of a host per CPU of a host */
	double *cpu;		/* per workload job: CPU its processes use
				   at yield 1 (sum of their usages) */
	char *ckpt;		/* per workload job: checkpoints (requeue
				   model) */
	double *run_start;	/* per workload job: start of its current
				   run (requeue model: a resume or a move
				   restarts it) */
	/* the event loop (run) */
	size_t next;		/* the next workload job to arrive */
	size_t finished;	/* jobs completed */
	double t_per;		/* the next periodic event (INFINITY: none) */
	char *done;		/* parallel to cl.jobs: completed at this
				   event */
} drv_t;

/* CPU used from cl.now to t1 (before dfrs_online_advance). */
static int account_busy(drv_t *s, double t1)
{
	double t0 = s->cl.now, common = 0;
	for (int j = 0; j < s->cl.njobs; j++) {
		const dfrs_online_job_t *job = &s->cl.jobs[j];
		if (job->state != DFRS_JOB_RUNNING)
			continue;
		double rate = job->yield * s->cpu[s->widx[j]];
		double from = job->blocked_until > t0 ? job->blocked_until : t0;
		if (from >= t1)
			continue;
		if (from == t0)
			common += rate;
		else if (sim_result_add_busy(s->r, from, t1, rate))
			return -1;
	}
	return sim_result_add_busy(s->r, t0, t1, common);
}

/* Decide at one event and apply it, counting what changed. */
static int decide(drv_t *s, dfrs_event_t ev, int job, char *err,
		  size_t errlen)
{
	dfrs_decisions_t d;
	double min_run = s->m->dfrs_min_runtime;

	/* amcbf_min_runtime: a run that has lasted that long stays */
	for (int j = 0; j < s->cl.njobs; j++) {
		dfrs_online_job_t *oj = &s->cl.jobs[j];

		oj->no_preempt = s->par->requeue && min_run > 0 &&
				 oj->state == DFRS_JOB_RUNNING &&
				 s->cl.now - s->run_start[s->widx[j]] >= min_run;
	}
	if (dfrs_online_decide(s->par, &s->cl, ev, job, &d, err, errlen))
		return -1;
	for (int j = 0; j < d.njobs; j++) {
		sim_job_result_t *res = &s->r->jobs[s->widx[j]];
		switch (d.job[j].action) {
		case DFRS_ACT_START:
			if (res->first_start < 0)
				res->first_start = s->cl.now;
			s->run_start[s->widx[j]] = s->cl.now;
			break;
		case DFRS_ACT_SUSPEND:
			res->preemptions++;
			break;
		case DFRS_ACT_RESUME:
		case DFRS_ACT_MIGRATE:
			res->migrations++;
			s->run_start[s->widx[j]] = s->cl.now;
			break;
		case DFRS_ACT_NONE:
			continue;
		}
		res->lost_seconds += d.job[j].lost_seconds;
		s->r->decisions++;
	}
	dfrs_online_apply(&s->cl, &d);
	dfrs_decisions_free(&d);
	s->r->events++;
	return 0;
}

/* Job i's request as DFRS tasks (dfrs_host_task_shape): on hosts, its
 * hosts, memory and GPUs as the workload keeps them; on the papers'
 * machines a task per unit. */
static int job_shape(const drv_t *s, size_t i, dfrs_job_t *shape, char *err,
		     size_t errlen)
{
	const sim_workload_t *w = s->w;
	const sim_job_t *wj = &w->jobs[i];
	int cpus = w->nhosts > 0 ? w->cpus_per_node : 1;
	dfrs_host_request_t rq = { .cpus = wj->nodes };

	for (int p = 0; p < wj->nodes; p++)
		if (wj->util[p] > rq.use)
			rq.use = wj->util[p];
	if (w->nhosts > 0) {
		rq.hosts = wj->req.hosts > 0 ? wj->req.hosts
			   : wj->req.cpus_per_host > 0
			   ? wj->nodes / wj->req.cpus_per_host : 0;
		rq.gpus_per_host = wj->req.gpus_per_host;
		rq.gpus = wj->req.gpus;
	}
	if (w->nhosts > 0 && w->host_mem_mb > 0) {
		rq.mem_per_cpu = (double)wj->req.mem_per_cpu / w->host_mem_mb;
		rq.mem_per_host = (double)wj->req.mem_per_host / w->host_mem_mb;
	} else {
		rq.mem_per_cpu = s->mem[i] / cpus;
	}
	if (dfrs_host_task_shape(&rq, cpus, w->nhosts > 0 ? w->host_gpus : 0,
				 shape, err, errlen)) {
		char why[200];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "job %ld: %s", wj->id, why);
		return -1;
	}
	shape->min_yield = s->m->dfrs_min_yield;
	return 0;
}

static void add_job(drv_t *s, size_t i)
{
	const sim_job_t *wj = &s->w->jobs[i];
	dfrs_online_job_t *job = &s->cl.jobs[s->cl.njobs];
	*job = (dfrs_online_job_t){
		.id = wj->id,
		.submit = wj->arrival,
		.state = DFRS_JOB_PENDING,
		.hosts = s->host_pool + s->host_off[i],
	};
	char err[8];

	/* sim_dfrs_run has shaped every job once: this one cannot fail */
	(void)job_shape(s, i, &job->shape, err, sizeof(err));
	job->checkpointable = s->ckpt[i];
	job->estimate = wj->estimate;	/* what EASY is told */
	if (s->par->policy == DFRS_POLICY_GREEDYPMR && job->estimate < 1.0)
		job->estimate = 1.0;
	s->widx[s->cl.njobs] = i;
	s->cl.njobs++;
}

/* Drop the completed jobs (done[j]) from cl.jobs, keeping the order. */
static void compact(drv_t *s, const char *done)
{
	int kept = 0;
	for (int j = 0; j < s->cl.njobs; j++) {
		if (done[j])
			continue;
		s->cl.jobs[kept] = s->cl.jobs[j];
		s->widx[kept] = s->widx[j];
		kept++;
	}
	s->cl.njobs = kept;
}

/* The running jobs' run stretch into the drift guard: work done is their
 * virtual time plus what requeues made them lose, as sched/amcbf's
 * virtual time counts it live. */
static void feed_drift(drv_t *s, double t)
{
	stretch_drift_sum_t sum = { 0 };

	for (int j = 0; j < s->cl.njobs; j++) {
		const dfrs_online_job_t *job = &s->cl.jobs[j];
		size_t i = s->widx[j];

		if (job->state == DFRS_JOB_RUNNING)
			sim_result_drift_add(s->r, &sum, i, t,
					     job->virtual_time +
					     s->r->jobs[i].lost_seconds);
	}
	sim_result_drift(s->r, t, &sum);
}

/* The next event's time: the earliest arrival, completion (*first: the
 * running job that completes then, else -1) or, while jobs are in the
 * system, periodic event (*per_due); INFINITY when neither a job arrives
 * nor a running one completes. */
static double next_event(drv_t *s, int *first, int *per_due)
{
	const sim_workload_t *w = s->w;
	const dfrs_cluster_t *cl = &s->cl;
	double t_arr = s->next < w->njobs ? w->jobs[s->next].arrival
					  : INFINITY;
	double t_done = INFINITY;

	*first = -1;
	for (int j = 0; j < cl->njobs; j++) {
		const dfrs_online_job_t *job = &cl->jobs[j];
		if (job->state != DFRS_JOB_RUNNING)
			continue;
		double t = cl->now + dfrs_online_time_to_finish(
			cl, job, w->jobs[s->widx[j]].runtime);
		if (t < t_done) {
			t_done = t;
			*first = j;
		}
	}
	if (isinf(t_arr) && isinf(t_done))
		return INFINITY;
	double t = fmin(t_arr, t_done);
	if (cl->njobs > 0 && s->t_per < t)
		t = s->t_per;
	/* a periodic event only while jobs are in the system */
	*per_due = cl->njobs > 0 && s->t_per <= t;
	if (t_done > t)
		*first = -1;	/* nobody is due yet */
	return t < cl->now ? cl->now : t;
}

/* The jobs' progress up to t. */
static int progress(drv_t *s, double t)
{
	if (account_busy(s, t))
		return -1;
	dfrs_online_advance(&s->cl, t - s->cl.now);
	s->cl.now = t;	/* exactly, whatever advance rounded */
	return 0;
}

/* The running jobs done at t (first, and any other within DONE_EPS)
 * leave, then one decision. */
static int completions(drv_t *s, int first, double t, char *err,
		       size_t errlen)
{
	int ndone = 0;

	for (int j = 0; j < s->cl.njobs; j++) {
		const dfrs_online_job_t *job = &s->cl.jobs[j];
		size_t i = s->widx[j];
		s->done[j] = 0;
		if (job->state != DFRS_JOB_RUNNING ||
		    (j != first && s->w->jobs[i].runtime -
				   job->virtual_time > DONE_EPS))
			continue;
		s->done[j] = 1;
		ndone++;
		sim_result_finish(s->r, i, t);
	}
	if (!ndone)
		return 0;
	compact(s, s->done);
	s->finished += (size_t)ndone;
	return decide(s, DFRS_EVENT_COMPLETION, -1, err, errlen);
}

/* The jobs submitted by t arrive, one decision each (the new job comes
 * first). */
static int arrivals(drv_t *s, double t, char *err, size_t errlen)
{
	for (; s->next < s->w->njobs && s->w->jobs[s->next].arrival <= t;
	     s->next++) {
		add_job(s, s->next);
		if (decide(s, DFRS_EVENT_ARRIVAL, s->cl.njobs - 1, err,
			   errlen))
			return -1;
	}
	return 0;
}

/* The periodic event when due (and jobs are in the system), and the next
 * one's time. */
static int periodic(drv_t *s, int per_due, double t, char *err,
		    size_t errlen)
{
	double period = s->par->period;

	if (per_due && s->cl.njobs > 0 &&
	    decide(s, DFRS_EVENT_PERIODIC, -1, err, errlen))
		return -1;
	if (s->t_per <= t)
		s->t_per = (floor(t / period) + 1) * period;
	return 0;
}

static int any_running(const drv_t *s)
{
	for (int j = 0; j < s->cl.njobs; j++)
		if (s->cl.jobs[j].state == DFRS_JOB_RUNNING)
			return 1;
	return 0;
}

/* Event after event until every job has finished, as sim_run's loop:
 * progress to the next event, completions, arrivals, the periodic
 * event, then the drift guard. */
static int run(drv_t *s, char *err, size_t errlen)
{
	int rc = -1;

	s->t_per = s->par->period > 0 ? s->par->period : INFINITY;
	s->done = calloc(s->w->njobs ? s->w->njobs : 1, 1);
	if (!s->done)
		goto oom;
	while (s->finished < s->w->njobs) {
		int first, per_due;
		double t = next_event(s, &first, &per_due);

		if (isinf(t)) {
			sim_stalled(err, errlen, s->cl.now,
				    (size_t)s->cl.njobs, "policy bug");
			goto out;
		}
		if (progress(s, t))
			goto oom;
		if (completions(s, first, t, err, errlen) ||
		    arrivals(s, t, err, errlen) ||
		    periodic(s, per_due, t, err, errlen))
			goto out;
		feed_drift(s, t);
		if (s->cl.njobs > 0 && !any_running(s)) {
			sim_stalled(err, errlen, s->cl.now,
				    (size_t)s->cl.njobs, "policy bug");
			goto out;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(s->done);
	s->done = NULL;
	return rc;
}

int sim_dfrs_run(const sim_workload_t *w, const sim_model_t *m,
		 const dfrs_online_params_t *params, sim_result_t *r,
		 char *err, size_t errlen)
{
	sim_result_start(r, m);
	drv_t s = { .w = w, .m = m, .par = params, .r = r };
	size_t n = w->njobs ? w->njobs : 1;
	int rc = -1;

	if (w->nodes <= 0) {
		snprintf(err, errlen, "the machine has no node");
		goto out;
	}
	for (size_t i = 0; i < w->njobs; i++)
		if (w->jobs[i].nodes <= 0 || w->jobs[i].nodes > w->nodes) {
			snprintf(err, errlen, "job %ld: %d units on a machine "
				 "of %d", w->jobs[i].id, w->jobs[i].nodes,
				 w->nodes);
			goto out;
		}
	r->njobs = w->njobs;
	r->jobs = malloc(n * sizeof(*r->jobs));
	s.hosts = calloc((size_t)w->nodes, sizeof(*s.hosts));
	s.cl.jobs = calloc(n, sizeof(*s.cl.jobs));
	s.widx = malloc(n * sizeof(*s.widx));
	s.host_off = malloc(n * sizeof(*s.host_off));
	s.mem = malloc(n * sizeof(*s.mem));
	s.cpu = malloc(n * sizeof(*s.cpu));
	s.ckpt = calloc(n, 1);
	s.run_start = calloc(n, sizeof(*s.run_start));
	size_t total = s.host_off ? sim_workload_process_offsets(w, s.host_off) : 0;
	s.host_pool = malloc((total ? total : 1) * sizeof(int));
	if (!r->jobs || !s.hosts || !s.cl.jobs || !s.widx || !s.host_off ||
	    !s.mem || !s.cpu || !s.ckpt || !s.run_start || !s.host_pool) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* hosts: the workload's (cpus_per_node CPUs, memory and GPUs), else
	 * one per unit; every dimension's capacity is a whole host */
	int nhosts = w->nhosts > 0 ? w->nhosts : w->nodes;
	int ndims = dfrs_host_dims(w->nhosts > 0 ? w->host_gpus : 0);
	for (int h = 0; h < nhosts; h++)
		for (int d = 0; d < ndims; d++)
			s.hosts[h].cap[d] = s.hosts[h].elem[d] = 1.0;
	s.cl = (dfrs_cluster_t){ .ndims = ndims, .nhosts = nhosts,
				 .hosts = s.hosts, .jobs = s.cl.jobs };
	sim_random_t rng;
	sim_random_seed(&rng, m->seed ^ MEM_STREAM);
	double lo = fmin(m->dfrs_mem_lo, m->dfrs_mem_hi);
	double hi = fmax(m->dfrs_mem_lo, m->dfrs_mem_hi);
	for (size_t i = 0; i < w->njobs; i++) {
		r->jobs[i] = (sim_job_result_t){ .first_start = -1,
						 .finish = -1 };
		s.mem[i] = sim_random_uniform(&rng, lo, hi);
	}
	/* which jobs checkpoint: those that asked for the signal
	 * (sim_ckpt_checkpoints) and a share drawn per job, from a stream of its
	 * own, so that the memory draws do not depend on the share */
	sim_random_seed(&rng, m->seed ^ CKPT_STREAM);
	for (size_t i = 0; i < w->njobs; i++) {
		int drawn = sim_random_uniform(&rng, 0, 1) < m->dfrs_ckpt_share;
		s.ckpt[i] = (char)(drawn || w->jobs[i].checkpoints);
		s.cpu[i] = 0;
		for (int p = 0; p < w->jobs[i].nodes; p++)
			s.cpu[i] += w->jobs[i].util[p];
	}
	for (size_t i = 0; i < w->njobs; i++) {
		dfrs_job_t shape;

		if (job_shape(&s, i, &shape, err, errlen))
			goto out;
	}
	rc = run(&s, err, errlen);
out:
	free(s.hosts);
	free(s.cl.jobs);
	free(s.widx);
	free(s.host_off);
	free(s.host_pool);
	free(s.mem);
	free(s.cpu);
	free(s.ckpt);
	free(s.run_start);
	if (rc)
		sim_result_free(r);
	sim_result_stop(r);
	return rc;
}

const char *sim_dfrs_model_name(const sim_model_t *m)
{
	return m->dfrs_requeue != 0 ? "requeue" : "free-migration";
}

static int run_policy(dfrs_policy_t policy, const sim_workload_t *w,
		      const sim_model_t *m, sim_result_t *r, char *err,
		      size_t errlen)
{
	dfrs_online_params_t par;
	dfrs_online_params_default(&par, policy);
	par.penalty = m->migration_cost;
	par.repack_drift = m->dfrs_repack_drift;
	par.repack_algorithms = (int)m->dfrs_repack_algorithms;
	par.repack_tolerance = m->dfrs_repack_tolerance;
	par.requeue = m->dfrs_requeue != 0;
	par.max_requeues = (int)m->dfrs_max_requeues;
	par.starve_bsld = m->dfrs_starve_bsld;
	if (policy == DFRS_POLICY_GREEDYPMR) {
		par.wide_share = m->dfrs_wide_share;
		par.long_time = m->dfrs_long_time;
		par.long_min_yield = m->dfrs_long_min_yield;
	}
	par.period = m->dfrs_period;
	par.minvt = m->dfrs_minvt;
	return sim_dfrs_run(w, m, &par, r, err, errlen);
}

int sim_dfrs_greedyp(const sim_workload_t *w, const sim_model_t *m,
		     sim_result_t *r, char *err, size_t errlen)
{
	return run_policy(DFRS_POLICY_GREEDYP, w, m, r, err, errlen);
}

int sim_dfrs_greedypm(const sim_workload_t *w, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen)
{
	return run_policy(DFRS_POLICY_GREEDYPM, w, m, r, err, errlen);
}

int sim_dfrs_mcb(const sim_workload_t *w, const sim_model_t *m,
		 sim_result_t *r, char *err, size_t errlen)
{
	return run_policy(DFRS_POLICY_MCB, w, m, r, err, errlen);
}

int sim_dfrs_greedypmr(const sim_workload_t *w, const sim_model_t *m,
		       sim_result_t *r, char *err, size_t errlen)
{
	return run_policy(DFRS_POLICY_GREEDYPMR, w, m, r, err, errlen);
}
