/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_dfrs.h - dfrs sim drivers (sim_policy.h) for the online,
 * non-clairvoyant DFRS policies of Stillwell et al. 2010 (dfrs_online.h): greedyp,
 * greedypm and mcb.  A workload is replayed through dfrs_online_decide /
 * dfrs_online_apply / dfrs_online_advance, and the schedule is reported in
 * the same sim_result_t as sim_run(), so that dfrs sim compares them with
 * the engines.  The job model (one host per allocation unit or per host of
 * the workload, CPU need, memory and GPU requirements) is described at the
 * top of sim_dfrs.c.
 */
#ifndef DFRS_SIM_DFRS_H
#define DFRS_SIM_DFRS_H

#include <stddef.h>

#include "dfrs/dfrs_online.h"
#include "sim_engine.h"
#include "sim_workload.h"

/*
 * Replay w under the online DFRS policy params->policy with params as
 * given (period, minvt, priority; penalty is taken from params, not from
 * m).  Returns 0 and fills *r (sim_result_free it), or -1 with one line in
 * err (out of memory, a job larger than the machine, a decision error, or
 * jobs left waiting on an idle machine: a bug, reported rather than
 * looping).
 */
int sim_dfrs_run(const sim_workload_t *w, const sim_model_t *m,
		 const dfrs_online_params_t *params, sim_result_t *r,
		 char *err, size_t errlen);

/* The model of suspensions and moves m gives the DFRS rows: "requeue"
 * (dfrs_requeue=1, the default: as amcbf_mode=dfrs live, a job that does
 * not checkpoint loses its progress) or "free-migration" (dfrs_requeue=0:
 * Stillwell et al. 2010's, progress kept at migration_cost each). */
const char *sim_dfrs_model_name(const sim_model_t *m);

/* sim_driver_fn's: the policy's defaults (dfrs_online_params_default),
 * with m->migration_cost as the penalty of each resume or migration. */
int sim_dfrs_greedyp(const sim_workload_t *w, const sim_model_t *m,
		     sim_result_t *r, char *err, size_t errlen);
int sim_dfrs_greedypm(const sim_workload_t *w, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen);
int sim_dfrs_mcb(const sim_workload_t *w, const sim_model_t *m,
		 sim_result_t *r, char *err, size_t errlen);
int sim_dfrs_greedypmr(const sim_workload_t *w, const sim_model_t *m,
		       sim_result_t *r, char *err, size_t errlen);

#endif
