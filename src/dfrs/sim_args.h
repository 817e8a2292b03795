/*
 * sim_args.h - command-line values shared by both modes of dfrs sim (the
 * workload replay of cmd_sim.c and the availability evaluation of
 * cmd_sim_availability.c): each prints one "dfrs sim: ..." line and returns
 * -1 on a bad value.
 */
#ifndef DFRS_SIM_ARGS_H
#define DFRS_SIM_ARGS_H

#include <stdint.h>

typedef enum { SIM_FORMAT_TABLE, SIM_FORMAT_JSON, SIM_FORMAT_CSV } sim_format_t;

/* A non-negative finite number, the whole string. */
int sim_arg_number(const char *what, const char *s, double *out);
/* A whole number from min to 1e8. */
int sim_arg_count(const char *what, const char *s, int min, int *out);
/* --seed: a whole number. */
int sim_arg_seed(const char *s, uint64_t *out);
/* --format: table, json or csv. */
int sim_arg_format(const char *s, sim_format_t *out);

#endif
