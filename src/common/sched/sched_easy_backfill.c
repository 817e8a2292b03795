/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_easy_backfill.c - EASY backfilling (Lifka's ANL/IBM SP scheduler,
 * the baseline of Liu et al. 2013 section 5): jobs start
 * in arrival order; when the head job does not fit it gets a reservation at
 * the "shadow time" (the earliest time enough running jobs will have ended,
 * by their estimates), and a later job may start now if it fits on the idle
 * nodes and either ends by the shadow time or uses only the "extra" nodes
 * the head job will not need then.  Only the head job holds a reservation.
 *
 * Estimates come from sched_job_t.estimate (the driver passes the trace's
 * requested time, or the exact runtime when there is none).  A running job
 * past its estimate is expected to end now; a job without an estimate (< 0)
 * is expected never to end.
 *
 * A job restricted to some nodes (sched_job_t.allowed) starts only where it
 * may run; the head job's reservation still counts nodes, not which ones.
 *
 * On hosts of many CPUs (sched_host.h) the nodes are slots and the head's
 * reservation is placed, not counted: the slots, memory and GPUs it would
 * take at the shadow time are held, and a later job that ends after the
 * shadow time starts only on places the head does not hold
 * (sched_reservation.h), as sched/backfill on cons_tres.
 */
#include <stdlib.h>

#include "sched_engine.h"
#include "sched_reservation.h"

int sched_easy_backfill(sched_state_t *st, const sched_config_t *cfg,
			unsigned events, sched_decisions_t *out)
{
	int idle = sched_fg_idle_count(st);
	int *nodes = malloc((size_t)(st->nnodes > 0 ? st->nnodes : 1) *
			    sizeof(int));
	if (!nodes)
		return -1;
	int rc = 0;
	size_t j;
	sched_reservation_t r = { 0 };

	/* the head of the queue starts while it fits, as in FCFS */
	if (sched_fcfs_head(st, out, nodes, &idle, &j))
		goto fail;
	if (j >= st->njobs)
		goto done;

	if (sched_reserve(st, j, idle, sched_holds_any_fg, NULL, &r))
		goto fail;
	for (j++; j < st->njobs && idle > 0; j++) {
		sched_job_t *job = &st->jobs[j];
		if (job->where != SCHED_QUEUED || job->nodes > idle ||
		    (job->allowed && job->nodes > sched_fg_idle_for(st, j)) ||
		    !sched_reservation_admits(st, &r, j))
			continue;
		int fit = sched_fit(st, NULL, j, SCHED_TIER_FG,
				    sched_reservation_hold(st, &r, j), nodes);
		if (fit < 0)
			goto fail;
		if (!fit)
			continue;
		if (sched_start(st, out, j, SCHED_TIER_FG, nodes))
			goto fail;
		idle -= job->nodes;
	}
done:
	sched_reservation_free(&r);
	free(nodes);
	return rc;
fail:
	rc = -1;
	goto done;
}
