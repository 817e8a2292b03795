/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_scale.c - how one sched/amcbf decision grows with the site's size
 * (doc/evaluation.md, "At what scale?"): the decision code the plugin
 * calls each cycle, run without slurmctld on a synthetic cluster of
 * NODES nodes whose fg slots are all held by running jobs, and JOBS pending jobs
 * (random widths and estimates, fixed seed).
 *
 *   amcbf  amcbf_mode=amcbf: the queue order (amcbf_order_compare, qsort as
 *          amcbf_cycle.c's build_state sorts it), the read window's start
 *          (read_window_start over the pending job ids), then the tiered
 *          engine sched_amcbf (Liu et al. 2013, Algorithm 4) at an arrival
 *          and a fg departure, as the plugin's first cycle calls it.
 *   dfrs   amcbf_mode=dfrs: dfrs_online_decide_arrivals with GreedyPM
 *          (Stillwell et al. 2010, "Online Non-Clairvoyant Problem"), the
 *          requeue model and ft/vt^2 priority as amcbf_decide_dfrs.c sets them,
 *          for the ARRIVALS newest pending jobs, on 1-CPU hosts.
 *
 *   make contribs/bench/bench_scale
 *   ./contribs/bench/bench_scale MODE NODES JOBS [REPEATS [ARRIVALS]]
 *
 * Prints one line: mode nodes jobs, the median decision time in ms (and
 * for amcbf the order's and the engine's parts), decisions made, and the
 * process's peak RSS in KiB.  Times are the process's CPU time
 * (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)), not wall time: on a shared
 * machine the wall time of a 10 ms decision jumps by whole time slices.
 * The state is rebuilt before every repeat (not timed).  Also a hash of
 * the decisions, to check that a change to the engine decides alike.  Not
 * a test: it prints timings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "amcbf/amcbf_order.h"
#include "amcbf/read_window.h"
#include "dfrs/dfrs_online.h"
#include "sched/sched_engine.h"

#define MAXREP 15

static uint64_t rnd_state;

static double uniform(void)
{
	/* xorshift64*: the same sequence on every machine */
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return (double)((rnd_state * 2685821657736338717ULL) >> 11) /
	       9007199254740992.0;
}

/* A width 1..max, log-uniform (most jobs narrow, some wide). */
static int width(int max)
{
	int w = (int)(__builtin_exp(uniform() * __builtin_log(max + 1.0)));

	return w < 1 ? 1 : w > max ? max : w;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* --- amcbf_mode=amcbf ---------------------------------------------------- */

typedef struct {
	sched_job_t job;
	amcbf_order_key_t key;
} entry_t;

static int by_priority(const void *a, const void *b)
{
	return amcbf_order_compare(AMCBF_PRIO_PRIORITY,
				   &((const entry_t *)a)->key,
				   &((const entry_t *)b)->key);
}

typedef struct {
	entry_t *e;
	size_t ne;
	int *alloc;
	double *util;
	uint32_t *ids;
	size_t nids;
} amcbf_world_t;

/* Running jobs filling every node's fg slot, then the pending ones; the
 * entries in the slurmctld list's order (by job id), not sorted. */
static int amcbf_world(amcbf_world_t *w, int nnodes, int njobs)
{
	int maxw = nnodes / 16 > 1 ? nnodes / 16 : 1;
	size_t cap = (size_t)nnodes + njobs, a = 0;
	int node = 0;

	w->e = calloc(cap, sizeof(*w->e));
	w->alloc = calloc(cap * 2 + (size_t)nnodes * 2, sizeof(int));
	w->util = calloc((size_t)nnodes + (size_t)njobs * maxw + 1,
			 sizeof(double));
	w->ids = calloc((size_t)njobs + 1, sizeof(*w->ids));
	if (!w->e || !w->alloc || !w->util || !w->ids)
		return -1;
	for (size_t i = 0; i < (size_t)nnodes + njobs; i++)
		w->util[i] = 0.3 + 0.7 * uniform();
	w->ne = 0;
	while (node < nnodes) {		/* running, fg */
		entry_t *en = &w->e[w->ne++];
		int b = width(maxw < 8 ? maxw : 8);

		if (b > nnodes - node)
			b = nnodes - node;
		en->job.nodes = b;
		en->job.alloc = &w->alloc[a];
		for (int p = 0; p < b; p++)
			w->alloc[a++] = node++;
	}
	for (size_t i = 0; i < w->ne; i++) {
		entry_t *en = &w->e[i];

		en->job.id = (long)i + 1;
		en->job.util = &w->util[i];
		en->job.arrival = 1000.0 + i;
		en->job.started = 2000.0 + i;
		en->job.estimate = 3600.0 + 82800.0 * uniform();
		en->job.where = SCHED_RUNNING_FG;
		en->key = (amcbf_order_key_t){ .slurm_prio =
			(uint32_t)(1000 * uniform()), .submit = 1000 + i,
			.id = (uint32_t)i + 1 };
	}
	w->nids = 0;
	for (int i = 0; i < njobs; i++) {	/* pending */
		entry_t *en = &w->e[w->ne++];

		en->job.id = (long)w->ne;
		en->job.nodes = width(maxw);
		en->job.util = &w->util[0];
		en->job.alloc = calloc(en->job.nodes, sizeof(int));
		if (!en->job.alloc)
			return -1;
		en->job.arrival = 5000.0 + i;
		en->job.estimate = 60.0 + 86340.0 * uniform();
		en->job.is_new = 1;
		en->job.where = SCHED_QUEUED;
		en->key = (amcbf_order_key_t){ .slurm_prio =
			(uint32_t)(1000 * uniform()), .submit = 5000 + i,
			.id = (uint32_t)w->ne };
		w->ids[w->nids++] = (uint32_t)w->ne;
	}
	return 0;
}

static void amcbf_world_free(amcbf_world_t *w)
{
	for (size_t i = 0; i < w->ne; i++)
		if (w->e[i].job.where == SCHED_QUEUED)
			free(w->e[i].job.alloc);
	free(w->e);
	free(w->alloc);
	free(w->util);
	free(w->ids);
}

/* FNV-1a over the decisions (action, job, tier, nodes): two builds of
 * the engine decide alike iff their hashes match (to compare a change). */
static uint64_t decisions_hash(const sched_state_t *st,
			       const sched_decisions_t *d)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < d->count; i++) {
		const sched_decision_t *dc = &d->items[i];
		long v[5] = { dc->action, dc->job_id, dc->tier, dc->moved,
			      dc->preemptor };
		const int *nodes = NULL;

		for (int k = 0; k < 5; k++)
			h = (h ^ (uint64_t)v[k]) * 1099511628211ULL;
		if (dc->action == SCHED_START || dc->action == SCHED_TO_FG)
			nodes = sched_decision_nodes(d, dc);
		for (int p = 0; nodes && p < st->jobs[dc->job].nodes; p++)
			h = (h ^ (uint64_t)nodes[p]) * 1099511628211ULL;
	}
	return h;
}

/* One cycle's decision: sort, read window, engine.  Fills the times. */
static int amcbf_once(const amcbf_world_t *w, int nnodes, double *t_order,
		      double *t_engine, size_t *ndec, uint64_t *hash)
{
	entry_t *e = malloc(w->ne * sizeof(*e));
	sched_state_t st = { .now = 10000.0, .nnodes = nnodes };
	sched_decisions_t dec = { 0 };
	sched_config_t cfg;
	double t0, t1, t2;
	int rc;

	st.nodes = malloc((size_t)nnodes * sizeof(*st.nodes));
	st.jobs = malloc(w->ne * sizeof(*st.jobs));
	if (!e || !st.nodes || !st.jobs)
		return -1;
	memcpy(e, w->e, w->ne * sizeof(*e));
	sched_config_defaults(&cfg);
	t0 = now_seconds();
	qsort(e, w->ne, sizeof(*e), by_priority);
	(void)read_window_start(w->ids, w->nids, w->ids[w->nids / 2]);
	st.njobs = w->ne;
	for (int n = 0; n < nnodes; n++)
		st.nodes[n] = (sched_node_t){ -1, -1, -1, -1 };
	for (size_t j = 0; j < w->ne; j++) {
		st.jobs[j] = e[j].job;
		if (st.jobs[j].where != SCHED_RUNNING_FG)
			continue;
		for (int p = 0; p < st.jobs[j].nodes; p++) {
			st.nodes[st.jobs[j].alloc[p]].fg_job = (int)j;
			st.nodes[st.jobs[j].alloc[p]].fg_proc = p;
		}
	}
	t1 = now_seconds();
	rc = sched_amcbf(&st, &cfg, SCHED_EV_ARRIVAL | SCHED_EV_FG_DEPARTURE,
			 &dec);
	t2 = now_seconds();
	*t_order = t1 - t0;
	*t_engine = t2 - t1;
	*ndec = dec.count;
	*hash = decisions_hash(&st, &dec);
	sched_decisions_free(&dec);
	free(e);
	free(st.nodes);
	free(st.jobs);
	return rc;
}

static int bench_amcbf(int nnodes, int njobs, int reps)
{
	amcbf_world_t w;
	double to[MAXREP], te[MAXREP], tt[MAXREP];
	size_t ndec = 0;
	uint64_t hash = 0;

	if (amcbf_world(&w, nnodes, njobs))
		return -1;
	for (int r = 0; r < reps; r++) {
		/* each repeat on a fresh world (the engine starts jobs in
		 * place): rebuilt from the same seed */
		if (r > 0) {
			amcbf_world_free(&w);
			rnd_state = 45;
			if (amcbf_world(&w, nnodes, njobs))
				return -1;
		}
		if (amcbf_once(&w, nnodes, &to[r], &te[r], &ndec, &hash))
			return -1;
		tt[r] = to[r] + te[r];
	}
	amcbf_world_free(&w);
	printf("amcbf %d %d total_ms %.3f order_ms %.3f engine_ms %.3f decisions %zu hash %016llx",
	       nnodes, njobs, 1e3 * median(tt, reps), 1e3 * median(to, reps),
	       1e3 * median(te, reps), ndec, (unsigned long long)hash);
	return 0;
}

/* --- amcbf_mode=dfrs ----------------------------------------------------- */

static int dfrs_world(dfrs_cluster_t *cl, dfrs_host_t *hosts, int nnodes,
		      int njobs)
{
	int maxw = nnodes / 16 > 1 ? nnodes / 16 : 1, node = 0, nrun = 0;
	dfrs_online_job_t *jobs = calloc((size_t)nnodes + njobs,
					 sizeof(*jobs));

	if (!jobs)
		return -1;
	for (int h = 0; h < nnodes; h++)
		for (int d = 0; d < 2; d++)
			hosts[h].cap[d] = hosts[h].elem[d] = 1.0;
	*cl = (dfrs_cluster_t){ .ndims = 2, .nhosts = nnodes, .hosts = hosts,
				.jobs = jobs, .now = 10000.0 };
	while (node < nnodes) {		/* running: one task per host */
		dfrs_online_job_t *j = &jobs[nrun];
		int b = width(maxw < 8 ? maxw : 8);

		if (b > nnodes - node)
			b = nnodes - node;
		j->id = ++nrun;
		j->shape.ntasks = b;
		j->shape.need[0] = 0.3 + 0.7 * uniform();
		j->shape.req[1] = 0.2 + 0.4 * uniform();
		j->task_mem_bytes = 1e9;
		j->submit = 1000.0 + nrun;
		j->virtual_time = 3000.0 * uniform();
		j->state = DFRS_JOB_RUNNING;
		j->yield = 1.0;
		j->estimate = 3600.0 + 82800.0 * uniform();
		j->rank = nrun - 1;
		j->hosts = malloc(b * sizeof(int));
		if (!j->hosts)
			return -1;
		for (int p = 0; p < b; p++)
			j->hosts[p] = node++;
	}
	for (int i = 0; i < njobs; i++) {
		dfrs_online_job_t *j = &jobs[nrun + i];

		j->id = nrun + i + 1;
		j->shape.ntasks = width(maxw);
		j->shape.need[0] = 0.05 + 0.95 * uniform();
		j->shape.req[1] = 0.02 + 0.3 * uniform();
		j->task_mem_bytes = 1e9;
		j->submit = 5000.0 + i;
		j->state = DFRS_JOB_PENDING;
		j->estimate = 60.0 + 86340.0 * uniform();
		j->rank = nrun + i;
		j->hosts = malloc(j->shape.ntasks * sizeof(int));
		if (!j->hosts)
			return -1;
	}
	cl->njobs = nrun + njobs;
	return nrun;
}

/* FNV-1a over the decisions (each job's action, state after, hosts when
 * unless pending, and the yield's bits) and the minimum scaled yield: to check
 * that a change to the engine decides alike. */
static uint64_t dfrs_hash(const dfrs_cluster_t *cl, const dfrs_decisions_t *d)
{
	uint64_t h = 14695981039346656037ULL, bits;

	for (int j = 0; j < d->njobs; j++) {
		const dfrs_decision_t *dc = &d->job[j];
		long v[3] = { dc->action, dc->state, dc->tasks_moved };

		for (int k = 0; k < 3; k++)
			h = (h ^ (uint64_t)v[k]) * 1099511628211ULL;
		memcpy(&bits, &dc->yield, sizeof(bits));
		h = (h ^ bits) * 1099511628211ULL;
		for (int p = 0; dc->hosts && dc->state != DFRS_JOB_PENDING &&
				p < cl->jobs[j].shape.ntasks; p++)
			h = (h ^ (uint64_t)dc->hosts[p]) * 1099511628211ULL;
	}
	memcpy(&bits, &d->min_scaled_yield, sizeof(bits));
	return (h ^ bits) * 1099511628211ULL;
}

static int bench_dfrs(int nnodes, int njobs, int reps, int narr)
{
	dfrs_host_t *hosts = calloc(nnodes, sizeof(*hosts));
	dfrs_cluster_t cl;
	dfrs_online_params_t op;
	double t[MAXREP];
	int *arrived, nrun;
	char err[256];
	size_t ndec = 0;
	uint64_t hash = 0;

	if (!hosts || (nrun = dfrs_world(&cl, hosts, nnodes, njobs)) < 0)
		return -1;
	if (narr > njobs)
		narr = njobs;
	arrived = calloc(narr + 1, sizeof(int));
	if (!arrived)
		return -1;
	for (int i = 0; i < narr; i++)
		arrived[i] = nrun + njobs - narr + i;
	dfrs_online_params_default(&op, DFRS_POLICY_GREEDYPM);
	op.priority = DFRS_PRIO_FT_VT2;
	op.requeue = 1;
	for (int r = 0; r < reps; r++) {
		dfrs_decisions_t d = { 0 };
		double t0 = now_seconds();

		/* the cluster is not modified: the same state each time */
		if (dfrs_online_decide_arrivals(&op, &cl, arrived, narr, &d,
						err, sizeof(err))) {
			fprintf(stderr, "bench_scale: %s\n", err);
			return -1;
		}
		t[r] = now_seconds() - t0;
		ndec = 0;
		for (int j = 0; j < d.njobs; j++)
			ndec += d.job[j].action != DFRS_ACT_NONE;
		hash = dfrs_hash(&cl, &d);
		dfrs_decisions_free(&d);
	}
	printf("dfrs %d %d total_ms %.3f arrivals %d changes %zu hash %016llx",
	       nnodes, njobs, 1e3 * median(t, reps), narr, ndec,
	       (unsigned long long)hash);
	for (int j = 0; j < cl.njobs; j++)
		free(cl.jobs[j].hosts);
	free(cl.jobs);
	free(hosts);
	free(arrived);
	return 0;
}

int main(int argc, char **argv)
{
	int nnodes, njobs, reps, narr, rc;
	struct rusage ru;

	if (argc < 4 || (strcmp(argv[1], "amcbf") && strcmp(argv[1], "dfrs"))) {
		fprintf(stderr,
			"usage: bench_scale amcbf|dfrs NODES JOBS [REPEATS [ARRIVALS]]\n");
		return 2;
	}
	nnodes = atoi(argv[2]);
	njobs = atoi(argv[3]);
	reps = argc > 4 ? atoi(argv[4]) : 5;
	narr = argc > 5 ? atoi(argv[5]) : 16;
	if (nnodes < 1 || nnodes > 1000000 || njobs < 1 || njobs > 1000000 ||
	    reps < 1 || reps > MAXREP || narr < 1) {
		fprintf(stderr, "bench_scale: bad arguments\n");
		return 2;
	}
	rnd_state = 45;
	rc = argv[1][0] == 'a' ? bench_amcbf(nnodes, njobs, reps) :
		bench_dfrs(nnodes, njobs, reps, narr);
	if (rc) {
		fprintf(stderr, "bench_scale: failed\n");
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf(" maxrss_kib %ld\n", ru.ru_maxrss);
	return 0;
}
