/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_measured.h - the CPU need sched/amcbf and select/dfrs decide on for
 * a Slurm job: the rule of need/need_choice.h (declared > measured on its
 * nodes > predicted > dfrs_cpu_need) over slurmctld's records, with one
 * log line per job and kind of fallback (a missing report at debug
 * level, as on a cluster without agents; a stale or malformed one at info
 * level, naming the node), never one per cycle.
 * Call with slurmctld's job and node read locks (or write locks) held.
 */
#ifndef DFRS_MEASURED_H
#define DFRS_MEASURED_H

#include <stdbool.h>
#include <time.h>

#include "suite/dfrs_params.h"
#include "need/need_choice.h"
#include "need/need_predictor.h"

/* hist may be NULL (no prediction); *from may be NULL; quiet: log
 * nothing (the other plugin, which decides on running jobs' needs in this
 * configuration, says it). */
double dfrs_job_need(job_record_t *job_ptr, const dfrs_params_t *params,
		     const need_predictor_t *hist, time_t now, bool quiet,
		     need_chosen_t *from);

#endif
