/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_dfrs_params.c - fuzz target for dfrs_params_parse, the
 * SchedulerParameters parser both plugins run on slurm.conf's line: a
 * parse succeeds (and the result formats into a log line), or fails with
 * one message and leaves the settings untouched.  dfrs params --check's
 * checks (dfrs_params_check) run on the same text: each note one line, an
 * error exactly when the parse fails or the plugin would stay passive.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "suite/dfrs_params.h"
#include "suite/dfrs_params_check.h"

int fuzz_dfrs_params(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[256] = "", line[4096];
	dfrs_params_t p, before;
	int rc;

	memset(&p, 0xa5, sizeof(p));
	before = p;
	rc = dfrs_params_parse(text, &p, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == 0) {
		dfrs_params_format(&p, line, sizeof(line));
		FUZZ_CHECK(strlen(line) + 1 < sizeof(line));
		FUZZ_CHECK(strcmp(dfrs_params_mode_name(p.mode), "?") != 0);
		(void)dfrs_params_manages_partition(&p, "batch");
		(void)dfrs_params_qos_exempt(&p, "normal");
	} else {
		FUZZ_CHECK(fuzz_one_message(err));
		FUZZ_CHECK(memcmp(&p, &before, sizeof(p)) == 0);
	}
	dfrs_check_t check;
	dfrs_params_check(text, &check);
	FUZZ_CHECK(check.n <= DFRS_CHECK_MAX_NOTES);
	FUZZ_CHECK(check.n == DFRS_CHECK_MAX_NOTES ||
		   check.n == check.errors + check.warnings);
	FUZZ_CHECK((check.errors > 0) ==
		   (rc == -1 || !dfrs_params_owns_starts(text)));
	for (size_t i = 0; i < check.n; i++)
		FUZZ_CHECK(fuzz_one_message(check.notes[i].text));
	free(text);
	return 0;
}
