/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * licenses.h - a job's license requests against the cluster's pool
 * (Slurm's Licenses= and -L name:count), the one implementation both
 * engine families consult: the consolidation engines of Liu et al. 2013
 * (sched/sched_rules.h) and the online DFRS policies of Stillwell et al.
 * 2010 (dfrs/online_rules.h).  Neither paper has licenses; they narrow
 * which waiting job may start.  The pool is an array of counts, one per
 * license: how many are free now (held by no running job).
 */
#ifndef DFRS_RULES_LICENSES_H
#define DFRS_RULES_LICENSES_H

/* A license request of a job: `count` of the pool's license `lic`;
 * `held_away` of that license's free ones are held by advanced
 * reservations the job may not use (what Slurm's job_test_lic_resv()
 * counts against it). */
typedef struct {
	int lic;
	int count;
	int held_away;
} rules_lic_req_t;

/* Do nreq requests fit the pool free[nlic] now: for each, its count plus
 * what reservations hold away from it at most the free count.  A request
 * naming no license of the pool (or any request, free NULL) never fits;
 * requests of count <= 0 are ignored. */
int rules_licenses_fit(const rules_lic_req_t *req, int nreq, const int *free,
		       int nlic);

/* Take nreq requests off the pool free[nlic] (at a start); requests
 * naming no license of it take nothing, nor does a NULL pool. */
void rules_licenses_take(const rules_lic_req_t *req, int nreq, int *free,
			 int nlic);

/* Put back what rules_licenses_take took (a start undone). */
void rules_licenses_give(const rules_lic_req_t *req, int nreq, int *free,
			 int nlic);

#endif
