/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_args.h - option values of the dfrs subcommands, checked the same way
 * everywhere: a message "CMD: what: ..." on stderr and -1 when bad.
 */
#ifndef DFRS_CLI_ARGS_H
#define DFRS_CLI_ARGS_H

/* A non-negative finite number, the whole string. */
int cli_number(const char *cmd, const char *what, const char *s, double *out);

/* A whole number from min to 1e8. */
int cli_count(const char *cmd, const char *what, const char *s, int min,
	      int *out);

#endif
