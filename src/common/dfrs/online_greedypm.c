/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_greedypm.c - GreedyP and GreedyPM (Stillwell et al. 2010, "Use of Priority",
 * "Limiting Migration").  See online_greedypm.h and dfrs_online.h.
 */
#include <math.h>
#include <stdlib.h>

#include "online_greedypm.h"
#include "online_rules.h"

/* Start or resume a waiting job without touching others, if its licenses
 * fit (it takes them). */
static int attempt_run(online_state_t *w, int j)
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
			    (w->par->policy == DFRS_POLICY_GREEDYPM &&
			     online_may_migrate(w, u) &&
			     online_place_least_loaded(w, u, online_hosts_to_write(w, u)) == 0))
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
	for (int a = 0; a < narrived; a++)
		if (w->state[arrived[a]] != DFRS_JOB_RUNNING)
			greedy_schedule_one(w, arrived[a], removed, victims);
	for (int r = 0; r < w->nj; r++)
		if (w->state[w->by_prio[r]] != DFRS_JOB_RUNNING)
			waiting[nw++] = w->by_prio[r];
	if (event == DFRS_EVENT_ARRIVAL && w->par->starve_bsld > 0.0)
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
