/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_live.h - a live run of a workload on Slurm turned into what a
 * simulated run gives (sim_result_t), so that dfrs sim computes and
 * reports the same figures for both (contribs/live-compare).
 */
#ifndef DFRS_SIM_LIVE_H
#define DFRS_SIM_LIVE_H

#include <stddef.h>

#include "trace/jobcomp.h"
#include "sim_engine.h"
#include "sim_workload.h"

/*
 * Match jc's records to w's jobs by job name (the trace job id, as
 * contribs/live-compare submits them): a COMPLETED record ends the job,
 * PREEMPTED and REQUEUED records are runs lost to preemption.  Time 0 is
 * the earliest SubmitTime.  Fills *live with w's jobs at their real
 * arrival (SubmitTime; free with sim_live_free) and *r (sim_result_free)
 * with first starts, finishes, preemptions (= migrations: each lost run
 * restarts) and busy CPU (each run's length times the job's CPU usage).
 * Returns 0, or -1 with one line in err: FILE:LINE for a record that is
 * no job of w or a second COMPLETED one; FILE and the ids (with their last
 * state) of jobs not COMPLETED.
 */
int sim_live_result(const sim_workload_t *w, const jobcomp_t *jc,
		    const sim_model_t *m, sim_workload_t *live,
		    sim_result_t *r, char *err, size_t errlen);

void sim_live_free(sim_workload_t *live);

/* The dfrs sim policy a live run is the counterpart of: "slurm-backfill"
 * is "easy", "slurm-X" is "X"; NULL for another name. */
const char *sim_live_predicted(const char *live_name);

#endif
