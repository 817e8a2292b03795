/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_engine_rules.h - the site's licenses and pairwise preemption rule
 * read from slurmctld into the plain data the consolidation engines
 * consult (src/common/sched/sched_rules.h): the license pool and each
 * pending job's requests, and a predicate over the preemption sides read
 * with the locks held, which the engine calls with none held.
 */
#ifndef DFRS_AMCBF_ENGINE_RULES_H
#define DFRS_AMCBF_ENGINE_RULES_H

#include <stddef.h>
#include <time.h>

#include "sched/sched_engine.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
#include "rules/preempt_rules.h"

/* The cluster's licenses at the read (what running jobs leave free). */
typedef struct {
	int *lic;	/* per license, how many are free */
	int nlic;
	void *bf;	/* Slurm's list the pool was read from */
} amcbf_lic_pool_t;

/* Read the pool (job write lock held); empty without Licenses=. */
void amcbf_lic_pool_read(amcbf_lic_pool_t *pool);
void amcbf_lic_pool_free(amcbf_lic_pool_t *pool);

/* A pending job's license requests against the pool, with what the
 * reservations it may not use hold away from it now (job_test_lic_resv,
 * as license_job_test counts it): xmalloc'ed, *n entries; NULL if none.
 * A license the pool lacks gets index -1 (the engine never starts it). */
rules_lic_req_t *amcbf_lic_requests(const amcbf_lic_pool_t *pool,
				    job_record_t *job_ptr, time_t now, int *n);

/* One job's side of the pairwise rule, as the engine's predicate sees it. */
typedef struct {
	preempt_side_t side;
	unsigned char *list;	/* xmalloc'ed Preempt= list, or NULL */
	int read;		/* side read (a job, not a blocker) */
} amcbf_pair_side_t;

/* Read job_ptr's side (QOS lock taken inside). */
void amcbf_pair_side_read(amcbf_pair_side_t *ps, job_record_t *job_ptr);
void amcbf_pair_side_free(amcbf_pair_side_t *ps);

/* The predicate context: the sides of jobs[] in the state's order. */
typedef struct {
	preempt_site_t site;
	const amcbf_pair_side_t *const *sides;	/* per state index */
} amcbf_pair_ctx_t;

/* rules_may_preempt_fn over an amcbf_pair_ctx_t, for both engine
 * families: preempt_rules_pair on the two sides read (no lock needed). */
int amcbf_pair_may_preempt(const void *ctx, size_t preemptor, size_t victim);
#endif

#endif
