/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_args.h - command-line values shared by both modes of dfrs sim (the
 * workload replay of cmd_sim.c and the availability evaluation of
 * cmd_sim_availability.c): each prints one "dfrs sim: ..." line and returns
 * -1 on a bad value.  Numbers and counts: cli_args.h, as every subcommand.
 */
#ifndef DFRS_SIM_ARGS_H
#define DFRS_SIM_ARGS_H

#include <stdint.h>

typedef enum { SIM_FORMAT_TABLE, SIM_FORMAT_JSON, SIM_FORMAT_CSV } sim_format_t;

/* --seed: a whole number. */
int sim_arg_seed(const char *s, uint64_t *out);
/* --format: table, json or csv. */
int sim_arg_format(const char *s, sim_format_t *out);

#endif
