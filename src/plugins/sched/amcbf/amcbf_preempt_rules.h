/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_preempt_rules.h - the site's preemption configuration and the
 * plugin's exemptions (src/common/rules/preempt_rules.h) read from
 * slurmctld's records: who may be preempted, for whom (QOS Preempt=
 * lists, PriorityTier), and the GraceTime a victim is owed.  Questions
 * only: the preemption itself is amcbf_preempt_for() (amcbf_jobs.h).
 * All called with slurmctld's job write lock held.
 */
#ifndef DFRS_AMCBF_PREEMPT_RULES_H
#define DFRS_AMCBF_PREEMPT_RULES_H

/* One info line: the site's PreemptType and what sched/amcbf honours
 * under it.  With the conf read lock held. */
void amcbf_rules_say_site(void);

#ifdef DFRS_AMCBF_SLURM_TYPES
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "suite/dfrs_params.h"
#include "rules/preempt_rules.h"

/* Why this running job may not be preempted by anyone now (PREEMPT_WHY_OK:
 * it may): the plugin's exemptions, its PreemptExemptTime, its
 * PreemptMode=OFF (preempt_rules_victim).  keeps_work: the preemption is a
 * suspension in place, not a requeue (amcbf_min_runtime does not apply).
 * Takes the assoc_mgr QOS lock. */
preempt_why_t amcbf_rules_victim(job_record_t *job_ptr,
				 const dfrs_params_t *params, time_t now,
				 bool keeps_work);

/* The site's PreemptType as preempt_rules takes it. */
preempt_site_t amcbf_rules_site(void);

/* One side of the pairwise rule for this job (its QOS, Preempt= list,
 * WITHIN, priority, partition PriorityTier), read now for the engine to
 * consult later without locks; *list is xmalloc'ed (s->qos_preempts
 * points into it), NULL if empty.  Takes the assoc_mgr QOS lock. */
void amcbf_rules_side(job_record_t *job_ptr, preempt_side_t *s,
		      unsigned char **list);

/* May `preemptor` preempt `victim` under the site's PreemptType
 * (preempt_rules_pair).  Takes the assoc_mgr QOS lock. */
preempt_why_t amcbf_rules_pair(job_record_t *preemptor, job_record_t *victim);

/* May the availability policy suspend (keeps_work) or requeue this
 * running job whose hosts went OFF: the same exemptions
 * (amcbf_rules_victim); if not, one info line per job says why, and the
 * job is left running. */
bool amcbf_rules_avail_may(job_record_t *job_ptr,
			   const dfrs_params_t *params, time_t now,
			   bool keeps_work);

/*
 * May `victim` be preempted for `preemptor` (NULL: not known) as the site
 * allows?  Under preempt/qos or preempt/partition_prio not unless
 * preemptor may preempt victim (else one info line per pair, "WHO: not
 * preempting ...", and false).  *grace: the victim's GraceTime (its QOS's
 * or partition's) to honour, 0 if none or no preemptor is known.
 */
bool amcbf_rules_may_preempt(job_record_t *victim, job_record_t *preemptor,
			     const char *who, uint32_t *grace);
#endif

#endif
