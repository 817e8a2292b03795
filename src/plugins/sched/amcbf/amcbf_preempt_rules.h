/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_preempt_rules.h - the site's preemption configuration and the
 * plugin's exemptions (src/common/rules/preempt_rules.h) read from
 * slurmctld's records, and a preemption that honours them: who may be
 * preempted, for whom (QOS Preempt= lists, PriorityTier), and a victim's
 * GraceTime through Slurm's own preemption path (slurm_job_preempt).
 * All called with slurmctld's job write lock held.
 */
#ifndef DFRS_AMCBF_PREEMPT_RULES_H
#define DFRS_AMCBF_PREEMPT_RULES_H

/* One info line: the site's PreemptType and what sched/amcbf honours
 * under it.  With the conf read lock held. */
void amcbf_rules_say_site(void);

#ifdef DFRS_AMCBF_SLURM_TYPES
#include "amcbf_jobs.h"
#include "rules/preempt_rules.h"

/* Why this running job may not be preempted by anyone now (PREEMPT_WHY_OK:
 * it may): the plugin's exemptions, its PreemptExemptTime, its
 * PreemptMode=OFF (preempt_rules_victim).  Takes the assoc_mgr QOS lock. */
preempt_why_t amcbf_rules_victim(job_record_t *job_ptr,
				 const dfrs_params_t *params, time_t now);

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

/* May the availability policy suspend or requeue this running job whose
 * hosts went OFF: the same exemptions (amcbf_rules_victim); if not, one
 * info line per job says why, and the job is left running. */
bool amcbf_rules_avail_may(job_record_t *job_ptr,
			   const dfrs_params_t *params, time_t now);

/*
 * Preempt `victim` for `preemptor` (NULL: not known) as the site allows:
 *  - under preempt/qos or preempt/partition_prio, not at all unless
 *    preemptor may preempt victim (one info line per pair, then
 *    AMCBF_PREEMPT_REFUSED);
 *  - with a GraceTime (the victim's QOS's or partition's), through
 *    Slurm's slurm_job_preempt(): SIGCONT and SIGTERM, its end time cut
 *    to now + GraceTime, the requeue once that has passed
 *    (AMCBF_PREEMPT_WAITING until then: nothing starts on its nodes);
 *  - else amcbf_preempt() (the checkpoint signal, then the requeue).
 */
amcbf_preempt_rc_t amcbf_rules_preempt(job_record_t *victim,
				       job_record_t *preemptor,
				       amcbf_known_t *k,
				       const dfrs_params_t *params,
				       amcbf_memory_t *mem, time_t now,
				       const char *who, const char *what);
#endif

#endif
