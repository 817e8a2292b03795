/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_args.h - command-line values shared by both modes of dfrs sim (the
 * workload replay of cmd_sim.c and the availability evaluation of
 * cmd_sim_availability.c): each prints one "dfrs sim: ..." line and returns
 * -1 on a bad value.  Numbers and counts: cli_args.h, as every subcommand.
 * Also the warnings about what a replay assumes: the machine size, the
 * CPU usage, jobs of kinds the plugin treats otherwise.
 */
#ifndef DFRS_SIM_ARGS_H
#define DFRS_SIM_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/sim_policy.h"
#include "sim/sim_workload.h"
#include "trace/trace.h"

typedef enum { SIM_FORMAT_TABLE, SIM_FORMAT_JSON, SIM_FORMAT_CSV } sim_format_t;

/* --seed: a whole number. */
int sim_arg_seed(const char *s, uint64_t *out);
/* --format: table, json or csv. */
int sim_arg_format(const char *s, sim_format_t *out);

/* --policy NAME: case ignored; unknown: "did you mean" the closest. */
int sim_arg_policy(const char *name, sim_policy_t *out);
/* --param dfrs_cpu_need=X: one number in the plugin's range 0.01..1. */
int sim_arg_cpu_need(const char *value, double *out);

/* One warning line each on out for job-array tasks and heterogeneous job
 * components in a sacct history (replayed as plain jobs). */
void sim_warn_history(FILE *out, const trace_t *t);
/* One warning line on out when the machine size is the largest job's
 * (no --nodes, no header): a guess the results depend on. */
void sim_warn_machine(FILE *out, const trace_t *t,
		      const sim_workload_opts_t *o, const sim_workload_t *w);

/*
 * Where the processes' CPU usage came from, for the report (buf): the
 * trace, --cpu-usage, dfrs_cpu_need or Liu et al.'s model.  Returns 1 when
 * some jobs use Liu et al.'s model, which is not what the deployed plugin
 * assumes (the caller says so loudly), else 0.
 */
int sim_cpu_note(const sim_workload_opts_t *o, const sim_workload_t *w,
		 char *buf, size_t len);

#endif
