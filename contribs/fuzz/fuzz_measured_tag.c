/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_measured_tag.c - fuzz target for measured_tag_parse, which the
 * plugins run on every node's Extra field (the dfrs:measured= word the
 * node agents write; an administrator may write anything there): a word
 * reads or fails with one message; one read writes back to a word that
 * reads the same; removing it leaves no dfrs:measured= word.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "need/measured_tag.h"

int fuzz_measured_tag(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *rest, err[256] = "";
	static char word[MEASURED_TAG_MAX_JOBS * 20 + 64];
	static measured_tag_t t, u;
	int rc;

	rc = measured_tag_parse(text, &t, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == 1 || (rc == -1 && fuzz_one_message(err)));
	if (rc == 1) {
		FUZZ_CHECK(t.njobs > 0 && t.stamp > 0);
		FUZZ_CHECK(measured_tag_format(t.jobs, t.njobs, t.stamp, word,
					       sizeof(word)) == 0);
		FUZZ_CHECK(measured_tag_parse(word, &u, err, sizeof(err)) == 1);
		FUZZ_CHECK(u.njobs == t.njobs && u.stamp == t.stamp);
	}
	FUZZ_CHECK(measured_tag_replace(text, NULL, &rest) == 0);
	FUZZ_CHECK(measured_tag_parse(rest, &u, err, sizeof(err)) == 0);
	free(rest);
	free(text);
	return 0;
}
