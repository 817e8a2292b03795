/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fuzz_corpus.c - every file of the fuzz corpora (test/data/
 * fuzz-corpus/<target>/: seeds, inputs the fuzzer found that add coverage,
 * and crashers it found, kept as regression inputs) fed to the fuzz target
 * it was found with, the same function libFuzzer runs (contribs/fuzz/
 * fuzz_targets.h): no crash, no sanitizer report in the sanitizer build,
 * and every promise the target checks holds (a broken one aborts).
 * The trace reader's corpus has its own test (test_trace_corpus.c).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fuzz_targets.h"
#include "trace_test_util.h"

#define CORPUS_DIR DFRS_TEST_DATA_DIR "/fuzz-corpus"

typedef struct {
	const char *name;	/* its corpus: CORPUS_DIR/name */
	int (*run)(const uint8_t *data, size_t size);
	size_t min_files;	/* the seeds at least */
} target_t;

static const target_t targets[] = {
	{ "dfrs_params", fuzz_dfrs_params, 4 },
	{ "avail_state", fuzz_avail_state, 2 },
	{ "node_share_json", fuzz_node_share_json, 2 },
	{ "sched_stats", fuzz_sched_stats, 1 },
	{ "jobcomp", fuzz_jobcomp, 1 },
	{ "dfrs_instance_json", fuzz_dfrs_instance_json, 2 },
	{ "need_history", fuzz_need_history, 2 },
	{ "measured_tag", fuzz_measured_tag, 2 },
};

/* Feed every regular file of t's corpus to t; returns how many. */
static size_t replay(const target_t *t)
{
	char dir[1024];
	DIR *d;
	struct dirent *e;
	size_t files = 0;

	snprintf(dir, sizeof(dir), "%s/%s", CORPUS_DIR, t->name);
	d = opendir(dir);
	if (!d)
		fail_msg("%s: cannot open the corpus", dir);
	while ((e = readdir(d)) != NULL) {
		char path[2048];
		struct stat st;
		size_t len;
		char *data;
		uint8_t *exact;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		data = test_slurp(path, &len);
		assert_non_null(data);
		/* exactly len bytes, no NUL after them: a reader that reads
		 * past its input is caught as under the fuzzer */
		exact = malloc(len ? len : 1);
		assert_non_null(exact);
		memcpy(exact, data, len);
		assert_int_equal(t->run(exact, len), 0);
		free(exact);
		free(data);
		files++;
	}
	closedir(d);
	return files;
}

static void test_corpora(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		size_t n = replay(&targets[i]);

		print_message("%s: %zu inputs\n", targets[i].name, n);
		if (n < targets[i].min_files)
			fail_msg("%s: %zu inputs, want at least %zu",
				 targets[i].name, n, targets[i].min_files);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpora),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
