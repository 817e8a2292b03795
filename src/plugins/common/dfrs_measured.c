/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_measured.c - a job's CPU need for the decisions: declared, measured
 * on its nodes, predicted, or the default (dfrs_measured.h).
 */
#include "src/common/slurm_xlator.h"

#include <string.h>

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "suite/cpu_weight.h"
#include "suite/measured_tag.h"
#include "dfrs_measured.h"

/* What was said about which job, so each job says each kind of fallback
 * once (a ring: forgotten after 1024 others, it may be said again). */
#define SAID_MAX 1024
enum { SAID_MISSING = 1, SAID_BAD = 2 };
static uint64_t said[SAID_MAX];
static size_t said_next;

static bool say_once(uint32_t job_id, int kind)
{
	uint64_t key = ((uint64_t)job_id << 2) | (uint64_t)kind;

	for (size_t i = 0; i < SAID_MAX; i++)
		if (said[i] == key)
			return false;
	said[said_next] = key;
	said_next = (said_next + 1) % SAID_MAX;
	return true;
}

/* The largest need reported for the job over its nodes: 1 found (all
 * fresh), 0 none, -1 stale or malformed (why in err). */
static int measured(job_record_t *job_ptr, int stale, time_t now,
		    double *need, char *err, size_t errlen)
{
	static measured_tag_t tag;	/* slurmctld's locks serialise us */
	bool any = false;
	double most = 0;

	if (!job_ptr->node_bitmap)
		return 0;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		char why[200];
		double v;
		if (!node_ptr || !bit_test(job_ptr->node_bitmap, i))
			continue;
		int rc = measured_tag_parse(node_ptr->extra, &tag, why,
					    sizeof(why));
		if (rc < 0) {
			snprintf(err, errlen, "node %s's Extra: %s",
				 node_ptr->name, why);
			return -1;
		}
		if (rc == 0 || measured_tag_need(&tag, job_ptr->job_id, &v))
			return 0;	/* one node has not reported it */
		if (difftime(now, (time_t)tag.stamp) > stale) {
			snprintf(err, errlen, "node %s's report is %.0f s old "
				 "(dfrs_need_stale=%d)", node_ptr->name,
				 difftime(now, (time_t)tag.stamp), stale);
			return -1;
		}
		any = true;
		if (v > most)
			most = v;
	}
	if (!any)
		return 0;
	*need = most < 0.01 ? 0.01 : most;
	return 1;
}

double dfrs_job_need(job_record_t *job_ptr, const dfrs_params_t *params,
		     const need_predictor_t *hist, time_t now,
		     dfrs_need_from_t *from)
{
	dfrs_need_from_t src = DFRS_NEED_DEFAULT;
	double need = params->share_cpu_need;
	cpu_weight_tag_t tag;
	char err[300];

	if (cpu_weight_tag_parse(job_ptr->comment, &tag, err, sizeof(err)) == 1
	    && tag.need > 0) {
		need = tag.need;
		src = DFRS_NEED_DECLARED;
		if (from)
			*from = src;
		return need;
	}
	int rc = IS_JOB_RUNNING(job_ptr) && params->need_stale > 0 ?
		 measured(job_ptr, params->need_stale, now, &need, err,
			  sizeof(err)) : 0;
	if (rc == 1) {
		src = DFRS_NEED_MEASURED;
	} else if (rc < 0) {
		if (say_once(job_ptr->job_id, SAID_BAD))
			info("%pJ: measured CPU need not used, dfrs_cpu_need=%g instead: %s",
			     job_ptr, params->share_cpu_need, err);
	} else {
		/* not measured (yet): as while it waited */
		need_source_t h = NEED_FROM_DEFAULT;
		double v = hist ? need_predictor_predict(hist, job_ptr->user_id,
				job_ptr->name, params->share_cpu_need, &h)
				: params->share_cpu_need;
		if (h != NEED_FROM_DEFAULT) {
			need = v;
			src = DFRS_NEED_PREDICTED;
		}
		if (IS_JOB_RUNNING(job_ptr) && params->need_stale > 0 &&
		    say_once(job_ptr->job_id, SAID_MISSING))
			verbose("%pJ: no CPU need measured on its nodes yet (dfrs-nodeagent --measure-window): %s %g",
				job_ptr, h != NEED_FROM_DEFAULT ? "predicted"
				: "dfrs_cpu_need", need);
	}
	if (from)
		*from = src;
	return need;
}
