/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_params.c - dfrs params: the sched/amcbf parameter table, and a check of
 * a SchedulerParameters string exactly as the plugin would parse it.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "suite/dfrs_params.h"

int cmd_params(int argc, char **argv)
{
	dfrs_params_t p;
	char err[256], line[1024];

	if (argc == 1) {
		dfrs_params_describe(stdout);
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "--check")) {
		fprintf(stderr, "usage: dfrs params [--check 'key=value,...']\n");
		return 2;
	}
	if (dfrs_params_parse(argv[2], &p, err, sizeof(err))) {
		fprintf(stderr, "dfrs params: %s\n", err);
		return 1;
	}
	dfrs_params_format(&p, line, sizeof(line));
	printf("%s\n", line);
	return 0;
}
