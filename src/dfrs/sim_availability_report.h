/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_availability_report.h - dfrs sim --availability's output: one table
 * per gamma (table), or the same numbers as JSON or CSV.
 */
#ifndef DFRS_SIM_AVAILABILITY_REPORT_H
#define DFRS_SIM_AVAILABILITY_REPORT_H

#include <stdio.h>

#include "sim/avail_sim.h"
#include "sim_args.h"

typedef struct {
	const char *spec;		/* the --availability argument */
	const avail_source_t *src;
	const avail_sim_config_t *cfg;
	const avail_sim_result_t *res;
	double seconds;			/* wall time of the simulation */
} sim_availability_report_t;

void sim_availability_report(FILE *out, const sim_availability_report_t *r, sim_format_t format);

#endif
