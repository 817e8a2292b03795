/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_engine.h - the interface between a scheduling decision engine and
 * whatever drives it (dfrs sim today, the sched/amcbf plugin inside
 * slurmctld later).  doc/design.md: plain structs in, plain decisions
 * out; the engines never see time passing and never model progress.
 *
 * The cluster state (sched_state_t) is the paper's allocation map M
 * (Liu et al. 2013, Algorithms 1-4) at CPU granularity: slots (nodes[],
 * one CPU each) with a foreground (fg, high CPU weight) and a background
 * (bg, low CPU weight) place, grouped into hosts (sched_host.h: CPUs,
 * memory, GPUs; none given: each slot is a host), and the active jobs (queued,
 * running in fg, running in bg) IN ARRIVAL ORDER: the array order is the
 * queue order.  An engine call updates the state in place to M' and appends
 * every change it made, in the order made, to a sched_decisions_t list:
 *
 *   SCHED_START    a queued job starts (or resumes from its checkpoint) in
 *                  tier T on the listed nodes (process i on nodes[i])
 *   SCHED_REQUEUE  a running job is suspended, saves its state and goes back
 *                  to the queue ("migration" in Liu et al. 2013; Slurm: requeue)
 *   SCHED_TO_FG    a bg job becomes fg on the listed nodes; processes whose
 *                  node did not change only swap CPU weights (no restart),
 *                  the others (moved > 0) are restarted from a checkpoint
 *   SCHED_TO_BG    a fg job is switched to the bg tier on the same nodes by
 *                  swapping CPU weights (no restart)
 *
 * The driver applies the decisions in order (start/suspend/requeue jobs,
 * write CPU weights) and models their cost; the state already shows the
 * result.  Engines: sched_fcfs.c, sched_easy_backfill.c,
 * sched_conservative.c,
 * sched_cmbf_amcbf.c (CMBF, AMBF, CMCBF, AMCBF), gang.c; the name
 * to engine table is sched_policy.c.
 */
#ifndef DFRS_SCHED_ENGINE_H
#define DFRS_SCHED_ENGINE_H

#include <stddef.h>

#include "rules/licenses.h"
#include "rules/preempt_rules.h"
#include "sched_host.h"
#include "sched_tier.h"

typedef enum {
	SCHED_QUEUED = 0,	/* waiting (never started, or requeued) */
	SCHED_RUNNING_FG,
	SCHED_RUNNING_BG,
} sched_where_t;

typedef struct {
	long id;		/* the driver's job id (dfrs sim: its job index) */
	double arrival;		/* arrival (submit) time, seconds */
	int nodes;		/* b_i: slots (CPUs) it takes, one process
				   per slot; on hosts of 1 CPU, one per node */
	const double *util;	/* CPU usage of each process on its own
				   CPU, 0..1, `nodes` entries */
	double estimate;	/* runtime estimate in seconds (EASY), < 0: none */
	double started;		/* when the current run started (EASY) */
	int is_new;		/* arrived since the previous engine call (the
				   driver sets it and clears it after) */
	sched_where_t where;
	int *alloc;		/* slot of each process while running; owned
				   by the driver, `nodes` entries */
	const unsigned char *allowed;	/* per node: nonzero if the job may
				   run there (its partition, features,
				   -w/-x lists); NULL: on any node */
	int pinned;		/* nonzero: a placeholder of the driver (e.g.
				   a node it may not use) or a job it must
				   leave where it is: never moved, preempted,
				   promoted, nor the head of the queue */
	const int *rank;	/* per node: its place in the job's order of
				   preference, lower first (e.g. by
				   availability, SSAC); NULL: node index
				   order.  Among equally good nodes an engine
				   takes the preferred ones. */
	const rules_lic_req_t *lic;	/* its license requests, nlic
				   entries (rules/licenses.h); NULL: none */
	int nlic;
	int no_preempt;		/* nonzero: a running job the site protects
				   (e.g. PreemptMode=OFF, PreemptExemptTime,
				   --no-requeue): never a victim of any
				   preemption (requeue, switch to bg, bg
				   eviction); unlike `pinned` it may still be
				   promoted and may be the head */
	int fg_only;		/* nonzero: its time limit cannot be extended
				   enough for a slowdown (limit_cap.h): never
				   started in nor switched to the background
				   tier (it may still be requeued) */
	int shares;		/* nonzero: it asked to share its CPUs with
				   other jobs that ask (Slurm: --oversubscribe
				   in an OverSubscribe=YES:N partition): it
				   takes the bg place of a slot whose fg job
				   shares too whatever that job's CPU use, and
				   a fg job that shares does not evict it
				   (sched_bg_admits) */
	int asks_only;		/* nonzero: its partition shares CPUs only
				   between jobs that asked (Slurm: a
				   partition without OverSubscribe=FORCE,
				   where select/cons_tres gives a job that did
				   not ask its cores alone): it holds a CPU
				   with another job only when both share,
				   never by CPU use (sched_util_pairs).  Zero:
				   it may pair by CPU use (FORCE:N, and every
				   job of dfrs sim) */
	job_request_t req;	/* how its slots spread over hosts, its
				   memory and GPUs (sched_host.h); zero:
				   any slots, none */
} sched_job_t;

typedef struct {
	int fg_job, fg_proc;	/* index in jobs[] and process, -1 if idle */
	int bg_job, bg_proc;
} sched_node_t;

typedef struct sched_state {
	double now;
	int nnodes;		/* slots */
	sched_node_t *nodes;
	int nhosts;		/* hosts (sched_host.h); 0 with hosts NULL: each
				   slot is a host of 1 CPU without limits */
	sched_host_t *hosts;	/* their memory and GPUs held are kept by the
				   engines (sched_start, sched_release, ...) */
	const int *slot_host;	/* per slot its host; NULL with hosts */
	sched_job_t *jobs;	/* active jobs, in arrival order */
	size_t njobs;
	int *licenses;		/* the license pool (Slurm's Licenses=):
				   per license, how many are not held by
				   running jobs; an engine call takes what
				   the jobs it starts ask for.  nlicenses
				   entries; NULL: none (rules/licenses.h) */
	int nlicenses;
	preempt_rules_may_fn may_preempt;	/* may queued or bg job
				   `preemptor` take the nodes of running job
				   `victim` (indices in jobs[]): the site's
				   pairwise rule (rules/preempt_rules.h).  NULL:
				   anyone may preempt any later job (Liu et
				   al. 2013) */
	const void *preempt_ctx;	/* given to may_preempt */
} sched_state_t;

/* sched_config_t.requeue_victims: 0 in the tiered engines, 1 in the
 * untiered ones. */
#define SCHED_REQUEUE_AUTO 2

/* What the engines are told about the cluster's tuning. */
typedef struct {
	double util_threshold;	/* fg CPU usage at or above which a node takes
				   no bg process (Liu et al. 2013: 0.96) */
	double min_idle_cpu;	/* idle CPU at or below which a node takes no
				   bg process (Liu et al. 2013: 0.04) */
	double bg_min_rate;	/* a job starts in bg only where its predicted
				   bg progress rate (sched_bg_predicted_rate)
				   is at least this; 0: wherever it fits, as
				   Liu et al. 2013 */
	int reserve;		/* consolidation engines: the first waiting
				   job holds EASY's reservation
				   (sched_reservation.h), with the nodes of
				   the later fg jobs it may preempt counted
				   as its own; later jobs start in fg only
				   where they leave it alone.  0: none, as
				   Liu et al. 2013 */
	int requeue_victims;	/* consolidation engines: 1 (Liu et al.
				   2013): a preempted fg job goes to bg in
				   place where its bg slots are free, else
				   back to the queue; 0: only fg jobs that
				   can go to bg in place and stay there are
				   preempted (untiered engines: none);
				   SCHED_REQUEUE_AUTO: 0 in CMCBF and AMCBF,
				   1 in CMBF and AMBF */
} sched_config_t;

/* Why the engine is called; several may be set at once. */
enum {
	SCHED_EV_ARRIVAL = 1,		/* jobs with is_new set arrived */
	SCHED_EV_FG_DEPARTURE = 2,	/* a fg job (or any job, untiered) left */
	SCHED_EV_BG_DEPARTURE = 4,	/* a bg job left */
};

typedef enum {
	SCHED_START,
	SCHED_REQUEUE,
	SCHED_TO_FG,
	SCHED_TO_BG,
} sched_action_t;

typedef struct {
	sched_action_t action;
	size_t job;		/* index in jobs[] at the time of the call */
	long job_id;
	sched_tier_t tier;	/* START: the tier started in */
	int moved;		/* TO_FG: processes that changed node */
	size_t nodes_off;	/* START, TO_FG: process i on node_pool[off+i] */
	long preemptor;		/* REQUEUE, TO_BG: index in jobs[] of the job
				   it makes room for; -1 in the others */
} sched_decision_t;

typedef struct {
	sched_decision_t *items;
	size_t count, cap;
	int *node_pool;
	size_t pool_used, pool_cap;
} sched_decisions_t;

typedef int (*sched_engine_fn)(sched_state_t *st, const sched_config_t *cfg,
			       unsigned events, sched_decisions_t *out);

/* Engines: 0, or -1 when out of memory (the state is then consistent but
 * possibly partly updated, as the decisions list says). */
int sched_fcfs(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out);
int sched_easy_backfill(sched_state_t *st, const sched_config_t *cfg,
			unsigned events, sched_decisions_t *out);
/* FCFS's pass, which EASY starts with: queued jobs start in arrival order
 * (nodes from sched_fit into nodes[], st->nnodes long) while the
 * first of them fits on the idle nodes (*idle, lowered by each start);
 * *j: that first job that does not fit, st->njobs when none is left.  0,
 * or -1 when out of memory. */
int sched_fcfs_head(sched_state_t *st, sched_decisions_t *out, int *nodes,
		    int *idle, size_t *j);
int sched_conservative_backfill(sched_state_t *st, const sched_config_t *cfg,
				unsigned events, sched_decisions_t *out);
int sched_cmbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out);
int sched_ambf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out);
int sched_cmcbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
		sched_decisions_t *out);
int sched_amcbf(sched_state_t *st, const sched_config_t *cfg, unsigned events,
		sched_decisions_t *out);

void sched_config_defaults(sched_config_t *cfg);
/* Liu et al. 2013's own settings: util_threshold 0.96, no reservation,
 * victims requeued where they cannot go to bg in place. */
void sched_config_paper(sched_config_t *cfg);

/* --- decision lists ---------------------------------------------------- */
void sched_decisions_clear(sched_decisions_t *d);	/* keeps the memory */
void sched_decisions_free(sched_decisions_t *d);
/* The nodes of a START / TO_FG decision. */
const int *sched_decision_nodes(const sched_decisions_t *d,
				const sched_decision_t *dec);
/*
 * For a scheduler that cannot move a running job to other nodes (Slurm:
 * sched/amcbf swaps tiers in place only): drop each promotion to fg that
 * moves a process (TO_FG, moved > 0) and the requeues and swaps to bg
 * made for it (preemptor: its job), which would cost their jobs work or
 * speed for a move that is never made.  The other decisions keep their
 * order.  Returns how many were dropped.
 */
size_t sched_decisions_drop_moves(sched_decisions_t *d);

/* --- state primitives the engines share (sched_engine.c) --------------- */

/* Nodes whose fg slot is free (sched_fg_free) for a job that neither
 * shares nor is asks_only. */
int sched_fg_idle_count(const sched_state_t *st);
/* May job j run on node n (its `allowed` mask). */
int sched_may_use(const sched_state_t *st, size_t j, int n);
/* Nodes job j may use whose fg slot is free for it (sched_fg_free). */
int sched_fg_idle_for(const sched_state_t *st, size_t j);
/* Counts for any job (sched_fg_idle_count, sched_bg_eligible_count) do
 * not hold for job j: it may use some nodes only (allowed), or whom it
 * may hold a CPU with is its own (shares, asks_only). */
int sched_counts_own(const sched_state_t *st, size_t j);
/* May jobs j and k hold the two tiers of one CPU by their CPU use (the
 * util threshold): not when either is asks_only, whose CPUs are shared
 * only between jobs that asked.  -1 stands for no job, which forbids
 * nothing (an asks_only job takes no bg place by CPU use, even beside no
 * fg job).  The one home of that rule: every place that puts two jobs on
 * a CPU asks it, through sched_may_pair, sched_bg_admits or
 * sched_fg_free. */
int sched_util_pairs(const sched_state_t *st, long j, long k);
/* May jobs j and k hold one CPU at all: both share (sched_both_share), or
 * sched_util_pairs (-1 as there). */
int sched_may_pair(const sched_state_t *st, long j, long k);
/* Is node n's fg slot free for job j: idle, and its bg job (if any) may
 * pair with j (sched_may_pair); j -1: for a job that neither shares nor
 * is asks_only. */
int sched_fg_free(const sched_state_t *st, long j, int n);
/* CPU usage of the fg (bg) process on node n, 0 if the slot is idle. */
double sched_fg_util(const sched_state_t *st, int n);
double sched_bg_util(const sched_state_t *st, int n);
/* May node n take a bg process by CPU use: bg slot free, fg usage under
 * the threshold, idle CPU above the minimum, and its fg job (if any) not
 * asks_only (sched_util_pairs); for a bg job that is not asks_only. */
int sched_bg_eligible(const sched_state_t *st, const sched_config_t *cfg,
		      int n);
int sched_bg_eligible_count(const sched_state_t *st,
			    const sched_config_t *cfg);
/* May node n take a bg process of job j: sched_bg_eligible when j is not
 * asks_only (sched_util_pairs), or its bg slot free and both j and the fg
 * job there share (sched_job_t.shares): jobs that asked to share a CPU
 * get it, as Slurm's OverSubscribe=YES:N gives it to them, whatever their
 * CPU use. */
int sched_bg_admits(const sched_state_t *st, const sched_config_t *cfg,
		    size_t j, int n);
/* Do jobs j (fg) and k (bg) both share (sched_job_t.shares). */
int sched_both_share(const sched_state_t *st, size_t j, size_t k);
/* Nodes that may take a bg process of job j (sched_bg_admits). */
int sched_bg_eligible_for(const sched_state_t *st, const sched_config_t *cfg,
			  size_t j);

/* Predicted progress rate of job j with process i in the bg slot of
 * nodes[i], from the CPU usage of the processes (the profile dispatch
 * uses) and Liu et al. 2013 section 5.1's model at its mean efficiency:
 * a process runs at 1 where the fg slot is idle, else at
 * eff * min(1, idle CPU / its usage), eff = 0.9 for a one-process job and
 * 0.428 for more; the job at its slowest process. */
double sched_bg_predicted_rate(const sched_state_t *st, size_t j,
			       const int *nodes);

/* Start queued job j in a tier, process i on nodes[i] (all free in that
 * tier); it takes its licenses from the pool (sched_rules.h).  Records
 * SCHED_START. */
int sched_start(sched_state_t *st, sched_decisions_t *out, size_t j,
		sched_tier_t tier, const int *nodes);
/* Suspend running job j and put it back in the queue (SCHED_REQUEUE), to
 * make room for job `preemptor`, which the decision names
 * (sched_decision_t.preemptor). */
int sched_requeue_for(sched_state_t *st, sched_decisions_t *out, size_t j,
		      size_t preemptor);
/* Switch fg job j to the bg slots of its own nodes, which must be free
 * (SCHED_TO_BG), to make room for job `preemptor` (as sched_requeue_for). */
int sched_swap_to_bg_for(sched_state_t *st, sched_decisions_t *out, size_t j,
			 size_t preemptor);
/* Take bg job j off its bg slots without a decision: the first half of a
 * promotion, completed by sched_promote(). */
void sched_lift_bg(sched_state_t *st, size_t j);
/* Undo sched_lift_bg when job j found no fg places: back on its bg
 * places old[] without a decision when they are free and its memory and
 * GPUs fit there again, else SCHED_REQUEUE.  0, or -1 out of memory. */
int sched_unlift_bg(sched_state_t *st, sched_decisions_t *out, size_t j,
		    const int *old);
/* Place lifted job j in fg, process i on nodes[i]; records SCHED_TO_FG with
 * the count of processes whose node changed from old_alloc. */
int sched_promote(sched_state_t *st, sched_decisions_t *out, size_t j,
		  const int *nodes, const int *old_alloc);

/* For drivers: a running job ended; free its slots (no decision). */
void sched_release(sched_state_t *st, size_t j);

/* The most preferred (sched_job_t.rank; else lowest-numbered) nodes job
 * j may use whose fg slot is free for it (sched_fg_free), as many as it has processes, into nodes[]; returns
 * how many were found. */
int sched_pick_idle_fg(const sched_state_t *st, size_t j, int *nodes);
/* Node n's place in job j's order of preference (sched_job_t.rank). */
int sched_node_rank(const sched_state_t *st, size_t j, int n);

/* --- hosts (sched_fit.c; doc/design.md "The resource model") ----------- */

/* Lay out hosts[0..nhosts) with their `cpus` set: each one's first_slot,
 * held memory and GPUs zeroed, and slot_host[] (the returned count of
 * slots long, which the caller sizes as the sum of cpus). */
int sched_hosts_layout(sched_host_t *hosts, int nhosts, int *slot_host);
/* The host of slot n (n itself without a host table). */
int sched_slot_host(const sched_state_t *st, int n);
/* Memory (MB) and GPUs job j holds on host h when `count` of its slots
 * are there (0 slots: nothing). */
long sched_job_mem_on(const sched_state_t *st, size_t j, int h, int count);
int sched_job_gpus_on(const sched_state_t *st, size_t j, int count);
/* Add (sign 1) or remove (-1) the memory and GPUs running job j holds on
 * the hosts of its alloc[] in `tier`; sched_start, sched_release and the
 * other state changes call it, drivers need not. */
void sched_hosts_account(sched_state_t *st, size_t j, sched_tier_t tier,
			 int sign);
/*
 * Does job j fit the free places of `tier` now, and where: its slots
 * (st->jobs[j].nodes of them) into slots[], chosen host by host in its
 * order of preference (a host's rank is its best slot's), a host filled
 * before the next is taken.  A place is free in fg when sched_fg_free; in bg when no bg job holds it and sched_bg_admits (cfg) admits it.
 * On each host the job's memory must fit what the jobs of both tiers and
 * `hold` leave (memory is never oversubscribed) and its GPUs the host's
 * idle ones (GPUs are never shared between tiers).  Slots the job may not
 * use (allowed) or that `hold` holds are never taken.  cfg may be NULL in
 * fg; hold may be NULL.  1 and slots[] filled if it fits, else 0.
 * Without a host table and hold, in fg: sched_pick_idle_fg's slots.
 */
int sched_fit(const sched_state_t *st, const sched_config_t *cfg, size_t j,
	      sched_tier_t tier, const sched_hold_t *hold, int *slots);

#endif
