/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_choice.h - which CPU need the decisions use for a job, the one rule
 * that sched/amcbf (tiers, background admission, utilization threshold,
 * amcbf_mode=dfrs) and select/dfrs (yields) share.  Liu et al. 2013,
 * section 4.1: CPU usage "from history or a job option"; Stillwell et al.
 * 2010: a job's CPU need per node.
 *
 *   1. the job's declared --comment=dfrs:need=X, which always wins;
 *   2. a running job: the need dfrs-nodeagent measured on each of its
 *      nodes (the dfrs:measured= word of the node's Extra,
 *      measured_tag.h), the largest over its nodes, when every node has
 *      reported it and no report is older than dfrs_need_stale seconds;
 *   3. a pending job, or a running one that some node has not reported
 *      yet: the prediction of the history of measured needs
 *      (need_predictor.h) when the caller keeps one;
 *   4. dfrs_cpu_need.
 * A stale or malformed report gives 4 (the node's agent is not to be
 * trusted), and the choice says why, naming the node, for one log line.
 * dfrs_need_stale=0 turns 2 off.  Plain C, no Slurm headers.
 */
#ifndef DFRS_NEED_CHOICE_H
#define DFRS_NEED_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "suite/dfrs_params.h"
#include "need_predictor.h"

typedef enum {
	NEED_CHOSEN_DECLARED,
	NEED_CHOSEN_MEASURED,
	NEED_CHOSEN_PREDICTED,
	NEED_CHOSEN_DEFAULT,
} need_chosen_t;

/* Why a running job's measurement was not used. */
typedef enum {
	NEED_NOTE_NONE,		/* used, or not running */
	NEED_NOTE_MISSING,	/* some node has not reported the job (yet) */
	NEED_NOTE_STALE,	/* a node's report is older than need_stale */
	NEED_NOTE_BAD,		/* a node's Extra has a malformed word */
} need_note_t;

typedef struct {
	uint32_t job_id, user;
	const char *name;	/* job name, may be NULL */
	const char *comment;	/* its Comment (dfrs:need=X), may be NULL */
	bool running;
	/* the Extra and name of each node it runs on (running jobs) */
	const char *const *extra;
	const char *const *node;
	size_t nnodes;
} need_job_t;

typedef struct {
	double need;		/* 0.01..1 */
	need_chosen_t from;
	need_note_t note;
	char why[240];		/* for NEED_NOTE_STALE / NEED_NOTE_BAD:
				   "node n2's report is 40 s old
				   (dfrs_need_stale=20)" */
} need_choice_t;

/* The need of job at unix time now; hist may be NULL (no prediction). */
void need_choose(const need_job_t *job, const dfrs_params_t *params,
		 const need_predictor_t *hist, long now, need_choice_t *out);

/* "declared", "measured", "predicted" or "default". */
const char *need_chosen_name(need_chosen_t from);

#endif
