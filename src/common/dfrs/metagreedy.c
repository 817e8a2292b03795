/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metagreedy.c - the 7 x 7 greedy DFRS placement heuristics and
 * METAGREEDY (Stillwell et al. 2010, "Greedy heuristics").  See metagreedy.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metagreedy.h"
#include "yield_allocation.h"

void metagreedy_name(int order, int choice, char *buf, size_t len)
{
	snprintf(buf, len, "GREEDY_S%d_P%d", order, choice);
}

int metagreedy_parse(const char *name, int *order, int *choice)
{
	int s, p, n = 0;

	if (sscanf(name, "GREEDY_S%d_P%d%n", &s, &p, &n) != 2 ||
	    name[n] != '\0' || s < 1 || s > METAGREEDY_JOB_ORDERS || p < 1 ||
	    p > METAGREEDY_HOST_CHOICES)
		return -1;
	*order = s;
	*choice = p;
	return 0;
}

typedef struct {
	int job;
	double key;
} job_key_t;

static int cmp_job_key(const void *a, const void *b)
{
	const job_key_t *x = a, *y = b;

	if (x->key > y->key)
		return -1;
	if (x->key < y->key)
		return 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* xorshift32: the random order must be the same on every run. */
static unsigned next_random(unsigned *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static double order_key(const dfrs_instance_t *inst, const double *scale,
			int order, const dfrs_job_t *job, unsigned *rnd)
{
	double mx = 0.0, sum = 0.0;

	if (order == 1)
		return (double)next_random(rnd);
	for (int d = 0; d < inst->ndims; d++) {
		double v;

		if (order <= 3)
			v = job->need[d];
		else if (order <= 5)
			v = dfrs_task_usage(job, d, job->min_yield);
		else
			v = job->req[d] + job->need[d];
		v /= scale[d];
		sum += v;
		if (v > mx)
			mx = v;
	}
	return (order % 2 == 0) ? mx : sum;	/* S2, S4, S6 max; S3, S5, S7 sum */
}

/* Per host and dimension, relative to capacity. */
typedef struct {
	double used;		/* sum of req + min_yield * need (fit test) */
	double need_max, need_sum;
	double con_max, con_sum;	/* req + min_yield * need */
} host_load_t;

static int argmax_dim(const double *v, const double *scale, int nd)
{
	int best = 0;

	for (int d = 1; d < nd; d++)
		if (v[d] / scale[d] > v[best] / scale[best])
			best = d;
	return best;
}

int metagreedy_place(const dfrs_instance_t *inst, int order, int choice,
		 dfrs_placement_t *out, int *failed_job)
{
	int nd = inst->ndims, nh = inst->nhosts, rc = -1;
	job_key_t *jobs = malloc(sizeof(*jobs) * (inst->njobs + 1));
	host_load_t *load = calloc((size_t)nh * nd + 1, sizeof(*load));
	double scale[DFRS_MAX_DIMS];
	unsigned rnd = METAGREEDY_RANDOM_SEED;

	if (!jobs || !load || dfrs_placement_init(out, inst) != 0) {
		free(jobs);
		free(load);
		return -1;
	}
	dfrs_mean_capacity(inst, scale);
	for (int i = 0; i < inst->njobs; i++) {
		jobs[i].job = i;
		jobs[i].key = order_key(inst, scale, order, &inst->jobs[i], &rnd);
	}
	qsort(jobs, inst->njobs, sizeof(*jobs), cmp_job_key);

	rc = 0;
	for (int r = 0; r < inst->njobs && rc == 0; r++) {
		int i = jobs[r].job;
		const dfrs_job_t *job = &inst->jobs[i];
		double con[DFRS_MAX_DIMS], con_elem[DFRS_MAX_DIMS];
		int jn = argmax_dim(job->need, scale, nd), jr;

		for (int d = 0; d < nd; d++) {
			con[d] = dfrs_task_usage(job, d, job->min_yield);
			con_elem[d] = dfrs_task_elem_usage(job, d, job->min_yield);
		}
		jr = argmax_dim(con, scale, nd);
		for (int t = out->first_task[i]; t < out->first_task[i + 1]; t++) {
			int best = -1;
			double best_v = 0.0;

			for (int h = 0; h < nh; h++) {
				const dfrs_host_t *host = &inst->hosts[h];
				const host_load_t *l = &load[(size_t)h * nd];
				int ok = 1;
				double v;

				for (int d = 0; d < nd && ok; d++)
					ok = dfrs_amount_fits(con[d], con_elem[d], l[d].used,
							      host->cap[d], host->elem[d]);
				if (!ok)
					continue;
				switch (choice) {
				case 1: v = l[jn].need_max; break;
				case 2: v = l[jn].need_sum; break;
				case 3: v = -l[jr].con_max; break;
				case 4: v = -l[jr].con_sum; break;
				case 5: v = l[jr].con_max; break;
				case 6: v = l[jr].con_sum; break;
				default: v = 0.0; break;
				}
				if (best < 0 || v < best_v) {
					best = h;
					best_v = v;
				}
				if (choice == 7)
					break;
			}
			if (best < 0) {
				if (failed_job)
					*failed_job = i;
				rc = 1;
				break;
			}
			out->task_host[t] = best;
			for (int d = 0; d < nd; d++) {
				host_load_t *l = &load[(size_t)best * nd + d];
				double cap = inst->hosts[best].cap[d];

				l->used += con[d];
				l->need_sum += job->need[d] / cap;
				if (job->need[d] / cap > l->need_max)
					l->need_max = job->need[d] / cap;
				l->con_sum += con[d] / cap;
				if (con[d] / cap > l->con_max)
					l->con_max = con[d] / cap;
			}
		}
	}
	if (rc == 1) {
		/* a job is placed whole or not at all */
		for (int t = 0; t < out->ntasks; t++)
			out->task_host[t] = -1;
	} else if (yield_allocation_compute(inst, out) != 0) {
		rc = -1;
		dfrs_placement_free(out);
	}
	free(jobs);
	free(load);
	return rc;
}

int metagreedy_place_meta(const dfrs_instance_t *inst, dfrs_placement_t *out,
		      int *best_order, int *best_choice, int *failed_job)
{
	int found = 0;

	if (dfrs_placement_init(out, inst) != 0)
		return -1;
	for (int s = 1; s <= METAGREEDY_JOB_ORDERS; s++)
		for (int p = 1; p <= METAGREEDY_HOST_CHOICES; p++) {
			dfrs_placement_t cand;
			int r = metagreedy_place(inst, s, p, &cand,
					     found ? NULL : failed_job);

			if (r < 0) {
				dfrs_placement_free(out);
				return -1;
			}
			if (r == 0 && (!found || cand.min_scaled_yield >
						 out->min_scaled_yield)) {
				dfrs_placement_copy(out, &cand);
				if (best_order)
					*best_order = s;
				if (best_choice)
					*best_choice = p;
				found = 1;
			}
			dfrs_placement_free(&cand);
		}
	return found ? 0 : 1;
}
