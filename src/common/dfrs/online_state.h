/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_state.h - the working state of one online DFRS decision
 * (dfrs_online.h): what each host holds at the running jobs' minimum
 * yields, each job's state and hosts as the decision proceeds, and the fit
 * test and task placement the policies share (Stillwell et al. 2010, "Task Placement
 * Heuristics": each task goes "on the node with the lowest computational
 * load on which it can fit without violating memory constraints").
 * Internal to dfrs_online.c, online_greedypm.c and online_mcb.c.
 */
#ifndef DFRS_ONLINE_STATE_H
#define DFRS_ONLINE_STATE_H

#include "dfrs_online_types.h"
#include "host_index.h"

/* how many failures room_for remembers (online_state_t.fails) */
#define ONLINE_ROOM_FAILS 16

typedef struct {
	const dfrs_online_params_t *par;
	const dfrs_cluster_t *cl;
	int nd, nh, nj;
	double *usage;		/* [nh * nd] running tasks at min yield */
	double *load;		/* [nh] sum over dims of need / cap */
	/* what the hosts have left, per dimension, summarised for
	 * online_place_least_loaded's quick rejection: the most one host
	 * has left, the total over hosts with room, the largest capacity;
	 * valid while room_valid (online_account_task clears it) */
	double room_max[DFRS_MAX_DIMS], room_total[DFRS_MAX_DIMS];
	double cap_max[DFRS_MAX_DIMS];
	double *left;		/* [nh * nd] each host's cap (1 + DFRS_FIT_TOL)
				 * - usage, as of the summary (kept while
				 * ix_valid) */
	int room_valid;
	/* the hosts by index with their load (key) and left (room), for
	 * online_place_least_loaded's searches (online_index_init), made
	 * from usage and load once the passes
	 * over the hosts (scan_work, hosts visited) reach index_after
	 * (ix_valid), then kept by online_account_task */
	host_index_t ix;
	int ix_valid;
	long scan_work, index_after;
	double ix_level[DFRS_MAX_DIMS * HOST_INDEX_LEVELS];
	/* tasks that room_for found no room for since the hosts last
	 * changed (its count of copies only falls as a task grows): a
	 * ring of ONLINE_ROOM_FAILS, nfails of them valid */
	struct {
		double u[DFRS_MAX_DIMS], ue[DFRS_MAX_DIMS];
		int k;
	} fails[ONLINE_ROOM_FAILS];
	int nfails, next_fail;
	int *cand;		/* [2 nh] scratch: online_place_least_loaded's
				 * candidate hosts, then where its scan's
				 * best changed */
	dfrs_job_state_t *state;	/* working state per job */
	/* working hosts per job: the job's own in the cluster (none while
	 * pending) until a policy writes them (online_hosts_to_write), from
	 * then on its hosts in the decisions, out[j].  Most jobs keep their
	 * hosts at an event (MCB on a saturated cluster: some 680 suspended
	 * jobs, 30000 tasks), and are neither copied in nor out */
	const int **hosts;
	int **out;
	const int *none;	/* -1 for every task of the widest job */
	double *prio;
	int *by_prio;		/* job indices, highest priority first */
	int *lic_free;		/* [cl->nlic] licenses free as the decision
				 * proceeds (online_rules.h); NULL: no pool */
	unsigned char *kept;	/* [nj] nonzero: a running job the site's
				 * rules keep on its hosts at this decision
				 * (no_preempt, MCB's pairwise pin) */
	int claimed;		/* the starving job that took room, or -1 */
	int held;		/* the starving job that keeps its room, or -1 */
	/* greedypmr (online_reserve.h): the oldest waiting wide job that
	 * does not fit, or -1, and its shadow time */
	int reserved;
	double shadow;
	double *min_yield;	/* [nj] greedypmr: each job's minimum yield
				 * (online_job_min_yield); NULL: the
				 * shapes' */
} online_state_t;

/* Job j's working hosts, to be written whole (or reset after): its hosts
 * in the decisions from now on. */
static inline int *online_hosts_to_write(online_state_t *w, int j)
{
	w->hosts[j] = w->out[j];
	return w->out[j];
}

/* Job j's working hosts back to those it has in the cluster. */
static inline void online_hosts_reset(online_state_t *w, int j)
{
	w->hosts[j] = w->cl->jobs[j].state == DFRS_JOB_PENDING ? w->none :
		      w->cl->jobs[j].hosts;
}

/* The shape (tasks, req, need, min_yield) of job j. */
const dfrs_job_t *online_shape(const online_state_t *w, int j);

/* Set w->cap_max and how w->ix will be made for w->cl's hosts, when a
 * decision's passes over them have cost as much; the caller frees it
 * (host_index_free, also when it was never made). */
void online_index_init(online_state_t *w);

/* Add (sign +1) or remove (-1) one task of job j on host h, or all of job
 * j's tasks on w->hosts[j], from the hosts' usage and load. */
void online_account_task(online_state_t *w, int j, int h, int sign);
void online_account_job(online_state_t *w, int j, int sign);

/* Whether one more task of job j fits on host h at its minimum yield. */
int online_task_fits(const online_state_t *w, int j, int h);

/* Place every task of job j on the least loaded host where it fits,
 * accounting them; all or nothing: 0, or -1 with no usage
 * changed (hosts[] may then hold the hosts of the tasks placed before the
 * failure). */
int online_place_least_loaded(online_state_t *w, int j, int *hosts);

/* Place job j's tasks on the given hosts; all or nothing as above. */
int online_place_on(online_state_t *w, int j, const int *hosts);

/* Whether job j may move: the policy migrates and it has minvt of virtual
 * time (or minvt is 0); or, in the requeue model, it was requeued without
 * a checkpoint (suspended, not checkpointable) and restarts anywhere. */
int online_may_migrate(const online_state_t *w, int j);

/* Requeue model: whether this job was requeued par->max_requeues times
 * already (and may not be again). */
static inline int online_requeue_capped(const dfrs_online_params_t *par,
					const dfrs_online_job_t *job)
{
	return par->requeue && par->max_requeues >= 0 &&
	       job->requeues >= par->max_requeues;
}

/* greedypmr: whether a job of ntasks tasks on nhosts hosts is wide (more
 * tasks than wide_share of the hosts). */
static inline int online_wide(const dfrs_online_params_t *par, int nhosts,
			      int ntasks)
{
	return par->policy == DFRS_POLICY_GREEDYPMR && par->wide_share > 0.0 &&
	       ntasks > par->wide_share * nhosts;
}

/* greedypmr: whether a running job stays on its hosts at every event: it
 * is wide, or it has run long_time of virtual time already (a requeue
 * would lose at least that much work). */
static inline int online_kept_running(const dfrs_online_params_t *par,
				      int nhosts, const dfrs_online_job_t *job)
{
	return par->policy == DFRS_POLICY_GREEDYPMR &&
	       (online_wide(par, nhosts, job->shape.ntasks) ||
		job->virtual_time >= par->long_time);
}

/* greedypmr: a job's minimum yield, raised to long_min_yield for a long
 * job (estimate over long_time, or none); other policies: its own. */
static inline double online_job_min_yield(const dfrs_online_params_t *par,
					  const dfrs_online_job_t *job)
{
	double y = job->shape.min_yield;

	if (par->policy == DFRS_POLICY_GREEDYPMR && par->long_min_yield > y &&
	    (job->estimate <= 0.0 || job->estimate > par->long_time))
		y = par->long_min_yield;
	return y;
}

/* Job j's minimum yield in this decision. */
static inline double online_min_yield(const online_state_t *w, int j)
{
	return w->min_yield ? w->min_yield[j] : w->cl->jobs[j].shape.min_yield;
}

/* Requeue model with starve_bsld > 0: whether job j, of known estimate,
 * has been in the system starve_bsld times its estimate (dfrs_online.h,
 * "Starving jobs"). */
static inline int online_starving(const dfrs_online_params_t *par,
				  double now, const dfrs_online_job_t *job)
{
	return par->requeue && par->starve_bsld > 0.0 && job->estimate > 0.0 &&
	       dfrs_online_waited_bsld(job, now) >= par->starve_bsld;
}

/* Max-min yields of the running jobs on their working hosts (Stillwell et
 * al. 2010's yield allocation): each job's yield into yield[] (w->nj
 * entries; may be NULL) and the minimum scaled yield into *min_scaled.
 * 0, or -1 on out of memory or an overloaded host. */
int online_running_yields(const online_state_t *w, double *yield,
			  double *min_scaled);

#endif
