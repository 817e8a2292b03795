/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cpu_weight.c - yield/tier to cpu.shares, and the dfrs: tag.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "suite/cpu_weight.h"

static void test_weight_for_yield(void **state)
{
	assert_int_equal(cpu_weight_for_yield(1.0, 1.0), 10000);
	assert_int_equal(cpu_weight_for_yield(0.5, 0.4), 2000);
	assert_int_equal(cpu_weight_for_yield(0.25, 1.0), 2500);
	/* never below the kernel's minimum, even at yield 0 */
	assert_int_equal(cpu_weight_for_yield(0.0, 1.0), 2);
	assert_int_equal(cpu_weight_for_yield(0.0001, 0.5), 2);
	assert_int_equal(cpu_weight_for_yield(-1.0 / 0.0, 1.0), 2);
	assert_int_equal(cpu_weight_for_yield(100.0, 1000.0), 262144);
}

static cpu_weight_tag_t parsed(const char *text)
{
	cpu_weight_tag_t t;
	char err[128];

	assert_int_equal(cpu_weight_tag_parse(text, &t, err, sizeof(err)), 1);
	return t;
}

static void test_weight_of_tag(void **state)
{
	cpu_weight_tag_t t;

	t = parsed("dfrs:yield=0.5,need=0.4");
	assert_int_equal(cpu_weight_of_tag(&t), 2000);
	t = parsed("dfrs:yield=0.5");	/* need defaults to 1 */
	assert_int_equal(cpu_weight_of_tag(&t), 5000);
	t = parsed("dfrs:tier=bg,yield=0.9");	/* tier beats yield */
	assert_int_equal(cpu_weight_of_tag(&t), 2);
	t = parsed("dfrs:tier=fg");
	assert_int_equal(cpu_weight_of_tag(&t), 10000);
	t = parsed("dfrs:weight=777,tier=fg");	/* explicit weight beats all */
	assert_int_equal(cpu_weight_of_tag(&t), 777);
}

static void test_parse_in_text(void **state)
{
	cpu_weight_tag_t t;
	char err[128];

	assert_int_equal(cpu_weight_tag_parse(NULL, &t, err, sizeof(err)), 0);
	assert_int_equal(cpu_weight_tag_parse("no tag here", &t, err, sizeof(err)), 0);
	assert_int_equal(cpu_weight_of_tag(&t), CPU_WEIGHT_DEFAULT);
	/* an administrator's note around the tag is left alone */
	t = parsed("reserved for Alice; dfrs:weight=300; see ticket 12");
	assert_int_equal(t.weight, 300);
	assert_true(t.yield == -1 && t.need == -1 && t.tier == SCHED_TIER_NONE);
	/* a user's request in --comment */
	t = parsed("dfrs:need=0.4,min_yield=0.5");
	assert_true(t.need == 0.4 && t.min_yield == 0.5 && t.yield == -1);
	assert_true(t.avail == -1);
	t = parsed("dfrs:need=0.5,avail=0.95");
	assert_true(t.need == 0.5 && t.avail == 0.95);
}

static void expect_bad(const char *text, const char *msg)
{
	cpu_weight_tag_t t;
	char err[128] = "";

	assert_int_equal(cpu_weight_tag_parse(text, &t, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void test_malformed(void **state)
{
	expect_bad("dfrs:", "dfrs tag: empty");
	expect_bad("dfrs:yield=1.5", "dfrs tag: yield=1.5 is not a number in 0..1");
	expect_bad("dfrs:yield=abc", "dfrs tag: yield=abc is not a number in 0..1");
	expect_bad("dfrs:need=-0.1", "dfrs tag: need=-0.1 is not a number in 0..1");
	expect_bad("dfrs:tier=mid", "dfrs tag: tier=mid is not fg or bg");
	expect_bad("dfrs:min_yield=2", "dfrs tag: min_yield=2 is not a number in 0..1");
	expect_bad("dfrs:avail=high", "dfrs tag: avail=high is not a number in 0..1");
	expect_bad("dfrs:weight=1", "dfrs tag: weight=1 is not an integer in 2..262144");
	expect_bad("dfrs:weight=12x", "dfrs tag: weight=12x is not an integer in 2..262144");
	expect_bad("dfrs:color=red", "dfrs tag: unknown key 'color'");
	expect_bad("dfrs:yield", "dfrs tag: 'yield' is not key=value");
}

static void test_format_roundtrip(void **state)
{
	cpu_weight_tag_t t = { .yield = 0.5, .need = 0.4, .tier = SCHED_TIER_FG, .weight = -1,
			 .min_yield = -1 };
	cpu_weight_tag_t back;
	char buf[128], err[128];

	cpu_weight_tag_format(&t, buf, sizeof(buf));
	assert_string_equal(buf, "dfrs:yield=0.5,need=0.4,tier=fg");
	assert_int_equal(cpu_weight_tag_parse(buf, &back, err, sizeof(err)), 1);
	assert_true(back.yield == 0.5 && back.need == 0.4);
	assert_int_equal(back.tier, SCHED_TIER_FG);
	assert_int_equal(back.weight, -1);

	/* truncation stays inside the buffer */
	memset(buf, 'x', sizeof(buf));
	cpu_weight_tag_format(&t, buf, 8);
	assert_int_equal(strlen(buf), 7);
	assert_int_equal(buf[8], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight_for_yield),
		cmocka_unit_test(test_weight_of_tag),
		cmocka_unit_test(test_parse_in_text),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_format_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
