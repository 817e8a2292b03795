/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preempt_rules.c - who sched/amcbf may preempt, and for whom, under the
 * site's preemption configuration and the plugin's exemptions
 * (preempt_rules.h).  The pairwise rules follow what Slurm 22.05's
 * preempt/qos and preempt/partition_prio plugins decide.  The predicate
 * both engine families ask (preempt_rules_may) narrows their choice of
 * victims by these rules.
 */
#include "preempt_rules.h"

#include <string.h>

preempt_why_t preempt_rules_victim(preempt_site_t site,
				   const preempt_limits_t *lim,
				   const preempt_victim_t *v)
{
	if (!v->batch)
		return PREEMPT_WHY_NOT_BATCH;
	if (!v->requeue)
		return PREEMPT_WHY_NO_REQUEUE;
	if (v->restarts >= lim->max_preempt)
		return PREEMPT_WHY_MAX_PREEMPT;
	if (!v->keeps_work && lim->min_runtime > 0 && v->ran >= lim->min_runtime)
		return PREEMPT_WHY_MIN_RUNTIME;
	if (v->exempt_qos)
		return PREEMPT_WHY_EXEMPT_QOS;
	if (v->exempt_time > 0 && v->ran < v->exempt_time)
		return PREEMPT_WHY_EXEMPT_TIME;
	if (site != PREEMPT_SITE_NONE && v->mode_off)
		return PREEMPT_WHY_MODE_OFF;
	return PREEMPT_WHY_OK;
}

static int lists(const preempt_side_t *or, int qos_id)
{
	return or->qos_preempts && qos_id >= 0 && (size_t)qos_id < or->nqos &&
	       or->qos_preempts[qos_id];
}

preempt_why_t preempt_rules_pair(preempt_site_t site,
				 const preempt_side_t *preemptor,
				 const preempt_side_t *victim)
{
	switch (site) {
	case PREEMPT_SITE_QOS:
		if (preemptor->qos_id < 0 || victim->qos_id < 0)
			return PREEMPT_WHY_NO_QOS;
		if (preemptor->qos_id == victim->qos_id)
			return preemptor->qos_within &&
			       preemptor->priority > victim->priority ?
			       PREEMPT_WHY_OK : PREEMPT_WHY_SAME_QOS;
		return lists(preemptor, victim->qos_id) ? PREEMPT_WHY_OK :
			PREEMPT_WHY_NOT_IN_LIST;
	case PREEMPT_SITE_PARTITION_PRIO:
		return victim->part_tier < preemptor->part_tier ? PREEMPT_WHY_OK :
			PREEMPT_WHY_TIER;
	case PREEMPT_SITE_NONE:
		break;
	}
	return PREEMPT_WHY_OK;
}

int preempt_rules_may(int no_preempt, preempt_rules_may_fn pair,
		      const void *ctx, size_t preemptor, size_t victim)
{
	if (no_preempt)
		return 0;
	return !pair || pair(ctx, preemptor, victim);
}

uint32_t preempt_rules_grace(preempt_site_t site, uint32_t qos_grace,
			     uint32_t part_grace)
{
	switch (site) {
	case PREEMPT_SITE_QOS:
		return qos_grace;
	case PREEMPT_SITE_PARTITION_PRIO:
		return part_grace;
	case PREEMPT_SITE_NONE:
		break;
	}
	return 0;
}

preempt_site_t preempt_rules_site(const char *preempt_type)
{
	if (!preempt_type)
		return PREEMPT_SITE_NONE;
	if (!strcmp(preempt_type, "preempt/qos"))
		return PREEMPT_SITE_QOS;
	if (!strcmp(preempt_type, "preempt/partition_prio"))
		return PREEMPT_SITE_PARTITION_PRIO;
	return PREEMPT_SITE_NONE;
}

const char *preempt_rules_site_summary(preempt_site_t site)
{
	switch (site) {
	case PREEMPT_SITE_QOS:
		return "a requeue needs the preemptor QOS's Preempt= list; PreemptMode=OFF, PreemptExemptTime and QOS GraceTime are honoured";
	case PREEMPT_SITE_PARTITION_PRIO:
		return "a requeue needs a lower partition PriorityTier; PreemptMode=OFF, PreemptExemptTime and partition GraceTime are honoured";
	case PREEMPT_SITE_NONE:
		break;
	}
	return "sched/amcbf preempts by its own rules; PreemptExemptTime is honoured";
}

const char *preempt_rules_why(preempt_why_t why)
{
	switch (why) {
	case PREEMPT_WHY_OK:
		return "it may be preempted";
	case PREEMPT_WHY_NOT_BATCH:
		return "it is interactive (not a batch job)";
	case PREEMPT_WHY_NO_REQUEUE:
		return "it was submitted with --no-requeue";
	case PREEMPT_WHY_MAX_PREEMPT:
		return "it was preempted amcbf_max_preempt times already";
	case PREEMPT_WHY_MIN_RUNTIME:
		return "it has run amcbf_min_runtime or longer: a requeue would throw that work away";
	case PREEMPT_WHY_EXEMPT_QOS:
		return "its QOS is in amcbf_exempt_qos";
	case PREEMPT_WHY_EXEMPT_TIME:
		return "it has run less than its PreemptExemptTime";
	case PREEMPT_WHY_MODE_OFF:
		return "its PreemptMode is OFF";
	case PREEMPT_WHY_NOT_IN_LIST:
		return "its QOS is not in the preemptor QOS's Preempt= list";
	case PREEMPT_WHY_SAME_QOS:
		return "it has the preemptor's QOS, without PreemptMode=WITHIN and a lower priority";
	case PREEMPT_WHY_NO_QOS:
		return "one of the two jobs has no QOS";
	case PREEMPT_WHY_TIER:
		return "its partition's PriorityTier is not below the preemptor's";
	}
	return "unknown reason";
}
