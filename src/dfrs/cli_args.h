/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_args.h - the options of the dfrs subcommands, parsed one way from a
 * table (cli_parse) and checked the same way everywhere: a message
 * "CMD: what: ..." on stderr and -1 when bad.  Not from a paper: the
 * command-line side of the tools the docs' sections describe.
 */
#ifndef DFRS_CLI_ARGS_H
#define DFRS_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

/* A non-negative finite number, the whole string. */
int cli_number(const char *cmd, const char *what, const char *s, double *out);

/* A whole number from min to 1e8. */
int cli_count(const char *cmd, const char *what, const char *s, int min,
	      int *out);

/*
 * Calls item(ctx, each comma-separated item of list), empty items skipped:
 * 0, or -1 as soon as a call fails (it said why), or 1 without a call
 * when list is empty or max characters or longer (the caller says so).
 */
int cli_split(const char *list, size_t max,
	      int (*item)(void *ctx, const char *value), void *ctx);

/* What an option's value is and where it goes (cli_opt_t.dest). */
typedef enum {
	CLI_STRING,	/* const char **: the value as given */
	CLI_FLAG,	/* int *: 1, the option takes no value */
	CLI_INT,	/* int *: cli_count from min */
	CLI_SIZE,	/* size_t *: cli_count from min */
	CLI_DOUBLE,	/* double *: cli_number, then the range if range_msg */
	CLI_CALL,	/* call(ctx, value): its own checks and messages */
	CLI_CALL_FLAG,	/* call(ctx, NULL): the option takes no value */
	CLI_HELP,	/* the spec's usage on stdout, then stop */
} cli_kind_t;

/*
 * One option.  CLI_DOUBLE's range: min (excluded if min_open) to max
 * (when max > min); out of it, range_msg as the whole line.  A call
 * returns 0 to go on, -1 when bad (it said why), 1 to stop with success
 * (dfrs pack --list).
 */
typedef struct {
	const char *name;	/* long name, without "--" */
	char short_name;	/* -X as well, or 0 */
	cli_kind_t kind;
	void *dest;
	double min, max;
	int min_open;
	const char *range_msg;
	int (*call)(void *ctx, const char *value);
	int *given;		/* if set: 1 once the option is seen */
} cli_opt_t;

/* Table rows: { CLI_OPT("nodes", CLI_INT, &nodes), .min = 1 } */
#define CLI_OPT(n, k, d) .name = (n), .kind = (k), .dest = (d)
#define CLI_FN(n, fn) .name = (n), .kind = CLI_CALL, .call = (fn)
#define CLI_HELP_OPT .name = "help", .short_name = 'h', .kind = CLI_HELP

/*
 * A subcommand: its name in messages ("dfrs sim"), its usage, the
 * context its calls get, and how it words the three errors every parser
 * reports (a printf format with one %s, the argument, and the newline);
 * NULL: "CMD: unknown option 'X' (CMD --help)", "CMD: option 'X' needs a
 * value (CMD --help)", "CMD: unexpected argument 'X'".
 */
typedef struct {
	const char *cmd;
	void (*usage)(FILE *out);
	void *ctx;
	const char *unknown, *no_value, *extra;
} cli_spec_t;

/*
 * Parse argv[1..argc) (GNU getopt_long: --name VALUE, --name=VALUE, an
 * unambiguous prefix, -X) against opts[0..nopts).  Returns 0 when every
 * option was good, 1 when an option stopped early with success (--help,
 * a call returning 1), -1 after one message on stderr.
 */
int cli_parse(const cli_spec_t *spec, const cli_opt_t *opts, size_t nopts,
	      int argc, char **argv);

/* cli_parse, but --help exits with status 0: 0 or -1. */
int cli_parse_or_exit(const cli_spec_t *spec, const cli_opt_t *opts,
		      size_t nopts, int argc, char **argv);

#define CLI_COUNT_OF(opts) (sizeof(opts) / sizeof((opts)[0]))

#endif
