/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_resv.c - slurmctld's advanced reservations (resv_list) translated
 * into amcbf/resv_access.h's plain data, so that the engines (Liu et al.
 * 2013, Sec. IV; Stillwell et al. 2010, Sec. 5) start a job only where
 * Slurm's select_nodes() lets it start, and preempt nobody for a job that
 * could not use the nodes freed (a job's sched_job_t.allowed mask).  The
 * translation is kept for the second it was made in, while slurmctld's
 * reservations do not change (last_resv_update).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/reservation.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_resv.h"
#include "amcbf/resv_access.h"

static struct {
	time_t built, resv_update;
	int nnodes;
	size_t n;
	resv_access_resv_t *r;
	slurmctld_resv_t **ptr;	/* r[i] is ptr[i]; compared, never read
				   outside the locks */
	unsigned char *nodes;	/* n rows of nnodes */
} cache;

void amcbf_resv_fini(void)
{
	xfree(cache.r);
	xfree(cache.ptr);
	xfree(cache.nodes);
	memset(&cache, 0, sizeof(cache));
}

/* A partition's place in part_list: the plain data's partition id. */
static int part_id(part_record_t *part_ptr)
{
	ListIterator it;
	part_record_t *p;
	int id = 0, found = -1;

	if (!part_ptr || !part_list)
		return -1;
	it = list_iterator_create(part_list);
	while ((p = list_next(it))) {
		if (p == part_ptr) {
			found = id;
			break;
		}
		id++;
	}
	list_iterator_destroy(it);
	return found;
}

static unsigned flags_of(slurmctld_resv_t *resv_ptr)
{
	uint64_t f = resv_ptr->flags;

	return ((f & RESERVE_FLAG_FLEX) ? RESV_ACCESS_FLEX : 0) |
	       ((f & RESERVE_FLAG_ANY_NODES) ? RESV_ACCESS_ANY_NODES : 0) |
	       ((f & RESERVE_FLAG_MAINT) ? RESV_ACCESS_MAINT : 0) |
	       ((f & RESERVE_FLAG_OVERLAP) ? RESV_ACCESS_OVERLAP : 0) |
	       ((f & RESERVE_FLAG_ALL_NODES) ? RESV_ACCESS_ALL_NODES : 0) |
	       ((f & RESERVE_FLAG_PART_NODES) ? RESV_ACCESS_PART_NODES : 0) |
	       ((resv_ptr->ctld_flags & RESV_CTLD_FULL_NODE) ?
		RESV_ACCESS_WHOLE : 0);
}

/* Its window as job_test_resv() reads it (a floating reservation starts
 * start_time seconds from now, and lasts its duration). */
static void window_of(slurmctld_resv_t *resv_ptr, time_t now,
		      resv_access_resv_t *r)
{
	r->start = (double)resv_ptr->start_time;
	r->end = (double)resv_ptr->end_time;
	r->held_from = (double)(resv_ptr->start_time_first ?
				resv_ptr->start_time_first :
				resv_ptr->start_time);
	if (!(resv_ptr->flags & RESERVE_FLAG_TIME_FLOAT))
		return;
	r->held_from = (double)(now + resv_ptr->start_time);
	if (resv_ptr->duration == INFINITE)
		r->end = r->held_from + 365.0 * 24 * 3600;
	else if (resv_ptr->duration && resv_ptr->duration != NO_VAL)
		r->end = r->held_from + 60.0 * resv_ptr->duration;
	else if (r->held_from > r->end)
		r->held_from = r->end;
}

static void cache_build(time_t now)
{
	ListIterator it;
	slurmctld_resv_t *resv_ptr;
	size_t n = resv_list ? (size_t)list_count(resv_list) : 0, i = 0;
	int nn = node_record_count;

	amcbf_resv_fini();
	cache.built = now;
	cache.resv_update = last_resv_update;
	cache.nnodes = nn;
	if (!n)
		return;
	cache.r = xcalloc(n, sizeof(*cache.r));
	cache.ptr = xcalloc(n, sizeof(*cache.ptr));
	cache.nodes = xcalloc(n * (size_t)(nn > 0 ? nn : 1), 1);
	it = list_iterator_create(resv_list);
	while ((resv_ptr = list_next(it)) && i < n) {
		resv_access_resv_t *r = &cache.r[i];
		unsigned char *row = cache.nodes + i * (size_t)(nn > 0 ? nn : 1);

		cache.ptr[i] = resv_ptr;
		window_of(resv_ptr, now, r);
		r->flags = flags_of(resv_ptr);
		r->part = (resv_ptr->flags & RESERVE_FLAG_PART_NODES) ?
			  part_id(resv_ptr->part_ptr) : -1;
		if (resv_ptr->node_bitmap) {
			for (int k = 0; k < nn; k++)
				row[k] = bit_test(resv_ptr->node_bitmap, k) ? 1 : 0;
			r->nodes = row;
		}
		i++;
	}
	list_iterator_destroy(it);
	cache.n = i;
}

bool amcbf_resv_ok(job_record_t *job_ptr, time_t now)
{
	int rc;

	if (!job_ptr->resv_name)
		return true;
	if ((rc = job_test_resv_now(job_ptr)) == SLURM_SUCCESS) {
		/* its reservation has begun: the reason this gave is over */
		if (job_ptr->state_reason == WAIT_RESERVATION) {
			job_ptr->state_reason = WAIT_NO_REASON;
			xfree(job_ptr->state_desc);
			last_job_update = now;
		}
		return true;
	}
	if (job_ptr->state_reason != WAIT_RESERVATION) {
		debug("%pJ: reservation %s not usable now: %s", job_ptr,
		      job_ptr->resv_name, slurm_strerror(rc));
		job_ptr->state_reason = WAIT_RESERVATION;
		xfree(job_ptr->state_desc);
		last_job_update = now;
	}
	return false;
}

/* A job's run as job_test_resv() counts it: its limit, else its
 * partition's MaxTime; -1 without either. */
static double duration_of(job_record_t *job_ptr)
{
	uint32_t limit = job_ptr->time_limit;

	if (limit == NO_VAL && job_ptr->part_ptr)
		limit = job_ptr->part_ptr->max_time;
	if (limit == NO_VAL || limit == INFINITE)
		return -1;
	return 60.0 * limit;
}

void amcbf_resv_restrict(job_record_t *job_ptr, bitstr_t *avail, time_t now)
{
	resv_access_job_t job = { .member = -1 };
	unsigned char *mask, *part_nodes = NULL;
	resv_access_rc_t rc;
	int nn = node_record_count;

	if (!resv_list || !list_count(resv_list))
		return;
	if (cache.built != now || cache.resv_update != last_resv_update ||
	    cache.nnodes != nn)
		cache_build(now);
	if (!cache.n)
		return;
	if (job_ptr->resv_name && job_ptr->resv_ptr)
		for (size_t i = 0; i < cache.n; i++)
			if (cache.ptr[i] == job_ptr->resv_ptr)
				job.member = (int)i;
	if (job_ptr->resv_name && job.member < 0) {
		/* not resolved yet (amcbf_resv_ok refuses it): no node */
		bit_clear_all(avail);
		return;
	}
	job.duration = duration_of(job_ptr);
	job.part = part_id(job_ptr->part_ptr);
	mask = xcalloc(nn > 0 ? nn : 1, 1);
	if (job_ptr->part_ptr && job_ptr->part_ptr->node_bitmap) {
		part_nodes = xcalloc(nn > 0 ? nn : 1, 1);
		for (int k = 0; k < nn; k++)
			part_nodes[k] = bit_test(job_ptr->part_ptr->node_bitmap, k);
	}
	job.part_nodes = part_nodes;
	for (int k = 0; k < nn; k++)
		mask[k] = bit_test(avail, k) ? 1 : 0;
	rc = resv_access_mask(cache.r, cache.n, nn, &job, (double)now, mask);
	if (rc != RESV_ACCESS_OK)
		debug2("%pJ: no node now: %s", job_ptr, resv_access_rc_name(rc));
	for (int k = 0; k < nn; k++)
		if (!mask[k])
			bit_clear(avail, k);
	xfree(mask);
	xfree(part_nodes);
}
