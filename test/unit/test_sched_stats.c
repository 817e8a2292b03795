/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_stats.c - sched/amcbf's statistics file and how dfrs status
 * prints it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/sched_stats.h"

static const sched_stats_t sample = {
	.mode = "dfrs(greedypm)", .cycles = 412, .mean_ms = 0.21,
	.max_ms = 1.9, .started = 57, .preempted = 4, .promoted = 9,
	.demoted = 2, .refused = 1, .pending = 5000, .running = 30,
	.updated = 1795372025, .lock_hold_max_ms = 180.75,
	.read_hold_max_ms = 38.25, .read_hold_max_cpu_ms = 2.5,
	.apply_hold_max_ms = 180.75, .apply_hold_max_cpu_ms = 120.5,
	.avail_hold_max_ms = 3.5, .avail_hold_max_cpu_ms = 1.25,
	.other_hold_max_ms = 0.5, .other_hold_max_cpu_ms = 0.25,
	.limit_added_measured = 340, .limit_added_believed = 75,
	.agents_fresh = 12, .agents_stale = 1, .agents_bad = 2,
	.agents_none = 49, .agent_oldest_age = 95,
};

static void test_roundtrip_and_print(void **state)
{
	sched_stats_t back;
	char err[128] = "", *json = sched_stats_to_json(&sample), *buf = NULL;
	size_t len = 0;
	FILE *out;

	assert_non_null(json);
	assert_int_equal(sched_stats_from_json(json, &back, err, sizeof(err)), 0);
	assert_string_equal(back.mode, "dfrs(greedypm)");
	assert_int_equal(back.cycles, 412);
	assert_int_equal(back.started, 57);
	assert_int_equal(back.preempted, 4);
	assert_int_equal(back.promoted, 9);
	assert_int_equal(back.demoted, 2);
	assert_int_equal(back.refused, 1);
	assert_int_equal(back.pending, 5000);
	assert_int_equal(back.running, 30);
	assert_int_equal(back.updated, 1795372025);
	assert_true(back.mean_ms == 0.21 && back.max_ms == 1.9);
	/* each phase's longest hold, wall and CPU */
	assert_true(back.apply_hold_max_ms == 180.75 &&
		    back.apply_hold_max_cpu_ms == 120.5);
	assert_true(back.avail_hold_max_ms == 3.5 &&
		    back.avail_hold_max_cpu_ms == 1.25);
	assert_true(back.other_hold_max_ms == 0.5 &&
		    back.other_hold_max_cpu_ms == 0.25);
	/* time added to end times, the node agents' reports */
	assert_int_equal(back.limit_added_measured, 340);
	assert_int_equal(back.limit_added_believed, 75);
	assert_int_equal(back.agents_fresh, 12);
	assert_int_equal(back.agents_stale, 1);
	assert_int_equal(back.agents_bad, 2);
	assert_int_equal(back.agents_none, 49);
	assert_int_equal(back.agent_oldest_age, 95);
	free(json);

	out = open_memstream(&buf, &len);
	sched_stats_print(&back, out);
	fclose(out);
	assert_string_equal(buf,
		"sched/amcbf: dfrs(greedypm), 5000 pending, 30 running (at 2026-11-22T18:27:05Z)\n"
		"  412 cycles, mean 0.21 ms, max 1.90 ms\n"
		"  57 started, 4 preempted, 9 promoted, 2 demoted, 1 starts refused by Slurm\n"
		"  longest lock hold 180.75 ms; by phase (wall / on a CPU): read 38.25 / 2.50 ms, apply 180.75 / 120.50 ms, availability 3.50 / 1.25 ms, bookkeeping 0.50 / 0.25 ms\n"
		"  415 s added to end times (340 measured, 75 believed); node agents' reports: 12 fresh, 1 stale, 2 malformed, 49 nodes without one\n");
	free(buf);
}

static void expect_bad(const char *json, const char *needle)
{
	sched_stats_t s;
	char err[128] = "";

	assert_int_equal(sched_stats_from_json(json, &s, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not contain '%s'", err, needle);
}

/* A corrupt or foreign file is refused with one message naming the field. */
static void test_bad_files(void **state)
{
	expect_bad("", "not a JSON object");
	expect_bad("[1, 2]", "not a JSON object");
	expect_bad("{\"updated\": 1}", "\"mode\" missing or not a string");
	expect_bad("{\"mode\": \"amcbf\", \"updated\": 1, \"cycles\": -3}",
		   "\"cycles\" missing or not a number in [0, 9007199254740992]");
	expect_bad("{\"mode\": \"amcbf\", \"updated\": 1, \"cycles\": \"many\"}",
		   "\"cycles\" missing or not a number in [0, 9007199254740992]");
	/* too large for the integer it is stored in (found by fuzzing:
	 * the conversion was undefined) */
	expect_bad("{\"mode\": \"amcbf\", \"updated\": 1e40, \"cycles\": 1}",
		   "\"updated\" missing or not a number in [0, 9007199254740992]");
	expect_bad("{\"mode\": \"amcbf\", \"updated\": 1, \"cycles\": 2e19}",
		   "\"cycles\" missing or not a number in [0, 9007199254740992]");
	expect_bad("{\"mode\": \"amcbf\", \"updated\": 1}", "\"cycles\" missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_and_print),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
