/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_repair.c - incremental MCB: local repair of the kept packing and
 * the drift test that decides whether a full METAVP repack is due
 * (Stillwell et al. 2010, "When to apply Heuristics").  See online_repair.h.
 */
#include <stdlib.h>
#include <string.h>

#include "online_greedypm.h"
#include "online_repair.h"
#include "yield_allocation.h"

/* Whether no waiting job (with pending_only, no job that never started)
 * comes before a running one in w->by_prio. */
static int running_come_first(const online_state_t *w, int pending_only)
{
	int seen_waiting = 0;

	for (int r = 0; r < w->nj; r++) {
		dfrs_job_state_t st = w->state[w->by_prio[r]];

		if (st == DFRS_JOB_RUNNING && seen_waiting)
			return 0;
		seen_waiting |= pending_only ? st == DFRS_JOB_PENDING
					     : st != DFRS_JOB_RUNNING;
	}
	return 1;
}

/* Minimum scaled yield of the running jobs on their working hosts (max-min
 * allocation); -1 when none runs, -2 on out of memory or overload. */
static double working_min_yield(const online_state_t *w)
{
	double m;

	return online_running_yields(w, NULL, &m) == 0 ? m : -2.0;
}

int online_repair(online_state_t *w, dfrs_event_t event, const int *arrived,
		  int narrived)
{
	double ref = w->cl->repack_yield, m;
	int rc = -1, nlic = w->lic_free ? w->cl->nlic : 0;
	dfrs_job_state_t *state0 = malloc(sizeof(*state0) * (w->nj + 1));
	int *lic0 = malloc(sizeof(int) * (nlic + 1));

	if (!state0 || !lic0)
		goto out;
	memcpy(state0, w->state, sizeof(*state0) * w->nj);
	if (nlic)	/* the starts of the repair take licenses */
		memcpy(lic0, w->lic_free, sizeof(int) * nlic);

	/* an arriving job preempts lower priorities as under GreedyP; then
	 * waiting jobs fill free capacity, highest priority first */
	if (online_greedypm_pass(w, event == DFRS_EVENT_ARRIVAL ? event :
				 DFRS_EVENT_COMPLETION, arrived, narrived))
		goto out;
	m = working_min_yield(w);
	if (m < -1.5)
		goto out;
	if (running_come_first(w, event != DFRS_EVENT_PERIODIC) && m >= 0.0 &&
	    m >= (1.0 - w->par->repack_drift) * ref) {
		rc = 1;
		goto out;
	}
	/* undo: the caller repacks from the state it had (usage and load are
	 * left as the repair made them: the repack does not read them); the
	 * repair was the first to write any job's hosts */
	memcpy(w->state, state0, sizeof(*state0) * w->nj);
	if (nlic)
		memcpy(w->lic_free, lic0, sizeof(int) * nlic);
	for (int j = 0; j < w->nj; j++)
		online_hosts_reset(w, j);
	rc = 0;
out:
	free(state0);
	free(lic0);
	return rc;
}
