/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_online.c - online non-clairvoyant DFRS decisions: the entry point
 * that builds the working state, runs GreedyP / GreedyPM (online_greedypm.c)
 * or MCB and the periodic repack (online_mcb.c), then applies the cost
 * model and allocates yields; plus virtual time (Stillwell et al. 2010, "Online
 * Non-Clairvoyant Problem", "Priority", "Resource Allocation").  See
 * dfrs_online.h for the policies and how a caller drives them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_online.h"
#include "metavp.h"
#include "online_greedypm.h"
#include "online_mcb.h"
#include "online_repair.h"
#include "online_rules.h"
#include "online_state.h"
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
	p->max_requeues = -1;
	p->repack_drift = 0.0;
	p->repack_algorithms = metavp_algorithm_count(0);
	p->repack_tolerance = 0.0;
	p->wide_share = policy == DFRS_POLICY_GREEDYPMR ? 0.25 : 0.0;
	p->long_time = 3600.0;
	p->long_min_yield = policy == DFRS_POLICY_GREEDYPMR ? 0.75 : 0.0;
}

const char *const dfrs_online_policy_names[] = {
	[DFRS_POLICY_GREEDYP] = "greedyp",
	[DFRS_POLICY_GREEDYPM] = "greedypm",
	[DFRS_POLICY_MCB] = "mcb",
	[DFRS_POLICY_GREEDYPMR] = "greedypmr",
	NULL
};

int dfrs_online_policy_parse(const char *name, dfrs_policy_t *out)
{
	for (int i = 0; dfrs_online_policy_names[i]; i++) {
		if (!strcmp(name, dfrs_online_policy_names[i])) {
			*out = (dfrs_policy_t)i;
			return 0;
		}
	}
	return -1;
}

const char *dfrs_online_policy_name(dfrs_policy_t policy)
{
	return (policy >= DFRS_POLICY_GREEDYP &&
		policy <= DFRS_POLICY_GREEDYPMR) ?
		dfrs_online_policy_names[policy] : "?";
}

double dfrs_online_priority(const dfrs_online_params_t *params,
			    const dfrs_cluster_t *cluster,
			    const dfrs_online_job_t *job)
{
	return dfrs_priority_value(params->priority, job->submit,
				   job->virtual_time + job->lost_time,
				   cluster->now);
}

/* ---- decisions ------------------------------------------------------------ */

typedef struct {
	int j;
	int stays;		/* stays_put: ahead of every other job */
	double prio, submit;
} prio_key_t;

static inline int before(const prio_key_t *x, const prio_key_t *y)
{
	if (x->stays != y->stays)
		return x->stays > y->stays;
	return dfrs_priority_compare(x->prio, x->submit, x->j,
				     y->prio, y->submit, y->j) < 0;
}

/*
 * Sort the keys highest priority first: a natural merge sort (the runs
 * already in order are found, then merged pairwise; tmp holds n keys and
 * run n + 1 ints).  dfrs_priority_compare is a total order (the index
 * breaks every tie), so this is the order any sort gives, whatever the
 * order of the keys given.  The keys come in the order of the last
 * decision (the jobs' rank hints): priorities change little from one event
 * to the next, so there are few runs, and sorting some 600 jobs at every
 * event of saturated Lublin costs a few passes instead of log2(600).
 */
static void sort_by_priority(prio_key_t *keys, prio_key_t *tmp, int *run,
			     int n)
{
	prio_key_t *from = keys, *to = tmp;
	int nruns = 0;

	if (n < 2)
		return;
	run[nruns++] = 0;
	for (int i = 1; i < n; i++)
		if (before(&keys[i], &keys[i - 1]))
			run[nruns++] = i;
	run[nruns] = n;
	while (nruns > 1) {
		int merged = 0;

		for (int r = 0; r < nruns; r += 2) {
			int lo = run[r], mid = run[r + 1];
			int hi = r + 2 <= nruns ? run[r + 2] : n;
			int a = lo, b = mid, o = lo;

			while (a < mid && b < hi)
				to[o++] = before(&from[b], &from[a]) ? from[b++] : from[a++];
			while (a < mid)
				to[o++] = from[a++];
			while (b < hi)
				to[o++] = from[b++];
			run[merged++] = lo;
		}
		run[merged] = n;
		nruns = merged;
		prio_key_t *swap = from;
		from = to, to = swap;
	}
	if (from != keys)
		memcpy(keys, from, sizeof(*keys) * n);
}

/* A job's rank hint as a bucket of order_by_hint: hints out of 0..n-1
 * share the last one. */
static inline int hint_bucket(const dfrs_online_job_t *job, int n)
{
	return job->rank >= 0 && job->rank < n ? job->rank : n;
}

/* The jobs' indices in the order of their rank hints (ties, and hints out
 * of 0..n-1, by index): a counting sort; count holds n + 2 ints. */
static void order_by_hint(const dfrs_cluster_t *cl, int *order, int *count)
{
	int n = cl->njobs;

	memset(count, 0, sizeof(int) * (n + 2));
	for (int j = 0; j < n; j++)
		count[hint_bucket(&cl->jobs[j], n) + 1]++;
	for (int r = 0; r <= n; r++)
		count[r + 1] += count[r];
	for (int j = 0; j < n; j++)
		order[count[hint_bucket(&cl->jobs[j], n)]++] = j;
}

/*
 * 2 if a running job must stay on its hosts at this event: one the site
 * protects (no_preempt) or, under greedypmr, a wide one or one that has
 * run long_time (online_kept_running), under any model;
 * in the requeue model, one that
 * does not checkpoint at any event but an arrival, and one requeued
 * max_requeues times already or starving (online_starving) at every
 * event.  It ranks first, ahead even of jobs whose priority is
 * infinite (those that never ran): an infinite priority alone would tie
 * with theirs, and the tie, broken by submit time, would let an older
 * waiting job requeue it.  1 for a starving job that is not running: it
 * ranks next, ahead of the other waiting jobs.  0 otherwise.
 */
static int stays_put(const dfrs_online_params_t *par,
		     const dfrs_cluster_t *cl,
		     const dfrs_online_job_t *job, dfrs_event_t event)
{
	if (job->state == DFRS_JOB_RUNNING &&
	    (job->no_preempt || online_kept_running(par, cl->nhosts, job)))
		return 2;
	if (!par->requeue)
		return 0;
	if (job->state != DFRS_JOB_RUNNING)
		return online_starving(par, cl->now, job) ? 1 : 0;
	return 2 * ((!job->checkpointable && event != DFRS_EVENT_ARRIVAL) ||
		    online_requeue_capped(par, job) ||
		    online_starving(par, cl->now, job));
}

static void cost_of(const dfrs_online_params_t *par, const dfrs_online_job_t *job,
		    dfrs_decision_t *d)
{
	int k = job->shape.ntasks;
	double bytes = 0.0;

	d->tasks_moved = 0;
	if (d->state == DFRS_JOB_RUNNING && job->state != DFRS_JOB_PENDING &&
	    d->hosts != job->hosts)	/* else not written: the same */
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
	d->lost_seconds = 0.0;
	d->requeued = par->requeue && job->state == DFRS_JOB_RUNNING &&
		      (d->action == DFRS_ACT_SUSPEND ||
		       d->action == DFRS_ACT_MIGRATE);
	if (par->requeue && !job->checkpointable) {
		/* a requeue: nothing is saved or read back, a job moved or
		 * suspended while running starts over */
		d->cost_bytes = 0.0;
		if (d->requeued)
			d->lost_seconds = job->virtual_time;
		return;
	}
	if (d->action == DFRS_ACT_RESUME || d->action == DFRS_ACT_MIGRATE)
		d->cost_seconds = par->penalty +
			(par->bandwidth > 0.0 ? bytes / par->bandwidth : 0.0);
}

/*
 * The state must make sense: hosts and job shapes pass dfrs_instance_check
 * (a task larger than every host is an error, not a job to keep waiting),
 * running and suspended jobs name valid hosts (job_hosts_valid, as the
 * working state reads them), and running jobs fit their hosts at their
 * minimum yields (hosts_overloaded, on the working state's sums).
 */
static int check_shapes(const dfrs_cluster_t *cl, char *err, size_t errlen)
{
	dfrs_instance_checker_t check;

	if (dfrs_check_hosts(&check, &(dfrs_instance_t){ cl->ndims, cl->nhosts,
							 cl->hosts, 0, NULL },
			     err, errlen))
		return -1;
	for (int j = 0; j < cl->njobs; j++) {
		const dfrs_online_job_t *job = &cl->jobs[j];

		if (dfrs_check_job(&check, j, &job->shape, err, errlen))
			return -1;
		if (job->nlic < 0 || (job->nlic > 0 && !job->lic)) {
			snprintf(err, errlen,
				 "job %ld: %d license requests, none given",
				 job->id, job->nlic);
			return -1;
		}
	}
	if (cl->nlic < 0 || (cl->nlic > 0 && !cl->lic_free)) {
		snprintf(err, errlen, "license pool of %d, none given",
			 cl->nlic);
		return -1;
	}
	return 0;
}

/* Every event reads every running and suspended job's hosts (MCB on a
 * saturated cluster: some 30000 tasks): the test is an or over all of
 * them, which the compiler vectorises; the loop that names the culprit
 * runs only when one is out of range. */
static int job_hosts_valid(const dfrs_cluster_t *cl, const dfrs_online_job_t *job,
			   char *err, size_t errlen)
{
	typedef unsigned int lanes_t __attribute__((vector_size(16)));
	unsigned int n = (unsigned int)cl->nhosts, out_of_range = 0;
	lanes_t below = { ~0u, ~0u, ~0u, ~0u }, sign = { 0, 0, 0, 0 };
	int t = 0;

	/* A host h is in range when h - n wraps (sets the top bit: n is at
	 * most INT_MAX) and h itself does not have the top bit (is not
	 * negative): an AND and an OR over all tasks, 4 lanes at a time
	 * (gcc's vector extension: -O2 does not vectorise a loop of
	 * unknown count), folded once at the end. */
	for (; t + 4 <= job->shape.ntasks; t += 4) {
		lanes_t h;

		memcpy(&h, &job->hosts[t], sizeof(h));
		below &= h - n;
		sign |= h;
	}
	for (int u = 0; u < 4; u++)
		out_of_range |= ~below[u] | sign[u];
	out_of_range >>= 31;
	for (; t < job->shape.ntasks; t++)
		out_of_range |= (unsigned int)job->hosts[t] >= n;
	if (!out_of_range)
		return 1;
	for (t = 0; t < job->shape.ntasks; t++)
		if (job->hosts[t] < 0 || job->hosts[t] >= cl->nhosts) {
			snprintf(err, errlen,
				 "job %ld task %d: host %d out of range 0..%d",
				 job->id, t, job->hosts[t], cl->nhosts - 1);
			return 0;
		}
	return 1;
}

/* usage: what the running jobs use at their minimum yields, per cell */
static int hosts_overloaded(const dfrs_cluster_t *cl, const double *usage,
			    char *err, size_t errlen)
{
	for (int h = 0; h < cl->nhosts; h++)
		for (int d = 0; d < cl->ndims; d++) {
			double u = usage[(size_t)h * cl->ndims + d];
			double c = cl->hosts[h].cap[d];

			if (u > c * (1 + 1e-9) + 1e-12) {
				snprintf(err, errlen,
					 "host %d dimension %d: running jobs use %g at their minimum yields, capacity %g",
					 h, d, u, c);
				return 1;
			}
		}
	return 0;
}

static int final_yields(online_state_t *w, dfrs_decisions_t *out)
{
	double *yield = malloc(sizeof(*yield) * (w->nj + 1));
	int rc = -1;

	if (!yield)
		return -1;
	rc = online_running_yields(w, yield, &out->min_scaled_yield);
	for (int j = 0; rc == 0 && j < w->nj; j++)
		out->job[j].yield = yield[j];
	free(yield);
	return rc;
}

/*
 * One decision (decide_at) runs in phases over a working state w
 * (online_state.h) that starts as a copy of the cluster and ends as the
 * decisions; the cluster itself is never written.
 *
 * On entry: out is anything (it is cleared first); the cluster is what the
 * caller keeps (dfrs_online.h), to be checked.
 *
 *   decide_check   the cluster's shapes and the arrivals' indices are
 *                  valid; nothing is allocated.
 *   decide_alloc   every array of w and of out exists (sized from the
 *                  cluster), w.lic_free is a copy of the pool, and
 *                  w.none points at `widest` -1 hosts after the ntasks
 *                  hosts out->host_storage keeps for the jobs' own.
 *   decide_load    for every job j: w.state[j] is its state, w.hosts[j]
 *                  its own hosts (w.none while pending), w.out[j] its slot
 *                  in out->host_storage, w.prio[j] its priority; w.usage
 *                  and w.load hold the running jobs at their minimum
 *                  yields, and no host is overloaded by them (checked).
 *   decide_rank    w.by_prio is every job once, highest priority first,
 *                  with the jobs that stay put (stays_put; the site's
 *                  no_preempt and, in a repack, the pairwise pin of
 *                  online_pairwise_keep) ahead at infinite priority;
 *                  w.kept marks the running jobs no policy may take off
 *                  their hosts; out->job[j].rank is j's place.  Neither
 *                  hosts nor usage change.
 *   decide_policy  the policy (a repair or a full repack, or GreedyP(M)'s
 *                  pass) changes w.state, w.hosts, w.usage, w.load and
 *                  w.lic_free only as the rules allow: a kept job stays
 *                  where it runs, licenses are taken only by jobs that
 *                  start or resume, no host is overloaded at the minimum
 *                  yields.  w.claimed and w.held name the starving jobs.
 *   decide_record  out->job[j] holds w's state and hosts, the action and
 *                  cost against the cluster, and out the totals.
 *   final_yields   the running jobs' yields, max-min allocated.
 *
 * On exit: 0 and out filled, or -1 with a message in err and out freed
 * (dfrs_decisions_free); w's arrays are freed either way.
 */

/* The arrays of one decision that are not part of w. */
typedef struct {
	prio_key_t *keys;	/* [2 nj]: the sort keys and sort's tmp */
	int *scratch;		/* [nj + 2]: sort's runs, the hint's counts */
} decide_scratch_t;

/* The cluster's shapes and the arrivals' indices are valid. */
static int decide_check(const dfrs_cluster_t *cluster, const int *arrived,
			int narrived, char *err, size_t errlen)
{
	if (check_shapes(cluster, err, errlen))
		return -1;
	for (int a = 0; a < narrived; a++)
		if (arrived[a] < 0 || arrived[a] >= cluster->njobs) {
			snprintf(err, errlen, "arrival of job index %d, but %d jobs",
				 arrived[a], cluster->njobs);
			return -1;
		}
	return 0;
}

/* Allocate w's arrays, the scratch and out's; -1 if out of memory (what
 * was allocated is left for decide_free and dfrs_decisions_free). */
static int decide_alloc(online_state_t *w, decide_scratch_t *sc,
			dfrs_decisions_t *out)
{
	const dfrs_cluster_t *cluster = w->cl;
	int ntasks = 0, widest = 0;

	for (int j = 0; j < w->nj; j++) {
		ntasks += cluster->jobs[j].shape.ntasks;
		if (cluster->jobs[j].shape.ntasks > widest)
			widest = cluster->jobs[j].shape.ntasks;
	}
	out->njobs = w->nj;
	out->job = calloc(w->nj + 1, sizeof(*out->job));
	/* each job's hosts if a policy writes them, then w->none */
	out->host_storage = malloc(sizeof(int) * (ntasks + widest + 1));
	w->usage = calloc((size_t)w->nh * w->nd + 1, sizeof(double));
	w->load = calloc(w->nh + 1, sizeof(double));
	w->left = malloc(sizeof(double) * ((size_t)w->nh * w->nd + 1));
	w->cand = malloc(sizeof(int) * 2 * (w->nh + 1));
	w->state = malloc(sizeof(*w->state) * (w->nj + 1));
	w->hosts = malloc(sizeof(*w->hosts) * (w->nj + 1));
	w->out = malloc(sizeof(*w->out) * (w->nj + 1));
	w->prio = malloc(sizeof(double) * (w->nj + 1));
	w->by_prio = malloc(sizeof(int) * (w->nj + 1));
	sc->keys = malloc(sizeof(*sc->keys) * (2 * w->nj + 1));
	sc->scratch = malloc(sizeof(int) * (w->nj + 2));
	w->kept = calloc(w->nj + 1, 1);
	if (w->par->policy == DFRS_POLICY_GREEDYPMR &&
	    !(w->min_yield = malloc(sizeof(double) * (w->nj + 1))))
		return -1;
	if (cluster->lic_free && cluster->nlic > 0 &&
	    (w->lic_free = malloc(sizeof(int) * cluster->nlic)))
		memcpy(w->lic_free, cluster->lic_free,
		       sizeof(int) * cluster->nlic);
	online_index_init(w);
	if (!out->job || !out->host_storage || !w->usage || !w->load ||
	    !w->left || !w->cand || !w->state || !w->hosts || !w->out ||
	    !w->prio || !w->by_prio || !sc->keys || !sc->scratch || !w->kept ||
	    (cluster->lic_free && cluster->nlic > 0 && !w->lic_free))
		return -1;
	/* a pending job's hosts are -1 (every byte 0xff) */
	memset(&out->host_storage[ntasks], 0xff, sizeof(int) * widest);
	w->none = &out->host_storage[ntasks];
	return 0;
}

/* Each job's state, hosts, slot and priority into w; the running jobs'
 * usage, which may overload no host. */
/*
 * greedypmr: the running jobs at their shapes' minimum yields instead of
 * the long jobs' raised ones, if those overload a host (jobs started under
 * another policy, or a time limit raised since): the usage again from 0.
 */
static void running_at_own_yields(online_state_t *w)
{
	memset(w->usage, 0, sizeof(double) * (size_t)w->nh * w->nd);
	memset(w->load, 0, sizeof(double) * w->nh);
	for (int j = 0; j < w->nj; j++)
		if (w->state[j] == DFRS_JOB_RUNNING) {
			w->min_yield[j] = w->cl->jobs[j].shape.min_yield;
			online_account_job(w, j, +1);
		}
}

static int decide_load(online_state_t *w, dfrs_decisions_t *out, char *err,
		       size_t errlen)
{
	const dfrs_cluster_t *cluster = w->cl;

	for (int j = 0; w->min_yield && j < w->nj; j++)
		w->min_yield[j] = online_job_min_yield(w->par, &cluster->jobs[j]);
	for (int j = 0, off = 0; j < w->nj; j++) {
		const dfrs_online_job_t *job = &cluster->jobs[j];

		w->out[j] = &out->host_storage[off];
		off += job->shape.ntasks;
		w->state[j] = job->state;
		if (job->state != DFRS_JOB_PENDING &&
		    !job_hosts_valid(cluster, job, err, errlen))
			return -1;
		online_hosts_reset(w, j);
		if (job->state == DFRS_JOB_RUNNING)
			online_account_job(w, j, +1);
		w->prio[j] = dfrs_online_priority(w->par, cluster, job);
	}
	/* w->usage: the running jobs at their minimum yields */
	if (w->min_yield && hosts_overloaded(cluster, w->usage, err, errlen))
		running_at_own_yields(w);
	return hosts_overloaded(cluster, w->usage, err, errlen) ? -1 : 0;
}

/* Sort the keys and copy their order into w->by_prio. */
static void decide_sort(online_state_t *w, decide_scratch_t *sc)
{
	sort_by_priority(sc->keys, sc->keys + w->nj, sc->scratch, w->nj);
	for (int r = 0; r < w->nj; r++)
		w->by_prio[r] = sc->keys[r].j;
}

/* The priority order (w->by_prio, out->job[].rank) and the jobs the
 * site's rules keep (w->kept). */
static void decide_rank(online_state_t *w, decide_scratch_t *sc,
			dfrs_event_t event, int repack, dfrs_decisions_t *out)
{
	const dfrs_cluster_t *cluster = w->cl;
	prio_key_t *keys = sc->keys;

	/* by_prio holds the hinted order until the sort gives the real one */
	order_by_hint(cluster, w->by_prio, sc->scratch);
	for (int r = 0; r < w->nj; r++) {
		int j = w->by_prio[r];
		int stays = stays_put(w->par, cluster, &cluster->jobs[j], event);

		/* requeue model: only an arrival may take a running job
		 * that does not checkpoint off its hosts (it would restart
		 * from scratch), and none past max_requeues; otherwise it
		 * ranks first (stays_put), no victim of any job, so that
		 * rotating priorities cannot requeue jobs over and over */
		if (stays == 2)
			w->prio[j] = INFINITY;
		/* the site protects it: no policy takes it off its hosts */
		w->kept[j] = cluster->jobs[j].state == DFRS_JOB_RUNNING &&
			     cluster->jobs[j].no_preempt;
		keys[r] = (prio_key_t){
			.j = j,
			.stays = stays,
			.prio = w->prio[j],
			.submit = cluster->jobs[j].submit,
		};
	}
	decide_sort(w, sc);
	/* a repack has no single preemptor: a running job some waiting job
	 * above it may not preempt stays where it runs, ranked first as a
	 * no_preempt one (moving running jobs up leaves every other running
	 * job below the same waiting ones: one pass suffices) */
	if (repack && online_pairwise_keep(w) > 0) {
		for (int r = 0; r < w->nj; r++)
			if (w->kept[keys[r].j] && keys[r].stays != 2) {
				keys[r].stays = 2;
				keys[r].prio = w->prio[keys[r].j] = INFINITY;
			}
		decide_sort(w, sc);
	}
	for (int r = 0; r < w->nj; r++)
		out->job[keys[r].j].rank = r;
}

/* Run the policy on w; -1 if out of memory. */
static int decide_policy(online_state_t *w, dfrs_event_t event,
			 const int *arrived, int narrived, int repack,
			 dfrs_decisions_t *out)
{
	if (repack) {
		int kept = w->par->repack_drift > 0.0 &&
			   w->cl->repack_yield > 0.0 ?
			   online_repair(w, event, arrived, narrived) : 0;

		if (kept < 0)
			return -1;
		if (!kept) {
			if (online_mcb_repack(w))
				return -1;
			out->repacked = 1;
		}
		return 0;
	}
	return online_greedypm_pass(w, event, arrived, narrived) ? -1 : 0;
}

/* w's states and hosts into the decisions, with their actions, costs and
 * totals. */
static void decide_record(const online_state_t *w, dfrs_decisions_t *out)
{
	for (int j = 0; j < w->nj; j++) {
		dfrs_decision_t *d = &out->job[j];

		d->state = w->state[j];
		d->hosts = d->state == DFRS_JOB_PENDING ? w->none : w->hosts[j];
		cost_of(w->par, &w->cl->jobs[j], d);
		out->total_bytes += d->cost_bytes;
		out->total_lost_seconds += d->lost_seconds;
		out->nstarted += d->action == DFRS_ACT_START;
		out->nsuspended += d->action == DFRS_ACT_SUSPEND;
		out->nresumed += d->action == DFRS_ACT_RESUME;
		out->nmigrated += d->action == DFRS_ACT_MIGRATE;
	}
	out->claimed = w->claimed;
	out->held = w->held;
	out->reserved = w->reserved;
	out->shadow = w->reserved >= 0 ? w->shadow : 0.0;
}

static void decide_free(online_state_t *w, decide_scratch_t *sc)
{
	free(w->usage);
	free(w->load);
	free(w->left);
	host_index_free(&w->ix);
	free(w->cand);
	free(w->state);
	free(w->hosts);
	free(w->out);
	free(w->prio);
	free(w->by_prio);
	free(sc->keys);
	free(sc->scratch);
	free(w->kept);
	free(w->lic_free);
	free(w->min_yield);
}

/* Decide at an event; arrived: the arriving jobs at an arrival (narrived
 * is 0 at other events).  The phases and what each keeps true are above. */
static int decide_at(const dfrs_online_params_t *params,
		     const dfrs_cluster_t *cluster, dfrs_event_t event,
		     const int *arrived, int narrived, dfrs_decisions_t *out,
		     char *err, size_t errlen)
{
	online_state_t w = { .par = params, .cl = cluster, .nd = cluster->ndims,
		     .nh = cluster->nhosts, .nj = cluster->njobs, .claimed = -1,
		     .held = -1, .reserved = -1 };
	decide_scratch_t sc = { 0 };
	int rc = -1;
	/* the policy repacks every job (MCB; GreedyPM's periodic event) */
	int repack = params->policy == DFRS_POLICY_MCB ||
		     (event == DFRS_EVENT_PERIODIC && params->period > 0.0 &&
		      params->policy == DFRS_POLICY_GREEDYPM);

	memset(out, 0, sizeof(*out));
	out->min_scaled_yield = -1.0;
	out->claimed = -1;
	out->held = -1;
	out->reserved = -1;
	if (decide_check(cluster, arrived, narrived, err, errlen))
		return -1;
	if (decide_alloc(&w, &sc, out)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (decide_load(&w, out, err, errlen))
		goto out;
	decide_rank(&w, &sc, event, repack, out);
	if (decide_policy(&w, event, arrived, narrived, repack, out)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	decide_record(&w, out);
	if (final_yields(&w, out) != 0) {
		snprintf(err, errlen, "internal error: running jobs overload a host");
		goto out;
	}
	rc = 0;
out:
	decide_free(&w, &sc);
	if (rc)
		dfrs_decisions_free(out);
	return rc;
}

int dfrs_online_decide(const dfrs_online_params_t *params,
		       const dfrs_cluster_t *cluster, dfrs_event_t event,
		       int event_job, dfrs_decisions_t *out,
		       char *err, size_t errlen)
{
	return decide_at(params, cluster, event, &event_job,
			 event == DFRS_EVENT_ARRIVAL, out, err, errlen);
}

int dfrs_online_decide_arrivals(const dfrs_online_params_t *params,
				const dfrs_cluster_t *cluster,
				const int *arrived, int narrived,
				dfrs_decisions_t *out, char *err, size_t errlen)
{
	if (narrived < 0 || (narrived > 0 && !arrived)) {
		memset(out, 0, sizeof(*out));
		snprintf(err, errlen, "%d arrivals", narrived);
		return -1;
	}
	return decide_at(params, cluster, DFRS_EVENT_ARRIVAL, arrived,
			 narrived, out, err, errlen);
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
		job->rank = dj->rank;
		if (dj->state != DFRS_JOB_PENDING && dj->hosts != job->hosts)
			memcpy(job->hosts, dj->hosts, sizeof(int) * job->shape.ntasks);
		job->yield = dj->state == DFRS_JOB_RUNNING ? dj->yield : 0.0;
		if (dj->cost_seconds > 0.0)
			job->blocked_until = cluster->now + dj->cost_seconds;
		job->requeues += dj->requeued;
		if (dj->lost_seconds > 0.0) {
			job->lost_time += dj->lost_seconds;
			job->virtual_time = 0.0;
		}
	}
	if (d->repacked)
		cluster->repack_yield = d->min_scaled_yield;
}

void dfrs_online_take_licenses(const dfrs_cluster_t *cluster,
			       const dfrs_decisions_t *d, int *lic_free)
{
	for (int j = 0; lic_free && j < cluster->njobs && j < d->njobs; j++)
		if (cluster->jobs[j].state != DFRS_JOB_RUNNING &&
		    d->job[j].state == DFRS_JOB_RUNNING)
			rules_licenses_take(cluster->jobs[j].lic,
					    cluster->jobs[j].nlic, lic_free,
					    cluster->nlic);
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
