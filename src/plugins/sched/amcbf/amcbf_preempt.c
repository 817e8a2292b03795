/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_preempt.c - sched/amcbf's preemptions (amcbf_preempt.h): the
 * site's preemption configuration and the plugin's exemptions read from
 * slurmctld's job, QOS and partition records into the plain structs of
 * src/common/rules/preempt_rules.c, which decides; then the preemption
 * itself, a requeue: after the GraceTime the victim is owed (Slurm's own
 * preemption path) or the checkpoint signal (amcbf_ckpt_signal), once
 * its wait is over.  Used by both deciders (the consolidation engines of
 * Liu et al. 2013, the online DFRS policies of Stillwell et al. 2010) and
 * the availability policy.
 */
#include "src/common/slurm_xlator.h"

#include <signal.h>
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
#include "amcbf_preempt.h"
#include "rules/ckpt_opt_in.h"

static preempt_site_t site(void)
{
	return preempt_rules_site(slurm_conf.preempt_type);
}

void amcbf_preempt_say_site(void)
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

preempt_why_t amcbf_preempt_why(job_record_t *job_ptr,
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

bool amcbf_preempt_may(job_record_t *job_ptr, const dfrs_params_t *params,
		       time_t now)
{
	return job_ptr->details && job_ptr->part_ptr &&
	       dfrs_params_manages_partition(params, job_ptr->part_ptr->name) &&
	       amcbf_preempt_why(job_ptr, params, now, false) == PREEMPT_WHY_OK;
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

preempt_site_t amcbf_preempt_site(void)
{
	return site();
}

/* May `preemptor` preempt `victim` under the site's PreemptType
 * (preempt_rules_pair). */
static preempt_why_t pair_why(job_record_t *preemptor, job_record_t *victim)
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

void amcbf_preempt_side_read(amcbf_preempt_side_t *ps, job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };

	assoc_mgr_lock(&locks);
	side_of(job_ptr, &ps->side, &ps->list);
	assoc_mgr_unlock(&locks);
	ps->read = 1;
}

void amcbf_preempt_side_free(amcbf_preempt_side_t *ps)
{
	xfree(ps->list);
	memset(ps, 0, sizeof(*ps));
}

int amcbf_preempt_pair_ok(const void *ctx, size_t preemptor, size_t victim)
{
	const amcbf_preempt_ctx_t *c = ctx;
	const amcbf_preempt_side_t *or = c->sides[preemptor];
	const amcbf_preempt_side_t *ee = c->sides[victim];

	if (!or->read || !ee->read)
		return 0;
	return preempt_rules_pair(c->site, &or->side, &ee->side) ==
	       PREEMPT_WHY_OK;
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

bool amcbf_preempt_avail_may(job_record_t *job_ptr,
			     const dfrs_params_t *params, time_t now,
			     bool keeps_work)
{
	preempt_why_t why = amcbf_preempt_why(job_ptr, params, now, keeps_work);

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

/* May `victim` be preempted for `preemptor` (NULL: not known) as the site
 * allows (else one info line per pair, and false)?  *grace: the victim's
 * GraceTime to honour, 0 if none or no preemptor is known. */
static bool site_allows(job_record_t *victim, job_record_t *preemptor,
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
		if ((why = pair_why(preemptor, victim)) != PREEMPT_WHY_OK) {
			say_refused(victim, preemptor, who,
				    preempt_rules_why(why));
			return false;
		}
	}
	if (preemptor)
		*grace = grace_of(victim);
	return true;
}

/* Where this job gets the checkpoint signal: only where it asked for
 * amcbf_ckpt_signal's signal with --signal (ckpt_opt_in). */
static ckpt_target_t ckpt_target(job_record_t *job_ptr,
				 const dfrs_params_t *params)
{
	return ckpt_opt_in(dfrs_params_ckpt_signo(params->ckpt_signal),
			   params->ckpt_wait,
			   job_ptr->batch_flag != 0, job_ptr->warn_signal,
			   (job_ptr->warn_flags & KILL_JOB_BATCH) != 0);
}

bool amcbf_preempt_checkpointable(job_record_t *job_ptr,
				  const dfrs_params_t *params)
{
	return ckpt_target(job_ptr, params) != CKPT_NONE;
}

/*
 * Before a preemption's requeue, with amcbf_ckpt_signal set, of a job
 * that asked for that signal (--signal=[B:]SIG@...): signal its batch
 * script (B:) or its steps and wait amcbf_ckpt_wait seconds.  True while
 * the requeue must wait (the signal was just sent, or the wait is not
 * over).  A job that did not ask is requeued without a signal, which
 * might end a script that does not trap it.
 */
static bool checkpoint_first(job_record_t *job_ptr, amcbf_known_t *k,
			     const dfrs_params_t *params, amcbf_memory_t *mem,
			     time_t now)
{
	const char *name = dfrs_params_ckpt_signal_name(params->ckpt_signal);
	ckpt_target_t to = ckpt_target(job_ptr, params);
	time_t due;
	int rc;

	if (!name || to == CKPT_NONE)
		return false;
	k->ckpt_kept = 1;
	if (!k->ckpt_at) {
		rc = job_signal(job_ptr,
				dfrs_params_ckpt_signo(params->ckpt_signal),
				to == CKPT_TO_BATCH ? KILL_JOB_BATCH : 0, 0, false);
		if (rc != SLURM_SUCCESS)
			verbose("could not send SIG%s to %pJ: %s", name, job_ptr,
				slurm_strerror(rc));
		else
			info("checkpoint: sent SIG%s to %pJ, requeue in %d s if still preempted",
			     name, job_ptr, params->ckpt_wait);
		k->ckpt_at = now;
	}
	due = k->ckpt_at + params->ckpt_wait;
	if (now >= due)
		return false;
	if (!mem->next_wake || due < mem->next_wake)
		mem->next_wake = due;
	return true;
}

amcbf_preempt_rc_t amcbf_preempt_requeue(job_record_t *job_ptr,
					 amcbf_known_t *k,
					 const dfrs_params_t *params,
					 amcbf_memory_t *mem, time_t now,
					 const char *who, const char *what)
{
	char *where;
	int rc;

	if (checkpoint_first(job_ptr, k, params, mem, now))
		return AMCBF_PREEMPT_WAITING;
	where = xstrdup(job_ptr->nodes);
	rc = dfrs_job_requeue(job_ptr);
	if (rc != SLURM_SUCCESS) {
		verbose("could not requeue %pJ: %s", job_ptr, slurm_strerror(rc));
		xfree(where);
		return AMCBF_PREEMPT_REFUSED;
	}
	info("%s: %s %pJ on %s (requeued, preemption %u of at most %d)",
	     who, what, job_ptr, where, job_ptr->restart_cnt,
	     params->max_preempt);
	xfree(where);
	k->requeued = 1;
	k->ckpt_at = 0;
	mem->requeued++;
	return AMCBF_PREEMPT_DONE;
}

/* The requeue after a GraceTime, by Slurm's preemption path. */
static amcbf_preempt_rc_t preempt_with_grace(job_record_t *victim,
					     job_record_t *preemptor,
					     uint32_t grace, amcbf_known_t *k,
					     amcbf_memory_t *mem,
					     const char *who, const char *what)
{
	bool began = victim->preempt_time != 0;
	char *where = xstrdup(victim->nodes);

	if (slurm_job_preempt(victim, preemptor, PREEMPT_MODE_REQUEUE,
			      false) != SLURM_SUCCESS) {
		if (!began)
			info("%s: %s %pJ on %s for %pJ: SIGTERM sent, requeued after its GraceTime of %u s",
			     who, what, victim, where, preemptor, grace);
		if (!mem->next_wake || victim->end_time < mem->next_wake)
			mem->next_wake = victim->end_time;
		xfree(where);
		return AMCBF_PREEMPT_WAITING;
	}
	info("%s: %s %pJ on %s (requeued after its GraceTime, preemption %u)",
	     who, what, victim, where, victim->restart_cnt);
#ifdef GRACE_PREEMPT
	/* Slurm >= 23.02 marks a job signalled for its GraceTime, and clears
	 * the mark only when the run's end requeues it.  Requeued here first,
	 * the run's end finds the job completing and leaves the mark, and the
	 * next run, however it ends, would be requeued again for it (seen on
	 * 24.11: sacct PREEMPTED PREEMPTED COMPLETED after one preemption) */
	victim->bit_flags &= ~GRACE_PREEMPT;
#endif
	xfree(where);
	k->requeued = 1;
	k->ckpt_at = 0;
	mem->requeued++;
	return AMCBF_PREEMPT_DONE;
}

amcbf_preempt_rc_t amcbf_preempt_for(job_record_t *victim,
				     job_record_t *preemptor,
				     amcbf_known_t *k,
				     const dfrs_params_t *params,
				     amcbf_memory_t *mem, time_t now,
				     const char *who, const char *what)
{
	uint32_t grace;

	/* the site's rules: QOS Preempt= lists, PriorityTier, GraceTime */
	if (!site_allows(victim, preemptor, who, &grace))
		return AMCBF_PREEMPT_REFUSED;
	if (grace)
		return preempt_with_grace(victim, preemptor, grace, k, mem,
					  who, what);
	return amcbf_preempt_requeue(victim, k, params, mem, now, who, what);
}

amcbf_preempt_rc_t amcbf_preempt_in_pass(amcbf_pass_t *p,
					 job_record_t *victim,
					 job_record_t *preemptor,
					 amcbf_known_t *k, const char *who,
					 const char *what)
{
	amcbf_preempt_rc_t rc;

	if (p->requeues >= p->params->max_preempt_per_cycle)
		return AMCBF_PREEMPT_CAPPED;
	rc = amcbf_preempt_for(victim, preemptor, k, p->params, p->mem, p->now,
			       who, what);
	if (rc == AMCBF_PREEMPT_DONE) {
		p->requeues++;
		p->actions++;
	} else if (rc == AMCBF_PREEMPT_WAITING) {
		p->waiting++;
	}
	return rc;
}

void amcbf_preempt_checkpoint_sweep(amcbf_memory_t *mem)
{
	for (size_t i = 0; i < mem->njobs; i++) {
		if (!mem->jobs[i].ckpt_kept && !mem->jobs[i].avail_migrating)
			mem->jobs[i].ckpt_at = 0;
		mem->jobs[i].ckpt_kept = 0;
	}
}
