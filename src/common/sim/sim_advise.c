/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_advise.c - the replays behind dfrs advise (sim_advise.h): the
 * deployed policy against conservative backfilling, EASY, EASY++ and
 * SJF-ordered backfilling over seeds x loads, the per-partition and size-class breakdown, the parameter sweep
 * and the verdict.  Bounded slowdown as Liu et al. 2013 section 5.2
 * (Gamma = 10 s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs/dfrs_online.h"
#include "sim_advise.h"
#include "sim_need.h"
#include "sim_policy.h"
#include "sim_quantile.h"

static const char *const baseline_policy[SIM_ADVISE_BASELINES] = {
	"conservative", "easy", "easy++", "sjf-backfill",
};

/* The sweep's grid; the deployed values are always tried first. */
static const double sweep_util[] = { 0.8, 0.9, 0.96 };
static const double sweep_rate[] = { 0, 0.25, 0.5 };
#define NSWEEP_UTIL (sizeof(sweep_util) / sizeof(sweep_util[0]))
#define NSWEEP_RATE (sizeof(sweep_rate) / sizeof(sweep_rate[0]))

void sim_advise_opts_defaults(sim_advise_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	sim_workload_opts_defaults(&o->wopts);
	sim_model_defaults(&o->model);
	o->policy = "amcbf";
	o->cpu_default = 1;
	o->loads[0] = 1;
	o->loads[1] = 1.5;
	o->nloads = 2;
	o->nseeds = 5;
	o->sweep = 1;
	o->need_source = SIM_NEED_MEASURED;
	o->max_response = SIM_ADVISE_MAX_RESPONSE;
	o->alternative = 1;
}

int sim_advise_deploy(sim_advise_opts_t *o, const char *params,
		      dfrs_params_t *p, char *err, size_t errlen)
{
	if (dfrs_params_parse(params, p, err, errlen))
		return -1;
	/* amcbf_mode=dfrs runs the online DFRS policy of dfrs_policy */
	o->policy = p->mode == AMCBF_MODE_DFRS
		    ? dfrs_online_policy_name(p->dfrs_policy)
		    : dfrs_params_mode_name(p->mode);
	o->model.sched.util_threshold = p->util_threshold;
	o->model.sched.min_idle_cpu = p->min_idle_cpu;
	o->model.sched.bg_min_rate = p->bg_min_rate;
	o->cpu_default = p->share_cpu_need;
	/* amcbf_mode=dfrs as the plugin runs it (amcbf_decide_dfrs.c): requeues,
	 * its cap and starvation bound, its period, minvt and repacks, the
	 * jobs' minimum yield; the checkpoint signal reaches only the jobs
	 * that asked for it (sim_ckpt_checkpoints, at each build) */
	o->model.dfrs_requeue = 1;
	o->model.dfrs_max_requeues = p->max_preempt;
	o->model.dfrs_starve_bsld = p->dfrs_starve_bsld;
	o->model.dfrs_wide_share = p->dfrs_wide_share;
	o->model.dfrs_long_time = p->dfrs_long_time;
	o->model.dfrs_long_min_yield = p->dfrs_long_min_yield;
	o->model.dfrs_period = p->dfrs_period;
	o->model.dfrs_minvt = p->dfrs_minvt;
	o->model.dfrs_repack_algorithms = p->dfrs_repack_algorithms;
	o->model.dfrs_repack_drift = p->dfrs_repack_drift;
	o->model.dfrs_repack_tolerance = p->dfrs_repack_tolerance;
	o->model.dfrs_min_yield = p->share_min_yield;
	o->ckpt_signo = dfrs_params_ckpt_signo(p->ckpt_signal);
	o->ckpt_wait = p->ckpt_wait;
	return 0;
}

int sim_advise_best_baseline(const sim_advise_load_t *L)
{
	int best = 0;

	for (int b = 1; b < SIM_ADVISE_BASELINES; b++)
		if (L->bsld_mean[b] < L->bsld_mean[best])
			best = b;
	return best;
}

sim_advise_verdict_t sim_advise_verdict(double ratio_lo, double ratio_hi)
{
	if (ratio_hi < SIM_ADVISE_BETTER)
		return SIM_ADVISE_DEPLOY;
	if (ratio_lo > SIM_ADVISE_WORSE)
		return SIM_ADVISE_DO_NOT_DEPLOY;
	return SIM_ADVISE_NO_CLEAR_DIFFERENCE;
}

const char *sim_advise_verdict_name(sim_advise_verdict_t v)
{
	switch (v) {
	case SIM_ADVISE_DEPLOY:
		return "deploy";
	case SIM_ADVISE_DO_NOT_DEPLOY:
		return "do not deploy";
	default:
		return "no clear difference";
	}
}

void sim_advise_cell(const sim_workload_t *w, const sim_result_t *r,
		     const int *partition, int part, int cls,
		     sim_advise_cell_t *out)
{
	double *wait = malloc((w->njobs + 1) * sizeof(double));
	double *bsld = malloc((w->njobs + 1) * sizeof(double));
	size_t n = 0;
	double wsum = 0, bsum = 0;

	memset(out, 0, sizeof(*out));
	if (!wait || !bsld)
		goto out;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		if ((part && partition[i] != part) ||
		    (cls >= 0 && sim_size_class(j->nodes) != cls))
			continue;
		const sim_job_result_t *jr = &r->jobs[i];
		wait[n] = jr->first_start - j->arrival;
		bsld[n] = sim_bounded_slowdown(jr->finish - j->arrival,
					       j->runtime, SIM_BSLD_BOUND);
		wsum += wait[n];
		bsum += bsld[n];
		n++;
	}
	sim_quantile_sort(wait, n);
	sim_quantile_sort(bsld, n);
	out->jobs = n;
	out->wait_p50 = sim_quantile(wait, n, 0.5);
	out->wait_p95 = sim_quantile(wait, n, 0.95);
	out->bsld_p50 = sim_quantile(bsld, n, 0.5);
	out->bsld_p95 = sim_quantile(bsld, n, 0.95);
	out->wait_mean = n ? wsum / (double)n : 0;
	out->bsld_mean = n ? bsum / (double)n : 0;
out:
	free(wait);
	free(bsld);
}

/* Jobs whose history has no CPU time use cpu_default (the plugin's
 * dfrs_cpu_need); partition[i]: job i's partition number (0 unknown);
 * the jobs that asked for the deployed checkpoint signal checkpoint. */
static void apply_history(const trace_t *t, sim_workload_t *w,
			  const sim_advise_opts_t *o, int *partition)
{
	double cpu_default = o->cpu_default;

	size_t k = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		sim_job_t *j = &w->jobs[i];
		while (k < t->njobs && t->jobs[k].line != j->line)
			k++;
		if (k == t->njobs)
			break;
		const trace_job_t *tj = &t->jobs[k];
		partition[i] = tj->partition > 0 ? tj->partition : 0;
		j->checkpoints = sim_ckpt_checkpoints(&o->ckpt, o->ckpt_signo,
						      o->ckpt_wait, t, tj);
		if (cpu_default > 0 && !(tj->cpu_used > 0 && tj->runtime > 0))
			for (int p = 0; p < j->nodes; p++)
				j->util[p] = cpu_default;
	}
}

typedef struct {
	const trace_t *t;
	const sim_advise_opts_t *o;
	sim_workload_t w;
	int *partition;
	char *err;
	size_t errlen;
} advise_ctx_t;

static int build(advise_ctx_t *c, double load, unsigned seed)
{
	sim_workload_opts_t wo = c->o->wopts;

	wo.load = load;
	wo.seed = seed;
	sim_workload_free(&c->w);
	free(c->partition);
	c->partition = NULL;
	if (sim_workload_build(c->t, &wo, &c->w, c->err, c->errlen))
		return -1;
	c->partition = calloc(c->w.njobs, sizeof(int));
	if (!c->partition) {
		snprintf(c->err, c->errlen, "out of memory");
		return -1;
	}
	apply_history(c->t, &c->w, c->o, c->partition);
	return 0;
}

static int find_policies(const sim_advise_opts_t *o,
			 sim_policy_t pol[SIM_ADVISE_POLICIES], char *err,
			 size_t errlen)
{
	for (int p = 0; p < SIM_ADVISE_BASELINES; p++)
		if (sim_policy_find(baseline_policy[p], &pol[p])) {
			snprintf(err, errlen, "no %s policy", baseline_policy[p]);
			return -1;
		}
	if (sim_policy_find(o->policy, &pol[SIM_ADVISE_DEPLOYED])) {
		snprintf(err, errlen, "the simulator has no policy '%s' to "
			 "model the deployed mode", o->policy);
		return -1;
	}
	return 0;
}

static int add_groups(advise_ctx_t *c, sim_advise_t *a, int policy,
		      const sim_result_t *r)
{
	size_t nparts = c->t->npartition_names > 1 ? c->t->npartition_names
						   : 0;
	size_t want = (nparts + 1) * (SIM_SIZE_CLASSES + 1);

	if (!a->groups) {
		a->groups = calloc(want, sizeof(*a->groups));
		if (!a->groups) {
			snprintf(c->err, c->errlen, "out of memory");
			return -1;
		}
		for (size_t part = 0; part <= nparts; part++)
			for (int cls = -1; cls < SIM_SIZE_CLASSES; cls++) {
				sim_advise_group_t *g = &a->groups[a->ngroups++];
				g->partition = (int)part;
				g->size_class = cls;
			}
	}
	for (size_t i = 0; i < a->ngroups; i++) {
		sim_advise_group_t *g = &a->groups[i];
		sim_advise_cell(&c->w, r, c->partition, g->partition,
				g->size_class, &g->cell[policy]);
	}
	return 0;
}

/* Drop the groups without a job (the same jobs under every policy). */
static void drop_empty_groups(sim_advise_t *a)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ngroups; i++)
		if (a->groups[i].cell[0].jobs)
			a->groups[n++] = a->groups[i];
	a->ngroups = n;
}

static int replay(advise_ctx_t *c, const sim_policy_t *pol,
		  const sim_model_t *m, sim_advise_t *a, sim_metrics_t *x,
		  sim_result_t *keep)
{
	sim_result_t r;

	if (sim_policy_run(pol, &c->w, m, &r, c->err, c->errlen))
		return -1;
	a->runs++;
	sim_metrics_compute(&c->w, &r, SIM_BSLD_BOUND, x);
	if (keep)
		*keep = r;
	else
		sim_result_free(&r);
	return 0;
}

static void ratio_range(double v, size_t seed, double *lo, double *hi)
{
	if (seed == 0 || v < *lo)
		*lo = v;
	if (seed == 0 || v > *hi)
		*hi = v;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 1;
}

/*
 * The baselines give the same schedule for every seed when the workload
 * does not depend on it (every process's CPU use is the history's or
 * cpu_default): the seed draws only the bg efficiency and the fg overhead
 * beside a bg job, and they have no bg tier.  Then seed 1's figures are
 * reused, which saves most of the time on a long queue (conservative
 * backfilling's reservations).
 */
static int same_for_every_seed(const sim_advise_opts_t *o, int policy)
{
	return policy < SIM_ADVISE_BASELINES && o->cpu_default > 0;
}

static void set_need(sim_model_t *m, const sim_advise_opts_t *o,
		     int source)
{
	m->need_source = source;
	m->need_default = o->cpu_default > 0 ? o->cpu_default : 1;
}

/* The deployed policy under each CPU-need source for seed s (x: this
 * seed's figures, the opts' source among them). */
static int need_rows(advise_ctx_t *c, const sim_policy_t *pol,
		     const sim_model_t *m, const sim_metrics_t *x, unsigned s,
		     sim_advise_t *a)
{
	for (int src = 0; src <= SIM_NEED_NONE; src++) {
		sim_metrics_t y = x[SIM_ADVISE_DEPLOYED];
		if (src != c->o->need_source) {
			sim_model_t mm = *m;
			set_need(&mm, c->o, src);
			if (replay(c, &pol[SIM_ADVISE_DEPLOYED], &mm, a, &y,
				   NULL))
				return -1;
		}
		a->need_bsld[src] += y.mean_bsld / c->o->nseeds;
		ratio_range(ratio(y.mean_bsld, x[0].mean_bsld), s - 1,
			    &a->need_ratio_lo[src], &a->need_ratio_hi[src]);
	}
	return 0;
}

static int run_load(advise_ctx_t *c, const sim_policy_t *pol, size_t l,
		    sim_advise_t *a)
{
	sim_advise_load_t *L = &a->loads[l];
	sim_metrics_t first[SIM_ADVISE_POLICIES];

	L->load = c->o->loads[l];
	for (unsigned s = 1; s <= c->o->nseeds; s++) {
		sim_metrics_t x[SIM_ADVISE_POLICIES];
		if (build(c, L->load, s))
			return -1;
		sim_model_t m = c->o->model;
		m.seed = s;
		set_need(&m, c->o, c->o->need_source);
		for (int p = 0; p < SIM_ADVISE_POLICIES; p++) {
			sim_result_t r;
			int keep = l == 0 && s == 1;
			if (s > 1 && same_for_every_seed(c->o, p))
				x[p] = first[p];
			else if (replay(c, &pol[p], &m, a, &x[p],
					keep ? &r : NULL))
				return -1;
			if (s == 1)
				first[p] = x[p];
			int rc = keep ? add_groups(c, a, p, &r) : 0;
			if (keep)
				sim_result_free(&r);
			if (rc)
				return -1;
			L->bsld_mean[p] += x[p].mean_bsld / c->o->nseeds;
			L->wait_mean[p] += x[p].mean_wait / c->o->nseeds;
			L->response_mean[p] += x[p].mean_response /
					       c->o->nseeds;
			if (x[p].max_bsld > L->bsld_max[p])
				L->bsld_max[p] = x[p].max_bsld;
		}
		for (int b = 0; b < SIM_ADVISE_BASELINES; b++) {
			const sim_metrics_t *d = &x[SIM_ADVISE_DEPLOYED];
			ratio_range(ratio(d->mean_bsld, x[b].mean_bsld), s - 1,
				    &L->ratio_lo[b], &L->ratio_hi[b]);
			ratio_range(ratio(d->mean_wait, x[b].mean_wait), s - 1,
				    &L->wait_ratio_lo[b], &L->wait_ratio_hi[b]);
		}
		if (l == 0 && need_rows(c, pol, &m, x, s, a))
			return -1;
		if (l == 0 && s == 1) {
			a->jobs = c->w.njobs;
			a->nodes = c->w.nhosts ? c->w.nhosts : c->w.nodes;
			a->clamped = c->w.clamped;
			a->cpu_from_trace = (size_t)c->w.cpu_from_trace;
		}
	}
	return 0;
}

static void add_sweep_point(sim_advise_t *a, double util, double rate)
{
	for (size_t i = 0; i < a->nsweep; i++)
		if (a->sweep[i].util_threshold == util &&
		    a->sweep[i].bg_min_rate == rate)
			return;
	if (a->nsweep < SIM_ADVISE_MAX_SWEEP)
		a->sweep[a->nsweep++] = (sim_advise_sweep_t){ util, rate, 0, 0, 0 };
}

/* The deployed policy at the first load over every seed for each point;
 * another point is recommended only when it is 1 % better. */
static int run_sweep(advise_ctx_t *c, const sim_policy_t *pol,
		     sim_advise_t *a)
{
	const sim_model_t *m0 = &c->o->model;

	add_sweep_point(a, m0->sched.util_threshold, m0->sched.bg_min_rate);
	for (size_t u = 0; u < NSWEEP_UTIL; u++)
		for (size_t r = 0; r < NSWEEP_RATE; r++)
			add_sweep_point(a, sweep_util[u], sweep_rate[r]);
	for (unsigned s = 1; s <= c->o->nseeds; s++) {
		if (build(c, c->o->loads[0], s))
			return -1;
		for (size_t i = 0; i < a->nsweep; i++) {
			sim_model_t m = *m0;
			sim_metrics_t x;
			m.seed = s;
			set_need(&m, c->o, c->o->need_source);
			m.sched.util_threshold = a->sweep[i].util_threshold;
			m.sched.bg_min_rate = a->sweep[i].bg_min_rate;
			if (replay(c, &pol[SIM_ADVISE_DEPLOYED], &m, a, &x,
				   NULL))
				return -1;
			a->sweep[i].bsld_mean += x.mean_bsld / c->o->nseeds;
			a->sweep[i].response_mean += x.mean_response /
						     c->o->nseeds;
		}
	}
	a->best = sim_advise_best(a->sweep, a->nsweep,
				  a->loads[0].response_mean[SIM_ADVISE_EASY],
				  c->o->max_response);
	return 0;
}

int sim_advise_alt_wins(double alt_bsld, double alt_response,
			double deployed_bsld, double easy_response,
			double bound)
{
	return alt_bsld < SIM_ADVISE_ALT_MARGIN * deployed_bsld &&
	       alt_response <= easy_response &&
	       !sim_advise_over_response(alt_response, easy_response, bound);
}

/* SIM_ADVISE_ALT_POLICY at the first load over every seed, under the
 * deployed model (its dfrs_* keys: the plugin's defaults unless the line
 * sets them). */
static int run_alternative(advise_ctx_t *c, sim_advise_t *a)
{
	const sim_advise_load_t *L = &a->loads[0];
	sim_policy_t alt;

	if (!c->o->alternative || !strcmp(c->o->policy, SIM_ADVISE_ALT_POLICY))
		return 0;
	if (sim_policy_find(SIM_ADVISE_ALT_POLICY, &alt)) {
		snprintf(c->err, c->errlen, "no %s policy", SIM_ADVISE_ALT_POLICY);
		return -1;
	}
	for (unsigned s = 1; s <= c->o->nseeds; s++) {
		sim_model_t m = c->o->model;
		sim_metrics_t x;

		if (build(c, c->o->loads[0], s))
			return -1;
		m.seed = s;
		set_need(&m, c->o, c->o->need_source);
		if (replay(c, &alt, &m, a, &x, NULL))
			return -1;
		a->alt_bsld += x.mean_bsld / c->o->nseeds;
		a->alt_response += x.mean_response / c->o->nseeds;
	}
	a->alt_run = 1;
	a->alt_wins = sim_advise_alt_wins(a->alt_bsld, a->alt_response,
					  L->bsld_mean[SIM_ADVISE_DEPLOYED],
					  L->response_mean[SIM_ADVISE_EASY],
					  c->o->max_response);
	return 0;
}

int sim_advise_over_response(double resp, double easy, double bound)
{
	return bound > 0 && easy > 0 && resp > bound * easy;
}

size_t sim_advise_best(sim_advise_sweep_t *sw, size_t n, double easy,
		       double bound)
{
	size_t best = 0;
	int found = 0;

	for (size_t i = 0; i < n; i++) {
		sw[i].excluded = sim_advise_over_response(sw[i].response_mean,
							  easy, bound);
		if (sw[i].excluded)
			continue;
		if (!found || (sw[i].bsld_mean < sw[best].bsld_mean &&
			       (sw[0].excluded ||
				sw[i].bsld_mean < 0.99 * sw[0].bsld_mean)))
			best = i;
		found = 1;
	}
	return best;
}

void sim_advise_bound(sim_advise_t *a)
{
	const sim_advise_load_t *L = &a->loads[0];
	double easy = L->response_mean[SIM_ADVISE_EASY];

	a->response_ratio = ratio(L->response_mean[SIM_ADVISE_DEPLOYED], easy);
	a->excluded = a->nloads > 0 &&
		      sim_advise_over_response(
			      L->response_mean[SIM_ADVISE_DEPLOYED], easy,
			      a->max_response);
	if (a->excluded)
		a->verdict = SIM_ADVISE_DO_NOT_DEPLOY;
}

int sim_advise_excluded_line(const sim_advise_t *a, const char *policy,
			     char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!a->excluded)
		return 0;
	snprintf(buf, len, "excluded: %s: mean response %.2f x EASY's, over "
		 "%.2f x (--max-response): its slowdown costs time to result",
		 policy, a->response_ratio, a->max_response);
	return 1;
}

int sim_advise_run(const trace_t *t, const sim_advise_opts_t *o,
		   sim_advise_t *a, char *err, size_t errlen)
{
	sim_policy_t pol[SIM_ADVISE_POLICIES];
	advise_ctx_t c = { t, o, { 0 }, NULL, err, errlen };
	int rc = -1;

	memset(a, 0, sizeof(*a));
	if (o->nloads == 0 || o->nloads > SIM_ADVISE_MAX_LOADS ||
	    o->nseeds == 0 || o->nseeds > SIM_ADVISE_MAX_SEEDS) {
		snprintf(err, errlen, "1..%d loads and 1..%d seeds",
			 SIM_ADVISE_MAX_LOADS, SIM_ADVISE_MAX_SEEDS);
		return -1;
	}
	if (find_policies(o, pol, err, errlen))
		return -1;
	a->nseeds = o->nseeds;
	a->need_source = o->need_source;
	for (size_t l = 0; l < o->nloads; l++, a->nloads++)
		if (run_load(&c, pol, l, a))
			goto out;
	drop_empty_groups(a);
	if (o->sweep && run_sweep(&c, pol, a))
		goto out;
	if (run_alternative(&c, a))
		goto out;
	a->verdict = sim_advise_verdict(a->loads[0].ratio_lo[0],
					a->loads[0].ratio_hi[0]);
	a->max_response = o->max_response;
	sim_advise_bound(a);
	rc = 0;
out:
	sim_workload_free(&c.w);
	free(c.partition);
	if (rc)
		sim_advise_free(a);
	return rc;
}

void sim_advise_free(sim_advise_t *a)
{
	free(a->groups);
	memset(a, 0, sizeof(*a));
}
