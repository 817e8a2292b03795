/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_choice.c - the CPU need the decisions use for a job: declared,
 * measured on its nodes, predicted, or the default (need_choice.h).
 */
#include <stdio.h>
#include <string.h>

#include "suite/cpu_weight.h"
#include "measured_tag.h"
#include "need_choice.h"

#define NEED_FLOOR 0.01		/* an idle job still needs a little */

/* The largest need reported for the job over its nodes (out->need), or
 * the note why none is used. */
static void measured(const need_job_t *job, int stale, long now,
		     need_choice_t *out)
{
	static measured_tag_t tag;	/* large: not on the stack */
	double most = 0;

	if (!job->nnodes) {
		out->note = NEED_NOTE_MISSING;
		return;
	}
	for (size_t i = 0; i < job->nnodes; i++) {
		const char *name = job->node && job->node[i] ? job->node[i]
							      : "?";
		char why[160];
		double v;
		int rc = measured_tag_parse(job->extra ? job->extra[i] : NULL,
					    &tag, why, sizeof(why));
		if (rc < 0) {
			out->note = NEED_NOTE_BAD;
			snprintf(out->why, sizeof(out->why),
				 "node %s's Extra: %s", name, why);
			return;
		}
		if (rc == 0 || measured_tag_need(&tag, job->job_id, &v)) {
			out->note = NEED_NOTE_MISSING;
			return;
		}
		if (!measured_tag_fresh(tag.stamp, now, stale)) {
			out->note = NEED_NOTE_STALE;
			snprintf(out->why, sizeof(out->why),
				 "node %s's report is %ld s old "
				 "(dfrs_need_stale=%d)", name, now - tag.stamp,
				 stale);
			return;
		}
		if (v > most)
			most = v;
	}
	out->note = NEED_NOTE_NONE;
	out->need = most < NEED_FLOOR ? NEED_FLOOR : most;
	out->from = NEED_CHOSEN_MEASURED;
}

void need_choose(const need_job_t *job, const dfrs_params_t *params,
		 const need_predictor_t *hist, long now, need_choice_t *out)
{
	cpu_weight_tag_t tag;
	char err[160];

	memset(out, 0, sizeof(*out));
	out->need = params->share_cpu_need;
	out->from = NEED_CHOSEN_DEFAULT;
	if (cpu_weight_tag_parse(job->comment, &tag, err, sizeof(err)) == 1 &&
	    tag.need > 0) {
		out->need = tag.need;
		out->from = NEED_CHOSEN_DECLARED;
		return;
	}
	if (job->running && params->need_stale > 0) {
		measured(job, params->need_stale, now, out);
		if (out->from == NEED_CHOSEN_MEASURED ||
		    out->note != NEED_NOTE_MISSING)
			return;	/* measured, or the default for a bad report */
	}
	/* not measured (yet): as while it waited */
	need_source_t h = NEED_FROM_DEFAULT;
	double v = hist ? need_predictor_predict(hist, job->user, job->name,
						 params->share_cpu_need, &h)
			: params->share_cpu_need;
	if (h != NEED_FROM_DEFAULT) {
		out->need = v;
		out->from = NEED_CHOSEN_PREDICTED;
	}
}

const char *need_chosen_name(need_chosen_t from)
{
	switch (from) {
	case NEED_CHOSEN_DECLARED:
		return "declared";
	case NEED_CHOSEN_MEASURED:
		return "measured";
	case NEED_CHOSEN_PREDICTED:
		return "predicted";
	default:
		return "default";
	}
}
