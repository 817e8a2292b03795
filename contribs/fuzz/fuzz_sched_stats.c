/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sched_stats.c - fuzz target for sched_stats_from_json, which
 * `dfrs status` runs on sched/amcbf's amcbf-stats.json: it reads the
 * statistics (which then print, and write and read back) or fails with one
 * message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "suite/sched_stats.h"

int fuzz_sched_stats(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char *text = fuzz_text(data, size), *again, err[256] = "";
	sched_stats_t s, t;
	int rc;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	rc = sched_stats_from_json(text, &s, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err)));
	if (rc == 0) {
		FUZZ_CHECK(memchr(s.mode, '\0', sizeof(s.mode)) != NULL);
		sched_stats_print(&s, devnull);
		again = sched_stats_to_json(&s);
		FUZZ_CHECK(again != NULL);
		FUZZ_CHECK(sched_stats_from_json(again, &t, err, sizeof(err)) == 0);
		FUZZ_CHECK(strcmp(s.mode, t.mode) == 0 && s.cycles == t.cycles &&
			   s.started == t.started && s.updated == t.updated);
		free(again);
	}
	free(text);
	return 0;
}
