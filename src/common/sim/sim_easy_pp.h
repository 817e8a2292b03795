/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_easy_pp.h - dfrs sim's EASY++ (Tsafrir, Etsion & Feitelson 2007):
 * EASY whose run-time estimates are per-user predictions
 * (runtime_predictor.h), corrected upwards when a job outlives its own,
 * with the backfill candidates tried shortest prediction first
 * (sched_sjf_backfill.c).  The user's estimate stays the job's kill time
 * and the prediction's cap; the replay kills no job (each runs its trace
 * run time).
 */
#ifndef DFRS_SIM_EASY_PP_H
#define DFRS_SIM_EASY_PP_H

#include <stddef.h>

#include "sim_engine.h"
#include "sim_workload.h"

/* A replay of w under EASY++: as sim_run() (a sim_driver_fn). */
int sim_easy_pp(const sim_workload_t *w, const sim_model_t *m,
		sim_result_t *r, char *err, size_t errlen);

#endif
