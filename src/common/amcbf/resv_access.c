/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resv_access.c - the nodes a pending job may use now beside the site's
 * advanced reservations (the rules are in resv_access.h).
 */
#include "resv_access.h"

#include <string.h>

#define YEAR_SECONDS (365.0 * 24 * 3600)

static int has_nodes(const resv_access_resv_t *r, int nnodes)
{
	if (!r->nodes)
		return 0;
	for (int n = 0; n < nnodes; n++)
		if (r->nodes[n])
			return 1;
	return 0;
}

/* Does reservation r hold its nodes during [from, to). */
static int overlaps(const resv_access_resv_t *r, double from, double to)
{
	return r->held_from < to && r->end > from;
}

static void clear_reserved(unsigned char *mask, const resv_access_resv_t *r,
			   int nnodes)
{
	for (int n = 0; n < nnodes; n++)
		if (r->nodes[n])
			mask[n] = 0;
}

/* Are all of the partition's nodes reserved by r. */
static int covers(const resv_access_resv_t *r, const unsigned char *part,
		  int nnodes)
{
	if (!part)
		return 0;
	for (int n = 0; n < nnodes; n++)
		if (part[n] && !r->nodes[n])
			return 0;
	return 1;
}

/* May the members of own use the nodes of other, which overlaps their run. */
static int member_ignores(const resv_access_resv_t *own,
			  const resv_access_resv_t *other)
{
	return (own->flags & RESV_ACCESS_MAINT) ||
	       ((own->flags & RESV_ACCESS_OVERLAP) &&
		!(other->flags & RESV_ACCESS_MAINT));
}

static resv_access_rc_t member(const resv_access_resv_t *resv, size_t nresv,
			       int nnodes, const resv_access_job_t *job,
			       double now, double end, unsigned char *mask)
{
	const resv_access_resv_t *own = &resv[job->member];

	if (!(own->flags & RESV_ACCESS_FLEX)) {
		if (now < own->start ||
		    (!(own->flags & RESV_ACCESS_ANY_NODES) &&
		     !has_nodes(own, nnodes)))
			return RESV_ACCESS_NOT_YET;
		if (now > own->end)
			return RESV_ACCESS_ENDED;
		if (!(own->flags & RESV_ACCESS_ANY_NODES))
			for (int n = 0; n < nnodes; n++)
				if (!own->nodes[n])
					mask[n] = 0;
	}
	for (size_t i = 0; i < nresv; i++) {
		const resv_access_resv_t *r = &resv[i];
		if (r == own || !r->nodes || !(r->flags & RESV_ACCESS_WHOLE) ||
		    !overlaps(r, now, end) || member_ignores(own, r))
			continue;
		clear_reserved(mask, r, nnodes);
	}
	return RESV_ACCESS_OK;
}

static resv_access_rc_t outsider(const resv_access_resv_t *resv,
				 size_t nresv, int nnodes,
				 const resv_access_job_t *job, double now,
				 double end, unsigned char *mask)
{
	for (size_t i = 0; i < nresv; i++) {
		const resv_access_resv_t *r = &resv[i];
		if (!r->nodes || !overlaps(r, now, end))
			continue;
		if ((r->flags & RESV_ACCESS_ALL_NODES) ||
		    ((r->flags & RESV_ACCESS_PART_NODES) &&
		     r->part == job->part) ||
		    ((r->flags & RESV_ACCESS_MAINT) &&
		     covers(r, job->part_nodes, nnodes))) {
			memset(mask, 0, (size_t)nnodes);
			return RESV_ACCESS_SHUT_OUT;
		}
		/* partly reserved nodes too: see the header */
		clear_reserved(mask, r, nnodes);
	}
	return RESV_ACCESS_OK;
}

resv_access_rc_t resv_access_mask(const resv_access_resv_t *resv,
				  size_t nresv, int nnodes,
				  const resv_access_job_t *job, double now,
				  unsigned char *mask)
{
	double end = now + (job->duration < 0 ? YEAR_SECONDS : job->duration);
	resv_access_rc_t rc;

	if (job->member >= 0 && (size_t)job->member >= nresv)
		return RESV_ACCESS_BAD;
	rc = job->member >= 0 ?
		member(resv, nresv, nnodes, job, now, end, mask) :
		outsider(resv, nresv, nnodes, job, now, end, mask);
	if (rc == RESV_ACCESS_NOT_YET || rc == RESV_ACCESS_ENDED)
		memset(mask, 0, (size_t)(nnodes > 0 ? nnodes : 0));
	return rc;
}

const char *resv_access_rc_name(resv_access_rc_t rc)
{
	switch (rc) {
	case RESV_ACCESS_OK:
		return "usable";
	case RESV_ACCESS_NOT_YET:
		return "its reservation has not started (or has no node)";
	case RESV_ACCESS_ENDED:
		return "its reservation has ended";
	case RESV_ACCESS_SHUT_OUT:
		return "a reservation holds every node it may use";
	case RESV_ACCESS_BAD:
		break;
	}
	return "bad input";
}
