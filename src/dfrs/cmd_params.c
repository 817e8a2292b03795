/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_params.c - dfrs params: the sched/amcbf parameter table, and a check of
 * a SchedulerParameters string exactly as the plugin would parse it, with
 * what would leave the plugin passive (an error) and what it would take
 * otherwise than meant (warnings: stray spaces, keys given twice, name
 * lists split by ','), dfrs_params_check.h.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "suite/dfrs_params.h"
#include "suite/dfrs_params_check.h"

int cmd_params(int argc, char **argv)
{
	dfrs_params_t p;
	dfrs_check_t check;
	char line[2048];

	if (argc == 1) {
		dfrs_params_describe(stdout);
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "--check")) {
		fprintf(stderr, "usage: dfrs params [--check 'key=value,...']\n");
		return 2;
	}
	dfrs_params_check(argv[2], &check);
	for (size_t i = 0; i < check.n; i++)
		fprintf(stderr, "dfrs params: %s: %s\n",
			check.notes[i].level == DFRS_CHECK_ERROR ? "error"
								 : "warning",
			check.notes[i].text);
	if (check.errors)
		return 1;
	(void)dfrs_params_parse(argv[2], &p, line, sizeof(line));
	dfrs_params_format(&p, line, sizeof(line));
	printf("%s\n", line);
	return 0;
}
