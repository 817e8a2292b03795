/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_licenses.c - the cluster's licenses and a pending job's requests
 * from slurmctld's records into the plain data both deciders' engines
 * consult (amcbf_licenses.h).
 * The pool is what Slurm's backfill starts from (bf_licenses_initial:
 * configured less used, per license); a request's share held by
 * reservations is Slurm's own count (job_test_lic_resv).  Slurm 25.05 and
 * later name licenses by id, earlier releases by name.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/reservation.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_licenses.h"

#if DFRS_SLURM_SINCE(25, 5)
#define LIC_SAME(bf, req) ((bf)->id.lic_id == (req)->id.lic_id)
#define LIC_KEY(req) ((req)->id)
#else
#define LIC_SAME(bf, req) (!xstrcmp((bf)->name, (req)->name))
#define LIC_KEY(req) ((req)->name)
#endif

void amcbf_lic_pool_read(amcbf_lic_pool_t *pool)
{
	List bf = bf_licenses_initial(false);
	ListIterator it;
	bf_license_t *e;
	int i = 0;

	memset(pool, 0, sizeof(*pool));
	if (!bf)
		return;
	pool->bf = bf;
	pool->nlic = list_count(bf);
	pool->lic = xcalloc(pool->nlic ? pool->nlic : 1, sizeof(*pool->lic));
	it = list_iterator_create(bf);
	while ((e = list_next(it)) && i < pool->nlic) {
		pool->lic[i] = (int)e->remaining;
		i++;
	}
	list_iterator_destroy(it);
}

void amcbf_lic_pool_free(amcbf_lic_pool_t *pool)
{
	if (pool->bf) {
		List bf = pool->bf;
		FREE_NULL_LIST(bf);
	}
	xfree(pool->lic);
	memset(pool, 0, sizeof(*pool));
}

/* The pool's index of a job's license entry, -1 if none. */
static int pool_index(const amcbf_lic_pool_t *pool, licenses_t *req)
{
	ListIterator it;
	bf_license_t *e;
	int i = 0, found = -1;

	if (!pool->bf)
		return -1;
	it = list_iterator_create((List)pool->bf);
	while ((e = list_next(it))) {
		if (LIC_SAME(e, req)) {
			found = i;
			break;
		}
		i++;
	}
	list_iterator_destroy(it);
	return found;
}

rules_lic_req_t *amcbf_lic_requests(const amcbf_lic_pool_t *pool,
				    job_record_t *job_ptr, time_t now, int *n)
{
	rules_lic_req_t *reqs;
	ListIterator it;
	licenses_t *req;
	int i = 0;

	*n = 0;
	if (!job_ptr->license_list || !list_count(job_ptr->license_list))
		return NULL;
	reqs = xcalloc(list_count(job_ptr->license_list), sizeof(*reqs));
	it = list_iterator_create(job_ptr->license_list);
	while ((req = list_next(it))) {
		rules_lic_req_t *q = &reqs[i++];

		q->lic = pool_index(pool, req);
		q->count = (int)req->total;
		if (q->lic < 0)
			continue;
		/* a node reboot assumed, as license_job_test does before the
		 * nodes are chosen */
		q->held_away = job_test_lic_resv(job_ptr, LIC_KEY(req), now,
						 true);
	}
	list_iterator_destroy(it);
	*n = i;
	return reqs;
}
