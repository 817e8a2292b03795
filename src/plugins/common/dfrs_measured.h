/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_measured.h - the CPU need sched/amcbf decides on for a job (Liu et
 * al. 2013, section 4.1: CPU usage "from history or a job option"):
 *
 *   1. the job's declared --comment=dfrs:need=X, which always wins;
 *   2. a running job: the need dfrs-nodeagent measured on its nodes and
 *      wrote in each node's Extra (suite/measured_tag.h), the largest over
 *      its nodes, when no older than dfrs_need_stale seconds;
 *   3. a pending job, or a running one with no report yet: the
 *      prediction of the history of measured needs (suite/need_predictor.h)
 *      when the caller keeps one (as dfrs sim --need measured replays);
 *   4. dfrs_cpu_need.
 * A stale or malformed report falls back to 4, a missing one to 3, with
 * one log line per job and kind (missing: at verbose level, as on a
 * cluster without agents).
 * Call with slurmctld's job and node read locks (or write locks) held.
 */
#ifndef DFRS_MEASURED_H
#define DFRS_MEASURED_H

#include <time.h>

#include "suite/dfrs_params.h"
#include "suite/need_predictor.h"

typedef enum {
	DFRS_NEED_DECLARED,
	DFRS_NEED_MEASURED,
	DFRS_NEED_PREDICTED,
	DFRS_NEED_DEFAULT,
} dfrs_need_from_t;

/* hist may be NULL (no prediction); *from may be NULL. */
double dfrs_job_need(job_record_t *job_ptr, const dfrs_params_t *params,
		     const need_predictor_t *hist, time_t now,
		     dfrs_need_from_t *from);

#endif
