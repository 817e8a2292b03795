/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_params.c - sched/amcbf's SchedulerParameters parser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "dfrs/dfrs_online.h"
#include "suite/dfrs_params.h"

static void test_defaults(void **state)
{
	dfrs_params_t p;
	char err[256] = "";

	assert_int_equal(dfrs_params_parse(NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.mode, AMCBF_MODE_AMCBF);
	assert_int_equal(p.priority, AMCBF_PRIO_PRIORITY);
	assert_int_equal(p.interval, 30);
	assert_true(p.util_threshold == 0.8);
	assert_int_equal(p.reserve, 1);
	assert_int_equal(p.requeue_victims, 2);	/* auto */
	assert_true(p.min_idle_cpu == 0.04);
	assert_int_equal(p.max_preempt, 3);
	assert_int_equal(p.min_runtime, 0);
	assert_int_equal(p.max_preempt_per_cycle, 8);
	assert_int_equal(p.yield_interval, 200);
	assert_string_equal(p.partitions, "all");
	assert_string_equal(p.exempt_qos, "none");
	assert_int_equal(p.ckpt_signal, AMCBF_CKPT_NONE);
	assert_int_equal(p.ckpt_wait, 30);
	assert_int_equal(p.dfrs_policy, DFRS_POLICY_GREEDYPM);
	assert_string_equal(dfrs_online_policy_name(p.dfrs_policy), "greedypm");
	assert_int_equal(p.dfrs_period, 600);
	assert_int_equal(p.dfrs_minvt, 600);
	assert_int_equal(p.dfrs_repack_algorithms, 14);
	assert_float_equal(p.dfrs_repack_drift, 0.0, 0.0);
	assert_float_equal(p.dfrs_repack_tolerance, 0.0, 0.0);
	assert_float_equal(p.dfrs_starve_bsld, 1000.0, 0.0);
	assert_int_equal(p.dfrs_max_start_per_cycle, 8);
	assert_true(dfrs_params_manages_partition(&p, "anything"));
	assert_false(dfrs_params_qos_exempt(&p, "none"));
	assert_null(dfrs_params_ckpt_signal_name(p.ckpt_signal));
	assert_int_equal(dfrs_params_ckpt_signo(p.ckpt_signal), 0);
	assert_string_equal(dfrs_params_avail_policy_name(p.avail_policy), "observe");
	assert_int_equal(p.avail_slot, 60);
	assert_true(p.avail_zeta == 1);
	assert_int_equal(p.avail_half_life, 0);
	assert_true(p.avail_beta == 0.999);
	assert_true(p.avail_migration_cost == 300);
}

/* The availability keys: every policy name, and beta stays below 1. */
static void test_avail_keys(void **state)
{
	const char *names[] = { "off", "observe", "threshold", "myopic",
				"wait", "migrate" };
	dfrs_params_t p;
	char err[256], in[128];

	for (int i = 0; i < 6; i++) {
		snprintf(in, sizeof(in), "amcbf_avail_policy=%s", names[i]);
		assert_int_equal(dfrs_params_parse(in, &p, err, sizeof(err)), 0);
		assert_int_equal(p.avail_policy, i);
		assert_string_equal(dfrs_params_avail_policy_name(p.avail_policy), names[i]);
	}
	assert_int_equal(dfrs_params_parse("amcbf_avail_slot=2,amcbf_avail_zeta=0.15,"
					    "amcbf_avail_migration_cost=0.5",
					    &p, err, sizeof(err)), 0);
	assert_int_equal(p.avail_slot, 2);
	assert_true(p.avail_zeta == 0.15);
	assert_true(p.avail_migration_cost == 0.5);
	assert_int_equal(dfrs_params_parse("amcbf_avail_beta=1", &p, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "amcbf_avail_beta"));
	assert_int_equal(dfrs_params_parse("amcbf_avail_policy=sometimes", &p,
					    err, sizeof(err)), -1);
	assert_non_null(strstr(err, "amcbf_avail_policy"));
	assert_int_equal(dfrs_params_parse("amcbf_avail_slot=0", &p, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "amcbf_avail_slot"));
}

/* Name lists: exact names, ':' separated; "all" / "none" are the defaults. */
static void test_name_lists(void **state)
{
	dfrs_params_t p;
	char err[256] = "";

	assert_int_equal(dfrs_params_parse("amcbf_partitions=batch:long-1,"
					    "amcbf_exempt_qos=high,"
					    "amcbf_ckpt_signal=usr1,amcbf_ckpt_wait=5",
					    &p, err, sizeof(err)), 0);
	assert_true(dfrs_params_manages_partition(&p, "batch"));
	assert_true(dfrs_params_manages_partition(&p, "long-1"));
	assert_false(dfrs_params_manages_partition(&p, "long"));
	assert_false(dfrs_params_manages_partition(&p, "batch:long-1"));
	assert_false(dfrs_params_manages_partition(&p, "debug"));
	assert_false(dfrs_params_manages_partition(&p, NULL));
	assert_true(dfrs_params_qos_exempt(&p, "high"));
	assert_false(dfrs_params_qos_exempt(&p, "hig"));
	assert_false(dfrs_params_qos_exempt(&p, "normal"));
	assert_false(dfrs_params_qos_exempt(&p, NULL));
	assert_string_equal(dfrs_params_ckpt_signal_name(p.ckpt_signal), "USR1");
	assert_int_equal(p.ckpt_wait, 5);
	/* each name's signal number, as the plugin sends it */
	assert_int_equal(dfrs_params_ckpt_signo(p.ckpt_signal), SIGUSR1);
	assert_int_equal(dfrs_params_ckpt_signo(AMCBF_CKPT_USR2), SIGUSR2);
	assert_int_equal(dfrs_params_ckpt_signo(AMCBF_CKPT_TERM), SIGTERM);
	assert_int_equal(dfrs_params_ckpt_signo(AMCBF_CKPT_INT), SIGINT);
	assert_int_equal(dfrs_params_ckpt_signo(AMCBF_CKPT_HUP), SIGHUP);
	assert_int_equal(dfrs_params_ckpt_signo((amcbf_ckpt_signal_t)99), 0);
}

static void test_ours_among_slurms(void **state)
{
	dfrs_params_t p;
	char err[256] = "";
	const char *s = "bf_interval=30,amcbf_mode=CMBF,defer,"
			"amcbf_interval=5,sched_interval=-1,"
			"amcbf_util_threshold=0.9,amcbf_priority=stretch,"
			"dfrs_min_yield=0.5";

	assert_int_equal(dfrs_params_parse(s, &p, err, sizeof(err)), 0);
	assert_int_equal(p.mode, AMCBF_MODE_CMBF);
	assert_int_equal(p.interval, 5);
	assert_true(p.util_threshold == 0.9);
	assert_true(p.min_idle_cpu == 0.04);
	assert_int_equal(p.priority, AMCBF_PRIO_STRETCH);
	assert_true(p.share_min_yield == 0.5);
	assert_true(p.share_cpu_need == 1.0);
}

/* A bad entry fails, names the key and value, and leaves *p untouched. */
static void expect_error(const char *s, const char *needle)
{
	dfrs_params_t p, before;
	char err[256] = "";

	dfrs_params_parse("amcbf_interval=7", &p, err, sizeof(err));
	before = p;
	assert_int_equal(dfrs_params_parse(s, &p, err, sizeof(err)), -1);
	assert_memory_equal(&p, &before, sizeof(p));
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
}

static void test_errors(void **state)
{
	expect_error("amcbf_interval=abc", "amcbf_interval=abc: not an integer in 1..3600");
	expect_error("amcbf_interval=0", "amcbf_interval=0");
	expect_error("amcbf_interval=5x", "amcbf_interval=5x");
	expect_error("amcbf_util_threshold=1.5", "amcbf_util_threshold=1.5: not a number in 0..1");
	expect_error("amcbf_util_threshold=nan", "amcbf_util_threshold=nan");
	expect_error("amcbf_mode=easy", "amcbf_mode=easy: must be one of amcbf, cmbf, ambf, cmcbf, dfrs");
	expect_error("amcbf_bogus=1", "amcbf_bogus: unknown parameter");
	expect_error("amcbf_mode", "amcbf_mode: missing value");
	expect_error("amcbf_mode=", "amcbf_mode: missing value");
	expect_error("dfrs_min_yield=0", "dfrs_min_yield=0: not a number in 0.01..1");
	expect_error("dfrs_cpu_need=2", "dfrs_cpu_need=2: not a number in 0.01..1");
	expect_error("bf_interval=3,dfrs_bogus=1", "dfrs_bogus: unknown parameter");
	expect_error("amcbf_partitions=a::b", "amcbf_partitions=a::b: empty name in the list");
	expect_error("amcbf_partitions=a:", "amcbf_partitions=a:: empty name");
	expect_error("amcbf_exempt_qos=hi gh", "amcbf_exempt_qos=hi gh: ' ' is not allowed in a name");
	expect_error("amcbf_ckpt_signal=KILL", "amcbf_ckpt_signal=KILL: must be one of none, USR1, USR2, TERM, INT, HUP");
	expect_error("amcbf_dfrs_policy=easy", "amcbf_dfrs_policy=easy: must be one of greedyp, greedypm, mcb");
	expect_error("amcbf_ckpt_wait=-1", "amcbf_ckpt_wait=-1: not an integer in 0..3600");
	expect_error("amcbf_extend_past_limits=2", "amcbf_extend_past_limits=2: not an integer in 0..1");
	/* control characters of the input are not passed into the log line
	 * (found by fuzzing: a newline split the message) */
	expect_error("amcbf_par\nti\x7f=1", "SchedulerParameters amcbf_par?ti?: unknown parameter");
	expect_error("amcbf_mode=a\tb\r", "amcbf_mode=a?b?: must be one of");
}

/* amcbf_metrics_file: none or an absolute path ending in .prom, taken
 * whole; anything else refused with one line naming it. */
static void test_metrics_file(void **state)
{
	dfrs_params_t p;
	char err[256];

	(void)state;
	assert_int_equal(dfrs_params_parse(NULL, &p, err, sizeof(err)), 0);
	assert_string_equal(p.metrics_file, "none");
	assert_int_equal(p.metrics_interval, 15);
	assert_int_equal(dfrs_params_parse("amcbf_metrics_file=/var/lib/node_exporter/slurm-dfrs.prom,amcbf_metrics_interval=5",
					    &p, err, sizeof(err)), 0);
	assert_string_equal(p.metrics_file, "/var/lib/node_exporter/slurm-dfrs.prom");
	assert_int_equal(p.metrics_interval, 5);
	assert_int_equal(dfrs_params_parse("amcbf_metrics_file=metrics.prom", &p,
					    err, sizeof(err)), -1);
	assert_string_equal(err, "SchedulerParameters amcbf_metrics_file=metrics.prom: not none or an absolute path ending in .prom");
	assert_int_equal(dfrs_params_parse("amcbf_metrics_file=/tmp/m.txt", &p,
					    err, sizeof(err)), -1);
	assert_string_equal(err, "SchedulerParameters amcbf_metrics_file=/tmp/m.txt: not none or an absolute path ending in .prom");
	assert_int_equal(dfrs_params_parse("amcbf_metrics_file=/tmp/a b.prom", &p,
					    err, sizeof(err)), -1);
	assert_string_equal(err, "SchedulerParameters amcbf_metrics_file=/tmp/a b.prom: ' ' is not allowed in the path");
	assert_int_equal(dfrs_params_parse("amcbf_metrics_interval=0", &p,
					    err, sizeof(err)), -1);
}

static void test_format_roundtrip(void **state)
{
	dfrs_params_t p, q;
	char err[256], line[2048], csv[2048];

	assert_int_equal(dfrs_params_parse("amcbf_mode=dfrs,amcbf_min_idle_cpu=0.1",
					    &p, err, sizeof(err)), 0);
	dfrs_params_format(&p, line, sizeof(line));
	assert_string_equal(line, "amcbf_mode=dfrs amcbf_priority=priority amcbf_interval=30 "
			    "amcbf_util_threshold=0.8 amcbf_min_idle_cpu=0.1 "
			    "amcbf_bg_min_rate=0 amcbf_reserve=1 amcbf_requeue_victims=auto "
			    "amcbf_max_preempt=3 amcbf_min_runtime=0 "
			    "amcbf_max_preempt_per_cycle=8 amcbf_yield_interval=200 "
			    "amcbf_max_read_time=200 "
			    "amcbf_drift_window=3600 amcbf_drift_factor=3 "
			    "amcbf_drift_min_work=600 "
			    "amcbf_metrics_file=none amcbf_metrics_interval=15 "
			    "amcbf_partitions=all amcbf_exempt_qos=none "
			    "amcbf_ckpt_signal=none amcbf_ckpt_wait=30 "
			    "amcbf_extend_past_limits=0 "
			    "amcbf_dfrs_policy=greedypm amcbf_dfrs_period=600 "
			    "amcbf_dfrs_minvt=600 amcbf_dfrs_repack_algorithms=14 "
			    "amcbf_dfrs_repack_drift=0 amcbf_dfrs_repack_tolerance=0 "
			    "amcbf_dfrs_starve_bsld=1000 amcbf_dfrs_wide_share=0.25 "
			    "amcbf_dfrs_long_time=3600 amcbf_dfrs_long_min_yield=0.75 "
			    "amcbf_dfrs_max_start_per_cycle=8 "
			    "amcbf_avail_policy=observe amcbf_avail_slot=60 "
			    "amcbf_avail_zeta=1 amcbf_avail_half_life=0 "
			    "amcbf_avail_beta=0.999 "
			    "amcbf_avail_migration_cost=300 amcbf_avail_wait_factor=3 "
			    "amcbf_avail_drain_acts=0 "
			    "dfrs_cpu_need=1 dfrs_min_yield=0.25 "
			    "dfrs_need_stale=180");
	strcpy(csv, line);
	for (char *c = csv; *c; c++)
		if (*c == ' ')
			*c = ',';
	assert_int_equal(dfrs_params_parse(csv, &q, err, sizeof(err)), 0);
	assert_memory_equal(&p, &q, sizeof(p));
}

/* A short buffer truncates without overflowing. */
static void test_format_truncates(void **state)
{
	dfrs_params_t p;
	char buf[12];

	dfrs_params_defaults(&p);
	memset(buf, 'x', sizeof(buf));
	dfrs_params_format(&p, buf, 10);
	assert_int_equal(strlen(buf), 9);
	assert_int_equal(buf[10], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_ours_among_slurms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_name_lists),
		cmocka_unit_test(test_avail_keys),
		cmocka_unit_test(test_metrics_file),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_format_truncates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
