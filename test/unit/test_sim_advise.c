/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_advise.c - dfrs advise's figures: nearest-rank percentiles and
 * [D-]HH:MM:SS durations (sim_quantile.c), the verdict bands, the
 * recommended SchedulerParameters line (merged with the deployed one, and
 * passing dfrs params --check on the shipped sample and on an SWF trace),
 * the bound on mean response over EASY's (a mode or sweep point over it
 * is never recommended and is named), the per-partition and size-class
 * cells on a schedule worked out by hand, and a whole run on a history
 * with no queueing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_advise.h"
#include "sim/sim_need.h"
#include "sim/sim_advise_report.h"
#include "sim/sim_quantile.h"
#include "sim/slurmconf.h"
#include "suite/dfrs_params_check.h"
#include "trace/trace.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)
#define SAMPLE_SACCT DFRS_TEST_DATA_DIR "/../../contribs/data/sample-sacct.csv"
#define SAMPLE_CONF DFRS_TEST_DATA_DIR "/../../contribs/data/sample-slurm.conf"

static void test_quantile(void **state)
{
	double v[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };

	(void)state;
	sim_quantile_sort(v, 10);
	near(v[0], 1);
	near(v[9], 10);
	near(sim_quantile(v, 10, 0.5), 5);	/* rank 5 */
	near(sim_quantile(v, 10, 0.95), 10);	/* rank ceil(9.5) = 10 */
	near(sim_quantile(v, 10, 0.9), 9);	/* rank 9 exactly */
	near(sim_quantile(v, 10, 0.01), 1);
	near(sim_quantile(v, 1, 0.95), 1);
	near(sim_quantile(v, 0, 0.5), 0);
}

static void test_duration(void **state)
{
	char b[32];

	(void)state;
	sim_quantile_duration(0, b, sizeof(b));
	assert_string_equal(b, "00:00:00");
	sim_quantile_duration(59.6, b, sizeof(b));
	assert_string_equal(b, "00:01:00");
	sim_quantile_duration(3 * 3600 + 25 * 60 + 7, b, sizeof(b));
	assert_string_equal(b, "03:25:07");
	sim_quantile_duration(86400 + 2 * 3600 + 3 * 60 + 4, b, sizeof(b));
	assert_string_equal(b, "1-02:03:04");
	sim_quantile_duration(-1, b, sizeof(b));
	assert_string_equal(b, "-");
}

static void test_verdict(void **state)
{
	(void)state;
	assert_int_equal(sim_advise_verdict(0.70, 0.94), SIM_ADVISE_DEPLOY);
	assert_int_equal(sim_advise_verdict(0.70, 0.95),
			 SIM_ADVISE_NO_CLEAR_DIFFERENCE);
	assert_int_equal(sim_advise_verdict(1.05, 1.40),
			 SIM_ADVISE_NO_CLEAR_DIFFERENCE);
	assert_int_equal(sim_advise_verdict(1.06, 1.40),
			 SIM_ADVISE_DO_NOT_DEPLOY);
	assert_int_equal(sim_advise_verdict(0.90, 1.10),
			 SIM_ADVISE_NO_CLEAR_DIFFERENCE);
	assert_string_equal(sim_advise_verdict_name(SIM_ADVISE_DO_NOT_DEPLOY),
			    "do not deploy");
}

/* The best baseline: the lowest mean bsld of the four, the first on
 * ties; never the deployed mode, however low its own. */
static void test_best_baseline(void **state)
{
	sim_advise_load_t L = { 0 };

	(void)state;
	L.bsld_mean[SIM_ADVISE_CONSERVATIVE] = 5;
	L.bsld_mean[SIM_ADVISE_EASY] = 4;
	L.bsld_mean[SIM_ADVISE_EASY_PP] = 2;
	L.bsld_mean[SIM_ADVISE_SJF_BACKFILL] = 3;
	L.bsld_mean[SIM_ADVISE_DEPLOYED] = 1;
	assert_int_equal(sim_advise_best_baseline(&L), SIM_ADVISE_EASY_PP);
	L.bsld_mean[SIM_ADVISE_SJF_BACKFILL] = 1.5;
	assert_int_equal(sim_advise_best_baseline(&L),
			 SIM_ADVISE_SJF_BACKFILL);
	for (int b = 0; b < SIM_ADVISE_BASELINES; b++)
		L.bsld_mean[b] = 3;
	assert_int_equal(sim_advise_best_baseline(&L),
			 SIM_ADVISE_CONSERVATIVE);
}

/* The response bound: a point or mode whose mean response is over
 * bound x EASY's is never recommended, whatever its bounded slowdown. */
static void test_over_response(void **state)
{
	(void)state;
	assert_int_equal(sim_advise_over_response(125, 100, 1.25), 0);
	assert_int_equal(sim_advise_over_response(125.01, 100, 1.25), 1);
	assert_int_equal(sim_advise_over_response(2700, 100, 0), 0);
	assert_int_equal(sim_advise_over_response(50, 0, 1.25), 0);
}

/* greedypmr is recommended instead only where it wins: a mean bsld under
 * 0.9 x the deployed mode's and a mean response no higher than EASY's
 * (nor over the bound). */
static void test_alt_wins(void **state)
{
	(void)state;
	assert_int_equal(sim_advise_alt_wins(5, 90, 10, 100, 1.25), 1);
	assert_int_equal(sim_advise_alt_wins(8.99, 100, 10, 100, 1.25), 1);
	/* not 10 % lower */
	assert_int_equal(sim_advise_alt_wins(9, 90, 10, 100, 1.25), 0);
	/* slower than EASY: GreedyPM's way (0.03 x bsld at 1.31 x) */
	assert_int_equal(sim_advise_alt_wins(0.3, 100.01, 10, 100, 1.25), 0);
	assert_int_equal(sim_advise_alt_wins(0.3, 131, 10, 100, 0), 0);
	/* no bound: EASY's response still holds */
	assert_int_equal(sim_advise_alt_wins(5, 100, 10, 100, 0), 1);
}

static void test_best_within_response(void **state)
{
	/* easy's mean response 100: point 1 has the best bounded slowdown
	 * and 2 x the response, point 2 the best within 1.25 x */
	sim_advise_sweep_t sw[3] = {
		{ 0.9, 0, 10, 100, 0 },
		{ 0.8, 0, 2, 200, 0 },
		{ 0.96, 0, 5, 120, 0 },
	};

	(void)state;
	assert_int_equal(sim_advise_best(sw, 3, 100, 1.25), 2);
	assert_int_equal(sw[0].excluded, 0);
	assert_int_equal(sw[1].excluded, 1);
	assert_int_equal(sw[2].excluded, 0);
	/* no bound: the old choice, the lowest bounded slowdown */
	assert_int_equal(sim_advise_best(sw, 3, 100, 0), 1);
	assert_int_equal(sw[1].excluded, 0);
	/* the deployed point excluded: the best of the others, even when
	 * less than 1 % better */
	sw[0].response_mean = 300;
	sw[2].bsld_mean = 9.95;
	assert_int_equal(sim_advise_best(sw, 3, 100, 1.25), 2);
	assert_int_equal(sw[0].excluded, 1);
	/* every point excluded: none is best, the first is marked */
	sw[2].response_mean = 126;
	assert_int_equal(sim_advise_best(sw, 3, 100, 1.25), 0);
	assert_int_equal(sw[0].excluded, 1);
	assert_int_equal(sw[2].excluded, 1);
}

static void test_bound_refuses(void **state)
{
	sim_advise_t a;
	char line[256];

	(void)state;
	/* greedypm on the Lublin trace: bsld far under conservative's (a
	 * deploy verdict) and mean response 1.31 x EASY's */
	memset(&a, 0, sizeof(a));
	a.nloads = 1;
	a.loads[0].response_mean[SIM_ADVISE_EASY] = 102019;
	a.loads[0].response_mean[SIM_ADVISE_DEPLOYED] = 133263;
	a.verdict = SIM_ADVISE_DEPLOY;
	a.max_response = SIM_ADVISE_MAX_RESPONSE;
	sim_advise_bound(&a);
	assert_int_equal(a.excluded, 1);
	assert_int_equal(a.verdict, SIM_ADVISE_DO_NOT_DEPLOY);
	near(a.response_ratio, 133263.0 / 102019.0);
	assert_int_equal(sim_advise_excluded_line(&a, "greedypm", line,
						  sizeof(line)), 1);
	assert_string_equal(line, "excluded: greedypm: mean response 1.31 x "
			    "EASY's, over 1.25 x (--max-response): its "
			    "slowdown costs time to result");

	/* within a bound of 1.5: the verdict stands and nothing is said */
	a.verdict = SIM_ADVISE_DEPLOY;
	a.max_response = 1.5;
	sim_advise_bound(&a);
	assert_int_equal(a.excluded, 0);
	assert_int_equal(a.verdict, SIM_ADVISE_DEPLOY);
	assert_int_equal(sim_advise_excluded_line(&a, "greedypm", line,
						  sizeof(line)), 0);
	assert_string_equal(line, "");
}

static void test_recommend(void **state)
{
	char b[160];

	(void)state;
	assert_int_equal(sim_advise_recommend("", 0.9, 0.25, b, sizeof(b)), 0);
	assert_string_equal(b, "defer,sched_interval=-1,"
			    "amcbf_util_threshold=0.9,amcbf_bg_min_rate=0.25");
	assert_int_equal(sim_advise_recommend(
		"amcbf_mode=cmbf,amcbf_util_threshold=0.5,,bf_window=60,"
		"amcbf_bg_min_rate=0.1", 0.96, 0, b, sizeof(b)), 0);
	assert_string_equal(b, "defer,sched_interval=-1,amcbf_mode=cmbf,"
			    "bf_window=60,amcbf_util_threshold=0.96,"
			    "amcbf_bg_min_rate=0");
	/* a key that only starts like one of the two stays */
	assert_int_equal(sim_advise_recommend("amcbf_util_threshold_x=1", 0.8,
					      0, b, sizeof(b)), 0);
	assert_string_equal(b, "defer,sched_interval=-1,"
			    "amcbf_util_threshold_x=1,"
			    "amcbf_util_threshold=0.8,amcbf_bg_min_rate=0");
	/* a site's line merged: its sched_interval is the main scheduler's
	 * and goes, defer is given once, spaces around items go, Slurm's
	 * and sched/backfill's other items stay in their order (case as
	 * written; keys matched whatever their case) */
	assert_int_equal(sim_advise_recommend(
		" bf_continue,SCHED_INTERVAL=60, Defer ,max_rpc_cnt=150,"
		"defer,AMCBF_BG_MIN_RATE=0.5,amcbf_interval=30", 0.9, 0, b,
		sizeof(b)), 0);
	assert_string_equal(b, "defer,sched_interval=-1,bf_continue,"
			    "max_rpc_cnt=150,amcbf_interval=30,"
			    "amcbf_util_threshold=0.9,amcbf_bg_min_rate=0");
	/* sched_interval_x is not sched_interval, bare sched_interval no
	 * value: both stay (Slurm would complain of them, not we) */
	assert_int_equal(sim_advise_recommend("sched_min_interval=2", 0.8, 0,
					      b, sizeof(b)), 0);
	assert_string_equal(b, "defer,sched_interval=-1,sched_min_interval=2,"
			    "amcbf_util_threshold=0.8,amcbf_bg_min_rate=0");
	assert_int_equal(sim_advise_recommend("", 0.8, 0, b, 20), -1);
	assert_int_equal(sim_advise_recommend("", 0.8, 0, b, 50), -1);
}

/* The deployed line sets the replay: the mode's policy and the
 * consolidation keys, and for amcbf_mode=dfrs the plugin's model. */
static void test_deploy(void **state)
{
	sim_advise_opts_t o;
	dfrs_params_t p;
	char err[256];

	(void)state;
	sim_advise_opts_defaults(&o);
	assert_int_equal(sim_advise_deploy(&o, "", &p, err, sizeof(err)), 0);
	assert_string_equal(o.policy, "amcbf");
	near(o.model.sched.util_threshold, 0.8);
	near(o.cpu_default, 1);
	near(o.model.dfrs_requeue, 1);
	near(o.model.dfrs_max_requeues, 3);
	near(o.model.dfrs_min_yield, 0.25);
	near(o.model.dfrs_ckpt_share, 0);
	assert_int_equal(sim_advise_deploy(&o, "defer,sched_interval=-1,"
		"amcbf_mode=dfrs,amcbf_dfrs_policy=mcb,amcbf_max_preempt=1000,"
		"amcbf_dfrs_starve_bsld=300,amcbf_dfrs_period=1200,"
		"amcbf_dfrs_minvt=60,amcbf_dfrs_repack_algorithms=1,"
		"amcbf_dfrs_repack_drift=0.1,amcbf_dfrs_repack_tolerance=0.01,"
		"dfrs_min_yield=0.5,amcbf_ckpt_signal=USR1,dfrs_cpu_need=0.5,"
		"amcbf_util_threshold=0.9", &p, err, sizeof(err)), 0);
	assert_string_equal(o.policy, "mcb");
	near(o.model.sched.util_threshold, 0.9);
	near(o.cpu_default, 0.5);
	near(o.model.dfrs_max_requeues, 1000);
	near(o.model.dfrs_starve_bsld, 300);
	near(o.model.dfrs_period, 1200);
	near(o.model.dfrs_minvt, 60);
	near(o.model.dfrs_repack_algorithms, 1);
	near(o.model.dfrs_repack_drift, 0.1);
	near(o.model.dfrs_repack_tolerance, 0.01);
	near(o.model.dfrs_min_yield, 0.5);
	/* the signal goes only to jobs that asked (none by default) */
	near(o.model.dfrs_ckpt_share, 0);
	assert_int_equal(o.ckpt_signo, SIGUSR1);
	assert_int_equal(o.ckpt_wait, 30);
	assert_int_equal(sim_advise_deploy(&o, "amcbf_mode=dfrs,"
		"amcbf_dfrs_policy=greedypmr,amcbf_dfrs_wide_share=0.5,"
		"amcbf_dfrs_long_time=600,amcbf_dfrs_long_min_yield=0.6", &p,
		err, sizeof(err)), 0);
	assert_string_equal(o.policy, "greedypmr");
	near(o.model.dfrs_wide_share, 0.5);
	near(o.model.dfrs_long_time, 600);
	near(o.model.dfrs_long_min_yield, 0.6);
	assert_int_equal(sim_advise_deploy(&o, "amcbf_mode=fast", &p, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "amcbf_mode=fast"));
}

/* No error from dfrs params --check's function; at most the warnings
 * given. */
static void assert_passes_check(const char *line, size_t max_warnings)
{
	dfrs_check_t chk;

	dfrs_params_check(line, &chk);
	for (size_t i = 0; i < chk.n; i++)
		print_message("%s: %s\n", line, chk.notes[i].text);
	assert_int_equal(chk.errors, 0);
	assert_true(chk.warnings <= max_warnings);
	assert_true(dfrs_params_owns_starts(line));
}

/*
 * What dfrs advise recommends on a history (and slurm.conf, or none), as
 * cmd_advise sets it up, one seed and one load: every line it could
 * recommend (one per point of the sweep) and the one the report prints
 * pass the check dfrs params --check runs, with no warning either, and
 * keep the deployed line's own items (keep).  The deployed line is given
 * (--params), else the slurm.conf's, else none.  Returns the printed line
 * in out.
 */
static void advise_lines(const char *history, const char *conf_path,
			 const char *given, const char *keep, char *out,
			 size_t len)
{
	slurmconf_t conf;
	sim_advise_opts_t o;
	sim_advise_t a;
	dfrs_params_t p;
	trace_t t = { 0 };
	char err[512], line[1200];

	sim_advise_opts_defaults(&o);
	if (conf_path)
		assert_int_equal(slurmconf_read(conf_path, &conf, err,
						sizeof(err)), 0);
	const char *params = given ? given
			     : conf_path ? conf.sched_params : "";
	assert_int_equal(sim_advise_deploy(&o, params, &p, err, sizeof(err)),
			 0);
	assert_int_equal(trace_read(history, NULL, &t, err, sizeof(err)), 0);
	o.wopts.procs_per_node = conf_path ? conf.cpus_min : 1;
	o.wopts.nodes = conf_path ? conf.nodes
				  : (int)trace_machine_procs(&t);
	o.nseeds = 1;
	o.nloads = 1;
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), 0);
	assert_true(a.nsweep >= 9);
	for (size_t i = 0; i < a.nsweep; i++) {
		assert_int_equal(sim_advise_recommend(params,
			a.sweep[i].util_threshold, a.sweep[i].bg_min_rate,
			line, sizeof(line)), 0);
		assert_passes_check(line, 0);
		assert_non_null(strstr(line, keep));
	}
	sim_advise_report_t r = {
		.history = history, .trace = &t, .a = &a, .policy = o.policy,
		.params = params, .params_from = "test",
		.util_threshold = p.util_threshold,
		.bg_min_rate = p.bg_min_rate,
	};
	assert_int_equal(sim_advise_recommended(&r, out, len), 0);
	assert_passes_check(out, 0);
	sim_advise_free(&a);
	trace_free(&t);
}

/* The shipped sample (contribs/data: sacct export and its slurm.conf,
 * whose SchedulerParameters are kept) and an SWF trace without a
 * slurm.conf (the defaults): what advise recommends starts jobs. */
static void test_recommended_lines_pass_check(void **state)
{
	char line[1200];

	(void)state;
	advise_lines(SAMPLE_SACCT, SAMPLE_CONF, NULL, "amcbf_mode=amcbf,",
		     line, sizeof(line));
	print_message("sample: %s\n", line);
	assert_int_equal(strncmp(line, "defer,sched_interval=-1,amcbf_mode="
				 "amcbf,amcbf_util_threshold=", 62), 0);
	/* the line the sample's slurm.conf had, which leaves the main
	 * scheduler on */
	advise_lines(SAMPLE_SACCT, SAMPLE_CONF,
		     "amcbf_mode=amcbf,amcbf_interval=30",
		     "amcbf_mode=amcbf,amcbf_interval=30,", line, sizeof(line));
	assert_int_equal(strncmp(line, "defer,sched_interval=-1,amcbf_mode="
				 "amcbf,amcbf_interval=30,amcbf_util_"
				 "threshold=", 80), 0);
	advise_lines(DFRS_TEST_DATA_DIR "/live-excerpt.swf", NULL, NULL,
		     "defer,sched_interval=-1,amcbf_util_threshold=", line,
		     sizeof(line));
	print_message("swf: %s\n", line);
}

/*
 * Four jobs, two partitions: arrivals 0, 0, 10, 20; run times 100, 5, 10,
 * 50; 1, 1, 2, 8 nodes.  Starts 0, 100, 10, 60.
 *   waits 0, 100, 0, 40; responses 100, 105, 10, 90;
 *   bounded slowdowns (Gamma 10): 1, 105/10 = 10.5, 1, 90/50 = 1.8.
 */
/* A history of array tasks (and nothing else advise warns of) names no
 * blocker: sched/amcbf starts array tasks as single jobs.  A
 * heterogeneous job's parts still are one. */
static void test_arrays_no_blocker(void **state)
{
	trace_t t = { .array_tasks = 30 };
	sim_advise_report_t r = { .trace = &t, .priority_type = "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	out = open_memstream(&buf, &len);
	sim_advise_report_blockers(out, &r);
	fclose(out);
	assert_string_equal(buf,
		"Blockers found in the history and slurm.conf:\n"
		"  none of: heterogeneous jobs, GRES, reservations, priority/multifactor\n"
		"  under a stretch order (the sacct columns JobID, AllocTRES, Reservation; slurm.conf's PriorityType)\n");
	free(buf);
	t.het_components = 2;
	buf = NULL;
	out = open_memstream(&buf, &len);
	sim_advise_report_blockers(out, &r);
	fclose(out);
	assert_string_equal(buf,
		"Blockers found in the history and slurm.conf:\n"
		"  2 parts of heterogeneous jobs (JobID 7+1): sched/amcbf never starts them;\n"
		"    they stay pending (one log line)\n");
	free(buf);
}

/* priority/multifactor is a blocker only where the deployed mode orders
 * by stretch and overwrites the priority (amcbf_mode=dfrs,
 * amcbf_priority=stretch); amcbf_priority=priority, the default, orders
 * by Slurm's job priority, multifactor's included */
static void test_multifactor_blocker_only_under_stretch(void **state)
{
	trace_t t = { 0 };
	sim_advise_report_t r = { .trace = &t,
				  .priority_type = "priority/multifactor" };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	out = open_memstream(&buf, &len);
	sim_advise_report_blockers(out, &r);
	fclose(out);
	assert_string_equal(buf,
		"Blockers found in the history and slurm.conf:\n"
		"  none of: heterogeneous jobs, GRES, reservations, priority/multifactor\n"
		"  under a stretch order (the sacct columns JobID, AllocTRES, Reservation; slurm.conf's PriorityType)\n");
	free(buf);
	r.stretch_priority = 1;
	buf = NULL;
	out = open_memstream(&buf, &len);
	sim_advise_report_blockers(out, &r);
	fclose(out);
	assert_string_equal(buf,
		"Blockers found in the history and slurm.conf:\n"
		"  PriorityType=priority/multifactor: the deployed mode orders the queue by DFRS stretch and\n"
		"    overwrites pending jobs' priority (amcbf_mode=dfrs or amcbf_priority=stretch):\n"
		"    fairshare, QOS and age no longer order it\n");
	free(buf);
}

static void test_cell(void **state)
{
	sim_job_t jobs[4] = {
		{ .arrival = 0, .runtime = 100, .nodes = 1 },
		{ .arrival = 0, .runtime = 5, .nodes = 1 },
		{ .arrival = 10, .runtime = 10, .nodes = 2 },
		{ .arrival = 20, .runtime = 50, .nodes = 8 },
	};
	sim_job_result_t res[4] = {
		{ .first_start = 0, .finish = 100 },
		{ .first_start = 100, .finish = 105 },
		{ .first_start = 10, .finish = 20 },
		{ .first_start = 60, .finish = 110 },
	};
	sim_workload_t w = { .jobs = jobs, .njobs = 4, .nodes = 8 };
	sim_result_t r = { .jobs = res, .njobs = 4 };
	int part[4] = { 1, 2, 1, 2 };
	sim_advise_cell_t c;

	(void)state;
	sim_advise_cell(&w, &r, part, 0, -1, &c);
	assert_int_equal(c.jobs, 4);
	near(c.wait_p50, 0);
	near(c.wait_p95, 100);
	near(c.wait_mean, 35);
	near(c.bsld_p50, 1);
	near(c.bsld_p95, 10.5);
	near(c.bsld_mean, (1 + 10.5 + 1 + 1.8) / 4);
	sim_advise_cell(&w, &r, part, 2, -1, &c);	/* jobs 2 and 4 */
	assert_int_equal(c.jobs, 2);
	near(c.wait_p50, 40);
	near(c.bsld_p50, 1.8);
	near(c.bsld_p95, 10.5);
	sim_advise_cell(&w, &r, part, 0, 0, &c);	/* size 1: jobs 1, 2 */
	assert_int_equal(c.jobs, 2);
	near(c.wait_mean, 50);
	sim_advise_cell(&w, &r, part, 1, 2, &c);	/* 5-16 in 1: none */
	assert_int_equal(c.jobs, 0);
	near(c.bsld_p95, 0);
}

static const char history[] =
	"JobID|JobIDRaw|Partition|Submit|Start|End|ElapsedRaw|AllocCPUS|"
	"TimelimitRaw|TotalCPU|AllocTRES|Reservation\n"
	"1|1|batch|2024-03-01T00:00:00|2024-03-01T00:00:00|"
	"2024-03-01T00:01:40|100|4|10|00:03:20|cpu=4,node=1|\n"
	"2_1|3|short|2024-03-01T00:00:10|2024-03-01T00:00:10|"
	"2024-03-01T00:00:20|10|4|10|00:00:00|cpu=4,gres/gpu=1,node=1|\n"
	"4+0|4|short|2024-03-01T00:00:20|2024-03-01T00:00:20|"
	"2024-03-01T00:00:50|30|4|10|00:00:00|cpu=4,node=1|maint\n"
	"4+1|5|batch|2024-03-01T00:00:30|2024-03-01T00:00:30|"
	"2024-03-01T00:00:40|10|4|10|00:00:00|cpu=4,node=1|\n"
	"4.batch|4.batch|short|2024-03-01T00:00:20|2024-03-01T00:00:20|"
	"2024-03-01T00:00:50|30|4|10|00:00:00|cpu=4,node=1|\n";

/* Four one-node jobs on four nodes of 4 CPUs: nobody waits, so every policy
 * gives the same schedule, ratio 1 for every seed: no clear difference. */
static void test_run_no_queue(void **state)
{
	sim_advise_opts_t o;
	sim_advise_t a;
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(history, strlen(history), "h.csv", NULL,
				     &t, err, sizeof(err)), 0);
	sim_advise_opts_defaults(&o);
	o.wopts.nodes = 4;
	o.wopts.procs_per_node = 4;
	o.nseeds = 3;
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), 0);
	assert_int_equal(a.jobs, 4);
	assert_int_equal(a.nodes, 4);
	assert_int_equal(a.cpu_from_trace, 1);	/* job 1: 200 s / 4 / 100 s */
	assert_int_equal(a.nloads, 2);
	near(a.loads[0].ratio_lo[0], 1);
	near(a.loads[0].ratio_hi[0], 1);
	near(a.loads[0].bsld_mean[SIM_ADVISE_CONSERVATIVE], 1);
	assert_int_equal(a.verdict, SIM_ADVISE_NO_CLEAR_DIFFERENCE);
	/* nothing waits: every policy's response is EASY's, within 1.25 x */
	near(a.max_response, SIM_ADVISE_MAX_RESPONSE);
	near(a.response_ratio, 1);
	assert_int_equal(a.excluded, 0);
	/* all + 1 node; batch + 1; short + 1 */
	assert_int_equal(a.ngroups, 6);
	assert_int_equal(a.groups[2].partition, 1);
	assert_int_equal(a.groups[2].size_class, -1);
	assert_int_equal(a.groups[2].cell[SIM_ADVISE_DEPLOYED].jobs, 2);
	/* the deployed point first, then the 3 x 3 grid without it again */
	assert_int_equal(a.nsweep, 9);
	assert_int_equal(a.best, 0);
	/* 2 loads x (4 baselines once + 3 seeds of the deployed policy) +
	 * the two other CPU-need sources x 3 seeds at the first load +
	 * 9 points x 3 seeds: the baselines' schedule is the same for every
	 * seed when each process's CPU use is the history's or cpu_default */
	/* + greedypmr over the 3 seeds at the first load: nothing waits
	 * there either, its mean bsld is the deployed mode's: not
	 * recommended */
	assert_int_equal(a.runs, 2 * (4 + 3) + 2 * 3 + 27 + 3);
	assert_int_equal(a.alt_run, 1);
	near(a.alt_bsld, 1);
	assert_int_equal(a.alt_wins, 0);
	/* nothing waits: the three CPU-need rows are conservative's */
	assert_int_equal(a.need_source, SIM_NEED_MEASURED);
	for (int src = 0; src <= SIM_NEED_NONE; src++) {
		near(a.need_ratio_lo[src], 1);
		near(a.need_ratio_hi[src], 1);
		near(a.need_bsld[src], 1);
	}
	sim_advise_free(&a);

	/* Liu et al.'s CPU model draws from the seed: every replay is run */
	o.cpu_default = 0;
	o.sweep = 0;
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), 0);
	assert_int_equal(a.runs, 2 * 3 * 5 + 2 * 3 + 3);
	assert_int_equal(a.nsweep, 0);
	sim_advise_free(&a);

	/* greedypmr deployed, or --no-alternative: not replayed again */
	o.policy = "greedypmr";
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), 0);
	assert_int_equal(a.alt_run, 0);
	assert_int_equal(a.runs, 2 * 3 * 5 + 2 * 3);
	sim_advise_free(&a);
	o.policy = "amcbf";
	o.alternative = 0;
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), 0);
	assert_int_equal(a.alt_run, 0);
	sim_advise_free(&a);

	o.policy = "nosuch";
	assert_int_equal(sim_advise_run(&t, &o, &a, err, sizeof(err)), -1);
	assert_string_equal(err, "the simulator has no policy 'nosuch' to "
			    "model the deployed mode");
	trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_best_baseline),
		cmocka_unit_test(test_over_response),
		cmocka_unit_test(test_alt_wins),
		cmocka_unit_test(test_best_within_response),
		cmocka_unit_test(test_bound_refuses),
		cmocka_unit_test(test_deploy),
		cmocka_unit_test(test_recommend),
		cmocka_unit_test(test_recommended_lines_pass_check),
		cmocka_unit_test(test_arrays_no_blocker),
		cmocka_unit_test(test_multifactor_blocker_only_under_stretch),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_run_no_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
