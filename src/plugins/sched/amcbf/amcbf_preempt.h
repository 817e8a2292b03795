/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_preempt.h - everything sched/amcbf does to preempt a running job,
 * whichever decider chose it (amcbf_decide_engine.c, amcbf_decide_dfrs.c)
 * or the availability policy (amcbf_avail.c): which jobs may be victims
 * (the plugin's exemptions and the site's, decided by
 * src/common/rules/preempt_rules.c), who may preempt whom (QOS Preempt=
 * lists, PriorityTier: read with the locks held into plain sides the
 * engines consult without them), the GraceTime a victim is owed, the
 * checkpoint signal, and the requeue.  All called with slurmctld's job
 * (write), node (write) and partition (read) locks held.
 */
#ifndef DFRS_AMCBF_PREEMPT_H
#define DFRS_AMCBF_PREEMPT_H

/* One info line: the site's PreemptType and what sched/amcbf honours
 * under it.  With the conf read lock held. */
void amcbf_preempt_say_site(void);

#ifdef DFRS_AMCBF_SLURM_TYPES
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "amcbf_decide.h"
#include "amcbf_memory.h"
#include "rules/preempt_rules.h"
#include "suite/dfrs_params.h"

/* The site's PreemptType as preempt_rules takes it. */
preempt_site_t amcbf_preempt_site(void);

/* Why this running job may not be preempted by anyone now (PREEMPT_WHY_OK:
 * it may): the plugin's exemptions, its PreemptExemptTime, its
 * PreemptMode=OFF (preempt_rules_victim).  keeps_work: the preemption is
 * a suspension in place, not a requeue (amcbf_min_runtime does not
 * apply).  Takes the assoc_mgr QOS lock. */
preempt_why_t amcbf_preempt_why(job_record_t *job_ptr,
				const dfrs_params_t *params, time_t now,
				bool keeps_work);

/* May the deciders preempt (requeue) this running job?  Only a job of a
 * partition sched/amcbf manages that the plugin's exemptions and the
 * site's let go (preempt_rules_victim): a batch job that may be requeued,
 * preempted fewer than amcbf_max_preempt times, run less than
 * amcbf_min_runtime (when set), of a QOS not in amcbf_exempt_qos, not
 * protected by the site (PreemptExemptTime, PreemptMode=OFF).  Takes the
 * assoc_mgr QOS lock. */
bool amcbf_preempt_may(job_record_t *job_ptr, const dfrs_params_t *params,
		       time_t now);

/* May the availability policy suspend (keeps_work) or requeue this
 * running job whose hosts went OFF: the same exemptions (any partition);
 * if not, one info line per job says why, and the job is left running. */
bool amcbf_preempt_avail_may(job_record_t *job_ptr,
			     const dfrs_params_t *params, time_t now,
			     bool keeps_work);

/* Does this job get amcbf_ckpt_signal before a requeue (it asked for that
 * signal with --signal=[B:]SIG@...; rules/ckpt_opt_in.h), and so keep its
 * work when requeued? */
bool amcbf_preempt_checkpointable(job_record_t *job_ptr,
				  const dfrs_params_t *params);

/* One job's side of the site's pairwise rule (its QOS, Preempt= list,
 * WITHIN, priority, partition PriorityTier), read with the locks held for
 * an engine to consult later without them. */
typedef struct {
	preempt_side_t side;
	unsigned char *list;	/* xmalloc'ed Preempt= list, or NULL */
	int read;		/* side read (a job, not a blocker) */
} amcbf_preempt_side_t;

/* Read job_ptr's side (QOS lock taken inside). */
void amcbf_preempt_side_read(amcbf_preempt_side_t *ps, job_record_t *job_ptr);
void amcbf_preempt_side_free(amcbf_preempt_side_t *ps);

/* The engines' predicate context: the sides of their jobs by index. */
typedef struct {
	preempt_site_t site;
	const amcbf_preempt_side_t *const *sides;	/* per job index */
} amcbf_preempt_ctx_t;

/* preempt_rules_may_fn over an amcbf_preempt_ctx_t, for both engine
 * families: preempt_rules_pair on the two sides read (no lock needed). */
int amcbf_preempt_pair_ok(const void *ctx, size_t preemptor, size_t victim);

typedef enum {
	AMCBF_PREEMPT_DONE,	/* requeued */
	AMCBF_PREEMPT_WAITING,	/* checkpoint signal sent or its wait not
				   over, or its GraceTime not over */
	AMCBF_PREEMPT_REFUSED,	/* the site's rules or Slurm refused it
				   (logged) */
	AMCBF_PREEMPT_CAPPED,	/* not tried: amcbf_max_preempt_per_cycle
				   requeues done this cycle already */
} amcbf_preempt_rc_t;

/* Requeue a running job, after the checkpoint signal when one is set
 * (amcbf_ckpt_signal, amcbf_ckpt_wait); one info line "WHO: WHAT JobId=N
 * on NODES (requeued, preemption i of at most m)". */
amcbf_preempt_rc_t amcbf_preempt_requeue(job_record_t *job_ptr,
					 amcbf_known_t *k,
					 const dfrs_params_t *params,
					 amcbf_memory_t *mem, time_t now,
					 const char *who, const char *what);

/*
 * Preempt `victim` for `preemptor` (NULL: not known) as the site allows:
 * under preempt/qos or preempt/partition_prio not unless preemptor may
 * preempt victim (else one info line per pair, "WHO: not preempting ...",
 * and AMCBF_PREEMPT_REFUSED); with a GraceTime (the victim's QOS's or
 * partition's), through Slurm's slurm_job_preempt(): SIGCONT and SIGTERM,
 * its end time cut to now + GraceTime, the requeue once that has passed
 * (AMCBF_PREEMPT_WAITING until then: nothing starts on its nodes); else
 * amcbf_preempt_requeue().
 */
amcbf_preempt_rc_t amcbf_preempt_for(job_record_t *victim,
				     job_record_t *preemptor,
				     amcbf_known_t *k,
				     const dfrs_params_t *params,
				     amcbf_memory_t *mem, time_t now,
				     const char *who, const char *what);

/* A decider's preemption in its cycle p: none past
 * amcbf_max_preempt_per_cycle (AMCBF_PREEMPT_CAPPED), else
 * amcbf_preempt_for(), counted in p (requeues and actions when done,
 * waiting when held back). */
amcbf_preempt_rc_t amcbf_preempt_in_pass(amcbf_pass_t *p,
					 job_record_t *victim,
					 job_record_t *preemptor,
					 amcbf_known_t *k, const char *who,
					 const char *what);

/* After a cycle's decisions: a job signalled for a checkpoint that the
 * algorithm no longer preempts is signalled afresh if preempted later. */
void amcbf_preempt_checkpoint_sweep(amcbf_memory_t *mem);
#endif

#endif
