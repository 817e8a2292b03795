/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_measured.c - a Slurm job's CPU need for the decisions
 * (dfrs_measured.h): its records handed to need/need_choice.c.
 */
#include "src/common/slurm_xlator.h"

#include <string.h>

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "dfrs_measured.h"

/* What was said about which job, so each job says each kind of fallback
 * once (a ring: forgotten after 1024 others, it may be said again). */
#define SAID_MAX 1024
static uint64_t said[SAID_MAX];
static size_t said_next;

static bool say_once(uint32_t job_id, need_note_t kind)
{
	uint64_t key = ((uint64_t)job_id << 2) | (uint64_t)kind;

	for (size_t i = 0; i < SAID_MAX; i++)
		if (said[i] == key)
			return false;
	said[said_next] = key;
	said_next = (said_next + 1) % SAID_MAX;
	return true;
}

double dfrs_job_need(job_record_t *job_ptr, const dfrs_params_t *params,
		     const need_predictor_t *hist, time_t now, bool quiet,
		     need_chosen_t *from)
{
	need_job_t job = {
		.job_id = job_ptr->job_id, .user = job_ptr->user_id,
		.name = job_ptr->name, .comment = job_ptr->comment,
		.running = IS_JOB_RUNNING(job_ptr),
	};
	const char **extra = NULL, **node = NULL;
	need_choice_t c;

	if (job.running && job_ptr->node_bitmap && params->need_stale > 0) {
		int cnt = bit_set_count(job_ptr->node_bitmap);
		extra = xcalloc(cnt ? cnt : 1, sizeof(char *));
		node = xcalloc(cnt ? cnt : 1, sizeof(char *));
		for (int i = 0; i < node_record_count && (int)job.nnodes < cnt;
		     i++) {
			node_record_t *node_ptr = node_record_table_ptr[i];
			if (!node_ptr || !bit_test(job_ptr->node_bitmap, i))
				continue;
			extra[job.nnodes] = node_ptr->extra;
			node[job.nnodes++] = node_ptr->name;
		}
		job.extra = extra;
		job.node = node;
	}
	need_choose(&job, params, hist, (long)now, &c);
	xfree(extra);
	xfree(node);
	if (quiet)
		;
	else if ((c.note == NEED_NOTE_STALE || c.note == NEED_NOTE_BAD) &&
		 say_once(job.job_id, c.note))
		info("%pJ: measured CPU need not used, dfrs_cpu_need=%g instead: %s",
		     job_ptr, c.need, c.why);
	else if (c.note == NEED_NOTE_MISSING &&
		 say_once(job.job_id, c.note))
		/* debug: on a cluster without node agents it is true of
		 * every job, and says nothing the site did not choose */
		debug("%pJ: no CPU need measured on its nodes yet (dfrs-nodeagent --measure-window): %s %g",
		      job_ptr, need_chosen_name(c.from), c.need);
	if (from)
		*from = c.from;
	return c.need;
}
