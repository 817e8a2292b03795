/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_rules.c - licenses and the site's preemption rules as the engines
 * consult them (sched_rules.h): the engines' jobs and state handed to the
 * rules both engine families share (rules/).
 */
#include "sched_rules.h"

int sched_licenses_ok(const sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];

	return rules_licenses_fit(job->lic, job->nlic, st->licenses,
				  st->nlicenses);
}

void sched_licenses_take(sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];

	rules_licenses_take(job->lic, job->nlic, st->licenses, st->nlicenses);
}

int sched_may_preempt(const sched_state_t *st, size_t preemptor,
		      size_t victim)
{
	const sched_job_t *v = &st->jobs[victim];

	return preempt_rules_may(v->pinned || v->no_preempt, st->may_preempt,
				 st->preempt_ctx, preemptor, victim);
}
