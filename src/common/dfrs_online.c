/*
 * dfrs_online.c - online non-clairvoyant DFRS decisions: GreedyP, GreedyPM,
 * MCB, periodic repacking, minvt and the preemption/migration cost model
 * (seed 001, "Online Non-Clairvoyant Problem", "Use of Priority", "When to
 * apply Heuristics", "Limiting Migration").  See dfrs_online.h for the
 * policies and how a caller drives them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_online.h"
#include "vp_placement.h"
#include "yield_allocation.h"

void dfrs_online_params_default(dfrs_online_params_t *p, dfrs_policy_t policy)
{
	memset(p, 0, sizeof(*p));
	p->policy = policy;
	p->priority = DFRS_PRIO_FT_VT2;
	p->period = 600.0;
	p->minvt = 600.0;
	p->penalty = 0.0;
	p->bandwidth = 0.0;
}

int dfrs_online_policy_parse(const char *name, dfrs_policy_t *out)
{
	if (!strcmp(name, "greedyp"))
		*out = DFRS_POLICY_GREEDYP;
	else if (!strcmp(name, "greedypm"))
		*out = DFRS_POLICY_GREEDYPM;
	else if (!strcmp(name, "mcb"))
		*out = DFRS_POLICY_MCB;
	else
		return -1;
	return 0;
}

const char *dfrs_online_policy_name(dfrs_policy_t policy)
{
	switch (policy) {
	case DFRS_POLICY_GREEDYP:
		return "greedyp";
	case DFRS_POLICY_GREEDYPM:
		return "greedypm";
	default:
		return "mcb";
	}
}

double dfrs_online_priority(const dfrs_online_params_t *params,
			    const dfrs_cluster_t *cluster,
			    const dfrs_online_job_t *job)
{
	return dfrs_priority_value(params->priority, job->submit,
				   job->virtual_time, cluster->now);
}

/* ---- the working state of one decision ---------------------------------- */

typedef struct {
	const dfrs_online_params_t *par;
	const dfrs_cluster_t *cl;
	int nd, nh, nj;
	double *usage;		/* [nh * nd] running tasks at min yield */
	double *load;		/* [nh] sum over dims of need / cap */
	dfrs_job_state_t *state;	/* working state per job */
	int **hosts;		/* working hosts per job (in the decisions) */
	double *prio;
	int *by_prio;		/* job indices, highest priority first */
} work_t;

static const dfrs_job_t *shape(const work_t *w, int j)
{
	return &w->cl->jobs[j].shape;
}

static void account_task(work_t *w, int j, int h, int sign)
{
	const dfrs_job_t *job = shape(w, j);

	for (int d = 0; d < w->nd; d++) {
		w->usage[(size_t)h * w->nd + d] +=
			sign * dfrs_task_usage(job, d, job->min_yield);
		w->load[h] += sign * job->need[d] / w->cl->hosts[h].cap[d];
	}
}

static void account_job(work_t *w, int j, int sign)
{
	for (int t = 0; t < shape(w, j)->ntasks; t++)
		account_task(w, j, w->hosts[j][t], sign);
}

static int task_fits(const work_t *w, int j, int h)
{
	const dfrs_job_t *job = shape(w, j);
	const dfrs_host_t *host = &w->cl->hosts[h];

	for (int d = 0; d < w->nd; d++) {
		double u = dfrs_task_usage(job, d, job->min_yield);

		if (!dfrs_amount_fits(u, w->usage[(size_t)h * w->nd + d],
				      host->cap[d], host->elem[d]))
			return 0;
	}
	return 1;
}

/* Each task on the least loaded host where it fits; all or nothing. */
static int place_greedy(work_t *w, int j, int *hosts)
{
	int k = shape(w, j)->ntasks;

	for (int t = 0; t < k; t++) {
		int best = -1;

		for (int h = 0; h < w->nh; h++)
			if (task_fits(w, j, h) &&
			    (best < 0 || w->load[h] < w->load[best] - 1e-12))
				best = h;
		if (best < 0) {
			for (int u = 0; u < t; u++)
				account_task(w, j, hosts[u], -1);
			return -1;
		}
		hosts[t] = best;
		account_task(w, j, best, +1);
	}
	return 0;
}

/* On the given hosts (a suspended job's own); all or nothing. */
static int place_on(work_t *w, int j, const int *hosts)
{
	int k = shape(w, j)->ntasks;

	for (int t = 0; t < k; t++) {
		if (!task_fits(w, j, hosts[t])) {
			for (int u = 0; u < t; u++)
				account_task(w, j, hosts[u], -1);
			return -1;
		}
		account_task(w, j, hosts[t], +1);
	}
	return 0;
}

static int may_migrate(const work_t *w, int j)
{
	return w->par->policy != DFRS_POLICY_GREEDYP &&
	       (w->par->minvt <= 0.0 ||
		w->cl->jobs[j].virtual_time >= w->par->minvt);
}

/* Start or resume a waiting job without touching others. */
static int attempt_run(work_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (w->state[j] == DFRS_JOB_SUSPENDED) {
		if (place_on(w, j, job->hosts) == 0) {
			memcpy(w->hosts[j], job->hosts, sizeof(int) * job->shape.ntasks);
			w->state[j] = DFRS_JOB_RUNNING;
			return 0;
		}
		if (!may_migrate(w, j))
			return -1;
	}
	if (place_greedy(w, j, w->hosts[j]) != 0)
		return -1;
	w->state[j] = DFRS_JOB_RUNNING;
	return 0;
}

/*
 * GreedyP / GreedyPM for one waiting job: run it if it fits; otherwise take
 * running jobs of lower priority off their hosts, lowest first, until it
 * fits.  Those taken off are suspended; with GreedyPM, each that may migrate
 * is first put back on any hosts where it still fits (highest priority
 * first).  If the job cannot fit even then, nothing changes.
 */
static void greedy_schedule_one(work_t *w, int j, int *removed)
{
	int nremoved = 0;

	if (attempt_run(w, j) == 0)
		return;
	for (int r = w->nj - 1; r >= 0; r--) {
		int v = w->by_prio[r];

		if (v == j || w->state[v] != DFRS_JOB_RUNNING ||
		    !(w->prio[v] < w->prio[j]))
			continue;
		account_job(w, v, -1);
		w->state[v] = DFRS_JOB_SUSPENDED;
		removed[nremoved++] = v;
		if (attempt_run(w, j) != 0)
			continue;
		/* j runs.  Suspend only the victims that must go: put each
		 * back where it was if it still fits (highest priority
		 * first: removed[] is in increasing priority), else, with
		 * GreedyPM, where it fits elsewhere. */
		for (int i = nremoved - 1; i >= 0; i--) {
			int u = removed[i];

			if (place_on(w, u, w->hosts[u]) == 0 ||
			    (w->par->policy == DFRS_POLICY_GREEDYPM &&
			     may_migrate(w, u) && place_greedy(w, u, w->hosts[u]) == 0))
				w->state[u] = DFRS_JOB_RUNNING;
			else
				memcpy(w->hosts[u], w->cl->jobs[u].hosts,
				       sizeof(int) * shape(w, u)->ntasks);
		}
		return;
	}
	for (int i = 0; i < nremoved; i++) {	/* j does not fit: undo */
		account_job(w, removed[i], +1);
		w->state[removed[i]] = DFRS_JOB_RUNNING;
	}
}

/*
 * The greedy policies' pass over the waiting jobs, highest priority first.
 * Each is started or resumed where it fits.  Preemption (suspending lower
 * priorities, greedy_schedule_one) is used for the arriving job at an
 * arrival, and for every waiting job at a periodic event; otherwise waiting
 * jobs only fill free capacity.
 */
static int greedy_pass(work_t *w, dfrs_event_t event, int event_job)
{
	int *waiting = malloc(sizeof(int) * (w->nj + 1));
	int *removed = malloc(sizeof(int) * (w->nj + 1));
	int nw = 0;

	if (!waiting || !removed) {
		free(waiting);
		free(removed);
		return -1;
	}
	if (event == DFRS_EVENT_ARRIVAL &&
	    w->state[event_job] != DFRS_JOB_RUNNING)
		greedy_schedule_one(w, event_job, removed);
	for (int r = 0; r < w->nj; r++)
		if (w->state[w->by_prio[r]] != DFRS_JOB_RUNNING)
			waiting[nw++] = w->by_prio[r];
	for (int i = 0; i < nw; i++) {
		if (event == DFRS_EVENT_PERIODIC)
			greedy_schedule_one(w, waiting[i], removed);
		else
			attempt_run(w, waiting[i]);
	}
	free(waiting);
	free(removed);
	return 0;
}

/* ---- MCB: repack everything with METAVP, dropping low priorities -------- */

/* Rigid totals at minimum yield within the total capacity (LP feasible). */
static int relaxation_feasible(const work_t *w, const char *in)
{
	for (int d = 0; d < w->nd; d++) {
		double cap = 0.0, used = 0.0;

		for (int h = 0; h < w->nh; h++)
			cap += w->cl->hosts[h].cap[d];
		for (int j = 0; j < w->nj; j++)
			if (in[j]) {
				const dfrs_job_t *job = shape(w, j);

				used += job->ntasks *
					dfrs_task_usage(job, d, job->min_yield);
			}
		if (!dfrs_amount_fits(used, 0.0, cap, cap))
			return 0;
	}
	return 1;
}

typedef struct {
	int overlap, bin, host;
} overlap_t;

static int cmp_overlap(const void *a, const void *b)
{
	const overlap_t *x = a, *y = b;

	if (x->overlap != y->overlap)
		return y->overlap - x->overlap;
	if (x->bin != y->bin)
		return x->bin - y->bin;
	return x->host - y->host;
}

/*
 * On identical hosts a packing's bins can be given to any hosts: the yields
 * do not change.  Give each bin the host where most of its tasks already
 * are (greedily, largest overlap first) so that a repack migrates as few
 * tasks as it can; bins holding pinned tasks keep their host.
 */
static int relabel_hosts(const work_t *w, const int *member, const int *pins,
			 dfrs_placement_t *pl)
{
	int nh = w->nh, npairs = 0, rc = -1;
	int *bin_host = malloc(sizeof(int) * (nh + 1));
	char *host_used = calloc(nh + 1, 1);
	overlap_t *pairs = malloc(sizeof(*pairs) * (pl->ntasks + 1));

	if (!bin_host || !host_used || !pairs)
		goto out;
	for (int b = 0; b < nh; b++)
		bin_host[b] = -1;
	for (int t = 0; t < pl->ntasks; t++)
		if (pins[t] >= 0) {
			bin_host[pl->task_host[t]] = pl->task_host[t];
			host_used[pl->task_host[t]] = 1;
		}
	/* one pair per task that has a current host: (bin, that host) */
	for (int s = 0; s < pl->njobs; s++) {
		const dfrs_online_job_t *job = &w->cl->jobs[member[s]];

		if (job->state == DFRS_JOB_PENDING)
			continue;
		for (int t = 0; t < job->shape.ntasks; t++)
			pairs[npairs++] = (overlap_t){ 1,
				pl->task_host[pl->first_task[s] + t], job->hosts[t] };
	}
	/* merge equal (bin, host) pairs, counting them */
	qsort(pairs, npairs, sizeof(*pairs), cmp_overlap);
	{
		int m = 0;

		for (int i = 0; i < npairs; i++) {
			if (m > 0 && pairs[m - 1].bin == pairs[i].bin &&
			    pairs[m - 1].host == pairs[i].host)
				pairs[m - 1].overlap++;
			else
				pairs[m++] = pairs[i];
		}
		npairs = m;
	}
	qsort(pairs, npairs, sizeof(*pairs), cmp_overlap);
	for (int i = 0; i < npairs; i++)
		if (bin_host[pairs[i].bin] < 0 && !host_used[pairs[i].host]) {
			bin_host[pairs[i].bin] = pairs[i].host;
			host_used[pairs[i].host] = 1;
		}
	for (int b = 0, h = 0; b < nh; b++) {
		if (bin_host[b] >= 0)
			continue;
		while (host_used[h])
			h++;
		bin_host[b] = h;
		host_used[h] = 1;
	}
	for (int t = 0; t < pl->ntasks; t++)
		pl->task_host[t] = bin_host[pl->task_host[t]];
	rc = 0;
out:
	free(bin_host);
	free(host_used);
	free(pairs);
	return rc;
}

static int mcb_repack(work_t *w)
{
	dfrs_job_t *jobs = malloc(sizeof(*jobs) * (w->nj + 1));
	int *member = malloc(sizeof(int) * (w->nj + 1));
	int *pins = NULL, ntasks = 0, rc = -1, kept = w->nj;
	char *in = malloc(w->nj + 1);
	dfrs_placement_t pl;
	int het = !dfrs_hosts_homogeneous(&(dfrs_instance_t){
		w->nd, w->nh, w->cl->hosts, 0, NULL });

	if (!jobs || !member || !in)
		goto out;
	for (int j = 0; j < w->nj; j++) {
		in[j] = 1;
		ntasks += shape(w, j)->ntasks;
	}
	pins = malloc(sizeof(int) * (ntasks + 1));
	if (!pins)
		goto out;
	/* lowest priority out first: first the cheap necessary condition */
	while (kept > 0 && !relaxation_feasible(w, in))
		in[w->by_prio[--kept]] = 0;
	for (;;) {
		dfrs_instance_t sub = { w->nd, w->nh, w->cl->hosts, 0, jobs };
		int nt = 0, r;

		for (int i = 0; i < kept; i++) {
			int j = w->by_prio[i];
			const dfrs_online_job_t *job = &w->cl->jobs[j];
			int pinned = job->state != DFRS_JOB_PENDING && !may_migrate(w, j);

			if (!in[j])
				continue;
			member[sub.njobs] = j;
			jobs[sub.njobs++] = job->shape;
			for (int t = 0; t < job->shape.ntasks; t++)
				pins[nt++] = pinned ? job->hosts[t] : -1;
		}
		if (sub.njobs == 0)
			break;
		r = vp_place_meta(&sub, het, pins, &pl, NULL, NULL);
		if (r < 0)
			goto out;
		if (r == 0) {
			if (!het && relabel_hosts(w, member, pins, &pl) != 0) {
				dfrs_placement_free(&pl);
				goto out;
			}
			for (int s = 0; s < sub.njobs; s++) {
				int j = member[s];

				memcpy(w->hosts[j], &pl.task_host[pl.first_task[s]],
				       sizeof(int) * jobs[s].ntasks);
				w->state[j] = DFRS_JOB_RUNNING;
			}
			dfrs_placement_free(&pl);
			break;
		}
		dfrs_placement_free(&pl);
		in[w->by_prio[--kept]] = 0;
	}
	/* everyone not kept is off: running ones are suspended in place */
	for (int j = 0; j < w->nj; j++)
		if (!in[j] && w->state[j] == DFRS_JOB_RUNNING)
			w->state[j] = DFRS_JOB_SUSPENDED;
	rc = 0;
out:
	free(jobs);
	free(member);
	free(pins);
	free(in);
	return rc;
}

/* ---- decisions ------------------------------------------------------------ */

typedef struct {
	int j;
	double prio, submit;
} prio_key_t;

static int cmp_prio(const void *a, const void *b)
{
	const prio_key_t *x = a, *y = b;

	return dfrs_priority_compare(x->prio, x->submit, x->j,
				     y->prio, y->submit, y->j);
}

static void cost_of(const dfrs_online_params_t *par, const dfrs_online_job_t *job,
		    dfrs_decision_t *d)
{
	int k = job->shape.ntasks;
	double bytes = 0.0;

	d->tasks_moved = 0;
	if (d->state == DFRS_JOB_RUNNING && job->state != DFRS_JOB_PENDING)
		for (int t = 0; t < k; t++)
			d->tasks_moved += d->hosts[t] != job->hosts[t];
	if (job->state == DFRS_JOB_RUNNING && d->state == DFRS_JOB_SUSPENDED) {
		d->action = DFRS_ACT_SUSPEND;
		bytes = k * job->task_mem_bytes;	/* written out */
	} else if (job->state == DFRS_JOB_PENDING && d->state == DFRS_JOB_RUNNING) {
		d->action = DFRS_ACT_START;
	} else if (d->state == DFRS_JOB_RUNNING && d->tasks_moved > 0) {
		d->action = DFRS_ACT_MIGRATE;
		/* moved tasks cross the network; a suspended job also reads
		 * back the tasks that stay */
		bytes = (job->state == DFRS_JOB_SUSPENDED ? k : d->tasks_moved) *
			job->task_mem_bytes;
	} else if (job->state == DFRS_JOB_SUSPENDED && d->state == DFRS_JOB_RUNNING) {
		d->action = DFRS_ACT_RESUME;
		bytes = k * job->task_mem_bytes;	/* read back */
	} else {
		d->action = DFRS_ACT_NONE;
	}
	d->cost_bytes = bytes;
	d->cost_seconds = 0.0;
	if (d->action == DFRS_ACT_RESUME || d->action == DFRS_ACT_MIGRATE)
		d->cost_seconds = par->penalty +
			(par->bandwidth > 0.0 ? bytes / par->bandwidth : 0.0);
}

/*
 * The state must make sense: hosts and job shapes pass dfrs_instance_check
 * (a task larger than every host is an error, not a job to keep waiting),
 * running and suspended jobs name valid hosts, and running jobs fit their
 * hosts at their minimum yields.
 */
static int check_cluster(const dfrs_cluster_t *cl, char *err, size_t errlen)
{
	dfrs_job_t *shapes = malloc(sizeof(*shapes) * (cl->njobs + 1));
	double *use = calloc((size_t)cl->nhosts * cl->ndims + 1, sizeof(double));
	dfrs_instance_t inst = { cl->ndims, cl->nhosts, cl->hosts, cl->njobs, shapes };
	int rc = -1;

	if (!shapes || !use) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int j = 0; j < cl->njobs; j++)
		shapes[j] = cl->jobs[j].shape;
	if (dfrs_instance_check(&inst, err, errlen))
		goto out;
	for (int j = 0; j < cl->njobs; j++) {
		const dfrs_online_job_t *job = &cl->jobs[j];

		if (job->state == DFRS_JOB_PENDING)
			continue;
		for (int t = 0; t < job->shape.ntasks; t++) {
			int h = job->hosts[t];

			if (h < 0 || h >= cl->nhosts) {
				snprintf(err, errlen,
					 "job %ld task %d: host %d out of range 0..%d",
					 job->id, t, h, cl->nhosts - 1);
				goto out;
			}
			if (job->state != DFRS_JOB_RUNNING)
				continue;
			for (int d = 0; d < cl->ndims; d++)
				use[(size_t)h * cl->ndims + d] +=
					dfrs_task_usage(&job->shape, d, job->shape.min_yield);
		}
	}
	for (int h = 0; h < cl->nhosts; h++)
		for (int d = 0; d < cl->ndims; d++) {
			double u = use[(size_t)h * cl->ndims + d];
			double c = cl->hosts[h].cap[d];

			if (u > c * (1 + 1e-9) + 1e-12) {
				snprintf(err, errlen,
					 "host %d dimension %d: running jobs use %g at their minimum yields, capacity %g",
					 h, d, u, c);
				goto out;
			}
		}
	rc = 0;
out:
	free(shapes);
	free(use);
	return rc;
}

static int final_yields(work_t *w, dfrs_decisions_t *out)
{
	dfrs_job_t *jobs = malloc(sizeof(*jobs) * (w->nj + 1));
	dfrs_instance_t inst = { w->nd, w->nh, w->cl->hosts, w->nj, jobs };
	dfrs_placement_t p;
	int rc = -1;

	if (!jobs)
		return -1;
	for (int j = 0; j < w->nj; j++)
		jobs[j] = *shape(w, j);
	if (dfrs_placement_init(&p, &inst) == 0) {
		for (int j = 0; j < w->nj; j++)
			if (w->state[j] == DFRS_JOB_RUNNING)
				memcpy(&p.task_host[p.first_task[j]], w->hosts[j],
				       sizeof(int) * jobs[j].ntasks);
		rc = dfrs_allocate_yields(&inst, &p);
		for (int j = 0; rc == 0 && j < w->nj; j++)
			out->job[j].yield = p.yield[j];
		out->min_scaled_yield = p.min_scaled_yield;
		dfrs_placement_free(&p);
	}
	free(jobs);
	return rc;
}

int dfrs_online_decide(const dfrs_online_params_t *params,
		       const dfrs_cluster_t *cluster, dfrs_event_t event,
		       int event_job, dfrs_decisions_t *out,
		       char *err, size_t errlen)
{
	work_t w = { .par = params, .cl = cluster, .nd = cluster->ndims,
		     .nh = cluster->nhosts, .nj = cluster->njobs };
	prio_key_t *keys = NULL;
	int ntasks = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	out->min_scaled_yield = -1.0;
	if (check_cluster(cluster, err, errlen))
		return -1;
	if (event == DFRS_EVENT_ARRIVAL &&
	    (event_job < 0 || event_job >= cluster->njobs)) {
		snprintf(err, errlen, "arrival of job index %d, but %d jobs",
			 event_job, cluster->njobs);
		return -1;
	}
	for (int j = 0; j < w.nj; j++)
		ntasks += cluster->jobs[j].shape.ntasks;
	out->njobs = w.nj;
	out->job = calloc(w.nj + 1, sizeof(*out->job));
	out->host_storage = malloc(sizeof(int) * (ntasks + 1));
	w.usage = calloc((size_t)w.nh * w.nd + 1, sizeof(double));
	w.load = calloc(w.nh + 1, sizeof(double));
	w.state = malloc(sizeof(*w.state) * (w.nj + 1));
	w.hosts = malloc(sizeof(int *) * (w.nj + 1));
	w.prio = malloc(sizeof(double) * (w.nj + 1));
	w.by_prio = malloc(sizeof(int) * (w.nj + 1));
	keys = malloc(sizeof(*keys) * (w.nj + 1));
	if (!out->job || !out->host_storage || !w.usage || !w.load ||
	    !w.state || !w.hosts || !w.prio || !w.by_prio || !keys) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int j = 0, off = 0; j < w.nj; j++) {
		const dfrs_online_job_t *job = &cluster->jobs[j];

		w.hosts[j] = out->job[j].hosts = &out->host_storage[off];
		off += job->shape.ntasks;
		w.state[j] = job->state;
		for (int t = 0; t < job->shape.ntasks; t++)
			w.hosts[j][t] = job->state == DFRS_JOB_PENDING ? -1 : job->hosts[t];
		if (job->state == DFRS_JOB_RUNNING)
			account_job(&w, j, +1);
		w.prio[j] = dfrs_online_priority(params, cluster, job);
		keys[j] = (prio_key_t){ j, w.prio[j], job->submit };
	}
	qsort(keys, w.nj, sizeof(*keys), cmp_prio);
	for (int r = 0; r < w.nj; r++)
		w.by_prio[r] = keys[r].j;

	if (params->policy == DFRS_POLICY_MCB ||
	    (event == DFRS_EVENT_PERIODIC && params->period > 0.0 &&
	     params->policy == DFRS_POLICY_GREEDYPM)) {
		if (mcb_repack(&w))
			goto nomem;
	} else if (greedy_pass(&w, event, event_job)) {
		goto nomem;
	}

	for (int j = 0; j < w.nj; j++) {
		dfrs_decision_t *d = &out->job[j];

		d->state = w.state[j];
		cost_of(params, &cluster->jobs[j], d);
		out->total_bytes += d->cost_bytes;
		out->nstarted += d->action == DFRS_ACT_START;
		out->nsuspended += d->action == DFRS_ACT_SUSPEND;
		out->nresumed += d->action == DFRS_ACT_RESUME;
		out->nmigrated += d->action == DFRS_ACT_MIGRATE;
	}
	if (final_yields(&w, out) != 0) {
		snprintf(err, errlen, "internal error: running jobs overload a host");
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(w.usage);
	free(w.load);
	free(w.state);
	free(w.hosts);
	free(w.prio);
	free(w.by_prio);
	free(keys);
	if (rc)
		dfrs_decisions_free(out);
	return rc;
}

void dfrs_decisions_free(dfrs_decisions_t *d)
{
	free(d->job);
	free(d->host_storage);
	memset(d, 0, sizeof(*d));
}

void dfrs_online_apply(dfrs_cluster_t *cluster, const dfrs_decisions_t *d)
{
	for (int j = 0; j < cluster->njobs && j < d->njobs; j++) {
		dfrs_online_job_t *job = &cluster->jobs[j];
		const dfrs_decision_t *dj = &d->job[j];

		job->state = dj->state;
		if (dj->state != DFRS_JOB_PENDING)
			memcpy(job->hosts, dj->hosts, sizeof(int) * job->shape.ntasks);
		job->yield = dj->state == DFRS_JOB_RUNNING ? dj->yield : 0.0;
		if (dj->cost_seconds > 0.0)
			job->blocked_until = cluster->now + dj->cost_seconds;
	}
}

void dfrs_online_advance(dfrs_cluster_t *cluster, double dt)
{
	double t0 = cluster->now, t1 = cluster->now + (dt > 0.0 ? dt : 0.0);

	for (int j = 0; j < cluster->njobs; j++) {
		dfrs_online_job_t *job = &cluster->jobs[j];
		double from = job->blocked_until > t0 ? job->blocked_until : t0;

		if (job->state == DFRS_JOB_RUNNING && t1 > from)
			job->virtual_time += job->yield * (t1 - from);
	}
	cluster->now = t1;
}

double dfrs_online_time_to_finish(const dfrs_cluster_t *cluster,
				  const dfrs_online_job_t *job, double runtime)
{
	double left = runtime - job->virtual_time, wait = 0.0;

	if (job->state != DFRS_JOB_RUNNING || job->yield <= 0.0)
		return INFINITY;
	if (left <= 0.0)
		return 0.0;
	if (job->blocked_until > cluster->now)
		wait = job->blocked_until - cluster->now;
	return wait + left / job->yield;
}
