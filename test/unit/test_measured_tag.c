/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_measured_tag.c - the dfrs:measured= word of a node's Extra: exact
 * text, round trip, the word found among others and replaced without
 * touching them, and every malformed word refused with a message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "need/measured_tag.h"

static void test_format_exact(void **state)
{
	measured_entry_t e[] = { { 12, 0.421 }, { 13, 1.7 }, { 4294967295u, -1 } };
	char buf[128];

	assert_int_equal(measured_tag_format(e, 3, 1700000000, buf,
					     sizeof(buf)), 0);
	assert_string_equal(buf, "dfrs:measured=12:0.42,13:1.00,4294967295:"
			    "0.00@1700000000");
	assert_int_equal(measured_tag_format(e, 1, 5, buf, 20), -1);
	assert_int_equal(measured_tag_format(e, 0, 5, buf, sizeof(buf)), -1);
}

static void test_parse_among_other_words(void **state)
{
	measured_tag_t t;
	char err[256] = "";
	double need;

	assert_int_equal(measured_tag_parse("rack=4 dfrs:measured=12:0.42,"
					    "13:0.97@1700000000 x", &t, err,
					    sizeof(err)), 1);
	assert_int_equal(t.njobs, 2);
	assert_int_equal(t.stamp, 1700000000);
	assert_int_equal(measured_tag_need(&t, 13, &need), 0);
	assert_true(need == 0.97);
	assert_int_equal(measured_tag_need(&t, 14, &need), -1);
	assert_int_equal(measured_tag_parse("rack=4", &t, err, sizeof(err)), 0);
	assert_int_equal(measured_tag_parse(NULL, &t, err, sizeof(err)), 0);
	assert_int_equal(t.njobs, 0);
}

static void refused(const char *text, const char *message)
{
	measured_tag_t t;
	char err[256] = "";

	assert_int_equal(measured_tag_parse(text, &t, err, sizeof(err)), -1);
	assert_string_equal(err, message);
}

static void test_malformed(void **state)
{
	refused("dfrs:measured=12:0.4", "dfrs:measured=12:0.4: no @<time> at "
		"the end");
	refused("dfrs:measured=12:0.4@x", "dfrs:measured=12:0.4@x: the time "
		"is not a positive integer");
	refused("dfrs:measured=12:1.5@9", "job 12: need 1.5 is not in 0..1");
	refused("dfrs:measured=12:abc@9", "job 12: need 'abc' is not a number");
	refused("dfrs:measured=12@9", "'': expected <job>:<need>");
	refused("dfrs:measured=x:0.1@9", "'x:0.1': expected <job>:<need>");
	refused("dfrs:measured=12:0.1,@9", "a ',' ends the job list");
	refused("dfrs:measured=@9", "no job before @");
}

static void test_replace(void **state)
{
	char *out;

	assert_int_equal(measured_tag_replace("a dfrs:measured=1:0.1@5  b",
					      "dfrs:measured=2:0.2@6", &out), 0);
	assert_string_equal(out, "a b dfrs:measured=2:0.2@6");
	free(out);
	assert_int_equal(measured_tag_replace("dfrs:measured=1:0.1@5", NULL,
					      &out), 0);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(measured_tag_replace(NULL, "dfrs:measured=2:0.2@6",
					      &out), 0);
	assert_string_equal(out, "dfrs:measured=2:0.2@6");
	free(out);
}

/* The controller's view of a node's report: fresh up to dfrs_need_stale
 * seconds old (the boundary included), stale after, malformed, none. */
static void test_report_state(void **state)
{
	long age = -1;

	assert_int_equal(measured_tag_report("dfrs:measured=12:0.42@1000",
					     1020, 20, &age),
			 MEASURED_REPORT_FRESH);
	assert_int_equal(age, 20);
	assert_int_equal(measured_tag_report("x dfrs:measured=12:0.42@1000",
					     1021, 20, &age),
			 MEASURED_REPORT_STALE);
	assert_int_equal(age, 21);
	assert_int_equal(measured_tag_report("dfrs:measured=12:1.5@1000",
					     1000, 20, &age),
			 MEASURED_REPORT_BAD);
	assert_int_equal(age, 0);
	assert_int_equal(measured_tag_report("other=1", 1000, 20, &age),
			 MEASURED_REPORT_NONE);
	assert_int_equal(measured_tag_report(NULL, 1000, 20, NULL),
			 MEASURED_REPORT_NONE);
	/* a clock behind the agent's: age 0, fresh */
	assert_int_equal(measured_tag_report("dfrs:measured=3:1@1000", 990,
					     20, &age),
			 MEASURED_REPORT_FRESH);
	assert_int_equal(age, 0);
	assert_true(measured_tag_fresh(1000, 1020, 20));
	assert_false(measured_tag_fresh(1000, 1021, 20));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_exact),
		cmocka_unit_test(test_parse_among_other_words),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_report_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
