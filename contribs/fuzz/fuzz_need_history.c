/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_need_history.c - fuzz target for need_predictor_parse, which
 * sched/amcbf runs at start on StateSaveLocation/dfrs-need-history (the
 * measured CPU needs the predictor learned): a history loads or fails with
 * one message and is then empty; a loaded one predicts within 0.01..1,
 * and writes text that reads back to the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "need/need_predictor.h"

int fuzz_need_history(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *again, *third, err[256] = "";
	need_predictor_t p;
	int rc;

	FUZZ_CHECK(need_predictor_init(&p, 8) == 0);
	rc = need_predictor_parse(&p, text, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err) &&
			       p.used == 0));
	if (rc == 0) {
		FUZZ_CHECK(p.used <= p.capacity);
		for (size_t i = 0; i < p.used; i++) {
			const need_entry_t *e = &p.entries[i];
			double v = need_predictor_predict(&p, e->user,
				e->is_user ? NULL : e->name, 0.5, NULL);
			FUZZ_CHECK(v >= NEED_MIN && v <= NEED_MAX);
		}
		FUZZ_CHECK(need_predictor_observe(&p, 1, "fuzz", 0.5) == 0);
		again = need_predictor_to_text(&p);
		FUZZ_CHECK(again != NULL);
		FUZZ_CHECK(need_predictor_parse(&p, again, err,
						sizeof(err)) == 0);
		third = need_predictor_to_text(&p);
		FUZZ_CHECK(third != NULL && strcmp(again, third) == 0);
		free(again);
		free(third);
	}
	need_predictor_free(&p);
	free(text);
	return 0;
}
