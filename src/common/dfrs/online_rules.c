/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_rules.c - licenses and the site's preemption rules as the online
 * DFRS policies consult them (online_rules.h): the decision's jobs and
 * pool handed to the rules both engine families share (rules/).
 */
#include "online_rules.h"

int online_licenses_fit(const online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	return job->state == DFRS_JOB_RUNNING ||
	       rules_licenses_fit(job->lic, job->nlic, w->lic_free, w->cl->nlic);
}

void online_licenses_take(online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (job->state != DFRS_JOB_RUNNING)
		rules_licenses_take(job->lic, job->nlic, w->lic_free,
				    w->cl->nlic);
}

void online_licenses_give(online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	if (job->state != DFRS_JOB_RUNNING)
		rules_licenses_give(job->lic, job->nlic, w->lic_free,
				    w->cl->nlic);
}

int online_may_preempt(const online_state_t *w, int preemptor, int victim)
{
	return preempt_rules_may(w->kept && w->kept[victim],
				 w->cl->may_preempt, w->cl->preempt_ctx,
				 (size_t)preemptor, (size_t)victim);
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
			    !w->cl->may_preempt(w->cl->preempt_ctx, (size_t)p,
						(size_t)v)) {
				w->kept[v] = 1;
				nkept++;
				break;
			}
		}
	}
	return nkept;
}
