/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preempt_rules.h - which running job sched/amcbf may take off its nodes,
 * and for whom, under the site's own preemption configuration (Slurm's
 * PreemptType, PreemptMode, PreemptExemptTime, QOS Preempt= lists,
 * partition PriorityTier) and the plugin's exemptions (amcbf_exempt_qos,
 * amcbf_min_runtime, amcbf_max_preempt; interactive and --no-requeue
 * jobs).  The engines of Liu et al. 2013 (Sec. 4: later jobs are
 * preempted for earlier ones) and Stillwell et al. 2010 (Sec. 5) choose
 * among the jobs these rules leave them; the availability policy (wait or
 * migrate, Sec. 4 of the threshold paper) acts only on those too.
 * Both engine families ask one predicate (preempt_rules_may): the
 * consolidation engines (Liu et al. 2013 Sec. 4: victims among "jobs
 * arriving later"; sched/sched_rules.h) and the online DFRS policies
 * (Stillwell et al. 2010, "Use of Priority": suspend only for a higher
 * priority job; dfrs/online_rules.h).
 * Plain C over plain structs: the plugin fills them from slurmctld.
 */
#ifndef DFRS_PREEMPT_RULES_H
#define DFRS_PREEMPT_RULES_H

#include <stddef.h>
#include <stdint.h>

/* The site's PreemptType, as far as it says who may preempt whom. */
typedef enum {
	PREEMPT_SITE_NONE,		/* preempt/none (or unset): the
					   plugin's own rules alone */
	PREEMPT_SITE_QOS,		/* preempt/qos: Preempt= lists */
	PREEMPT_SITE_PARTITION_PRIO,	/* preempt/partition_prio: tiers */
} preempt_site_t;

/* Why a job may not be preempted (for whom), PREEMPT_WHY_OK if it may. */
typedef enum {
	PREEMPT_WHY_OK = 0,
	PREEMPT_WHY_NOT_BATCH,	/* interactive (srun/salloc): no requeue */
	PREEMPT_WHY_NO_REQUEUE,	/* --no-requeue */
	PREEMPT_WHY_MAX_PREEMPT,	/* preempted amcbf_max_preempt times */
	PREEMPT_WHY_MIN_RUNTIME,	/* has run amcbf_min_runtime or longer,
				   and the preemption would lose its work */
	PREEMPT_WHY_EXEMPT_QOS,	/* its QOS is in amcbf_exempt_qos */
	PREEMPT_WHY_EXEMPT_TIME,	/* within its PreemptExemptTime */
	PREEMPT_WHY_MODE_OFF,	/* its PreemptMode is OFF */
	PREEMPT_WHY_NOT_IN_LIST,	/* preempt/qos: its QOS is not in the
				   preemptor QOS's Preempt= list */
	PREEMPT_WHY_SAME_QOS,	/* preempt/qos: same QOS, and no
				   PreemptMode=WITHIN with a higher priority */
	PREEMPT_WHY_NO_QOS,		/* preempt/qos: a job without a QOS */
	PREEMPT_WHY_TIER,		/* preempt/partition_prio: its partition's
				   PriorityTier is not below the preemptor's */
} preempt_why_t;

/* A running job as a possible victim, whoever would preempt it. */
typedef struct {
	int batch;		/* a batch job (sbatch) */
	int requeue;		/* Slurm may requeue it (not --no-requeue) */
	int restarts;		/* its restart count */
	double ran;		/* seconds since its (latest) start */
	int exempt_qos;		/* its QOS is in amcbf_exempt_qos */
	double exempt_time;	/* its PreemptExemptTime in seconds (its
				   QOS's, else the global one); <= 0: none */
	int mode_off;		/* its PreemptMode (its QOS's, else its
				   partition's, else the global one) is OFF */
	int keeps_work;		/* the preemption keeps the job's work (a
				   suspension in place, which resumes where it
				   stopped), unlike a requeue, which restarts
				   it: amcbf_min_runtime does not apply */
} preempt_victim_t;

/* The plugin's own limits (SchedulerParameters). */
typedef struct {
	int max_preempt;	/* amcbf_max_preempt */
	double min_runtime;	/* amcbf_min_runtime, seconds: a job that has
				   run this long is never requeued, which
				   bounds the work a requeue throws away;
				   <= 0: no bound */
} preempt_limits_t;

/*
 * May this running job be preempted at all (requeued, or suspended by the
 * availability policy: v->keeps_work): the plugin's exemptions first (a
 * job that has run amcbf_min_runtime or longer is not requeued, but may be
 * suspended in place), then the site's
 * PreemptExemptTime, then, when the site has a PreemptType other than
 * preempt/none, its PreemptMode=OFF.
 */
preempt_why_t preempt_rules_victim(preempt_site_t site,
				   const preempt_limits_t *lim,
				   const preempt_victim_t *v);

/* One side of a preemption, for the pairwise rules of the site. */
typedef struct {
	int qos_id;		/* < 0: the job has no QOS */
	const unsigned char *qos_preempts; /* its QOS's Preempt= list: per
				   QOS id, nonzero if listed; NULL: empty */
	size_t nqos;		/* entries of qos_preempts */
	int qos_within;		/* its QOS's (or the site's) PreemptMode has
				   WITHIN */
	uint32_t priority;	/* Slurm's job priority */
	uint32_t part_tier;	/* its partition's PriorityTier */
} preempt_side_t;

/*
 * May `preemptor` preempt `victim` under the site's PreemptType, as
 * Slurm 22.05's preempt/qos and preempt/partition_prio decide:
 *   preempt/qos: the victim's QOS is in the preemptor QOS's Preempt= list;
 *     within one QOS only with PreemptMode WITHIN (the QOS's or the
 *     site's) and a strictly higher job priority; never without a QOS;
 *   preempt/partition_prio: the victim's partition has a strictly lower
 *     PriorityTier than the preemptor's;
 *   preempt/none: the plugin's own rules: anyone may.
 */
preempt_why_t preempt_rules_pair(preempt_site_t site,
				 const preempt_side_t *preemptor,
				 const preempt_side_t *victim);

/* May job `preemptor` take running job `victim` off its nodes (indices of
 * the engine's job array): the site's pairwise rule (preempt_rules_pair
 * over the sides the plugin read), NULL: anyone may. */
typedef int (*preempt_rules_may_fn)(const void *ctx, size_t preemptor,
				    size_t victim);

/* May `preemptor` preempt `victim`, as both engine families ask: never a
 * protected victim (no_preempt nonzero: a running job the site protects
 * (PreemptMode=OFF, PreemptExemptTime, --no-requeue, the plugin's
 * exemptions) or the engine keeps (pinned, MCB's pairwise pin));
 * otherwise as pair(ctx, preemptor, victim) says, yes with no pair. */
int preempt_rules_may(int no_preempt, preempt_rules_may_fn pair,
		      const void *ctx, size_t preemptor, size_t victim);

/*
 * The GraceTime (seconds) a victim gets before it is requeued, as Slurm
 * 22.05's preemption plugins give it: its QOS's under preempt/qos, its
 * partition's under preempt/partition_prio, none under preempt/none.
 */
uint32_t preempt_rules_grace(preempt_site_t site, uint32_t qos_grace,
			     uint32_t part_grace);

/* The site of a PreemptType string ("preempt/qos", ...; NULL: none). */
preempt_site_t preempt_rules_site(const char *preempt_type);

/* What sched/amcbf honours under this PreemptType, for one log line at
 * load time. */
const char *preempt_rules_site_summary(preempt_site_t site);

/* A short phrase for a reason ("its PreemptMode is OFF"). */
const char *preempt_rules_why(preempt_why_t why);

#endif
