/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preempt.h - may one job take a running job off its nodes, the one
 * predicate both engine families consult: the consolidation engines of
 * Liu et al. 2013 (Sec. 4: victims among "jobs arriving later";
 * sched/sched_rules.h) and the online DFRS policies of Stillwell et al.
 * 2010 ("Use of Priority": suspend only for a higher priority job;
 * dfrs/online_rules.h).  The site's rules narrow both:
 *   no_preempt  a running job the site protects (PreemptMode=OFF,
 *               PreemptExemptTime, --no-requeue, the plugin's exemptions)
 *               or the engine keeps (pinned, MCB's pairwise pin) is never
 *               a victim, for anyone;
 *   pair        the site's pairwise rule (Slurm's QOS Preempt= lists,
 *               partition PriorityTier; rules/preempt_rules.h decides it
 *               live), over the engine's job indices; NULL: anyone may.
 */
#ifndef DFRS_RULES_PREEMPT_H
#define DFRS_RULES_PREEMPT_H

#include <stddef.h>

/* May job `preemptor` take running job `victim` off its nodes (indices of
 * the engine's job array): the site's pairwise rule. */
typedef int (*rules_may_preempt_fn)(const void *ctx, size_t preemptor,
				    size_t victim);

/* May `preemptor` preempt `victim`: never a protected victim (no_preempt
 * nonzero); otherwise as pair(ctx, preemptor, victim) says, yes with no
 * pair. */
int rules_may_preempt(int no_preempt, rules_may_preempt_fn pair,
		      const void *ctx, size_t preemptor, size_t victim);

#endif
