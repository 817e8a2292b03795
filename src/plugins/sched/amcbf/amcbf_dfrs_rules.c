/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_dfrs_rules.c - licenses and the pairwise preemption rule for the
 * online DFRS policies of amcbf_mode=dfrs (amcbf_dfrs_rules.h).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "src/common/xmalloc.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_dfrs_rules.h"
#include "amcbf_preempt.h"

void amcbf_dfrs_rules_read(amcbf_dfrs_rules_t *r)
{
	memset(r, 0, sizeof(*r));
	amcbf_lic_pool_read(&r->pool);
	r->lic_free = xcalloc(r->pool.nlic ? r->pool.nlic : 1, sizeof(int));
	for (int l = 0; l < r->pool.nlic; l++)
		r->lic_free[l] = r->pool.lic[l];
	r->pair.site = amcbf_preempt_site();
}

void amcbf_dfrs_rules_job(amcbf_dfrs_rules_t *r, int i, job_record_t *job_ptr,
			  dfrs_online_job_t *oj, bool pending, time_t now)
{
	if (i >= r->cap) {
		int cap = r->cap ? 2 * r->cap : 64;

		while (cap <= i)
			cap *= 2;
		xrecalloc(r->sides, cap, sizeof(*r->sides));
		r->cap = cap;
	}
	if (r->pair.site != PREEMPT_SITE_NONE)
		amcbf_preempt_side_read(&r->sides[i], job_ptr);
	if (pending) {
		int n = 0;

		oj->lic = amcbf_lic_requests(&r->pool, job_ptr, now, &n);
		oj->nlic = n;
	}
}

void amcbf_dfrs_rules_move(amcbf_dfrs_rules_t *r, int from, int to)
{
	if (from != to && from < r->cap) {
		r->sides[to] = r->sides[from];
		memset(&r->sides[from], 0, sizeof(r->sides[from]));
	}
}

void amcbf_dfrs_rules_drop(amcbf_dfrs_rules_t *r, int i, dfrs_online_job_t *oj)
{
	rules_lic_req_t *lic = (rules_lic_req_t *)oj->lic;

	if (i < r->cap)
		amcbf_preempt_side_free(&r->sides[i]);
	xfree(lic);
	oj->lic = NULL;
	oj->nlic = 0;
}

void amcbf_dfrs_rules_attach(amcbf_dfrs_rules_t *r, dfrs_cluster_t *cl,
			     int njobs)
{
	cl->lic_free = r->pool.nlic ? r->lic_free : NULL;
	cl->nlic = r->pool.nlic;
	if (r->pair.site == PREEMPT_SITE_NONE || njobs > r->cap)
		return;
	xfree(r->side_ptrs);
	r->side_ptrs = xcalloc(njobs ? njobs : 1, sizeof(*r->side_ptrs));
	for (int j = 0; j < njobs; j++)
		r->side_ptrs[j] = &r->sides[j];
	r->pair.sides = r->side_ptrs;
	cl->may_preempt = amcbf_preempt_pair_ok;
	cl->preempt_ctx = &r->pair;
}

void amcbf_dfrs_rules_started(amcbf_dfrs_rules_t *r, const dfrs_cluster_t *cl,
			      const dfrs_decisions_t *d)
{
	if (cl->lic_free)	/* the pool the cluster was given */
		dfrs_online_take_licenses(cl, d, r->lic_free);
}

void amcbf_dfrs_rules_free(amcbf_dfrs_rules_t *r, dfrs_online_job_t *jobs,
			   int njobs)
{
	for (int j = 0; j < njobs; j++)
		amcbf_dfrs_rules_drop(r, j, &jobs[j]);
	for (int j = njobs; j < r->cap; j++)
		amcbf_preempt_side_free(&r->sides[j]);
	amcbf_lic_pool_free(&r->pool);
	xfree(r->lic_free);
	xfree(r->sides);
	xfree(r->side_ptrs);
	memset(r, 0, sizeof(*r));
}
