/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_params.h - the model and policy parameters dfrs sim takes as
 * --param key=value: names, defaults, ranges, checks; sched/amcbf's
 * slurm.conf names (amcbf_util_threshold, ...) are accepted too.
 */
#ifndef DFRS_SIM_PARAMS_H
#define DFRS_SIM_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "sim_engine.h"

/*
 * Set one parameter by name.  Returns 0, or -1 with one line in err naming
 * the key and what is wrong (unknown key, value out of range).
 */
int sim_param_set(sim_model_t *m, const char *key, double value,
		  char *err, size_t errlen);

/* The short key of a parameter given by its slurm.conf name
 * (amcbf_util_threshold: util_threshold); any other key as it is. */
const char *sim_param_key(const char *key);

/*
 * One warning line on out for each parameter that m sets away from its
 * default (or that is swept, swept naming the --param given a list, else
 * NULL) while the parameter it needs is 0, e.g. dfrs_starve_bsld without
 * dfrs_requeue=1.  Returns how many lines.
 */
int sim_params_warn_inert(FILE *out, const sim_model_t *m,
			  const char *swept);

/* The parameter table for --help and doc/simulator.md. */
void sim_params_describe(FILE *out);

#endif
