/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_greedypm.c - GreedyP and GreedyPM (Stillwell et al. 2010, "Use of Priority",
 * "Limiting Migration").  See online_greedypm.h and dfrs_online.h.
 */
#include <math.h>
#include <stdlib.h>

#include "online_greedypm.h"
#include "online_reserve.h"
#include "online_rules.h"

/* Start or resume a waiting job without touching others, if its licenses
 * fit (it takes them). */
static int attempt_run_free(online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (!online_licenses_fit(w, j))
		return -1;
	if (w->state[j] == DFRS_JOB_SUSPENDED) {
		if (online_place_on(w, j, job->hosts) == 0) {
			online_hosts_reset(w, j);
			w->state[j] = DFRS_JOB_RUNNING;
			online_licenses_take(w, j);
			return 0;
		}
		if (!online_may_migrate(w, j))
			return -1;
	}
	if (online_place_least_loaded(w, j, online_hosts_to_write(w, j)) != 0) {
		/* it wrote the hosts of the tasks it placed before failing:
		 * a suspended job keeps the hosts it left */
		online_hosts_reset(w, j);
		return -1;
	}
	w->state[j] = DFRS_JOB_RUNNING;
	online_licenses_take(w, j);
	return 0;
}

/* As attempt_run_free, off the reserved hosts if the reservation keeps
 * the job from them (greedypmr, online_reserve.h). */
/*
 * As attempt_run_free, but a job the reservation keeps an eye on (greedypmr:
 * one that may still run at the shadow time, online_reserve_blocks) stays
 * waiting if its start would put the shadow time later: EASY's rule, a
 * start may not delay the reserved job.  Its licenses go back then.
 */
static int attempt_run(online_state_t *w, int j)
{
	dfrs_job_state_t was = w->state[j];

	if (!online_reserve_blocks(w, j))
		return attempt_run_free(w, j);
	if (attempt_run_free(w, j) != 0)
		return -1;
	if (!online_reserve_delayed(w))
		return 0;
	online_account_job(w, j, -1);
	online_hosts_reset(w, j);
	w->state[j] = was;
	online_licenses_give(w, j);
	return -1;
}

/* A running job that could be taken off for another: the work it would
 * lose, and its place from the lowest priority up. */
typedef struct {
	double lost;
	int from_lowest;
	int j;
} victim_t;

static int by_work_lost(const void *a, const void *b)
{
	const victim_t *x = a, *y = b;

	if (x->lost != y->lost)
		return x->lost < y->lost ? -1 : 1;
	return x->from_lowest - y->from_lowest;
}

/*
 * The running jobs j may take off its hosts, in the order it takes them:
 * those of lower priority, lowest first (Stillwell et al. 2010).  In the
 * requeue model each would lose its progress unless it checkpoints, so
 * those that would lose the least virtual time go first, ties by lowest
 * priority: a job that has just started costs little to requeue, one far
 * into its run costs all of it.  Only those the site lets j preempt
 * (online_may_preempt): the next one is taken instead.  Returns how many.
 */
static int victims_of(const online_state_t *w, int j, victim_t *victims)
{
	int n = 0;

	for (int r = w->nj - 1; r >= 0; r--) {
		int v = w->by_prio[r];
		const dfrs_online_job_t *job = &w->cl->jobs[v];

		if (v == j || w->state[v] != DFRS_JOB_RUNNING ||
		    !(w->prio[v] < w->prio[j]) || !online_may_preempt(w, j, v))
			continue;
		victims[n] = (victim_t){
			.lost = job->checkpointable ? 0.0 : job->virtual_time,
			.from_lowest = n,
			.j = v,
		};
		n++;
	}
	if (w->par->requeue && n > 1)
		qsort(victims, n, sizeof(*victims), by_work_lost);
	return n;
}

/* A victim just moved (greedypmr: it restarts from scratch in the requeue
 * model, as a start): if that delays the reserved job, it is taken off
 * again (and suspended).  0 if it may stay. */
static int moved_delays(online_state_t *w, int u)
{
	if (w->reserved < 0)
		return 0;
	w->state[u] = DFRS_JOB_RUNNING;
	if (!online_reserve_delayed(w))
		return 0;
	online_account_job(w, u, -1);
	w->state[u] = DFRS_JOB_SUSPENDED;
	return 1;
}

/*
 * GreedyP / GreedyPM for one waiting job: run it if it fits; otherwise take
 * running jobs off their hosts in victims_of's order until it fits.  Then
 * each job taken off (the last taken first) goes back where it was if it
 * still fits, else, with GreedyPM and past minvt, wherever it fits, else it
 * is suspended.  If the job cannot fit even with all of them off, or its
 * licenses do not fit, nothing changes.
 */
static void greedy_schedule_one(online_state_t *w, int j, int *removed,
				victim_t *victims)
{
	int nremoved = 0, nvictims;

	if (attempt_run(w, j) == 0 || !online_licenses_fit(w, j))
		return;
	nvictims = victims_of(w, j, victims);
	for (int k = 0; k < nvictims; k++) {
		int v = victims[k].j;

		online_account_job(w, v, -1);
		w->state[v] = DFRS_JOB_SUSPENDED;
		removed[nremoved++] = v;
		if (attempt_run(w, j) != 0)
			continue;
		/* j runs.  Suspend only the victims that must go: put each
		 * back where it was if it still fits (the last taken first:
		 * of higher priority, or in the requeue model further into
		 * its run), else, with GreedyPM, where it fits elsewhere. */
		for (int i = nremoved - 1; i >= 0; i--) {
			int u = removed[i];

			if (online_place_on(w, u, w->hosts[u]) == 0 ||
			    (w->par->policy != DFRS_POLICY_GREEDYP &&
			     online_may_migrate(w, u) &&
			     online_place_least_loaded(w, u, online_hosts_to_write(w, u)) == 0 &&
			     !moved_delays(w, u)))
				w->state[u] = DFRS_JOB_RUNNING;
			else
				online_hosts_reset(w, u);
		}
		return;
	}
	for (int i = 0; i < nremoved; i++) {	/* j does not fit: undo */
		online_account_job(w, removed[i], +1);
		w->state[removed[i]] = DFRS_JOB_RUNNING;
	}
}

/*
 * Requeue model, starve_bsld > 0: at an arrival, the waiting job that has
 * starved the most (dfrs_online_waited_bsld), if any starves, takes jobs off as
 * an arriving job does.  Its priority counts as infinite for this, so that
 * any running job that may be requeued is a victim, those that lose the
 * least work first.  One claim per arrival event: each requeues the jobs in
 * the way of a job that is often wide, and they start over.
 */
static void starving_claim(online_state_t *w, const int *waiting, int nw,
			   int *removed, victim_t *victims)
{
	int c = -1;
	double worst = 0.0, prio;

	for (int i = 0; i < nw; i++) {
		const dfrs_online_job_t *job = &w->cl->jobs[waiting[i]];
		double b = dfrs_online_waited_bsld(job, w->cl->now);

		if (online_starving(w->par, w->cl->now, job) &&
		    (c < 0 || b > worst)) {
			c = waiting[i];
			worst = b;
		}
	}
	if (c < 0)
		return;
	prio = w->prio[c];
	w->prio[c] = INFINITY;
	greedy_schedule_one(w, c, removed, victims);
	w->prio[c] = prio;
	if (w->state[c] == DFRS_JOB_RUNNING)
		w->claimed = c;
}

/* Whether job x arrived before job y (ties by index). */
static int older(const dfrs_online_job_t *jobs, int x, int y)
{
	if (jobs[x].submit != jobs[y].submit)
		return jobs[x].submit < jobs[y].submit;
	return x < y;
}

/*
 * greedypmr, before anything else at every event: the waiting wide jobs,
 * oldest first, start where they fit.  Wide jobs go first because an
 * arrival comes first in GreedyPM: taking every host as it frees, small
 * jobs would keep a wide one waiting for as long as they come.  Then the
 * oldest waiting job that starves (online_starving) starts if it fits, or
 * holds the reservation (online_reserve.h): the oldest, not the most
 * starved, so that the reservation stays with one job until it starts.
 * wide holds nj ints of scratch.  0, or -1 on out of memory.
 */
static int reserve_pass(online_state_t *w, int *wide)
{
	int n = 0, c = -1;

	for (int j = 0; j < w->nj; j++) {
		int i;

		if (w->state[j] == DFRS_JOB_RUNNING ||
		    !online_wide(w->par, w->nh, online_shape(w, j)->ntasks))
			continue;
		/* insertion, oldest first: few jobs are wide */
		for (i = n++; i > 0 && older(w->cl->jobs, j, wide[i - 1]); i--)
			wide[i] = wide[i - 1];
		wide[i] = j;
	}
	for (int i = 0; i < n; i++)
		if (online_licenses_fit(w, wide[i]))
			attempt_run(w, wide[i]);
	for (int j = 0; j < w->nj; j++)
		if (w->state[j] != DFRS_JOB_RUNNING &&
		    online_starving(w->par, w->cl->now, &w->cl->jobs[j]) &&
		    online_licenses_fit(w, j) &&
		    (c < 0 || older(w->cl->jobs, j, c)))
			c = j;
	if (c < 0 || attempt_run(w, c) == 0)
		return 0;
	return online_reserve_compute(w, c);
}

/*
 * The greedy policies' pass over the waiting jobs, highest priority first.
 * Each is started or resumed where it fits.  Preemption (suspending lower
 * priorities, greedy_schedule_one) is used for each arriving job at an
 * arrival (in the order given, before any other waiting job), and for
 * every waiting job at a periodic event; otherwise waiting jobs only fill
 * free capacity.  At an arrival, after the arriving jobs, the starving job
 * that has waited longest for its estimate claims room (starving_claim).
 * A starving job that does not fit stops the pass: no job behind it takes
 * the room it waits for (starving jobs rank first, so only other starving
 * jobs go before it).
 */
int online_greedypm_pass(online_state_t *w, dfrs_event_t event,
			 const int *arrived, int narrived)
{
	int *waiting = malloc(sizeof(int) * (w->nj + 1));
	int *removed = malloc(sizeof(int) * (w->nj + 1));
	victim_t *victims = malloc(sizeof(*victims) * (w->nj + 1));
	int nw = 0;

	if (!waiting || !removed || !victims) {
		free(waiting);
		free(removed);
		free(victims);
		return -1;
	}
	if (w->par->policy == DFRS_POLICY_GREEDYPMR &&
	    reserve_pass(w, waiting) != 0) {
		free(waiting);
		free(removed);
		free(victims);
		return -1;
	}
	for (int a = 0; a < narrived; a++)
		if (w->state[arrived[a]] != DFRS_JOB_RUNNING)
			greedy_schedule_one(w, arrived[a], removed, victims);
	for (int r = 0; r < w->nj; r++)
		if (w->state[w->by_prio[r]] != DFRS_JOB_RUNNING)
			waiting[nw++] = w->by_prio[r];
	/* greedypmr: a starving job holds the reservation instead of
	 * claiming room or keeping every job behind it waiting */
	if (event == DFRS_EVENT_ARRIVAL && w->par->starve_bsld > 0.0 &&
	    w->par->policy != DFRS_POLICY_GREEDYPMR)
		starving_claim(w, waiting, nw, removed, victims);
	for (int i = 0; i < nw; i++) {
		if (w->state[waiting[i]] == DFRS_JOB_RUNNING)
			continue;	/* it claimed room */
		if (event == DFRS_EVENT_PERIODIC)
			greedy_schedule_one(w, waiting[i], removed, victims);
		else
			attempt_run(w, waiting[i]);
		/* (held back by licenses, not room, it keeps none) */
		if (w->state[waiting[i]] != DFRS_JOB_RUNNING &&
		    w->par->policy != DFRS_POLICY_GREEDYPMR &&
		    online_starving(w->par, w->cl->now,
				    &w->cl->jobs[waiting[i]]) &&
		    online_licenses_fit(w, waiting[i])) {
			/* The room it waits for is not given to the jobs
			 * behind it: they would fill each host as it frees,
			 * and a wide job would wait for as long as others
			 * keep coming, or after the last arrival (no more
			 * claims) until the queue has drained.  (MCB's
			 * repack keeps a prefix of the priority order: it
			 * holds the same way.) */
			w->held = waiting[i];
			break;
		}
	}
	free(waiting);
	free(removed);
	free(victims);
	return 0;
}
