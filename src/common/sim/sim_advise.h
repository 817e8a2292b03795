/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_advise.h - dfrs advise's decision: replay a site's own history under
 * the consolidation policy it would deploy (Liu et al. 2013 Alg. 2 and its
 * variants, with the SchedulerParameters to deploy) and under the two
 * models of what it runs today, conservative backfilling (a reservation
 * for every job with its requested time: Slurm's sched/backfill) and EASY,
 * and two stronger baselines, EASY++ and SJF-ordered backfilling
 * (sched_sjf_backfill.c); over several seeds and loads; with percentiles per partition and job-size
 * class, a sweep of the two parameters that matter most (amcbf_util_threshold
 * and amcbf_bg_min_rate) and a verdict with its range across seeds.
 */
#ifndef DFRS_SIM_ADVISE_H
#define DFRS_SIM_ADVISE_H

#include <stddef.h>

#include "sim_ckpt.h"
#include "sim_engine.h"
#include "sim_metrics.h"
#include "sim_workload.h"
#include "suite/dfrs_params.h"
#include "trace/trace.h"

#define SIM_ADVISE_MAX_LOADS 8
#define SIM_ADVISE_MAX_SEEDS 32
#define SIM_ADVISE_MAX_SWEEP 16

/* The policies compared, in report order: the baselines, then the
 * deployed mode. */
enum {
	SIM_ADVISE_CONSERVATIVE,	/* today's sched/backfill */
	SIM_ADVISE_EASY,
	SIM_ADVISE_EASY_PP,		/* EASY++, Tsafrir et al. 2007 */
	SIM_ADVISE_SJF_BACKFILL,	/* EASY, shortest backfilled first */
	SIM_ADVISE_DEPLOYED,		/* the mode to deploy */
	SIM_ADVISE_POLICIES
};
#define SIM_ADVISE_BASELINES 4	/* the four before the deployed mode */

/* The verdict bands on the deployed/conservative ratio of mean bounded
 * slowdown: every seed under 0.95 deploys, every seed over 1.05 does not. */
#define SIM_ADVISE_BETTER 0.95
#define SIM_ADVISE_WORSE 1.05

/*
 * The most mean response time a mode may cost, as a multiple of EASY's
 * at the first load (mean over seeds), and still be recommended.  A
 * policy that shares nodes (the DFRS family) can buy a low bounded
 * slowdown with the long jobs' time to result: on the shipped Lublin
 * trace greedypm's mean bounded slowdown is 0.03 x EASY's and its mean
 * response 1.31 x (doc/evaluation.md, "Where GreedyPM's response time
 * goes"); mcb reaches 27 x.  1.25 is far outside the spread across
 * seeds of the policies that do not share (a few %), so crossing it is
 * the policy, not noise; and a quarter longer mean time to result is a
 * cost a site notices, so advise names it instead of hiding it in a
 * bsld ratio.  0: no bound.  `dfrs advise --max-response R` sets it.
 */
#define SIM_ADVISE_MAX_RESPONSE 1.25

/*
 * The policy advise replays beside the deployed mode at the first load
 * (unless it is the deployed one), and what it takes to recommend it
 * instead: a mean bounded slowdown (mean over seeds) under
 * SIM_ADVISE_ALT_MARGIN times the deployed mode's, and a mean response no
 * higher than EASY's (nor over --max-response).  greedypmr keeps GreedyPM's
 * slowdown at EASY's response or better on the shipped traces and on
 * feitelson96 (doc/evaluation.md, "greedypmr"); 0.9 keeps a difference
 * of a few % between seeds from switching a site's policy.
 */
#define SIM_ADVISE_ALT_POLICY "greedypmr"
#define SIM_ADVISE_ALT_PARAMS "amcbf_mode=dfrs,amcbf_dfrs_policy=greedypmr"
#define SIM_ADVISE_ALT_MARGIN 0.9

typedef enum {
	SIM_ADVISE_DEPLOY,
	SIM_ADVISE_DO_NOT_DEPLOY,
	SIM_ADVISE_NO_CLEAR_DIFFERENCE,
} sim_advise_verdict_t;

typedef struct {
	sim_workload_opts_t wopts;	/* nodes, procs_per_node, estimates;
					   load and seed are set per run */
	sim_model_t model;		/* the deployed parameters applied */
	const char *policy;		/* the deployed mode's dfrs sim policy */
	double cpu_default;		/* CPU use of a process whose history
					   has no TotalCPU (dfrs_cpu_need) */
	double loads[SIM_ADVISE_MAX_LOADS];
	size_t nloads;
	unsigned nseeds;		/* seeds 1..nseeds */
	int sweep;			/* 1: sweep the two parameters */
	int need_source;		/* the CPU needs the deployment gets
					   (sim_need.h; default measured: the
					   agents run): the verdict's and the
					   sweep's; the other two are reported
					   beside it at the first load */
	double max_response;		/* SIM_ADVISE_MAX_RESPONSE; 0: none */
	int alternative;		/* 1 (default): replay
					   SIM_ADVISE_ALT_POLICY as well */
	sim_ckpt_sel_t ckpt;		/* the jobs that asked for the
					   checkpoint signal (--ckpt-jobs;
					   zeroed: none) */
	int ckpt_signo, ckpt_wait;	/* the deployed amcbf_ckpt_signal's
					   number (0: none), amcbf_ckpt_wait */
} sim_advise_opts_t;

typedef struct {
	size_t jobs;
	double wait_p50, wait_p95, wait_mean;
	double bsld_p50, bsld_p95, bsld_mean;
} sim_advise_cell_t;

/* One row group of the breakdown: a partition (0: all) and a size class
 * (-1: all sizes), each policy's figures. */
typedef struct {
	int partition;
	int size_class;
	sim_advise_cell_t cell[SIM_ADVISE_POLICIES];
} sim_advise_group_t;

typedef struct {
	double load;
	double bsld_mean[SIM_ADVISE_POLICIES];	/* mean over the seeds */
	double wait_mean[SIM_ADVISE_POLICIES];
	double response_mean[SIM_ADVISE_POLICIES];
	double bsld_max[SIM_ADVISE_POLICIES];	/* max over the seeds */
	/* deployed / baseline across seeds: lowest and highest */
	double ratio_lo[SIM_ADVISE_BASELINES], ratio_hi[SIM_ADVISE_BASELINES];
	double wait_ratio_lo[SIM_ADVISE_BASELINES];
	double wait_ratio_hi[SIM_ADVISE_BASELINES];
} sim_advise_load_t;

typedef struct {
	double util_threshold, bg_min_rate;
	double bsld_mean;	/* the deployed policy's, mean over seeds at
				   the first load */
	double response_mean;	/* the same for its mean response */
	int excluded;		/* response over the bound: never best */
} sim_advise_sweep_t;

typedef struct {
	size_t jobs;			/* replayed */
	int nodes;
	size_t clamped;		/* jobs whose memory or GPUs were cut to a
				   node's (sim_workload_t.clamped) */
	size_t cpu_from_trace;		/* jobs whose CPU use is the history's */
	sim_advise_load_t loads[SIM_ADVISE_MAX_LOADS];
	size_t nloads;
	unsigned nseeds;
	sim_advise_group_t *groups;	/* at the first load, seed 1 */
	size_t ngroups;
	sim_advise_sweep_t sweep[SIM_ADVISE_MAX_SWEEP];
	size_t nsweep, best;		/* best: index into sweep */
	sim_advise_verdict_t verdict;	/* at the first load */
	int need_source;		/* the opts' */
	/* the deployed policy at the first load under each CPU-need source
	 * (sim_need.h order), mean over seeds, and / conservative */
	double need_bsld[3];
	double need_ratio_lo[3], need_ratio_hi[3];
	size_t runs;			/* replays made */
	double max_response;		/* the opts' bound (0: none) */
	double response_ratio;		/* deployed / EASY mean response at
					   the first load, means over seeds */
	int excluded;			/* response_ratio over the bound: the
					   verdict is do not deploy */
	/* SIM_ADVISE_ALT_POLICY at the first load, means over seeds
	 * (alt_run 0: not replayed), and whether it wins
	 * (sim_advise_alt_wins) */
	int alt_run, alt_wins;
	double alt_bsld, alt_response;
} sim_advise_t;

void sim_advise_opts_defaults(sim_advise_opts_t *o);

/*
 * Set o for the SchedulerParameters line to deploy (params; NULL or "":
 * the defaults) parsed into *p: the dfrs sim policy of its amcbf_mode
 * (amcbf_mode=dfrs: its amcbf_dfrs_policy), its amcbf_util_threshold,
 * amcbf_min_idle_cpu and amcbf_bg_min_rate, dfrs_cpu_need for the jobs
 * the history gives no CPU use, and for the DFRS policies the requeue
 * model with the line's amcbf_max_preempt, amcbf_dfrs_* keys,
 * dfrs_min_yield and checkpoint signal and wait (a job checkpoints only
 * if o->ckpt says it asked for that signal, sim_ckpt.h), as
 * amcbf_mode=dfrs runs.  0, or -1 with
 * dfrs_params_parse()'s line in err.
 */
int sim_advise_deploy(sim_advise_opts_t *o, const char *params,
		      dfrs_params_t *p, char *err, size_t errlen);

/*
 * Run everything for history t.  Returns 0 and fills *a (sim_advise_free
 * it), or -1 with one line in err (unknown policy, no job fits, out of
 * memory).
 */
int sim_advise_run(const trace_t *t, const sim_advise_opts_t *o,
		   sim_advise_t *a, char *err, size_t errlen);

void sim_advise_free(sim_advise_t *a);

/* The baseline with the lowest mean bounded slowdown (mean over seeds)
 * at load L, the first on ties: an index below SIM_ADVISE_BASELINES. */
int sim_advise_best_baseline(const sim_advise_load_t *L);

/* The verdict for a deployed/conservative ratio range across seeds. */
sim_advise_verdict_t sim_advise_verdict(double ratio_lo, double ratio_hi);
/* "deploy", "do not deploy", "no clear difference" */
const char *sim_advise_verdict_name(sim_advise_verdict_t v);

/* 1 when a mean response of resp is over bound x easy (bound > 0 and
 * easy > 0), else 0. */
int sim_advise_over_response(double resp, double easy, double bound);

/*
 * The sweep point to recommend among sw[0..n): the lowest mean bounded
 * slowdown among the points whose mean response is within bound x easy
 * (each point's excluded is set), another than sw[0] only when it is 1 %
 * better than sw[0] or sw[0] is excluded.  0 when every point is
 * excluded (the caller then recommends none: sw[0].excluded is set).
 */
size_t sim_advise_best(sim_advise_sweep_t *sw, size_t n, double easy,
		       double bound);

/* Whether the alternative policy is to be recommended instead of the
 * deployed mode: its mean bounded slowdown alt_bsld under
 * SIM_ADVISE_ALT_MARGIN times the deployed mode's, its mean response no
 * higher than EASY's, and not over the bound (sim_advise_over_response). */
int sim_advise_alt_wins(double alt_bsld, double alt_response,
			double deployed_bsld, double easy_response,
			double bound);

/* Apply a->max_response to the deployed mode at the first load: set
 * response_ratio and excluded, and make the verdict do not deploy when
 * excluded. */
void sim_advise_bound(sim_advise_t *a);

/*
 * The one line naming a mode advise refuses to recommend, with its
 * ratio and why ("excluded: ..."), into buf; 1 when a->excluded (the
 * line written), else 0 (buf empty).
 */
int sim_advise_excluded_line(const sim_advise_t *a, const char *policy,
			     char *buf, size_t len);

/* Figures of the jobs whose partition is part (0: any) and size class is
 * cls (-1: any) in one replay; partition[i] is job i's (0: unknown). */
void sim_advise_cell(const sim_workload_t *w, const sim_result_t *r,
		     const int *partition, int part, int cls,
		     sim_advise_cell_t *out);

#endif
