/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_parts.c - multi-partition jobs tried in each of their partitions,
 * as job_scheduler.c and backfill.c do in Slurm 22.05 (amcbf_parts.h).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <time.h>

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_parts.h"
#include "amcbf_policy.h"

static bool several(job_record_t *job_ptr)
{
	return job_ptr->part_ptr_list &&
	       list_count(job_ptr->part_ptr_list) > 1;
}

/* The first partition of the job, after which part_ptr_list is ordered
 * (Slurm sorts it by PriorityTier at submission). */
static part_record_t *first_part(job_record_t *job_ptr)
{
	part_record_t *p = list_peek(job_ptr->part_ptr_list);

	return p ? p : job_ptr->part_ptr;
}

bool amcbf_parts_ok(job_record_t *job_ptr, time_t now)
{
	part_record_t *part_ptr;
	ListIterator it;
	bool ok = false;

	if (!several(job_ptr))
		return amcbf_policy_ok(job_ptr, now);
	it = list_iterator_create(job_ptr->part_ptr_list);
	while (!ok && (part_ptr = list_next(it))) {
		job_ptr->part_ptr = part_ptr;
		ok = amcbf_policy_ok(job_ptr, now);
	}
	list_iterator_destroy(it);
	if (!ok)
		job_ptr->part_ptr = first_part(job_ptr);
	return ok;
}

void amcbf_parts_nodes(job_record_t *job_ptr, bitstr_t *avail, time_t now)
{
	part_record_t *part_ptr, *was = job_ptr->part_ptr;
	ListIterator it;

	if (!several(job_ptr)) {
		if (job_ptr->part_ptr && job_ptr->part_ptr->node_bitmap)
			bit_or(avail, job_ptr->part_ptr->node_bitmap);
		return;
	}
	it = list_iterator_create(job_ptr->part_ptr_list);
	while ((part_ptr = list_next(it))) {
		if (!part_ptr->node_bitmap)
			continue;
		job_ptr->part_ptr = part_ptr;
		if (part_ptr == was || amcbf_policy_ok(job_ptr, now))
			bit_or(avail, part_ptr->node_bitmap);
	}
	list_iterator_destroy(it);
	job_ptr->part_ptr = was;
	/* the checks set reasons for the partitions that failed: the one
	 * in force is part_ptr's, as amcbf_parts_ok left it */
	(void)amcbf_policy_ok(job_ptr, now);
}

static bool holds_all(part_record_t *part_ptr, const int *nodes, int n)
{
	if (!part_ptr->node_bitmap)
		return false;
	for (int k = 0; k < n; k++)
		if (!bit_test(part_ptr->node_bitmap, nodes[k]))
			return false;
	return true;
}

part_record_t *amcbf_parts_for_nodes(job_record_t *job_ptr, const int *nodes,
				     int n, time_t now)
{
	part_record_t *part_ptr, *was = job_ptr->part_ptr;
	ListIterator it;
	bool found = false;

	if (!several(job_ptr))
		return NULL;
	if (was && holds_all(was, nodes, n))
		return was;
	it = list_iterator_create(job_ptr->part_ptr_list);
	while (!found && (part_ptr = list_next(it))) {
		if (part_ptr == was || !holds_all(part_ptr, nodes, n))
			continue;
		job_ptr->part_ptr = part_ptr;
		found = amcbf_policy_ok(job_ptr, now);
	}
	list_iterator_destroy(it);
	if (!found) {
		job_ptr->part_ptr = was;
		verbose("%pJ: none of its partitions holds all the nodes chosen for it",
			job_ptr);
	} else {
		debug("%pJ: tried in partition %s, which holds the nodes chosen",
		      job_ptr, job_ptr->part_ptr->name);
	}
	return was;
}

void amcbf_parts_started(job_record_t *job_ptr)
{
	if (several(job_ptr))
		rebuild_job_part_list(job_ptr);
}
