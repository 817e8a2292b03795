/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_rules.h - the site's rules inside an online DFRS decision
 * (dfrs_online.h, "The site's rules"): the license pool as starts take
 * from it, and who may take a running job off its hosts for whom.  They
 * narrow the choices of Stillwell et al. 2010 ("Use of Priority"): a job
 * is suspended only for a higher priority one, and here only for one the
 * site lets preempt it and that can then start.  Internal to the online
 * policies.  The rules themselves are those the consolidation engines
 * consult too (rules/licenses.h, rules/preempt_rules.h); these functions hand
 * them a decision's jobs and pool, and add MCB's pairwise pin.
 */
#ifndef DFRS_ONLINE_RULES_H
#define DFRS_ONLINE_RULES_H

#include "online_state.h"

/* Do job j's license requests fit what is free now in the decision?  A job
 * running before the decision holds its licenses already: always. */
int online_licenses_fit(const online_state_t *w, int j);

/* Job j starts or resumes in the decision: it takes its licenses (none for
 * a job that was running before it). */
void online_licenses_take(online_state_t *w, int j);

/* Undo online_licenses_take: job j, started in the decision, does not
 * start after all (greedypmr's reservation). */
void online_licenses_give(online_state_t *w, int j);

/* May waiting job `preemptor` take running job `victim` off its hosts: the
 * victim is not kept by the site's rules (w->kept) and the cluster's
 * pairwise predicate, if any, allows the pair. */
int online_may_preempt(const online_state_t *w, int preemptor, int victim);

/*
 * MCB's pairwise pin (a global repack has no single preemptor): mark in
 * w->kept each running job that some waiting job ranked above it in
 * w->by_prio may not preempt.  Returns how many it marked (0 with no
 * predicate).
 */
int online_pairwise_keep(online_state_t *w);

#endif
