/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_preempt_rules.c - which running job sched/amcbf may preempt, and
 * for whom: the plugin's exemptions, PreemptExemptTime and PreemptMode=OFF
 * (preempt_rules_victim), QOS Preempt= lists and PriorityTier
 * (preempt_rules_pair), each asserted with its exact reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/preempt_rules.h"

static const preempt_limits_t lim = { .max_preempt = 3, .min_runtime = 3600 };

/* A batch job that may be requeued, run 100 s, preempted once. */
static preempt_victim_t plain(void)
{
	preempt_victim_t v = { .batch = 1, .requeue = 1, .restarts = 1,
			       .ran = 100 };
	return v;
}

static void test_victim_exemptions(void **state)
{
	preempt_victim_t v = plain();

	(void)state;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	v.batch = 0;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_NOT_BATCH);
	v = plain();
	v.requeue = 0;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_NO_REQUEUE);
	v = plain();
	v.restarts = 3;		/* at the limit: exempt */
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_MAX_PREEMPT);
	v.restarts = 2;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	/* amcbf_min_runtime bounds the work a requeue throws away: a job
	 * that has run that long is not requeued, a younger one may be */
	v = plain();
	v.ran = 3599.5;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	v.ran = 3600;		/* exactly min_runtime: protected */
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_MIN_RUNTIME);
	v.ran = 86400;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_MIN_RUNTIME);
	/* a suspension in place loses no work: it may */
	v.keeps_work = 1;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	/* and the other exemptions still hold for it */
	v.requeue = 0;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_NO_REQUEUE);
	/* 0 (the default): no bound, however long the job has run */
	{
		const preempt_limits_t none = { .max_preempt = 3 };

		v = plain();
		v.ran = 86400;
		assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &none, &v),
				 PREEMPT_WHY_OK);
	}
	v = plain();
	v.exempt_qos = 1;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_QOS, &lim, &v),
			 PREEMPT_WHY_EXEMPT_QOS);
}

static void test_victim_site(void **state)
{
	preempt_victim_t v = plain();

	(void)state;
	/* PreemptExemptTime holds whatever the PreemptType */
	v.exempt_time = 600;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_EXEMPT_TIME);
	v.ran = 600;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	/* PreemptMode=OFF counts only where the site preempts at all */
	v = plain();
	v.mode_off = 1;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_NONE, &lim, &v),
			 PREEMPT_WHY_OK);
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_QOS, &lim, &v),
			 PREEMPT_WHY_MODE_OFF);
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_PARTITION_PRIO,
					      &lim, &v), PREEMPT_WHY_MODE_OFF);
	/* the first reason is the one given */
	v.batch = 0;
	assert_int_equal(preempt_rules_victim(PREEMPT_SITE_QOS, &lim, &v),
			 PREEMPT_WHY_NOT_BATCH);
}

static void test_pair_qos(void **state)
{
	/* QOS ids: 1 normal, 2 high, 3 low; high lists low only */
	static const unsigned char high_list[4] = { 0, 0, 0, 1 };
	preempt_side_t high = { .qos_id = 2, .qos_preempts = high_list,
				.nqos = 4, .priority = 10 };
	preempt_side_t low = { .qos_id = 3, .priority = 50 };
	preempt_side_t normal = { .qos_id = 1, .priority = 50 };
	preempt_side_t none = { .qos_id = -1 };
	preempt_side_t high2 = high;

	(void)state;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &low),
			 PREEMPT_WHY_OK);
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &normal),
			 PREEMPT_WHY_NOT_IN_LIST);
	/* an empty list preempts nobody */
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &low, &high),
			 PREEMPT_WHY_NOT_IN_LIST);
	/* a QOS id past the list */
	normal.qos_id = 9;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &normal),
			 PREEMPT_WHY_NOT_IN_LIST);
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &none),
			 PREEMPT_WHY_NO_QOS);
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &none, &low),
			 PREEMPT_WHY_NO_QOS);
	/* within one QOS: WITHIN and a strictly higher priority */
	high2.priority = 5;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &high2),
			 PREEMPT_WHY_SAME_QOS);
	high.qos_within = 1;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &high2),
			 PREEMPT_WHY_OK);
	high2.priority = 10;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &high, &high2),
			 PREEMPT_WHY_SAME_QOS);
	/* preempt/none: the plugin's own rules, anyone may */
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_NONE, &low, &high),
			 PREEMPT_WHY_OK);
}

static void test_pair_tier(void **state)
{
	preempt_side_t top = { .qos_id = 1, .part_tier = 2 };
	preempt_side_t bottom = { .qos_id = 1, .part_tier = 1 };
	preempt_side_t top2 = top;

	(void)state;
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_PARTITION_PRIO, &top,
					    &bottom), PREEMPT_WHY_OK);
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_PARTITION_PRIO,
					    &bottom, &top), PREEMPT_WHY_TIER);
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_PARTITION_PRIO, &top,
					    &top2), PREEMPT_WHY_TIER);
	/* tiers mean nothing to preempt/qos: same QOS, no WITHIN */
	assert_int_equal(preempt_rules_pair(PREEMPT_SITE_QOS, &top, &bottom),
			 PREEMPT_WHY_SAME_QOS);
}

static void test_grace(void **state)
{
	(void)state;
	assert_int_equal(preempt_rules_grace(PREEMPT_SITE_NONE, 30, 40), 0);
	assert_int_equal(preempt_rules_grace(PREEMPT_SITE_QOS, 30, 40), 30);
	assert_int_equal(preempt_rules_grace(PREEMPT_SITE_PARTITION_PRIO, 30,
					     40), 40);
}

static void test_site_names(void **state)
{
	(void)state;
	assert_int_equal(preempt_rules_site(NULL), PREEMPT_SITE_NONE);
	assert_int_equal(preempt_rules_site("preempt/none"), PREEMPT_SITE_NONE);
	assert_int_equal(preempt_rules_site("preempt/qos"), PREEMPT_SITE_QOS);
	assert_int_equal(preempt_rules_site("preempt/partition_prio"),
			 PREEMPT_SITE_PARTITION_PRIO);
	assert_string_equal(preempt_rules_why(PREEMPT_WHY_MODE_OFF),
			    "its PreemptMode is OFF");
	assert_string_equal(preempt_rules_why((preempt_why_t)99),
			    "unknown reason");
	assert_string_equal(preempt_rules_site_summary(PREEMPT_SITE_NONE),
			    "sched/amcbf preempts by its own rules; PreemptExemptTime is honoured");
}

/* The engines' predicate: a protected victim never, else the pair's
 * answer, everyone without a pair. */
static int only_1_on_0(const void *ctx, size_t preemptor, size_t victim)
{
	(void)ctx;
	return preemptor == 1 && victim == 0;
}

static void test_may(void **state)
{
	(void)state;
	assert_int_equal(preempt_rules_may(0, NULL, NULL, 1, 0), 1);
	assert_int_equal(preempt_rules_may(1, NULL, NULL, 1, 0), 0);
	assert_int_equal(preempt_rules_may(0, only_1_on_0, NULL, 1, 0), 1);
	assert_int_equal(preempt_rules_may(0, only_1_on_0, NULL, 2, 0), 0);
	assert_int_equal(preempt_rules_may(1, only_1_on_0, NULL, 1, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_victim_exemptions),
		cmocka_unit_test(test_victim_site),
		cmocka_unit_test(test_pair_qos),
		cmocka_unit_test(test_pair_tier),
		cmocka_unit_test(test_grace),
		cmocka_unit_test(test_site_names),
		cmocka_unit_test(test_may),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
