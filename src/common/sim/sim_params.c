/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_params.c - dfrs sim's --param keys (sim_params.h): each key, the
 * model field it sets, its range and its default (Liu et al. 2013 section 5.1),
 * and the key it needs on to act (the requeue model's need dfrs_requeue).
 * The DFRS drivers' defaults are sched/amcbf's in amcbf_mode=dfrs
 * (dfrs_params.c), so that a default row predicts the plugin.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim_params.h"

typedef struct {
	const char *key;
	size_t offset;
	double lo, hi;		/* allowed range, inclusive */
	const char *meaning;
	int whole;		/* 1: a whole number; 2: one held in an int */
	const char *needs;	/* acts only while this key is not 0 */
} sim_param_t;

#define P(key, field, lo, hi, meaning) \
	{ key, offsetof(sim_model_t, field), lo, hi, meaning, 0, NULL }
#define PW(key, field, lo, hi, meaning) \
	{ key, offsetof(sim_model_t, field), lo, hi, meaning, 1, NULL }
/* a parameter of the requeue model, inert without dfrs_requeue=1 */
#define PRQ(key, field, lo, hi, meaning, whole) \
	{ key, offsetof(sim_model_t, field), lo, hi, meaning, whole, \
	  "dfrs_requeue" }
#define PI(key, field, lo, hi, meaning) \
	{ key, offsetof(sim_model_t, field), lo, hi, meaning, 2, NULL }

static const sim_param_t params[] = {
	P("util_threshold", sched.util_threshold, 0, 1,
	  "fg CPU usage at or above which a node takes no bg process"),
	P("min_idle_cpu", sched.min_idle_cpu, 0, 1,
	  "idle CPU at or below which a node takes no bg process"),
	P("bg_min_rate", sched.bg_min_rate, 0, 1,
	  "amcbf, cmcbf: start a job in bg only where its predicted rate "
	  "is at least this (0: wherever it fits)"),
	PI("reserve", sched.reserve, 0, 1,
	   "cmbf, ambf, cmcbf, amcbf: 1: the first waiting job holds EASY's "
	   "reservation (by the jobs' estimates) and later jobs start in fg "
	   "only where they leave it alone"),
	PI("requeue_victims", sched.requeue_victims, 0, 2,
	   "cmbf, ambf, cmcbf, amcbf: 0: preempt only fg jobs that can go "
	   "to bg in place, never requeue one; 1: as Liu et al.; 2: 0 in "
	   "cmcbf and amcbf, 1 in cmbf and ambf"),
	P("need_delay", need_delay, 0, 1e9,
	  "--need measured: seconds a job runs in a tier before its "
	  "measured CPU need reaches the scheduler (default 60)"),
	P("migration_cost", migration_cost, 0, 1e9,
	  "seconds of work added to a job resumed or moved (also "
	  "--migration-cost)"),
	P("fg_overhead", fg_overhead_max, 0, 1,
	  "fg slowdown with a bg job beside it: uniform 0..this"),
	P("eff_single_lo", eff_single_lo, 0, 1,
	  "bg efficiency of a 1-process job: uniform lo..hi"),
	P("eff_single_hi", eff_single_hi, 0, 1, "see eff_single_lo"),
	P("eff_multi_mu", eff_multi_mu, 0, 1,
	  "bg efficiency of a multi-process job: normal(mu, sigma)"),
	P("eff_multi_sigma", eff_multi_sigma, 0, 1, "see eff_multi_mu"),
	P("eff_multi_lo", eff_multi_lo, 0, 1,
	  "clip of the multi-process efficiency: lo..hi"),
	P("eff_multi_hi", eff_multi_hi, 0, 1, "see eff_multi_lo"),
	P("bucket_seconds", bucket_seconds, 1, 1e9,
	  "width of the utilization-over-time bins (--plot)"),
	P("dfrs_mem_lo", dfrs_mem_lo, 0, 1,
	  "greedyp/greedypm/mcb: memory per task, uniform lo..hi of a "
	  "node per job (times its CPUs over a node's on nodes of many "
	  "CPUs without memory)"),
	P("dfrs_mem_hi", dfrs_mem_hi, 0, 1, "see dfrs_mem_lo"),
	PW("dfrs_requeue", dfrs_requeue, 0, 1,
	   "greedyp, greedypm, mcb: 1: as amcbf_mode=dfrs live, a job "
	   "suspended or moved while running is requeued and, unless it "
	   "checkpoints, loses its progress; 0: Stillwell et al. 2010's "
	   "model, free migrations: progress kept, migration_cost each"),
	PRQ("dfrs_ckpt_share", dfrs_ckpt_share, 0, 1,
	    "with dfrs_requeue: share of the jobs that checkpoint, drawn "
	    "per job", 0),
	PRQ("dfrs_max_requeues", dfrs_max_requeues, 0, 1000,
	    "with dfrs_requeue: a running job requeued this often already "
	    "is not taken off its hosts again, as amcbf_max_preempt does "
	    "live (0: none is; 1000: about no limit)", 1),
	PRQ("dfrs_min_runtime", dfrs_min_runtime, 0, 86400,
	    "with dfrs_requeue: a running job whose run has lasted this "
	    "long (s) is not taken off its hosts, as amcbf_min_runtime "
	    "does live: a requeue loses less than this of a run (0: no "
	    "bound)", 0),
	PRQ("dfrs_starve_bsld", dfrs_starve_bsld, 0, 1e6,
	    "with dfrs_requeue: a job in the system this many times its "
	    "estimate (what EASY is told) starves: at an arrival the most "
	    "starved claims room as the arriving job does, and while it "
	    "runs it is not taken off (0: none starves)", 0),
	P("dfrs_wide_share", dfrs_wide_share, 0, 1,
	  "greedypmr: a job of more tasks than this share of the nodes is "
	  "wide: never taken off its nodes while it runs, and the oldest "
	  "waiting ones start first, oldest first (0: none is wide)"),
	PW("dfrs_long_time", dfrs_long_time, 0, 1e9,
	   "greedypmr: a job whose estimate (what EASY is told) is over "
	   "this many seconds is long"),
	P("dfrs_long_min_yield", dfrs_long_min_yield, 0, 1,
	  "greedypmr: a long job's minimum yield is at least this: sharing "
	  "stretches it at most 1 / this (0: as dfrs_min_yield)"),
	PW("dfrs_minvt", dfrs_minvt, 0, 86400,
	   "greedypm, mcb: seconds of virtual time before a job may be "
	   "migrated, as amcbf_dfrs_minvt live"),
	P("dfrs_min_yield", dfrs_min_yield, 0, 1,
	  "greedyp, greedypm, mcb: every task's minimum yield, as "
	  "dfrs_min_yield live (0: none, as Stillwell et al. 2010)"),
	PW("dfrs_period", dfrs_period, 0, 86400,
	   "greedyp, greedypm, mcb: seconds between periodic events (the "
	   "priorities' rotation; mcb and greedypm repack every job), as "
	   "amcbf_dfrs_period live (0: none)"),
	P("dfrs_repack_drift", dfrs_repack_drift, 0, 0.99,
	  "mcb, greedypm: repair the kept packing at an event and repack "
	  "every job only when the minimum scaled yield fell this fraction "
	  "below the last repack's (0: repack at every event)"),
	PW("dfrs_repack_algorithms", dfrs_repack_algorithms, 1, 14,
	   "mcb, greedypm: the repacks try the first this many of METAVP's "
	   "14 vector-packing algorithms (1: VP_FFSUM alone; 14: all, as "
	   "Stillwell et al.)"),
	P("dfrs_repack_tolerance", dfrs_repack_tolerance, 0, 0.1,
	  "mcb, greedypm: the repacks' search on the yield starts from the "
	  "yield the last repack reached and stops within this (0: from 0 "
	  "and the LP bound to 1e-4, as Stillwell et al.)"),
	P("drift_window", drift_window, 0, 604800,
	  "the drift guard sched/amcbf runs live (amcbf_drift_window): "
	  "seconds of history the running jobs' mean run stretch is "
	  "compared with (drift_entries, drift_share; 0: off)"),
	P("drift_factor", drift_factor, 1.01, 1000,
	  "the drift guard (amcbf_drift_factor): drift when the running "
	  "jobs' mean run stretch exceeds this times the window's"),
	P("drift_min_work", drift_min_work, 1, 86400,
	  "the drift guard (amcbf_drift_min_work): a job's work since its "
	  "first start counts at least this many seconds"),
	PW("gang_mpl", gang_mpl, 1, 64,
	   "gang*: multiprogramming level, rows of the Ousterhout matrix "
	   "(Slurm's OverSubscribe=FORCE:4)"),
	P("gang_slice", gang_slice, 0.001, 1e9,
	  "gang*: time slice in seconds (Slurm's SchedulerTimeSlice)"),
	PW("gang_migrate_q", gang_migrate_q, 0, 1e9,
	   "gang-migrate: most tasks migrated per time slice (Zhang et al.'s Q)"),
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

/* sched/amcbf's SchedulerParameters names of the same settings
 * (dfrs_params.c), accepted as they are written in slurm.conf. */
static const struct {
	const char *conf, *key;
} aliases[] = {
	{ "amcbf_util_threshold", "util_threshold" },
	{ "amcbf_min_idle_cpu", "min_idle_cpu" },
	{ "amcbf_bg_min_rate", "bg_min_rate" },
	{ "amcbf_reserve", "reserve" },
	{ "amcbf_requeue_victims", "requeue_victims" },
	{ "amcbf_dfrs_period", "dfrs_period" },
	{ "amcbf_dfrs_minvt", "dfrs_minvt" },
	{ "amcbf_max_preempt", "dfrs_max_requeues" },
	{ "amcbf_min_runtime", "dfrs_min_runtime" },
	{ "amcbf_dfrs_repack_algorithms", "dfrs_repack_algorithms" },
	{ "amcbf_dfrs_repack_drift", "dfrs_repack_drift" },
	{ "amcbf_dfrs_repack_tolerance", "dfrs_repack_tolerance" },
	{ "amcbf_dfrs_starve_bsld", "dfrs_starve_bsld" },
	{ "amcbf_dfrs_wide_share", "dfrs_wide_share" },
	{ "amcbf_dfrs_long_time", "dfrs_long_time" },
	{ "amcbf_dfrs_long_min_yield", "dfrs_long_min_yield" },
	{ "amcbf_drift_window", "drift_window" },
	{ "amcbf_drift_factor", "drift_factor" },
	{ "amcbf_drift_min_work", "drift_min_work" },
};
#define NALIASES (sizeof(aliases) / sizeof(aliases[0]))

const char *sim_param_key(const char *key)
{
	for (size_t i = 0; i < NALIASES; i++)
		if (!strcmp(aliases[i].conf, key))
			return aliases[i].key;
	return key;
}

static const sim_param_t *param_named(const char *key)
{
	for (size_t i = 0; i < NPARAMS; i++)
		if (!strcmp(params[i].key, key))
			return &params[i];
	return NULL;
}

int sim_param_set(sim_model_t *m, const char *key, double value,
		  char *err, size_t errlen)
{
	const sim_param_t *p = param_named(sim_param_key(key));

	if (!p) {
		snprintf(err, errlen, "unknown parameter '%s' (dfrs sim --help "
			 "lists them)", key);
		return -1;
	}
	if (!(value >= p->lo && value <= p->hi)) {
		snprintf(err, errlen, "parameter %s=%g is out of range %g..%g",
			 key, value, p->lo, p->hi);
		return -1;
	}
	if (p->whole && value != (double)(long long)value) {
		snprintf(err, errlen, "parameter %s=%g must be a whole number",
			 key, value);
		return -1;
	}
	if (p->whole == 2)
		*(int *)((char *)m + p->offset) = (int)value;
	else
		*(double *)((char *)m + p->offset) = value;
	return 0;
}

static double field_value(const sim_model_t *m, const sim_param_t *p)
{
	const char *field = (const char *)m + p->offset;

	return p->whole == 2 ? (double)*(const int *)field
			     : *(const double *)field;
}

int sim_params_warn_inert(FILE *out, const sim_model_t *m, const char *swept)
{
	const char *sweep = swept ? sim_param_key(swept) : "";
	sim_model_t def;
	int n = 0;

	sim_model_defaults(&def);
	for (size_t i = 0; i < NPARAMS; i++) {
		const sim_param_t *p = &params[i], *on;

		if (!p->needs || !(on = param_named(p->needs)) ||
		    !strcmp(sweep, on->key) || field_value(m, on) != 0)
			continue;
		if (field_value(m, p) == field_value(&def, p) &&
		    strcmp(sweep, p->key))
			continue;
		fprintf(out, "dfrs sim: warning: --param %s has no effect "
			"without --param %s=1\n", p->key, on->key);
		n++;
	}
	return n;
}

void sim_params_describe(FILE *out)
{
	sim_model_t m;
	sim_model_defaults(&m);
	for (size_t i = 0; i < NPARAMS; i++)
		fprintf(out, "  %-16s %-8g %s\n", params[i].key,
			field_value(&m, &params[i]), params[i].meaning);
	for (size_t i = 0; i < NALIASES; i++)
		fprintf(out, "  %-16s as %s (its slurm.conf name)\n",
			aliases[i].conf, aliases[i].key);
}
