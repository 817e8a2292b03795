/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metavp.c - vector packing under a trial yield with a binary search
 * on the yield, METAVP and METAHVP (Stillwell et al. 2010, "Vector Packing",
 * "Heterogeneous").  See metavp.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_bound.h"
#include "metavp.h"
#include "yield_allocation.h"

static const struct {
	const char *name;
	vp_strategy_t strategy;
	vp_key_t key;
} item_algorithms[] = {
	{ "FFSUM", VP_FIRST_FIT, VP_KEY_SUM },
	{ "FFMAX", VP_FIRST_FIT, VP_KEY_MAX },
	{ "FFLEX", VP_FIRST_FIT, VP_KEY_LEX },
	{ "BFSUM", VP_BEST_FIT, VP_KEY_SUM },
	{ "BFMAX", VP_BEST_FIT, VP_KEY_MAX },
	{ "BFLEX", VP_BEST_FIT, VP_KEY_LEX },
	{ "PPSUM", VP_PERMUTATION_PACK, VP_KEY_SUM },
	{ "PPDIF", VP_PERMUTATION_PACK, VP_KEY_DIF },
	{ "PPRATIO", VP_PERMUTATION_PACK, VP_KEY_RATIO },
	{ "PPMAX", VP_PERMUTATION_PACK, VP_KEY_MAX },
	{ "CPSUM", VP_CHOOSE_PACK, VP_KEY_SUM },
	{ "CPDIF", VP_CHOOSE_PACK, VP_KEY_DIF },
	{ "CPRATIO", VP_CHOOSE_PACK, VP_KEY_RATIO },
	{ "CPMAX", VP_CHOOSE_PACK, VP_KEY_MAX },
};
#define NITEM_ALGS ((int)(sizeof(item_algorithms) / sizeof(item_algorithms[0])))

int metavp_algorithm_count(int heterogeneous)
{
	return heterogeneous ? 2 * NITEM_ALGS : NITEM_ALGS;
}

vp_algorithm_t metavp_algorithm_at(int heterogeneous, int index)
{
	vp_algorithm_t a;
	int i = index % NITEM_ALGS;

	a.strategy = item_algorithms[i].strategy;
	a.key = item_algorithms[i].key;
	a.bins = !heterogeneous ? VP_BINS_AS_GIVEN :
		 index < NITEM_ALGS ? VP_BINS_LARGEST_FIRST :
		 VP_BINS_SMALLEST_FIRST;
	return a;
}

void metavp_algorithm_name(vp_algorithm_t alg, char *buf, size_t len)
{
	const char *suffix = "?";

	for (int i = 0; i < NITEM_ALGS; i++)
		if (item_algorithms[i].strategy == alg.strategy &&
		    item_algorithms[i].key == alg.key)
			suffix = item_algorithms[i].name;
	if (alg.bins == VP_BINS_AS_GIVEN)
		snprintf(buf, len, "VP_%s", suffix);
	else
		snprintf(buf, len, "HVP_%s_%c", suffix,
			 alg.bins == VP_BINS_LARGEST_FIRST ? 'L' : 'S');
}

int metavp_algorithm_parse(const char *name, vp_algorithm_t *out)
{
	for (int het = 0; het <= 1; het++)
		for (int i = 0; i < metavp_algorithm_count(het); i++) {
			char buf[32];
			vp_algorithm_t a = metavp_algorithm_at(het, i);

			metavp_algorithm_name(a, buf, sizeof(buf));
			if (!strcmp(buf, name)) {
				*out = a;
				return 0;
			}
		}
	return -1;
}

/* The packing problem for a DFRS instance; sizes are set per trial yield. */
typedef struct {
	const dfrs_instance_t *inst;
	long trials;		/* trial packings run */
	vp_problem_t pb;
	vp_workspace_t *ws;	/* for pb, whose sizes change per trial */
	double *size, *elem_size, *cap, *elem, *scale;
	int *task_job, *item_bin;
	int *lo_bin;		/* item_bin of the last packing that succeeded */
	int failed_item;	/* the task the last failed packing stopped at */
} trial_t;

static void trial_free(trial_t *t)
{
	free(t->size);
	free(t->elem_size);
	free(t->cap);
	free(t->elem);
	free(t->scale);
	free(t->task_job);
	free(t->item_bin);
	free(t->lo_bin);
	vp_workspace_free(t->ws);
	memset(t, 0, sizeof(*t));
}

static int trial_init(trial_t *t, const dfrs_instance_t *inst,
		      const int *pinned)
{
	int nd = inst->ndims, nh = inst->nhosts;
	int n = dfrs_instance_ntasks(inst), elem_given = 0;

	memset(t, 0, sizeof(*t));
	t->inst = inst;
	for (int i = 0; i < inst->njobs; i++)
		elem_given |= inst->jobs[i].elem_given;
	t->size = malloc(sizeof(double) * ((size_t)n * nd + 1));
	if (elem_given)
		t->elem_size = malloc(sizeof(double) * ((size_t)n * nd + 1));
	t->cap = malloc(sizeof(double) * ((size_t)nh * nd + 1));
	t->elem = malloc(sizeof(double) * ((size_t)nh * nd + 1));
	t->scale = calloc(nd + 1, sizeof(double));
	t->task_job = malloc(sizeof(int) * (n + 1));
	t->item_bin = malloc(sizeof(int) * (n + 1));
	t->lo_bin = malloc(sizeof(int) * (n + 1));
	if (!t->size || (elem_given && !t->elem_size) || !t->cap || !t->elem ||
	    !t->scale || !t->task_job || !t->item_bin || !t->lo_bin) {
		trial_free(t);
		return -1;
	}
	for (int h = 0; h < nh; h++)
		for (int d = 0; d < nd; d++) {
			t->cap[(size_t)h * nd + d] = inst->hosts[h].cap[d];
			t->elem[(size_t)h * nd + d] = inst->hosts[h].elem[d];
		}
	dfrs_mean_capacity(inst, t->scale);
	for (int i = 0, k = 0; i < inst->njobs; i++)
		for (int j = 0; j < inst->jobs[i].ntasks; j++)
			t->task_job[k++] = i;
	t->pb.ndims = nd;
	t->pb.nitems = n;
	t->pb.nbins = nh;
	t->pb.size = t->size;
	t->pb.elem_size = t->elem_size;
	t->pb.cap = t->cap;
	t->pb.elem = t->elem;
	t->pb.pinned = pinned;
	t->pb.scale = t->scale;
	t->pb.group = t->task_job;
	t->ws = vp_workspace_new(&t->pb);
	if (!t->ws) {
		trial_free(t);
		return -1;
	}
	return 0;
}

/* Pack at scaled yield Y: -1 all packed, else the failing task (-2 ENOMEM). */
static int trial_pack(trial_t *t, vp_algorithm_t alg, double scaled)
{
	const dfrs_instance_t *inst = t->inst;
	int nd = inst->ndims;

	/* a job's tasks are the same item: size the first, copy it */
	for (int i = 0, k = 0; i < inst->njobs; i++) {
		const dfrs_job_t *job = &inst->jobs[i];
		double y = dfrs_yield_at_scaled(job, scaled);
		size_t first = (size_t)k * nd;

		for (int d = 0; d < nd; d++) {
			t->size[first + d] = dfrs_task_usage(job, d, y);
			if (t->elem_size)
				t->elem_size[first + d] =
					dfrs_task_elem_usage(job, d, y);
		}
		/* a loop, not memcpy: a call per task of nd doubles was
		 * 5 % of MCB's time on Lublin; the elementary sizes in a
		 * loop of their own, not tested for at every task */
		size_t end = first + (size_t)job->ntasks * nd;

		for (size_t c = first + nd; c < end; c += nd)
			for (int d = 0; d < nd; d++)
				t->size[c + d] = t->size[first + d];
		for (size_t c = first + nd; t->elem_size && c < end; c += nd)
			for (int d = 0; d < nd; d++)
				t->elem_size[c + d] = t->elem_size[first + d];
		k += job->ntasks;
	}
	int rc = vector_pack_in(t->ws, &t->pb, alg, t->item_bin);

	t->trials++;

	if (rc == -1) {	/* packings are deterministic: keep it, not redo
			 * it (vector_pack writes every item_bin anew) */
		int *kept = t->item_bin;

		t->item_bin = t->lo_bin;
		t->lo_bin = kept;
	}
	return rc;
}

/*
 * Bracket the threshold from a warm start y (*lo < y < *hi): step up from
 * y while trials succeed, or down from it while they fail, by tol, 2 tol,
 * 4 tol ...  On return the last success is at *lo, and *hi_failed says
 * whether a trial failed at *hi (else *hi is still the untried LP bound).
 * 0, or -2 out of memory.
 */
static int bracket_from(trial_t *t, vp_algorithm_t alg, double y, double tol,
			double *lo, double *hi, int *hi_failed)
{
	int rc = trial_pack(t, alg, y), up = rc == -1;

	if (rc == -2)
		return -2;
	if (up)
		*lo = y;
	else
		*hi = y;
	*hi_failed = !up;
	for (double step = tol; *hi - *lo > tol; step *= 2) {
		double probe = up ? *lo + step : *hi - step;

		if (up ? probe >= *hi : probe <= *lo)
			break;
		rc = trial_pack(t, alg, probe);
		if (rc == -2)
			return -2;
		if (rc == -1)
			*lo = probe;
		else
			*hi = probe, *hi_failed = 1;
		if (up != (rc == -1))
			break;
	}
	return 0;
}

static double search_tolerance(const metavp_search_t *how)
{
	return how && how->tolerance > 0.0 ? how->tolerance :
	       METAVP_SEARCH_TOLERANCE;
}

/* with_yields: allocate the yields of the placement found (else only its
 * task hosts are filled in) */
static int search(trial_t *t, vp_algorithm_t alg, double floor,
		  metavp_search_t *how, int with_yields, dfrs_placement_t *out,
		  int *failed_job)
{
	double tol = search_tolerance(how);
	double lo = floor, hi = lp_bound(t->inst);
	int rc = trial_pack(t, alg, lo), hi_failed = 0;

	if (rc == -2)
		return -1;
	if (rc >= 0) {
		t->failed_item = rc;
		if (failed_job)
			*failed_job = t->task_job[rc];
		return 1;
	}
	if (how && how->start > lo + tol && how->start < hi - tol &&
	    bracket_from(t, alg, how->start, tol, &lo, &hi, &hi_failed) != 0)
		return -1;
	if (!hi_failed && hi > lo) {
		rc = trial_pack(t, alg, hi);
		if (rc == -2)
			return -1;
		if (rc == -1)
			lo = hi;
	}
	while (hi - lo > tol) {
		double mid = (lo + hi) / 2;

		rc = trial_pack(t, alg, mid);
		if (rc == -2)
			return -1;
		if (rc == -1)
			lo = mid;
		else
			hi = mid;
	}
	/* lo_bin holds the packing at lo: every success raised lo to its
	 * yield, and failures leave lo_bin alone */
	memcpy(out->task_host, t->lo_bin, sizeof(int) * t->pb.nitems);
	if (with_yields && yield_allocation_compute(t->inst, out) != 0)
		return -1;
	return 0;
}

int metavp_place(const dfrs_instance_t *inst, vp_algorithm_t alg,
	     const int *pinned_task_host, double floor,
	     dfrs_placement_t *out, int *failed_job)
{
	trial_t t;
	int rc;

	if (dfrs_placement_init(out, inst) != 0)
		return -1;
	if (trial_init(&t, inst, pinned_task_host) != 0) {
		dfrs_placement_free(out);
		return -1;
	}
	rc = search(&t, alg, floor, NULL, 1, out, failed_job);
	trial_free(&t);
	if (rc < 0)
		dfrs_placement_free(out);
	return rc;
}

int metavp_place_meta(const dfrs_instance_t *inst, int heterogeneous,
		  const int *pinned_task_host, dfrs_placement_t *out,
		  vp_algorithm_t *best, int *failed_job)
{
	return metavp_place_first(inst, heterogeneous, NITEM_ALGS, NULL,
				  pinned_task_host, out, best, failed_job);
}

/* The number of leading jobs up to the last one that the failed packing
 * in t reached: a task placed (item_bin), or the task it stopped at. */
static int jobs_reached(const trial_t *t)
{
	const dfrs_instance_t *inst = t->inst;
	int end = dfrs_instance_ntasks(inst), failed_job = t->task_job[t->failed_item];

	for (int i = inst->njobs - 1; i >= 0; i--) {
		int first = end - inst->jobs[i].ntasks;

		if (i == failed_job)
			return i + 1;
		for (int k = first; k < end; k++)
			if (t->item_bin[k] >= 0)
				return i + 1;
		end = first;
	}
	return 0;
}

int metavp_place_first(const dfrs_instance_t *inst, int heterogeneous,
		       int nalgs, metavp_search_t *how,
		       const int *pinned_task_host, dfrs_placement_t *out,
		       vp_algorithm_t *best, int *failed_job)
{
	dfrs_placement_t cand;
	trial_t t;
	int found = 0, rc = -1;
	/* the algorithms that run: nalgs item orders, each with both bin
	 * orders on unequal hosts */
	int runs = (nalgs < NITEM_ALGS ? nalgs : NITEM_ALGS) *
		   (heterogeneous ? 2 : 1);
	int with_yields = !(how && how->hosts_only && runs == 1);

	if (how)
		how->reached = inst->njobs;
	if (dfrs_placement_init(out, inst) != 0)
		return -1;
	memset(&t, 0, sizeof(t));
	if (dfrs_placement_init(&cand, inst) != 0)
		goto out;
	if (trial_init(&t, inst, pinned_task_host) != 0)
		goto out;
	for (int i = 0; i < metavp_algorithm_count(heterogeneous); i++) {
		vp_algorithm_t alg = metavp_algorithm_at(heterogeneous, i);
		/* only look for strictly better than the best so far */
		double floor = found ? out->min_scaled_yield +
				       search_tolerance(how) : 0.0;
		int r;

		if (found && floor > 1.0)
			break;
		if (i % NITEM_ALGS >= nalgs)
			continue;
		r = search(&t, alg, floor, how, with_yields, &cand,
			   found ? NULL : failed_job);
		if (r < 0)
			goto out;
		if (r == 0 && (!found || cand.min_scaled_yield > out->min_scaled_yield)) {
			dfrs_placement_copy(out, &cand);
			if (best)
				*best = alg;
			found = 1;
		}
	}
	rc = found ? 0 : 1;
	if (rc == 1 && how && runs == 1 &&
	    metavp_algorithm_at(heterogeneous, 0).strategy == VP_FIRST_FIT)
		how->reached = jobs_reached(&t);
out:
	if (how)
		how->trials += t.trials;
	trial_free(&t);
	dfrs_placement_free(&cand);
	if (rc < 0)
		dfrs_placement_free(out);
	return rc;
}
