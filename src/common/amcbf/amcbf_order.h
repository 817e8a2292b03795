/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_order.h - the queue order sched/amcbf's consolidation modes hand
 * to the engines (amcbf_priority): the engines of Liu et al. 2013 take
 * their job array's order as the arrival order ("jobs arriving later than
 * j", Algorithms 1-4), so the order chosen here decides which jobs start
 * first and which running ones a queued job may preempt.
 *
 *   priority  the partition's PriorityTier, then Slurm's job priority
 *             (priority/multifactor, priority/basic, scontrol update
 *             priority=, sbatch --nice), higher first, as Slurm's main
 *             scheduler sorts its queue
 *   fifo      first submit time, earlier first
 *   stretch   DFRS's flow time / virtual time^2 (Stillwell et al. 2010,
 *             "Priority"), higher first, new jobs first
 *
 * Ties go by first submit time, then job id.  Plain C, no Slurm headers.
 */
#ifndef DFRS_AMCBF_ORDER_H
#define DFRS_AMCBF_ORDER_H

#include <stdint.h>
#include <time.h>

#include "suite/dfrs_params.h"

/* What a job is ordered by. */
typedef struct {
	int fixed;		/* the driver keeps it at the front (a blocker,
				   an exempt running job) */
	uint32_t part_tier;	/* its partition's PriorityTier (priority
				   order) */
	uint32_t slurm_prio;	/* Slurm's job priority (priority order) */
	double stretch;		/* DFRS stretch (stretch order) */
	time_t submit;		/* first submit time (a requeue keeps it) */
	uint32_t id;		/* Slurm job id */
} amcbf_order_key_t;

/* < 0, 0, > 0 as job a comes before, with or after job b in this order;
 * fixed jobs before all others. */
int amcbf_order_compare(amcbf_priority_t order, const amcbf_order_key_t *a,
			const amcbf_order_key_t *b);

#endif
