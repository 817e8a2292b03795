/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_online.h - online, non-clairvoyant DFRS (Stillwell et al. 2010, "Online
 * Non-Clairvoyant Problem"): the decisions GreedyP, GreedyPM and MCB take at
 * job arrival, job completion and periodic events, over the cluster state in
 * plain structs.  The simulator (dfrs sim) and select/dfrs both drive these
 * functions; neither knows job run times.
 *
 * Policies
 *   greedyp   place each task of a job on the least loaded host where it
 *             fits at its minimum yield.  At an arrival, if the new job
 *             does not fit, suspend running jobs of lower priority (lowest
 *             first; the requeue model below weighs the work lost) until it
 *             does.  Then, and at a completion, waiting
 *             jobs (highest priority first) start or resume where they fit
 *             without preempting.  A suspended job resumes only on the
 *             hosts it left.
 *   greedypm  as greedyp, but once its virtual time is at least minvt a
 *             job may move (a migration): a suspended job may resume on
 *             other hosts, and a job displaced by a higher-priority one is
 *             put back on other hosts where it fits instead of being
 *             suspended.
 *   mcb       at every event, repack all jobs with METAVP (vector packing,
 *             binary search on the yield; METAHVP on unequal hosts); while
 *             no packing exists, drop the lowest-priority job (it is
 *             suspended or stays pending).  Jobs with less than minvt of
 *             virtual time keep their hosts.  On identical hosts, each
 *             packed host is mapped onto the host already holding most of
 *             its tasks, to migrate as little as the packing allows.
 *   greedypmr as greedypm (made for GreedyPM's slowdown at EASY's
 *             response, doc/evaluation.md "greedypmr"), with:
 *             - a long job (estimate over long_time, or none) has a
 *               minimum yield of at least long_min_yield (the stretch
 *               sharing imposes on it is at most 1 / that);
 *             - a running job that is wide (more tasks than wide_share
 *               of the hosts) or has run long_time of virtual time stays
 *               on its hosts at every event (never requeued);
 *             - at every event, before anything else, the waiting wide
 *               jobs start where they fit, oldest first; then the oldest
 *               starving job (starve_bsld, requeue model) starts if it
 *               fits, or holds EASY's reservation (Lifka 1995;
 *               online_reserve.h): its shadow time is when it would fit
 *               if the running jobs ended by their estimates at their
 *               minimum yields, and a job that may still run then starts
 *               (or a moved victim stays) only if the shadow time,
 *               computed again with it, does not move.  This replaces
 *               greedypm's starving claim and hold (decisions.reserved,
 *               .shadow; .claimed and .held stay -1);
 *             - periodic events run the greedy pass, not a repack.
 *   Incremental repacks (repack_drift > 0): where mcb, or greedypm at a
 *   periodic event, would repack every job, the packing kept from the last
 *   event is first repaired locally: waiting jobs start or resume where
 *   they fit, highest priority first, and no running job moves.  The
 *   repair stands if no waiting job then has a higher priority than a
 *   running one and the minimum scaled yield is at least (1 -
 *   repack_drift) times the one the last full repack reached
 *   (cluster->repack_yield); otherwise the full repack runs as above.
 *   repack_drift 0 repacks at every such event (the decisions are then
 *   exactly those of the full repack).
 *   Periodic events ("/per" in Stillwell et al. 2010, every period seconds when
 *   period > 0): greedypm repacks as mcb does (minvt still applies);
 *   greedyp, which never migrates, lets every waiting job preempt running
 *   jobs of lower priority (in place), so that priorities rotate.
 * After any decision the yields of all running jobs are max-min allocated
 * (yield_allocation.h): the minimum scaled yield is maximized, then leftover
 * capacity raises the others.
 *
 * How a caller drives it (the simulator's event loop):
 *   1. Keep a dfrs_cluster_t: the hosts, and every job in the system (not
 *      completed) as a dfrs_online_job_t in an array the caller owns, each
 *      with `hosts` pointing at ntasks ints of caller storage.
 *   2. Before handling an event at time t, advance virtual time:
 *      dfrs_online_advance(&cluster, t - cluster.now) adds yield * dt to
 *      each running job's virtual_time (minus time it is blocked paying a
 *      preemption/migration cost) and sets cluster.now = t.
 *   3. Arrival: append the job (state DFRS_JOB_PENDING, virtual_time 0),
 *      call dfrs_online_decide(.., DFRS_EVENT_ARRIVAL, index_of_new_job, ..).
 *      Completion: a job is complete when its virtual_time reaches its run
 *      time (dfrs_online_time_to_finish() gives when, at current yields);
 *      remove it from the array, then call dfrs_online_decide(..,
 *      DFRS_EVENT_COMPLETION, -1, ..).
 *      Periodic: if params.period > 0, every period seconds call
 *      dfrs_online_decide(.., DFRS_EVENT_PERIODIC, -1, ..).
 *   4. Apply the decisions: dfrs_online_apply(&cluster, &decisions) sets
 *      each job's state, hosts, yield and blocked_until; read the
 *      per-job action and cost (seconds, bytes) for metrics; then
 *      dfrs_decisions_free().  Every decision changes the yields of running
 *      jobs, so recompute the next completion after each event.
 *
 * Requeue model (requeue = 1): what a suspension or a move costs live,
 * where both are a requeue.  A running job suspended or moved that is not
 * checkpointable loses its progress: its virtual time goes back to 0
 * (lost_seconds in its decision) and it restarts from scratch, with no
 * other cost, but keeps its priority: the priority's virtual time is
 * virtual_time + lost_time, the service it has had (live, sched/amcbf
 * likewise keeps a requeued job's virtual time).  Having left nothing on
 * its hosts, it restarts wherever it fits, under any policy and whatever
 * minvt (as a requeued Slurm job does).  Only an arrival may take such a
 * job off its hosts while it runs; at other events it ranks above every
 * job that is not running such (rotating priorities would requeue it again
 * and again); a checkpointable one pays the cost model below.  An
 * arrival that must take running jobs off (greedyp, greedypm) takes first
 * those that would lose the least work (virtual time; none for one that
 * checkpoints), ties lowest priority first, instead of the lowest
 * priority first: a job just started costs little to requeue, one far
 * into its run all of it.  The
 * repacks (mcb, greedypm's periodic one) weigh it: they keep such a job
 * on its hosts while it runs (it may still be suspended, as any job).
 * With max_requeues >= 0, a running job requeued (suspended or moved while
 * running, checkpointing or not) max_requeues times already stays on its
 * hosts at every event, arrivals included, as sched/amcbf leaves a job
 * preempted amcbf_max_preempt times alone.
 * Starving jobs (requeue model, starve_bsld S > 0): the one place the
 * policies use a run-time estimate (a job's `estimate`; live its time
 * limit, in the simulator what EASY is told).  A job starves once it has
 * been in the system S times its estimate (at least 10 s, the bound of
 * the bounded slowdown): (now - submit) / max(estimate, 10) >= S.  What an
 * arrival does not give a requeued job, which would otherwise only ever
 * fill free room, a starving one gets: at each arrival event, after the
 * arriving jobs, the waiting job that starves the most takes running jobs
 * off as an arriving job does (any that may be requeued, those losing the
 * least work first), one such claim per event; while it waits it ranks
 * ahead of every job not running, and no job behind it starts while it
 * does not fit (the greedy pass stops at it: otherwise smaller jobs take
 * each host as it frees, and a wide job waits for as long as they come,
 * or, after the last arrival, until the queue has drained); while it runs
 * it stays on its hosts at every event (no job takes it off).  A job of
 * unknown estimate (0) never starves.
 * Cost model: suspending a job writes its tasks' memory (ntasks *
 * task_mem_bytes) to disk; resuming reads it back; migrating moves the
 * memory of every task that changes host (of all tasks when a suspended job
 * resumes elsewhere).  A resume or a migration costs the job penalty +
 * bytes / bandwidth seconds (bandwidth 0: bytes cost no time) during which
 * it makes no progress (blocked_until); a suspension costs bytes only, the
 * job not running anyway.  Starting a job costs nothing.
 *
 * The site's rules (live, amcbf_mode=dfrs: Slurm's Licenses=, PreemptMode,
 * PreemptExemptTime, QOS Preempt= lists, PriorityTier), as plain data that
 * narrows Stillwell et al. 2010's choices ("Use of Priority": who may be
 * suspended for whom; they have no licenses).  None set (NULL pool, NULL
 * predicate, no_preempt 0: dfrs sim) narrows nothing: no license holds a
 * start back, and any running job may be a victim.
 *   no_preempt   a RUNNING job with no_preempt set stays on its hosts at
 *                every event, under every policy: ranked first (as a job
 *                the requeue model keeps), never a victim of GreedyP(M) or
 *                of a starving job's claim, pinned in MCB's repack.
 *   may_preempt  cluster->may_preempt(ctx, preemptor, victim), over cluster
 *                job indices (NULL: anyone may preempt).  GreedyP(M): a
 *                running job is a victim of a waiting job only if the
 *                predicate allows the pair; the next candidate is taken
 *                instead.  MCB has no single preemptor (a global repack):
 *                conservatively, a running job is pinned and ranked first
 *                (never suspended nor moved) unless every waiting
 *                (PENDING or SUSPENDED) job ranked above it may preempt
 *                it; the same holds in greedypm's periodic repack and the
 *                incremental repair.
 *   licenses     cluster->lic_free[nlic] counts each license free now (held
 *                by no running job); a job's lic[nlic] its requests
 *                (rules_lic_req_t).  A waiting job whose requests do not fit
 *                what is free, after the licenses taken by the jobs this
 *                decision starts or resumes before it, is not started and
 *                takes no victim (GreedyP(M): attempt_run and the victim
 *                search; MCB: it is left out of the kept jobs, which go on
 *                past it in priority order; a starving job held back only
 *                by licenses keeps no room).  Running jobs keep theirs; a
 *                job suspended or moved in a decision returns none within
 *                it (Slurm frees them once the job has left its nodes).  A
 *                request naming no license of the pool never fits.
 */
#ifndef DFRS_ONLINE_H
#define DFRS_ONLINE_H

#include <stddef.h>

#include "dfrs_online_types.h"

/* The defaults of dfrs_online_params_t (dfrs_online_types.h) for the
 * given policy. */
void dfrs_online_params_default(dfrs_online_params_t *p,
				dfrs_policy_t policy);

/* "greedyp", "greedypm", "mcb": 0, or -1 if unknown. */
/* The policies' names, indexed by dfrs_policy_t, NULL-terminated: the one
 * table the simulator and SchedulerParameters (amcbf_dfrs_policy) parse. */
extern const char *const dfrs_online_policy_names[];
int dfrs_online_policy_parse(const char *name, dfrs_policy_t *out);
const char *dfrs_online_policy_name(dfrs_policy_t policy);

/*
 * Decide at an event.  event_job is the index of the new job for an
 * arrival, -1 otherwise.  The cluster is not modified.  Returns 0 and fills
 * *out (free with dfrs_decisions_free), or -1 with a message in err (bad
 * state: hosts or job shapes failing dfrs_instance_check, e.g. a task
 * larger than every host; hosts out of range; running jobs overloading a
 * host at their minimum yields; out of memory).  A job that fits nowhere
 * for now is not an error: it stays pending.
 */
int dfrs_online_decide(const dfrs_online_params_t *params,
		       const dfrs_cluster_t *cluster, dfrs_event_t event,
		       int event_job, dfrs_decisions_t *out,
		       char *err, size_t errlen);

/*
 * Decide at the arrival of several jobs at one moment (a scheduler cycle
 * that found them all new): arrived holds their indices, narrived of them.
 * Under greedyp and greedypm each arriving job in that order, if it does
 * not run yet, runs where it fits or takes running jobs of lower priority
 * off their hosts as at its own arrival; then the other waiting jobs fill
 * what is left, highest priority first.  mcb repacks once (with
 * repack_drift, the repair places the arriving jobs the same way first).
 * With one job, exactly dfrs_online_decide(.., DFRS_EVENT_ARRIVAL, job, ..).
 * Deciding once for all of them is not deciding at each in turn: in turn,
 * the waiting jobs fill free capacity after each arrival, before the next
 * arriving job may preempt; and a job requeued at one arrival (requeue
 * model) has lost its virtual time at the next.  One decision costs about
 * what one arrival's does, whatever the number of arrivals.  Returns as
 * dfrs_online_decide (an index out of range is an error).
 */
int dfrs_online_decide_arrivals(const dfrs_online_params_t *params,
				const dfrs_cluster_t *cluster,
				const int *arrived, int narrived,
				dfrs_decisions_t *out, char *err, size_t errlen);

void dfrs_decisions_free(dfrs_decisions_t *d);

/* Copy the decisions into the jobs (state, hosts, yield, blocked_until;
 * virtual time back to 0 for a job that lost its progress);
 * after a full repack, its minimum scaled yield into cluster->repack_yield. */
void dfrs_online_apply(dfrs_cluster_t *cluster, const dfrs_decisions_t *d);

/* Before d is applied: the licenses its starts and resumptions (jobs not
 * running before it that run after) take, off lic_free (cluster->nlic
 * entries, e.g. a copy of cluster->lic_free), the pool the next decision
 * of the same moment sees (a job suspended returns none). */
void dfrs_online_take_licenses(const dfrs_cluster_t *cluster,
			       const dfrs_decisions_t *d, int *lic_free);

/* Advance time by dt >= 0: running jobs gain yield * (unblocked time). */
void dfrs_online_advance(dfrs_cluster_t *cluster, double dt);

/*
 * Seconds from cluster->now until the job's virtual time reaches runtime at
 * its current yield (counting its blocked time); INFINITY if not running.
 */
double dfrs_online_time_to_finish(const dfrs_cluster_t *cluster,
				  const dfrs_online_job_t *job,
				  double runtime);

/* Priority of a job now, by params->priority (dfrs_priority.h). */
double dfrs_online_priority(const dfrs_online_params_t *params,
			    const dfrs_cluster_t *cluster,
			    const dfrs_online_job_t *job);

#endif
