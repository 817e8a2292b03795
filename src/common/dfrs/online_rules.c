/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_rules.c - licenses and the site's preemption rules as the online
 * DFRS policies consult them (online_rules.h).
 */
#include "online_rules.h"

int online_licenses_fit(const online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (job->state == DFRS_JOB_RUNNING)
		return 1;
	for (int r = 0; r < job->nlic; r++) {
		const dfrs_lic_req_t *q = &job->lic[r];

		if (q->count <= 0)
			continue;
		if (!w->lic_free || q->lic < 0 || q->lic >= w->cl->nlic)
			return 0;
		if ((long)q->count + (q->held_away > 0 ? q->held_away : 0) >
		    (long)w->lic_free[q->lic])
			return 0;
	}
	return 1;
}

/* Take a job's requests off a pool of nlic licenses. */
static void take_requests(const dfrs_online_job_t *job, int nlic, int *pool)
{
	for (int r = 0; r < job->nlic; r++) {
		const dfrs_lic_req_t *q = &job->lic[r];

		if (q->count > 0 && q->lic >= 0 && q->lic < nlic)
			pool[q->lic] -= q->count;
	}
}

void online_licenses_take(online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (job->state != DFRS_JOB_RUNNING && w->lic_free)
		take_requests(job, w->cl->nlic, w->lic_free);
}

void dfrs_online_take_licenses(const dfrs_cluster_t *cluster,
			       const dfrs_decisions_t *d, int *lic_free)
{
	for (int j = 0; lic_free && j < cluster->njobs && j < d->njobs; j++)
		if (cluster->jobs[j].state != DFRS_JOB_RUNNING &&
		    d->job[j].state == DFRS_JOB_RUNNING)
			take_requests(&cluster->jobs[j], cluster->nlic,
				      lic_free);
}

int online_may_preempt(const online_state_t *w, int preemptor, int victim)
{
	if (w->kept && w->kept[victim])
		return 0;
	return !w->cl->may_preempt ||
	       w->cl->may_preempt(w->cl->preempt_ctx, preemptor, victim);
}

int online_pairwise_keep(online_state_t *w)
{
	int nkept = 0;

	if (!w->cl->may_preempt || !w->kept)
		return 0;
	for (int r = 0; r < w->nj; r++) {
		int v = w->by_prio[r];

		if (w->cl->jobs[v].state != DFRS_JOB_RUNNING || w->kept[v])
			continue;
		for (int a = 0; a < r; a++) {
			int p = w->by_prio[a];

			if (w->cl->jobs[p].state != DFRS_JOB_RUNNING &&
			    !w->cl->may_preempt(w->cl->preempt_ctx, p, v)) {
				w->kept[v] = 1;
				nkept++;
				break;
			}
		}
	}
	return nkept;
}
