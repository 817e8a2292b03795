/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_jobcomp.c - fuzz target for jobcomp_parse, the reader of Slurm's
 * jobcomp/filetxt records (`dfrs sim --live`): it reads records in file
 * order with their strings terminated, or fails with one message
 * "NAME:LINE: what".
 */
#include <string.h>

#include "fuzz_targets.h"
#include "trace/jobcomp.h"

int fuzz_jobcomp(const uint8_t *data, size_t size)
{
	jobcomp_t jc;
	char err[512] = "";
	int rc = jobcomp_parse((const char *)data, size, "fuzz", &jc, err,
			       sizeof(err));

	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == 0) {
		for (size_t i = 0; i < jc.n; i++) {
			const jobcomp_rec_t *r = &jc.recs[i];

			FUZZ_CHECK(memchr(r->name, '\0', sizeof(r->name)) != NULL);
			FUZZ_CHECK(memchr(r->state, '\0', sizeof(r->state)) != NULL);
			FUZZ_CHECK(r->line >= 1 && (i == 0 || r->line > jc.recs[i - 1].line));
		}
	} else {
		FUZZ_CHECK(fuzz_one_message(err));
		FUZZ_CHECK(strncmp(err, "fuzz:", 5) == 0);
	}
	jobcomp_free(&jc);
	return 0;
}
