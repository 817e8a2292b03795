/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gang.h - dfrs sim's gang scheduling drivers (sim_policy.h), the
 * stand-in for Slurm's PreemptMode=GANG: the Ousterhout matrix of
 * gang.h replayed with time slices (Zhang et al. 2000).
 * Model parameters: gang_mpl rows, gang_slice seconds per slice,
 * migration_cost seconds of work per migration, at most gang_migrate_q
 * migrated tasks per slice (sim_model_t).
 */
#ifndef DFRS_SIM_GANG_H
#define DFRS_SIM_GANG_H

#include <stddef.h>

#include "sim_engine.h"
#include "sim_workload.h"

typedef struct {
	int backfill;		/* EASY per row past a blocked head job */
	int migrate;		/* compact with migration (option 2) */
} sim_gang_opts_t;

/* Replay w; the same contract as sim_run() (sim_engine.h). */
int sim_gang_run(const sim_workload_t *w, const sim_model_t *m,
		 const sim_gang_opts_t *o, sim_result_t *r, char *err,
		 size_t errlen);

/* The three policies as sim_driver_fn: gang, gang-backfill, gang-migrate
 * (gang-migrate backfills too: Zhang et al.'s BGS+M). */
int sim_gang_plain(const sim_workload_t *w, const sim_model_t *m,
		   sim_result_t *r, char *err, size_t errlen);
int sim_gang_backfill(const sim_workload_t *w, const sim_model_t *m,
		      sim_result_t *r, char *err, size_t errlen);
int sim_gang_migrate(const sim_workload_t *w, const sim_model_t *m,
		     sim_result_t *r, char *err, size_t errlen);

#endif
