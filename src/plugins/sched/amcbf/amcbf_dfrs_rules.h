/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_dfrs_rules.h - the site's licenses and pairwise preemption rule
 * for amcbf_mode=dfrs: read from slurmctld with the view (locks held) into
 * the plain data the online DFRS policies consult (dfrs_online.h, "The
 * site's rules"), which decide with no lock held.  The same reads, the
 * same request arrays and the same predicate as the consolidation
 * engines' (amcbf_licenses.h, amcbf_preempt.h, src/common/rules/).
 */
#ifndef DFRS_AMCBF_DFRS_RULES_H
#define DFRS_AMCBF_DFRS_RULES_H

#include <stdbool.h>
#include <time.h>

#include "dfrs/dfrs_online.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
#include "amcbf_licenses.h"
#include "amcbf_preempt.h"

/* The rules of one cycle's view, by view index. */
typedef struct {
	amcbf_lic_pool_t pool;	/* the cluster's licenses at the read */
	int *lic_free;		/* [pool.nlic] free now, less the starts of
				 * the decisions taken so far this cycle */
	amcbf_preempt_ctx_t pair;	/* the pairwise rule's predicate context */
	amcbf_preempt_side_t *sides;	/* [cap] each view job's side */
	const amcbf_preempt_side_t **side_ptrs;	/* pair.sides */
	int cap;
} amcbf_dfrs_rules_t;

/* Read the license pool and the site's PreemptType (job write lock held). */
void amcbf_dfrs_rules_read(amcbf_dfrs_rules_t *r);

/* View job i (oj) from job_ptr: its side of the pairwise rule and, if it
 * is pending, its license requests into oj->lic (owned by the rules). */
void amcbf_dfrs_rules_job(amcbf_dfrs_rules_t *r, int i, job_record_t *job_ptr,
			  dfrs_online_job_t *oj, bool pending, time_t now);

/* View job `from` becomes `to` (the view drops jobs in one pass). */
void amcbf_dfrs_rules_move(amcbf_dfrs_rules_t *r, int from, int to);

/* View job i (oj) leaves the view. */
void amcbf_dfrs_rules_drop(amcbf_dfrs_rules_t *r, int i, dfrs_online_job_t *oj);

/* Give the policy's cluster the pool and the predicate (njobs view jobs). */
void amcbf_dfrs_rules_attach(amcbf_dfrs_rules_t *r, dfrs_cluster_t *cl,
			     int njobs);

/* Before d is applied to cl: the jobs it starts or resumes take their
 * licenses from the pool the next decision of the cycle sees. */
void amcbf_dfrs_rules_started(amcbf_dfrs_rules_t *r, const dfrs_cluster_t *cl,
			      const dfrs_decisions_t *d);

/* Free everything, the requests of the njobs view jobs included. */
void amcbf_dfrs_rules_free(amcbf_dfrs_rules_t *r, dfrs_online_job_t *jobs,
			   int njobs);
#endif

#endif
