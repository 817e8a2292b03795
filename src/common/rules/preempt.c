/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preempt.c - the preemption predicate the engines share (preempt.h).
 */
#include "preempt.h"

int rules_may_preempt(int no_preempt, rules_may_preempt_fn pair,
		      const void *ctx, size_t preemptor, size_t victim)
{
	if (no_preempt)
		return 0;
	return !pair || pair(ctx, preemptor, victim);
}
