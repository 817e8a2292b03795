/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_guardrails.c - the checks that stop a misconfiguration before it is
 * deployed or simulated: dfrs params --check's errors and warnings
 * (dfrs_params_check.c), "did you mean" (name_suggest.c), policy names
 * whatever their case (sim_policy.c, avail_policy.c), slurm.conf names
 * for --param
 * (sim_params.c) and its warning for a requeue-model parameter set without
 * dfrs_requeue=1, array and heterogeneous job ids counted in a sacct
 * history (trace_sacct.c), and dfrs_cpu_need as the CPU usage of the jobs
 * a trace says nothing of (sim_workload.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "avail/avail_policy.h"
#include "sim/sim_params.h"
#include "sim/sim_policy.h"
#include "sim/sim_workload.h"
#include "suite/dfrs_params_check.h"
#include "suite/name_suggest.h"
#include "trace/trace.h"

#define GOOD "defer,sched_interval=-1"

static void check(const char *sp, dfrs_check_t *c)
{
	dfrs_params_check(sp, c);
}

static void test_owns_starts(void **state)
{
	(void)state;
	assert_true(dfrs_params_owns_starts("defer,sched_interval=-1"));
	assert_true(dfrs_params_owns_starts("sched_interval=-1,bf_continue,DEFER"));
	assert_true(dfrs_params_owns_starts("amcbf_mode=cmbf,defer,sched_interval=-1"));
	assert_false(dfrs_params_owns_starts(NULL));
	assert_false(dfrs_params_owns_starts(""));
	assert_false(dfrs_params_owns_starts("defer,sched_interval=60"));
	assert_false(dfrs_params_owns_starts("sched_interval=-1"));
	assert_false(dfrs_params_owns_starts("defer"));
	/* slurmctld reads -10 as an invalid interval: its scheduler runs */
	assert_false(dfrs_params_owns_starts("defer,sched_interval=-10"));
	/* slurmctld reads the first sched_interval= */
	assert_false(dfrs_params_owns_starts("defer,sched_interval=5,sched_interval=-1"));
	/* " defer" is not the item "defer" */
	assert_false(dfrs_params_owns_starts("sched_interval=-1, defer"));
}

static void test_clean_line(void **state)
{
	dfrs_check_t c;

	(void)state;
	check(GOOD ",amcbf_mode=cmbf,amcbf_partitions=a:b,bf_continue", &c);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 0);
	assert_int_equal(c.n, 0);
	/* a Slurm flag after a name list is Slurm's, not a name */
	check(GOOD ",amcbf_partitions=shared,bf_continue", &c);
	assert_int_equal(c.warnings, 0);
}

static void test_passive(void **state)
{
	dfrs_check_t c;

	(void)state;
	check("defer,sched_interval=60,amcbf_mode=amcbf", &c);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.notes[0].level, DFRS_CHECK_ERROR);
	assert_non_null(strstr(c.notes[0].text, "sched_interval=60, not -1: "
			       "slurmctld's main scheduler would start jobs on "
			       "its own and sched/amcbf would stay passive"));
	check("amcbf_mode=amcbf", &c);
	assert_int_equal(c.errors, 1);
	assert_non_null(strstr(c.notes[0].text,
			       "no 'defer' item and no sched_interval=-1"));
	check("sched_interval=-1", &c);
	assert_int_equal(c.errors, 1);
	assert_non_null(strstr(c.notes[0].text, ": no 'defer' item: "));
}

static void test_parse_error_and_suggestion(void **state)
{
	dfrs_check_t c;

	(void)state;
	check(GOOD ",amcbf_util_treshold=0.5", &c);
	assert_int_equal(c.errors, 1);
	assert_string_equal(c.notes[0].text, "SchedulerParameters "
			    "amcbf_util_treshold: unknown parameter (did you "
			    "mean amcbf_util_threshold?)");
	check(GOOD ",amcbf_mode=cbmf", &c);
	assert_int_equal(c.errors, 1);
	assert_string_equal(c.notes[0].text, "SchedulerParameters "
			    "amcbf_mode=cbmf: must be one of amcbf, cmbf, ambf, "
			    "cmcbf, dfrs (did you mean cmbf?)");
	/* too far from every key: no guess */
	check(GOOD ",amcbf_zzzzzzzz=1", &c);
	assert_string_equal(c.notes[0].text, "SchedulerParameters "
			    "amcbf_zzzzzzzz: unknown parameter (dfrs params "
			    "lists them)");
}

static void test_stray_space(void **state)
{
	dfrs_check_t c;

	(void)state;
	check(GOOD ", amcbf_mode=cmbf", &c);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 1);
	assert_int_equal(c.notes[0].level, DFRS_CHECK_WARNING);
	assert_string_equal(c.notes[0].text, "SchedulerParameters item 3 "
			    "' amcbf_mode=cmbf': stray space; sched/amcbf "
			    "ignores the key with the space before it (remove "
			    "the space)");
	check(GOOD ",bf_window=60 ", &c);
	assert_int_equal(c.warnings, 1);
	assert_non_null(strstr(c.notes[0].text, "item 3 'bf_window=60 ': "
			       "stray space; Slurm and sched/amcbf read"));
}

static void test_duplicates(void **state)
{
	dfrs_check_t c;

	(void)state;
	check(GOOD ",amcbf_interval=10,bf_window=60,AMCBF_INTERVAL=20", &c);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 1);
	assert_string_equal(c.notes[0].text, "SchedulerParameters "
			    "amcbf_interval given 2 times (items 3 and 5): "
			    "sched/amcbf uses the last, 'AMCBF_INTERVAL=20'; "
			    "give it once");
	check(GOOD ",bf_window=60,bf_window=90,bf_window=5", &c);
	assert_int_equal(c.warnings, 1);
	assert_string_equal(c.notes[0].text, "SchedulerParameters bf_window "
			    "given 3 times (items 3 and 5): Slurm uses the "
			    "first, 'bf_window=60'; give it once");
}

static void test_list_separator(void **state)
{
	dfrs_check_t c;

	(void)state;
	check(GOOD ",amcbf_partitions=shared,batch", &c);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 1);
	assert_string_equal(c.notes[0].text, "SchedulerParameters "
			    "amcbf_partitions: ',' ends the list, so 'batch' "
			    "is not in it (and no option of Slurm's); separate "
			    "names with ':' (amcbf_partitions=shared:batch)");
	check(GOOD ",amcbf_exempt_qos=high,urgent,debug,amcbf_mode=cmbf", &c);
	assert_int_equal(c.warnings, 1);
	assert_non_null(strstr(c.notes[0].text, "so 'urgent' and what follows "
			       "are not in it"));
	assert_non_null(strstr(c.notes[0].text,
			       "(amcbf_exempt_qos=high:urgent:debug)"));
}

static void test_suggest(void **state)
{
	const char *const names[] = { "easy", "fcfs", "amcbf", "cmbf", "gang" };

	(void)state;
	assert_string_equal(name_suggest("amcfb", names, 5), "amcbf");
	assert_string_equal(name_suggest("EASY", names, 5), "easy");
	assert_string_equal(name_suggest("eazy", names, 5), "easy");
	assert_null(name_suggest("backfill", names, 5));
	assert_null(name_suggest("", names, 5));
	assert_null(name_suggest(NULL, names, 5));
}

static void test_policy_case(void **state)
{
	sim_policy_t p;

	(void)state;
	assert_int_equal(sim_policy_find("EASY", &p), 0);
	assert_string_equal(p.name, "easy");
	assert_int_equal(sim_policy_find("Gang-Backfill", &p), 0);
	assert_string_equal(p.name, "gang-backfill");
	assert_int_equal(sim_policy_find("amcfb", &p), -1);
	assert_string_equal(sim_policy_suggest("amcfb"), "amcbf");
	assert_string_equal(sim_policy_suggest("greedy-pm"), "greedypm");
	assert_null(sim_policy_suggest("sched/backfill"));

	/* dfrs sim --availability's policies likewise */
	avail_policy_t a;
	char err[160];
	assert_int_equal(avail_policy_parse("Threshold-EST", 3, &a, err,
					    sizeof(err)), 0);
	assert_int_equal(a.kind, AVAIL_POLICY_THRESHOLD_EST);
	assert_int_equal(avail_policy_parse("t2", 3, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, AVAIL_POLICY_FIXED);
	assert_int_equal(a.index, 2);
	assert_int_equal(avail_policy_parse("tresh", 3, &a, err, sizeof(err)), -1);
}

static void test_param_conf_names(void **state)
{
	sim_model_t m;
	char err[256];

	(void)state;
	sim_model_defaults(&m);
	assert_int_equal(sim_param_set(&m, "amcbf_util_threshold", 0.5, err,
				       sizeof(err)), 0);
	assert_true(m.sched.util_threshold == 0.5);
	assert_int_equal(sim_param_set(&m, "amcbf_min_idle_cpu", 0.1, err,
				       sizeof(err)), 0);
	assert_true(m.sched.min_idle_cpu == 0.1);
	assert_int_equal(sim_param_set(&m, "amcbf_bg_min_rate", 0.3, err,
				       sizeof(err)), 0);
	assert_true(m.sched.bg_min_rate == 0.3);
	assert_string_equal(sim_param_key("amcbf_util_threshold"),
			    "util_threshold");
	assert_string_equal(sim_param_key("gang_mpl"), "gang_mpl");
	/* the live speed settings replay as written */
	assert_string_equal(sim_param_key("amcbf_dfrs_repack_drift"),
			    "dfrs_repack_drift");
	assert_string_equal(sim_param_key("amcbf_dfrs_repack_tolerance"),
			    "dfrs_repack_tolerance");
	assert_int_equal(sim_param_set(&m, "amcbf_dfrs_period", 1200, err,
				       sizeof(err)), 0);
	assert_true(m.dfrs_period == 1200);
	assert_int_equal(sim_param_set(&m, "amcbf_util_threshold", 2, err,
				       sizeof(err)), -1);
	assert_string_equal(err, "parameter amcbf_util_threshold=2 is out of "
			    "range 0..1");
}

/* The warnings sim_params_warn_inert writes for m, swept, into buf. */
static int inert_lines(const sim_model_t *m, const char *swept, char *buf,
		       size_t len)
{
	FILE *f;
	int n;

	memset(buf, 0, len);
	f = fmemopen(buf, len, "w");
	assert_non_null(f);
	n = sim_params_warn_inert(f, m, swept);
	fclose(f);
	return n;
}

static void test_requeue_params_inert(void **state)
{
	sim_model_t m;
	char err[256], out[512];

	(void)state;
	sim_model_defaults(&m);
	assert_true(m.dfrs_requeue == 1);		/* as live */
	assert_true(m.dfrs_starve_bsld == 1000);	/* as live */
	assert_int_equal(inert_lines(&m, NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* the requeue model on by default: its parameters act */
	assert_int_equal(sim_param_set(&m, "amcbf_dfrs_starve_bsld", 500, err,
				       sizeof(err)), 0);
	assert_int_equal(inert_lines(&m, "dfrs_max_requeues", out,
				     sizeof(out)), 0);
	/* the papers' free migrations (dfrs_requeue=0): they do not */
	assert_int_equal(sim_param_set(&m, "dfrs_requeue", 0, err,
				       sizeof(err)), 0);
	assert_int_equal(inert_lines(&m, NULL, out, sizeof(out)), 1);
	assert_string_equal(out, "dfrs sim: warning: --param dfrs_starve_bsld "
			    "has no effect without --param dfrs_requeue=1\n");
	/* swept: warned even where its values include the default */
	sim_model_defaults(&m);
	m.dfrs_requeue = 0;
	assert_int_equal(inert_lines(&m, "dfrs_max_requeues", out,
				     sizeof(out)), 1);
	assert_string_equal(out, "dfrs sim: warning: --param dfrs_max_requeues "
			    "has no effect without --param dfrs_requeue=1\n");
	/* the model swept (some settings have it on): no warning */
	m.dfrs_starve_bsld = 500;
	assert_int_equal(inert_lines(&m, "dfrs_requeue", out, sizeof(out)), 0);
	assert_int_equal(sim_param_set(&m, "dfrs_requeue", 1, err,
				       sizeof(err)), 0);
	assert_int_equal(inert_lines(&m, NULL, out, sizeof(out)), 0);
	/* a parameter that needs no other is never warned of */
	sim_model_defaults(&m);
	m.dfrs_requeue = 0;
	m.migration_cost = 5;
	m.dfrs_min_yield = 0;
	assert_int_equal(inert_lines(&m, "gang_mpl", out, sizeof(out)), 0);
}

static void test_history_kinds(void **state)
{
	const char *text =
		"JobID|JobIDRaw|Submit|Start|End|NCPUS|\n"
		"7_1|8|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:01:00|4|\n"
		"7_2|9|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:01:00|4|\n"
		"7_2.batch|9.batch|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:01:00|4|\n"
		"7_[3-5]|7|2024-03-01T00:00:00|||4|\n"
		"10+0|10|2024-03-01T00:00:01|2024-03-01T00:00:10|2024-03-01T00:01:00|2|\n"
		"10+1|11|2024-03-01T00:00:01|2024-03-01T00:00:10|2024-03-01T00:01:00|2|\n"
		"12|12|2024-03-01T00:00:02|2024-03-01T00:00:10|2024-03-01T00:01:00|1|\n";
	trace_t t;
	char err[256];

	(void)state;
	assert_int_equal(trace_parse(text, strlen(text), "h", NULL, &t, err,
				     sizeof(err)), 0);
	assert_int_equal(t.njobs, 5);
	assert_int_equal(t.array_jobs, 2);	/* not the step, not the pending */
	assert_int_equal(t.het_jobs, 2);
	assert_int_equal(t.jobs[0].id, 8);	/* JobIDRaw */
	trace_free(&t);
}

static void test_default_cpu_need(void **state)
{
	trace_job_t jobs[2] = {
		{ .id = 1, .submit = 0, .runtime = 100, .procs = 4,
		  .req_procs = -1, .cpu_used = -1, .req_time = -1 },
		{ .id = 2, .submit = 10, .runtime = 100, .procs = 2,
		  .req_procs = -1, .cpu_used = 50, .req_time = -1 },
	};
	trace_t t = { .jobs = jobs, .njobs = 2, .header_max_procs = 8,
		      .header_max_nodes = -1 };
	sim_workload_opts_t o;
	sim_workload_t w;
	char err[256];

	(void)state;
	sim_workload_opts_defaults(&o);
	assert_true(o.default_cpu_need == 0);
	o.default_cpu_need = 0.3;
	assert_int_equal(sim_workload_build(&t, &o, &w, err, sizeof(err)), 0);
	for (int p = 0; p < 4; p++)
		assert_true(w.jobs[0].util[p] == 0.3);
	/* the trace's own usage wins: 50 s of CPU over 100 s */
	assert_true(w.jobs[1].util[0] == 0.5);
	assert_int_equal(w.cpu_from_trace, 1);
	sim_workload_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owns_starts),
		cmocka_unit_test(test_clean_line),
		cmocka_unit_test(test_passive),
		cmocka_unit_test(test_parse_error_and_suggestion),
		cmocka_unit_test(test_stray_space),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_list_separator),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_policy_case),
		cmocka_unit_test(test_param_conf_names),
		cmocka_unit_test(test_requeue_params_inert),
		cmocka_unit_test(test_history_kinds),
		cmocka_unit_test(test_default_cpu_need),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
