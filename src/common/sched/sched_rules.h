/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_rules.h - the site's rules that belong inside a scheduling decision,
 * as plain data the engines consult (sched_engine.h), so that they neither
 * start a job Slurm would refuse nor take a running job off its nodes for
 * it (Liu et al. 2013, Sec. 4, choose victims among "jobs arriving later";
 * these rules narrow both sides):
 *
 *   licenses   sched_state_t.licenses is the cluster's pool (Slurm's
 *              Licenses=, free = not held by running jobs) and
 *              sched_job_t.lic a job's requests.  A queued job whose
 *              requests do not fit what is free now is passed over as if
 *              it were not in the queue: not started, not the head, no
 *              victim chosen for it.  A start takes its licenses; a
 *              requeue returns none within the call, since Slurm frees a
 *              job's licenses only once it has left its nodes (and Slurm
 *              22.05 never preempts for licenses).
 *   preemption sched_job_t.no_preempt protects a running job from anyone
 *              (the site's and the driver's exemptions); st->may_preempt,
 *              when set, says whether one job may preempt another (Slurm's
 *              QOS Preempt= lists, partition PriorityTier).  Only jobs both
 *              allow are victims, whether requeued, switched to bg in place
 *              or evicted from a bg slot.
 *
 * NULL pool and NULL predicate (dfrs sim): no license holds a start back,
 * and every job the driver does not protect may be a victim.
 * The rules themselves are those the online DFRS policies consult too
 * (rules/licenses.h, rules/preempt_rules.h); these functions hand them the
 * engines' state.
 */
#ifndef DFRS_SCHED_RULES_H
#define DFRS_SCHED_RULES_H

#include <stddef.h>

#include "sched_engine.h"

/* Do queued job j's license requests fit the pool now: for each, its count
 * plus what reservations hold away from it at most the free count.  A
 * request naming no license of the pool never fits. */
int sched_licenses_ok(const sched_state_t *st, size_t j);

/* Take job j's licenses from the pool (at its start). */
void sched_licenses_take(sched_state_t *st, size_t j);

/* May job `preemptor` take the nodes of running job `victim`: the victim is
 * neither pinned nor protected (no_preempt), and the pairwise rule, if
 * any, allows it. */
int sched_may_preempt(const sched_state_t *st, size_t preemptor,
		      size_t victim);

#endif
