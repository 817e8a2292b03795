/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_preempt_rules.c - the site's preemption configuration as
 * sched/amcbf honours it (amcbf_preempt_rules.h): slurmctld's job, QOS
 * and partition records into the plain structs of
 * src/common/rules/preempt_rules.c, which decides, and the GraceTime a
 * victim is owed.  It only answers: amcbf_jobs.c acts (amcbf_preempt_for).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"
#if DFRS_SLURM_SINCE(24, 11)
#include "src/interfaces/preempt.h"
#else
#include "src/slurmctld/preempt.h"
#endif

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_preempt_rules.h"

static preempt_site_t site(void)
{
	return preempt_rules_site(slurm_conf.preempt_type);
}

void amcbf_rules_say_site(void)
{
	info("preemption: PreemptType=%s: %s",
	     slurm_conf.preempt_type ? slurm_conf.preempt_type : "(unset)",
	     preempt_rules_site_summary(site()));
}

/* A QOS or global time in seconds as preempt_rules takes it (0: none). */
static double seconds(uint32_t t)
{
	return (t == INFINITE || t == NO_VAL) ? 0 : (double)t;
}

/* The PreemptMode that stops this job, from Slurm's preemption plugin:
 * preempt/qos takes its QOS's, preempt/partition_prio its partition's,
 * else the global one (a QOS's "OFF" is no mode of its own: sacctmgr(1)
 * says it means the cluster's). */
static uint16_t mode_of(job_record_t *job_ptr)
{
	return slurm_job_preempt_mode(job_ptr) &
	       ~(PREEMPT_MODE_GANG | PREEMPT_MODE_WITHIN);
}

preempt_why_t amcbf_rules_victim(job_record_t *job_ptr,
				 const dfrs_params_t *params, time_t now,
				 bool keeps_work)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	preempt_limits_t lim = { .max_preempt = params->max_preempt,
				 .min_runtime = params->min_runtime };
	preempt_victim_t v = {
		.batch = job_ptr->batch_flag != 0,
		.requeue = job_ptr->details && job_ptr->details->requeue,
		.restarts = (int)job_ptr->restart_cnt,
		.ran = difftime(now, job_ptr->start_time),
		.exempt_time = seconds(slurm_conf.preempt_exempt_time),
		.keeps_work = keeps_work,
	};

	assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr) {
		v.exempt_qos = dfrs_params_qos_exempt(params,
						      job_ptr->qos_ptr->name);
		/* the QOS's wins when set, 0 included (sacctmgr(1)) */
		if (job_ptr->qos_ptr->preempt_exempt_time != INFINITE &&
		    job_ptr->qos_ptr->preempt_exempt_time != NO_VAL)
			v.exempt_time =
				(double)job_ptr->qos_ptr->preempt_exempt_time;
	}
	v.mode_off = mode_of(job_ptr) == PREEMPT_MODE_OFF;
	assoc_mgr_unlock(&locks);
	return preempt_rules_victim(site(), &lim, &v);
}

/* One side of a pair; *list is xmalloc'ed (the QOS's Preempt= list).
 * With the assoc_mgr QOS lock held. */
static void side_of(job_record_t *job_ptr, preempt_side_t *s,
		    unsigned char **list)
{
	slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;

	memset(s, 0, sizeof(*s));
	*list = NULL;
	s->qos_id = qos ? (int)qos->id : -1;
	s->priority = job_ptr->priority;
	s->part_tier = job_ptr->part_ptr ? job_ptr->part_ptr->priority_tier : 0;
	s->qos_within = (slurm_conf.preempt_mode & PREEMPT_MODE_WITHIN) ||
			(qos && (qos->preempt_mode & PREEMPT_MODE_WITHIN));
	if (qos && qos->preempt_bitstr) {
		int64_t n = bit_size(qos->preempt_bitstr);
		*list = xcalloc(n > 0 ? n : 1, 1);
		for (int64_t i = 0; i < n; i++)
			(*list)[i] = bit_test(qos->preempt_bitstr, i) ? 1 : 0;
		s->qos_preempts = *list;
		s->nqos = (size_t)n;
	}
}

preempt_site_t amcbf_rules_site(void)
{
	return site();
}

void amcbf_rules_side(job_record_t *job_ptr, preempt_side_t *s,
		      unsigned char **list)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };

	assoc_mgr_lock(&locks);
	side_of(job_ptr, s, list);
	assoc_mgr_unlock(&locks);
}

preempt_why_t amcbf_rules_pair(job_record_t *preemptor, job_record_t *victim)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	unsigned char *l_or, *l_ee;
	preempt_side_t or, ee;
	preempt_why_t why;

	if (site() == PREEMPT_SITE_NONE)
		return PREEMPT_WHY_OK;
	assoc_mgr_lock(&locks);
	side_of(preemptor, &or, &l_or);
	side_of(victim, &ee, &l_ee);
	assoc_mgr_unlock(&locks);
	why = preempt_rules_pair(site(), &or, &ee);
	xfree(l_or);
	xfree(l_ee);
	return why;
}

/* Say once per pair (the last few remembered) why a preemption the
 * algorithm chose is not made. */
static void say_refused(job_record_t *victim, job_record_t *preemptor,
			const char *who, const char *why)
{
	static struct { uint32_t ee, or; } said[32];
	static unsigned next;
	uint32_t or_id = preemptor ? preemptor->job_id : 0;

	for (unsigned i = 0; i < 32; i++)
		if (said[i].ee == victim->job_id && said[i].or == or_id)
			return;
	said[next % 32].ee = victim->job_id;
	said[next % 32].or = or_id;
	next++;
	if (preemptor)
		info("%s: not preempting %pJ for %pJ: %s (PreemptType=%s)",
		     who, victim, preemptor, why, slurm_conf.preempt_type);
	else
		info("%s: not preempting %pJ: %s (PreemptType=%s)", who,
		     victim, why, slurm_conf.preempt_type);
}

bool amcbf_rules_avail_may(job_record_t *job_ptr,
			   const dfrs_params_t *params, time_t now,
			   bool keeps_work)
{
	preempt_why_t why = amcbf_rules_victim(job_ptr, params, now, keeps_work);

	if (why == PREEMPT_WHY_OK)
		return true;
	say_refused(job_ptr, NULL, "availability", preempt_rules_why(why));
	return false;
}

static uint32_t grace_of(job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	uint32_t qos_grace = 0, part_grace;

	part_grace = job_ptr->part_ptr ? job_ptr->part_ptr->grace_time : 0;
	assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr)
		qos_grace = job_ptr->qos_ptr->grace_time;
	assoc_mgr_unlock(&locks);
	return preempt_rules_grace(site(), qos_grace, part_grace);
}

bool amcbf_rules_may_preempt(job_record_t *victim, job_record_t *preemptor,
			     const char *who, uint32_t *grace)
{
	preempt_why_t why;

	*grace = 0;
	if (site() != PREEMPT_SITE_NONE) {
		if (!preemptor) {
			say_refused(victim, NULL, who,
				    "no job to preempt it for is known");
			return false;
		}
		if ((why = amcbf_rules_pair(preemptor, victim)) != PREEMPT_WHY_OK) {
			say_refused(victim, preemptor, who,
				    preempt_rules_why(why));
			return false;
		}
	}
	if (preemptor)
		*grace = grace_of(victim);
	return true;
}
