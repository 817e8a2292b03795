/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_needs.h - sched/amcbf's CPU needs of jobs (plugins/common/
 * dfrs_measured.h: declared, measured, predicted, default;
 * need/need_choice.h) and the history
 * of measured needs it predicts pending jobs from (need/need_predictor.h),
 * kept across restarts in StateSaveLocation (need_history.h).  A running
 * job's last measured need is noted at each cycle; when the job is no
 * longer running, the history learns it.  Only the plugin's agent thread
 * calls these.
 */
#ifndef DFRS_AMCBF_NEEDS_H
#define DFRS_AMCBF_NEEDS_H

#include <stdbool.h>

#include "suite/dfrs_params.h"

/*
 * StateSaveLocation/dfrs-need-first: whatever the log level, the need each
 * running job had the first time sched/amcbf decided on it with measured
 * needs on (dfrs_need_stale > 0) but no measurement of its own used, one
 * line per job, "JOBID predicted|default NEED" (default: dfrs_cpu_need),
 * the last 1024 such jobs, oldest first; rewritten after a cycle that added
 * one, read back at start (contribs/live-needs reads it).
 */
#define DFRS_NEED_FIRST_FILE "dfrs-need-first"

/* Read the history (a missing file: empty; a corrupt one: one error line,
 * empty).  No lock needed. */
void amcbf_needs_load(void);

/* The need of a job for this cycle (job and node locks held); bg: it
 * runs in the background tier, where it gets at most the idle CPU, so its
 * measured use only raises the need it had (its last foreground
 * measurement, else its prediction, else dfrs_cpu_need) and the history
 * learns only foreground measurements, as dfrs sim --need measured. */
double amcbf_needs_of(job_record_t *job_ptr, const dfrs_params_t *params,
		      bool bg);

/* What a job would use with its CPUs to itself: its declared need, else
 * dfrs_cpu_need, never a measurement nor a prediction from measurements
 * (beside other jobs a job measures what it got).  Logs nothing. */
double amcbf_needs_alone(job_record_t *job_ptr, const dfrs_params_t *params);

/* Learn the needs of the noted jobs that no longer run (takes the job
 * read lock), and write the history when it changed (outside locks). */
void amcbf_needs_sweep(void);

void amcbf_needs_fini(void);

#endif
