/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_text_mark.c - the mark word sched/amcbf puts in the AdminComment of
 * the jobs it suspends: found only as a whole word, added once, removed
 * without touching the administrator's own text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "amcbf/text_mark.h"

#define M "sched/amcbf:suspended"

static void test_has(void **state)
{
	assert_false(text_mark_has(NULL, M));
	assert_false(text_mark_has("", M));
	assert_true(text_mark_has(M, M));
	assert_true(text_mark_has("check disk " M, M));
	assert_true(text_mark_has(M " check disk", M));
	assert_true(text_mark_has("a " M " b", M));
	/* part of a longer word is not the mark */
	assert_false(text_mark_has(M "x", M));
	assert_false(text_mark_has("x" M, M));
	assert_false(text_mark_has("sched/amcbf:suspende", M));
	assert_false(text_mark_has("a " M "x " M "y", M));
}

/* add or remove, and compare with want (NULL: nothing left) */
static void check(int (*op)(const char *, const char *, char **),
		  const char *text, const char *want)
{
	char *out = (char *)1;

	assert_int_equal(op(text, M, &out), 0);
	if (!want)
		assert_null(out);
	else
		assert_string_equal(out, want);
	free(out);
}

static void test_add(void **state)
{
	check(text_mark_add, NULL, M);
	check(text_mark_add, "", M);
	check(text_mark_add, "check disk", "check disk " M);
	/* once only */
	check(text_mark_add, M, M);
	check(text_mark_add, "a " M " b", "a " M " b");
	check(text_mark_add, M "x", M "x " M);
}

static void test_remove(void **state)
{
	check(text_mark_remove, NULL, NULL);
	check(text_mark_remove, "", NULL);
	check(text_mark_remove, M, NULL);
	check(text_mark_remove, M " " M, NULL);
	check(text_mark_remove, "check disk " M, "check disk");
	check(text_mark_remove, M " check disk", "check disk");
	check(text_mark_remove, "a " M " b", "a b");
	check(text_mark_remove, "a " M " b " M, "a b");
	/* not the mark: untouched */
	check(text_mark_remove, "a " M "x b", "a " M "x b");
	check(text_mark_remove, "no mark", "no mark");
}

static void test_round_trip(void **state)
{
	const char *texts[] = { "dfrs:weight=500", "x", "two words" };

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *marked, *back;
		assert_int_equal(text_mark_add(texts[i], M, &marked), 0);
		assert_true(text_mark_has(marked, M));
		assert_int_equal(text_mark_remove(marked, M, &back), 0);
		assert_string_equal(back, texts[i]);
		free(marked);
		free(back);
	}
}

/* A mark with a value, found by its prefix. */
static void test_word(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(text_mark_word(NULL, "a:n=", buf, sizeof(buf)), 0);
	assert_int_equal(text_mark_word("x a:m=1", "a:n=", buf, sizeof(buf)), 0);
	assert_int_equal(text_mark_word("x  a:n=12s y", "a:n=", buf,
					sizeof(buf)), 1);
	assert_string_equal(buf, "a:n=12s");
	/* cut to the buffer */
	assert_int_equal(text_mark_word("a:n=123456789", "a:n=", buf, 6), 1);
	assert_string_equal(buf, "a:n=1");
	/* only a word's beginning counts */
	assert_int_equal(text_mark_word("xa:n=1", "a:n=", buf, sizeof(buf)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_remove),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
