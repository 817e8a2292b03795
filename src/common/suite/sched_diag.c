/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_diag.c - a sched/amcbf cycle into the backfill block of Slurm's
 * scheduler statistics (sched_diag.h).
 */
#include "sched_diag.h"

/* Microseconds as Slurm's 32-bit cycle times hold them. */
static uint32_t usec32(double usec)
{
	if (!(usec > 0))	/* also NaN */
		return 0;
	if (usec >= (double)UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)(usec + 0.5);
}

void sched_diag_add_cycle(sched_diag_bf_t *bf, const sched_diag_cycle_t *c)
{
	uint32_t t = usec32(c->usec);

	/* at the cycle's start, in _attempt_backfill() */
	bf->bf_queue_len = c->queue_len;
	bf->bf_queue_len_sum += c->queue_len;
	bf->bf_when_last_cycle = c->when;
	/* as the cycle goes: the jobs looked at, tried and started */
	bf->bf_last_depth = c->depth;
	bf->bf_last_depth_try = c->depth_try;
	bf->backfilled_jobs += c->started;
	bf->last_backfilled_jobs += c->started;
	/* at its end, _do_diag_stats() */
	bf->bf_cycle_counter++;
	bf->bf_cycle_sum += t;
	bf->bf_cycle_last = t;
	if (t > bf->bf_cycle_max)
		bf->bf_cycle_max = t;
	bf->bf_depth_sum += c->depth;
	bf->bf_depth_try_sum += c->depth_try;
	if (c->read_cut)
		bf->exit_timeout++;
	else
		bf->exit_end++;
}
