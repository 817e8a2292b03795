/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_sjf_backfill.c - EASY backfilling with the backfill candidates
 * tried shortest estimate first: "shortest job backfilled first" (SJBF,
 * Tsafrir, Etsion & Feitelson 2007, the backfilling order of their
 * EASY++).  The queue itself stays in arrival order: jobs start first come
 * first served while the first of them fits (sched_fcfs_head), that first
 * job that does not fit holds EASY's reservation (sched_reserve), and only
 * the order in which the later jobs are offered the idle nodes changes:
 * by sched_job_t.estimate, shortest first, jobs without an estimate last,
 * ties in arrival order.  Each candidate is admitted as in EASY
 * (sched_reservation_admits), so a short job may now take the extra nodes
 * a longer, earlier one would have taken.
 *
 * With the trace's requested times as estimates this is the "sjf-backfill"
 * policy; fed per-user predictions (runtime_predictor.h) it is EASY++
 * (src/common/sim/sim_easy_pp.c).
 */
#include <math.h>
#include <stdlib.h>

#include "sched_engine.h"
#include "sched_reservation.h"

typedef struct {
	double key;		/* estimate, INFINITY without one */
	size_t job;
} candidate_t;

static int shortest_first(const void *a, const void *b)
{
	const candidate_t *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

int sched_sjf_backfill(sched_state_t *st, const sched_config_t *cfg,
		       unsigned events, sched_decisions_t *out)
{
	int idle = sched_fg_idle_count(st);
	size_t n = st->nnodes > 0 ? (size_t)st->nnodes : 1;
	int *nodes = malloc(n * sizeof(int));
	candidate_t *cand = malloc((st->njobs ? st->njobs : 1) *
				   sizeof(*cand));
	size_t j, ncand = 0;
	int rc = -1;

	(void)cfg;
	(void)events;
	if (!nodes || !cand)
		goto out;
	if (sched_fcfs_head(st, out, nodes, &idle, &j))
		goto out;
	rc = 0;
	if (j >= st->njobs)
		goto out;

	sched_reservation_t r;
	if (sched_reserve(st, j, idle, sched_holds_any_fg, NULL, &r)) {
		rc = -1;
		goto out;
	}
	for (size_t k = j + 1; k < st->njobs; k++)
		if (st->jobs[k].where == SCHED_QUEUED)
			cand[ncand++] = (candidate_t){
				st->jobs[k].estimate >= 0
				? st->jobs[k].estimate : INFINITY, k };
	qsort(cand, ncand, sizeof(*cand), shortest_first);
	for (size_t c = 0; c < ncand && idle > 0; c++) {
		size_t k = cand[c].job;
		sched_job_t *job = &st->jobs[k];

		if (job->nodes > idle ||
		    (job->allowed && job->nodes > sched_fg_idle_for(st, k)) ||
		    !sched_reservation_admits(st, &r, k))
			continue;
		sched_pick_idle_fg(st, k, nodes);
		if (sched_start(st, out, k, SCHED_TIER_FG, nodes)) {
			rc = -1;
			goto out;
		}
		idle -= job->nodes;
	}
out:
	free(nodes);
	free(cand);
	return rc;
}
