/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_licenses.h - the site's licenses read from slurmctld into the
 * plain data the engines of both deciders consult (the consolidation
 * engines: src/common/sched/sched_rules.h; the online DFRS policies:
 * dfrs_online.h, "The site's rules"): the license pool and each pending
 * job's requests, read with the locks held, consulted with none held.
 */
#ifndef DFRS_AMCBF_LICENSES_H
#define DFRS_AMCBF_LICENSES_H

#include <time.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
#include "rules/licenses.h"

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
#endif

#endif
