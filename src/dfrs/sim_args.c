/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_args.c - dfrs sim's shared command-line values (sim_args.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "sim_args.h"

int sim_arg_seed(const char *s, uint64_t *out)
{
	double v;
	if (cli_number("dfrs sim", "--seed", s, &v))
		return -1;
	if (v != floor(v) || v > 1.8e19) {
		fprintf(stderr, "dfrs sim: --seed: '%s' must be a whole number\n", s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int sim_arg_format(const char *s, sim_format_t *out)
{
	if (!strcmp(s, "table"))
		*out = SIM_FORMAT_TABLE;
	else if (!strcmp(s, "json"))
		*out = SIM_FORMAT_JSON;
	else if (!strcmp(s, "csv"))
		*out = SIM_FORMAT_CSV;
	else {
		fprintf(stderr, "dfrs sim: --format: '%s' is not table, json or csv\n", s);
		return -1;
	}
	return 0;
}
