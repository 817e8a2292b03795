/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gen.c - the workload generators of sim_gen.h, after the models of
 * Liu et al. 2013 section 5.2.  Neither model's full parameter table is
 * reproduced here; each generator keeps its model's structure and is
 * calibrated to what Liu et al. state about the workloads they drew:
 *
 *   feitelson96 (Feitelson 1996): job sizes 1..P with weight n^-1.5, the
 *     weight of powers of two tripled (small jobs and powers of two
 *     dominate); run time hyperexponential, the probability of the long
 *     branch growing with log2(size) from 0.1 (one process) to 0.5 (the
 *     whole machine), short branch mean 150 s, long branch mean set so
 *     that the mean run time is 2,500 s (Liu et al. section 5.4: a
 *     migration cost of 600 s is 24 % of it); each job repeated r times,
 *     P(r) proportional to r^-2.5 (r <= 50), a repeat submitted when the
 *     previous run would end.
 *   jann97 (Jann et al. 1997): sizes by class 1, 2, 3-4, 5-8, 9-16,
 *     17-32, 33-64, 65-128, 129-256 (uniform within a class), class
 *     probabilities giving 40 % one-process jobs and 86 % under 20
 *     processes (Liu et al. section 5.3); run time a hyper-Erlang of
 *     order 2 per class (60 % at a tenth of the class mean, 40 % at 2.35
 *     times it), class means growing with size, scaled to a mean run time
 *     of 11,250 s (section 5.4: 360 s is 3.2 % of it).
 *
 * Arrivals (first runs) are a Poisson process whose rate gives exactly the
 * requested offered load.  CPU usage is not generated: dfrs sim applies
 * Liu et al.'s rule (100 % for one process, uniform 40-100 % otherwise).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_gen.h"
#include "sim_random.h"
#include "trace/arrival_order.h"

#define FEIT_SHORT_MEAN 150.0
#define FEIT_MEAN 2500.0
#define FEIT_MAX_REPEAT 50
#define JANN_MEAN 11250.0
#define JANN_CLASSES 9

static const int jann_lo[JANN_CLASSES] = { 1, 2, 3, 5, 9, 17, 33, 65, 129 };
static const int jann_hi[JANN_CLASSES] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
static const double jann_p[JANN_CLASSES] = {
	0.40, 0.12, 0.10, 0.12, 0.10, 0.07, 0.05, 0.03, 0.01,
};

int sim_gen_model(const char *name, sim_gen_model_t *out)
{
	if (!strcmp(name, "feitelson96"))
		*out = SIM_GEN_FEITELSON96;
	else if (!strcmp(name, "jann97"))
		*out = SIM_GEN_JANN97;
	else
		return -1;
	return 0;
}

void sim_gen_opts_defaults(sim_gen_opts_t *o)
{
	*o = (sim_gen_opts_t){ SIM_GEN_FEITELSON96, 0, 320, 0.7, 1 };
}

static double expo(sim_random_t *r, double mean)
{
	return -mean * log(1.0 - sim_random_unit(r));
}

/* Index drawn from weights w[0..n) summing to total. */
static int draw(sim_random_t *r, const double *w, int n, double total)
{
	double u = sim_random_unit(r) * total;
	for (int i = 0; i < n; i++) {
		if (u < w[i])
			return i;
		u -= w[i];
	}
	return n - 1;
}

static double feit_p_long(int n, int nodes)
{
	double top = log2((double)(nodes > 1 ? nodes : 2));
	return 0.1 + 0.4 * log2((double)n) / top;
}

/* Feitelson 1996: sizes, then run times with the long-branch mean that
 * makes the expected run time FEIT_MEAN; groups of repeats. */
static size_t feitelson(const sim_gen_opts_t *o, sim_random_t *r,
			trace_job_t *jobs, size_t want)
{
	int P = o->nodes;
	double *w = malloc((size_t)P * sizeof(*w));
	if (!w)
		return 0;
	double total = 0, plong = 0;
	for (int n = 1; n <= P; n++) {
		w[n - 1] = pow(n, -1.5) * ((n & (n - 1)) == 0 && n > 1 ? 3 : 1);
		total += w[n - 1];
	}
	for (int n = 1; n <= P; n++)
		plong += w[n - 1] / total * feit_p_long(n, P);
	double long_mean = (FEIT_MEAN - (1 - plong) * FEIT_SHORT_MEAN) / plong;
	double zipf[FEIT_MAX_REPEAT], ztotal = 0;
	for (int k = 0; k < FEIT_MAX_REPEAT; k++)
		ztotal += zipf[k] = pow(k + 1, -2.5);
	size_t n = 0;
	while (n < want) {
		int size = draw(r, w, P, total) + 1;
		double rt = sim_random_unit(r) < feit_p_long(size, P)
				    ? expo(r, long_mean)
				    : expo(r, FEIT_SHORT_MEAN);
		rt = ceil(rt);
		int repeats = draw(r, zipf, FEIT_MAX_REPEAT, ztotal) + 1;
		for (int k = 0; k < repeats && n < want; k++, n++) {
			jobs[n].procs = size;
			jobs[n].runtime = rt;
			jobs[n].submit = k * rt;	/* offset in its group */
			jobs[n].queue = k;		/* 0: first of a group */
		}
	}
	free(w);
	return n;
}

/* Jann et al. 1997: class, size in it, hyper-Erlang run time. */
static size_t jann(const sim_gen_opts_t *o, sim_random_t *r,
		   trace_job_t *jobs, size_t want)
{
	double total = 0, mean = 0;
	int classes = 0;
	while (classes < JANN_CLASSES && jann_lo[classes] <= o->nodes)
		total += jann_p[classes++];
	for (int c = 0; c < classes; c++)	/* class mean: 1 + c/2 units */
		mean += jann_p[c] / total * (1 + 0.5 * c);
	double unit = JANN_MEAN / mean;
	for (size_t n = 0; n < want; n++) {
		int c = draw(r, jann_p, classes, total);
		int hi = jann_hi[c] < o->nodes ? jann_hi[c] : o->nodes;
		int size = jann_lo[c] + (int)(sim_random_unit(r) *
					      (hi - jann_lo[c] + 1));
		double m = unit * (1 + 0.5 * c);
		double branch = sim_random_unit(r) < 0.6 ? 0.1 * m : 2.35 * m;
		double rt = expo(r, branch / 2) + expo(r, branch / 2);
		jobs[n].procs = size > hi ? hi : size;
		jobs[n].runtime = ceil(rt);
		jobs[n].submit = 0;
		jobs[n].queue = 0;
	}
	return want;
}

static int by_submit(const void *a, const void *b)
{
	const trace_job_t *x = a, *y = b;

	return arrival_order(x->submit, x->id, y->submit, y->id);
}

/* Poisson group starts at the rate that offers o->load. */
static void arrivals(const sim_gen_opts_t *o, sim_random_t *r,
		     trace_job_t *jobs, size_t n)
{
	double work = 0;
	size_t groups = 0;
	for (size_t i = 0; i < n; i++) {
		work += jobs[i].procs * jobs[i].runtime;
		groups += jobs[i].queue == 0;
	}
	double gap = work / (o->load * o->nodes * (double)groups);
	double t = 0, start = 0;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].queue == 0) {
			t += expo(r, gap);
			start = t;
		}
		jobs[i].submit = floor(start + jobs[i].submit);
	}
	for (size_t i = 0; i < n; i++)
		jobs[i].id = (long)i;	/* generation order breaks ties */
	qsort(jobs, n, sizeof(*jobs), by_submit);
	double first = n ? jobs[0].submit : 0;
	for (size_t i = 0; i < n; i++) {
		trace_job_t *j = &jobs[i];
		j->id = (long)i + 1;
		j->submit -= first;
		j->wait = j->cpu_used = j->req_time = -1;
		j->mem_used_kb = j->req_mem_kb = -1;
		j->req_procs = j->procs;
		j->status = 1;
		j->user = j->group = j->queue = j->partition = -1;
		j->line = 0;
	}
}

int sim_gen(const sim_gen_opts_t *o, trace_t *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	size_t want = o->jobs ? o->jobs
			      : o->model == SIM_GEN_JANN97 ? 10000 : 20000;
	if (o->nodes < 1 || !(o->load > 0) || want > 10000000) {
		snprintf(err, errlen, "nodes must be at least 1, load above 0, "
			 "jobs at most 10000000");
		return -1;
	}
	t->jobs = calloc(want, sizeof(*t->jobs));
	if (!t->jobs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sim_random_t r;
	sim_random_seed(&r, o->seed);
	size_t n = o->model == SIM_GEN_JANN97 ? jann(o, &r, t->jobs, want)
					      : feitelson(o, &r, t->jobs, want);
	if (n < want) {
		snprintf(err, errlen, "out of memory");
		trace_free(t);
		return -1;
	}
	arrivals(o, &r, t->jobs, n);
	t->njobs = n;
	t->format = TRACE_FORMAT_SWF;
	t->header_max_jobs = (long)n;
	t->header_max_procs = o->nodes;
	t->header_max_nodes = -1;
	snprintf(t->source, sizeof(t->source), "%s",
		 o->model == SIM_GEN_JANN97 ? "jann97" : "feitelson96");
	return 0;
}
