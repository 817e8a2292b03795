/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_metrics.c - sched/amcbf's statistics as Prometheus metrics:
 * the values, names by Prometheus' conventions, and the text format's
 * rules (a HELP and TYPE line before each family's samples, escaped label
 * values), on one sample with every field set.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "suite/sched_metrics.h"

/* Three nodes: estimated and ON, estimated and OFF, never seen. */
static const sched_metrics_node_t nodes[] = {
	{ "n1", 0.875, 1 }, { "n2", 0.25, 0 }, { "n3", NAN, -1 },
};
#define NNODES (sizeof(nodes) / sizeof(nodes[0]))

static sched_stats_t sample(void)
{
	sched_stats_t s = {
		.mode = "amcbf", .cycles = 400, .mean_ms = 0.25,
		.max_ms = 12.5, .started = 57, .preempted = 7, .promoted = 9,
		.demoted = 2, .refused = 1, .pending = 120, .running = 30,
		.updated = 1795372025, .running_fg = 20, .running_bg = 6,
		.migrated = 3, .avail_suspended = 5, .avail_resumed = 4,
		.suspended_now = 1, .lock_hold_max_ms = 161.5,
		.lock_yields = 12, .read_hold_max_ms = 38.25,
		.read_hold_max_cpu_ms = 2.5, .read_hold_max_jobs = 2000,
		.apply_hold_max_ms = 161.5, .apply_hold_max_cpu_ms = 40.25,
		.avail_hold_max_ms = 4.5, .avail_hold_max_cpu_ms = 1.5,
		.other_hold_max_ms = 0.75, .other_hold_max_cpu_ms = 0.5,
		.read_cuts = 3, .read_left = 900, .drifts = 2,
		.drift_active = 1, .limit_added_measured = 340,
		.limit_added_believed = 75, .agents_fresh = 12,
		.agents_stale = 1, .agents_bad = 2, .agents_none = 49,
		.agent_oldest_age = 95,
	};
	double yields[] = { 1, 1, 0.5, 0.3, 0.2, 0.8 };

	for (size_t i = 0; i < sizeof(yields) / sizeof(yields[0]); i++)
		sched_stats_add_yield(&s, yields[i]);
	return s;
}

/* each line of want is a whole line of text */
static void has_lines(const char *text, const char *want)
{
	char *copy = strdup(want), *save = NULL, needle[512];

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		snprintf(needle, sizeof(needle), "\n%s\n", l);
		if (!strstr(text, needle))
			fail_msg("no line \"%s\" in:\n%s", l, text);
	}
	free(copy);
}

static void test_values(void **state)
{
	sched_stats_t s = sample();
	char *text = sched_metrics_text(&s, nodes, NNODES);

	(void)state;
	assert_non_null(text);
	assert_true(!strncmp(text, "# HELP slurm_dfrs_info ", 23));
	has_lines(text,
		  "slurm_dfrs_info{mode=\"amcbf\"} 1\n"
		  "slurm_dfrs_cycles_total 400\n"
		  "slurm_dfrs_cycle_seconds_total 0.1\n"
		  "slurm_dfrs_cycle_max_seconds 0.0125\n"
		  "slurm_dfrs_lock_hold_max_seconds 0.1615\n"
		  "slurm_dfrs_lock_yields_total 12\n"
		  "slurm_dfrs_read_hold_max_seconds 0.03825\n"
		  "slurm_dfrs_read_hold_max_cpu_seconds 0.0025\n"
		  "slurm_dfrs_phase_hold_max_seconds{phase=\"read\"} 0.03825\n"
		  "slurm_dfrs_phase_hold_max_seconds{phase=\"apply\"} 0.1615\n"
		  "slurm_dfrs_phase_hold_max_seconds{phase=\"availability\"} 0.0045\n"
		  "slurm_dfrs_phase_hold_max_seconds{phase=\"bookkeeping\"} 0.00075\n"
		  "slurm_dfrs_phase_hold_max_cpu_seconds{phase=\"read\"} 0.0025\n"
		  "slurm_dfrs_phase_hold_max_cpu_seconds{phase=\"apply\"} 0.04025\n"
		  "slurm_dfrs_phase_hold_max_cpu_seconds{phase=\"availability\"} 0.0015\n"
		  "slurm_dfrs_phase_hold_max_cpu_seconds{phase=\"bookkeeping\"} 0.0005\n"
		  "slurm_dfrs_read_hold_max_jobs 2000\n"
		  "slurm_dfrs_read_cuts_total 3\n"
		  "slurm_dfrs_read_deferred_jobs_total 900\n"
		  "slurm_dfrs_drifts_total 2\n"
		  "slurm_dfrs_drift_active 1\n"
		  "slurm_dfrs_jobs_started_total 57\n"
		  "slurm_dfrs_preemptions_total{cause=\"scheduler\"} 4\n"
		  "slurm_dfrs_preemptions_total{cause=\"availability\"} 3\n"
		  "slurm_dfrs_tier_changes_total{to=\"fg\"} 9\n"
		  "slurm_dfrs_tier_changes_total{to=\"bg\"} 2\n"
		  "slurm_dfrs_starts_refused_total 1\n"
		  "slurm_dfrs_availability_suspensions_total 5\n"
		  "slurm_dfrs_availability_resumptions_total 4\n"
		  "slurm_dfrs_suspended_jobs 1\n"
		  "slurm_dfrs_pending_jobs 120\n"
		  "slurm_dfrs_running_jobs{tier=\"fg\"} 20\n"
		  "slurm_dfrs_running_jobs{tier=\"bg\"} 6\n"
		  "slurm_dfrs_running_jobs{tier=\"none\"} 4\n"
		  "slurm_dfrs_running_jobs_by_yield{yield_le=\"0.25\"} 1\n"
		  "slurm_dfrs_running_jobs_by_yield{yield_le=\"0.5\"} 3\n"
		  "slurm_dfrs_running_jobs_by_yield{yield_le=\"0.75\"} 3\n"
		  "slurm_dfrs_running_jobs_by_yield{yield_le=\"0.9\"} 4\n"
		  "slurm_dfrs_running_jobs_by_yield{yield_le=\"1\"} 6\n"
		  "slurm_dfrs_running_jobs_yield_sum 3.8\n"
		  "slurm_dfrs_time_limit_added_seconds_total{basis=\"measured\"} 340\n"
		  "slurm_dfrs_time_limit_added_seconds_total{basis=\"believed\"} 75\n"
		  "slurm_dfrs_node_agent_reports{state=\"fresh\"} 12\n"
		  "slurm_dfrs_node_agent_reports{state=\"stale\"} 1\n"
		  "slurm_dfrs_node_agent_reports{state=\"malformed\"} 2\n"
		  "slurm_dfrs_node_agent_reports{state=\"none\"} 49\n"
		  "slurm_dfrs_node_agent_report_max_age_seconds 95\n"
		  "slurm_dfrs_node_availability_ratio{node=\"n1\"} 0.875\n"
		  "slurm_dfrs_node_availability_ratio{node=\"n2\"} 0.25\n"
		  "slurm_dfrs_node_on{node=\"n1\"} 1\n"
		  "slurm_dfrs_node_on{node=\"n2\"} 0\n"
		  "slurm_dfrs_stats_updated_timestamp_seconds 1795372025\n");
	/* a node never seen has no sample */
	assert_null(strstr(text, "\"n3\""));
	free(text);
}

/* The format's rules, line by line: comments are HELP then TYPE of the
 * family whose samples follow; every sample's name is that family's;
 * counters end in _total; names are slurm_dfrs_ and [a-z_]. */
static void test_format(void **state)
{
	sched_stats_t s = sample();
	char *text = sched_metrics_text(&s, nodes, NNODES), *save = NULL,
	     fam[128] = "",
	     type[16] = "";
	int families = 0, samples = 0;

	(void)state;
	assert_non_null(text);
	assert_int_equal(text[strlen(text) - 1], '\n');
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128];
		size_t n;

		if (!strncmp(l, "# HELP ", 7)) {
			assert_int_equal(sscanf(l + 7, "%127s", fam), 1);
			type[0] = '\0';
			families++;
			continue;
		}
		if (!strncmp(l, "# TYPE ", 7)) {
			assert_int_equal(sscanf(l + 7, "%127s %15s", name, type), 2);
			assert_string_equal(name, fam);
			assert_true(!strcmp(type, "counter") || !strcmp(type, "gauge"));
			n = strlen(fam);
			assert_int_equal(!strcmp(type, "counter"),
					 n > 6 && !strcmp(fam + n - 6, "_total"));
			continue;
		}
		assert_true(type[0]);	/* a sample after its TYPE */
		n = strcspn(l, "{ ");
		assert_true(n < sizeof(name));
		memcpy(name, l, n);
		name[n] = '\0';
		assert_string_equal(name, fam);
		assert_true(!strncmp(name, "slurm_dfrs_", 11));
		assert_int_equal(strspn(name, "abcdefghijklmnopqrstuvwxyz_"), n);
		samples++;
	}
	assert_int_equal(families, 32);
	assert_int_equal(samples, 52);
	free(text);
}

/* A label value with a quote, a backslash and a newline stays one line. */
static void test_label_escapes(void **state)
{
	sched_stats_t s = { .mode = "a\"b\\c\nd" };
	sched_metrics_node_t odd = { "x\"y", 1, 1 };
	char *text = sched_metrics_text(&s, &odd, 1);

	(void)state;
	assert_non_null(text);
	has_lines(text, "slurm_dfrs_info{mode=\"a\\\"b\\\\c\\nd\"} 1\n");
	/* no running job: no job by tier, not a negative one */
	has_lines(text, "slurm_dfrs_running_jobs{tier=\"none\"} 0\n");
	has_lines(text, "slurm_dfrs_node_on{node=\"x\\\"y\"} 1\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_label_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
