/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trace_corpus.c - trace_parse over every file of the fuzz corpus
 * (test/data/fuzz-corpus/trace_parse: seeds, inputs the fuzzer found interesting, and
 * fixed crashers), with the same option byte and checks as the libFuzzer
 * harness contribs/fuzz/fuzz_trace_parse.c: no crash, and a read either
 * succeeds with sane jobs or fails with a message and no jobs.
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

#include "trace/trace.h"
#include "trace_test_util.h"

#define CORPUS_DIR DFRS_TEST_DATA_DIR "/fuzz-corpus/trace_parse"

/* Parse one corpus input; returns 1 if it read jobs, 0 if it failed. */
static int run_input(const char *path)
{
	FILE *devnull = fopen("/dev/null", "w");
	trace_read_opts_t opts = { 0, NULL, 0, (size_t)1 << 20 };
	size_t len, i;
	char *data = test_slurp(path, &len), err[256];
	trace_t t;
	int rc;

	assert_non_null(data);
	assert_non_null(devnull);
	if (len == 0) {
		free(data);
		fclose(devnull);
		return 0;
	}
	opts.strict = data[0] & 1;
	opts.diag = (data[0] & 2) ? devnull : NULL;
	opts.max_diag = ((unsigned char)data[0] >> 2) & 7;
	rc = trace_parse(data + 1, len - 1, path, &opts, &t, err, sizeof(err));
	if (rc == 0) {
		assert_true(t.njobs > 0);
		assert_true(t.jobs[0].submit == 0);
		for (i = 0; i < t.njobs; i++) {
			assert_true(t.jobs[i].procs >= 1);
			assert_true(t.jobs[i].runtime >= 0);
			if (i)
				assert_true(t.jobs[i].submit >=
					    t.jobs[i - 1].submit);
		}
	} else {
		assert_int_equal(rc, -1);
		assert_null(t.jobs);
		assert_int_equal(t.njobs, 0);
		/* one line naming the input */
		assert_memory_equal(err, path, strlen(path));
		assert_null(strchr(err, '\n'));
	}
	trace_free(&t);
	free(data);
	fclose(devnull);
	return rc == 0;
}

static void test_corpus(void **state)
{
	DIR *dir = opendir(CORPUS_DIR);
	struct dirent *e;
	size_t files = 0, read_ok = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		char path[1024];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		files++;
		read_ok += run_input(path);
	}
	closedir(dir);
	/* the eight seeds at least, and the valid seeds do read */
	assert_true(files >= 8);
	assert_true(read_ok >= 6);	/* the six seeds that read */
	print_message("%zu corpus inputs, %zu read jobs\n", files, read_ok);
}

/* The seeds themselves: each known to read (or fail) as written. */
static void test_seeds(void **state)
{
	static const struct {
		const char *name;
		int reads;
	} seed[] = {
		{ "seed-swf", 1 },
		{ "seed-swf-strict", 0 },	/* strict; last line cut */
		{ "seed-swf-gz", 1 }, { "seed-sacct", 1 },
		{ "seed-sacct-pipe", 1 }, { "seed-sacct-gz", 1 },
		{ "seed-comments", 0 }, { "seed-crlf", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(seed) / sizeof(seed[0]); i++) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, seed[i].name);
		assert_int_equal(run_input(path), seed[i].reads);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
