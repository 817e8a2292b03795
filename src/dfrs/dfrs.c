/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs.c - the dfrs command: entry point and subcommand dispatch.
 *
 * Every subcommand drives the same src/common code the plugins run.
 */
#include <stdio.h>
#include <string.h>

#include "dfrs_config.h"
#include "commands.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} dfrs_command_t;

static const dfrs_command_t commands[] = {
	{ "advise", cmd_advise,
	  "should sched/amcbf be deployed here? a verdict from your history" },
	{ "params", cmd_params,
	  "list sched/amcbf's SchedulerParameters, or check a string of them" },
	{ "threshold", cmd_threshold,
	  "migrate-or-wait thresholds for an ON/OFF Markov availability model" },
	{ "pack", cmd_pack,
	  "place jobs on hosts by DFRS vector packing (METAVP, greedy, ...)" },
	{ "sim", cmd_sim,
	  "replay a workload trace under EASY, AMCBF and the other policies" },
	{ "gen", cmd_gen,
	  "a synthetic workload (Feitelson 1996, Jann et al. 1997) as SWF" },
	{ "excerpt", cmd_excerpt,
	  "a trace window scaled for a live replay (contribs/live-compare)" },
	{ "status", cmd_status,
	  "each node's jobs with their yields and CPU weights (select/dfrs)" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: dfrs COMMAND [ARGS]   (dfrs COMMAND --help for its options)\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-10s %s\n", "version", "print the version");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("%s (built for Slurm %s)\n", PACKAGE_STRING,
		       DFRS_SLURM_RELEASE);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "dfrs: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
