/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_order.c - sched/amcbf's queue order (amcbf_order.h): Slurm's job
 * priority, first submit time or DFRS stretch (Stillwell et al. 2010), the
 * array order the consolidation engines of Liu et al. 2013 read as arrival.
 */
#include "amcbf_order.h"

#include "dfrs/dfrs_priority.h"
#include "trace/arrival_order.h"

int amcbf_order_compare(amcbf_priority_t order, const amcbf_order_key_t *a,
			const amcbf_order_key_t *b)
{
	if (a->fixed != b->fixed)
		return a->fixed ? -1 : 1;
	switch (order) {
	case AMCBF_PRIO_PRIORITY:
		if (a->part_tier != b->part_tier)
			return a->part_tier > b->part_tier ? -1 : 1;
		if (a->slurm_prio != b->slurm_prio)
			return a->slurm_prio > b->slurm_prio ? -1 : 1;
		break;
	case AMCBF_PRIO_STRETCH:
		return dfrs_priority_compare(a->stretch, (double)a->submit,
					     (int)a->id, b->stretch,
					     (double)b->submit, (int)b->id);
	case AMCBF_PRIO_FIFO:
		break;
	}
	return arrival_order((double)a->submit, (long)a->id, (double)b->submit,
			     (long)b->id);
}
