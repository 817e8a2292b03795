/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_targets.h - the readers of untrusted input that are fuzzed, one
 * function each: libFuzzer runs them through fuzz_main.c (contribs/fuzz/
 * build.sh), and make check replays every file of test/data/fuzz-corpus/
 * <name>/ through the same functions (test/unit/test_fuzz_corpus.c), also
 * under ASan+UBSan in the sanitizer build.  Each takes any bytes, returns 0,
 * and aborts with a message when the reader breaks a promise of its header
 * (beyond what the sanitizers catch).
 */
#ifndef DFRS_FUZZ_TARGETS_H
#define DFRS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* SchedulerParameters (suite/dfrs_params.h) */
int fuzz_dfrs_params(const uint8_t *data, size_t size);
/* the availability state file, dfrs-availability.json (avail_monitor_load) */
int fuzz_avail_state(const uint8_t *data, size_t size);
/* select/dfrs's model file, dfrs-nodes.json (suite/node_share_json.h) */
int fuzz_node_share_json(const uint8_t *data, size_t size);
/* sched/amcbf's statistics file, amcbf-stats.json (suite/sched_stats.h) */
int fuzz_sched_stats(const uint8_t *data, size_t size);
/* Slurm's jobcomp/filetxt records (trace/jobcomp.h) */
int fuzz_jobcomp(const uint8_t *data, size_t size);
/* dfrs pack's instance JSON (dfrs/dfrs_instance_json.h) */
int fuzz_dfrs_instance_json(const uint8_t *data, size_t size);
/* sched/amcbf's CPU-need history, dfrs-need-history (need/need_predictor.h) */
int fuzz_need_history(const uint8_t *data, size_t size);
/* dfrs-nodeagent's measured needs in a node's Extra (need/measured_tag.h) */
int fuzz_measured_tag(const uint8_t *data, size_t size);

/* Abort with "fuzz: FILE:LINE: what" unless cond holds. */
#define FUZZ_CHECK(cond) \
	((cond) ? (void)0 : fuzz_broken(__FILE__, __LINE__, #cond))
void fuzz_broken(const char *file, int line, const char *what);

/* The bytes as a NUL-terminated string (malloc'ed; aborts when out of
 * memory): the text readers take C strings. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Whether err holds one message: not empty, one line. */
int fuzz_one_message(const char *err);

#endif
