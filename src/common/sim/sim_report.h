/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_report.h - dfrs sim's output: the same figures as a side-by-side
 * table with each policy's ratio to EASY, as JSON, or as CSV; live runs
 * (rows with predicted set) also with their ratio to the prediction.
 */
#ifndef DFRS_SIM_REPORT_H
#define DFRS_SIM_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "sim_metrics.h"

typedef struct {
	const char *policy;
	const char *param_key;	/* sweep: the parameter varied, else NULL */
	double param_value;
	sim_metrics_t m;
	const char *predicted;	/* a live run (dfrs sim --live): the policy
				   that predicts it, else NULL */
	const char *dfrs_model;	/* an online DFRS row: "requeue" or
				   "free-migration" (sim_dfrs_model_name),
				   else NULL */
} sim_report_row_t;

typedef struct {
	const char *trace;
	size_t jobs;		/* simulated */
	size_t skipped;		/* not simulated: reader skips + too big */
	size_t skipped_too_big;
	size_t bad_lines;
	int nodes;
	double load;
	uint64_t seed;
	double migration_cost;
	int estimates_exact;	/* EASY got exact runtimes */
	const char *estimates;	/* how estimates were set (--estimates), or
				   NULL: the trace's own, as estimates_exact
				   says */
	double potential;	/* sim_consolidation_potential() */
	const char *cpu_usage;	/* where the CPU usage came from, or NULL */
	const sim_report_row_t *rows;
	size_t nrows;
} sim_report_t;

void sim_report_json(FILE *out, const sim_report_t *r);
void sim_report_table(FILE *out, const sim_report_t *r);
void sim_report_csv(FILE *out, const sim_report_t *r);

#endif
