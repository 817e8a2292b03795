/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_rules.c - licenses and the site's preemption rules as the engines
 * consult them (sched_rules.h).
 */
#include "sched_rules.h"

int sched_licenses_ok(const sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];

	for (int r = 0; r < job->nlic; r++) {
		const sched_lic_req_t *q = &job->lic[r];
		if (q->count <= 0)
			continue;
		if (!st->licenses || q->lic < 0 || q->lic >= st->nlicenses)
			return 0;
		if ((long)q->count + (q->held_away > 0 ? q->held_away : 0) >
		    (long)st->licenses[q->lic].free)
			return 0;
	}
	return 1;
}

void sched_licenses_take(sched_state_t *st, size_t j)
{
	const sched_job_t *job = &st->jobs[j];

	for (int r = 0; r < job->nlic; r++) {
		const sched_lic_req_t *q = &job->lic[r];
		if (q->count > 0 && st->licenses && q->lic >= 0 &&
		    q->lic < st->nlicenses)
			st->licenses[q->lic].free -= q->count;
	}
}

int sched_may_preempt(const sched_state_t *st, size_t preemptor,
		      size_t victim)
{
	const sched_job_t *v = &st->jobs[victim];

	if (v->pinned || v->no_preempt)
		return 0;
	return !st->may_preempt ||
	       st->may_preempt(st, preemptor, victim, st->preempt_ctx);
}
