/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_args.c - numbers given on the dfrs command line (cli_args.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_args.h"

int cli_number(const char *cmd, const char *what, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v)) {
		fprintf(stderr, "%s: %s: '%s' is not a number\n", cmd, what, s);
		return -1;
	}
	if (v < 0) {
		fprintf(stderr, "%s: %s: %s is negative\n", cmd, what, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_count(const char *cmd, const char *what, const char *s, int min,
	      int *out)
{
	double v;

	if (cli_number(cmd, what, s, &v))
		return -1;
	if (v != floor(v) || v < min || v > 1e8) {
		fprintf(stderr, "%s: %s: '%s' must be a whole number from %d\n",
			cmd, what, s, min);
		return -1;
	}
	*out = (int)v;
	return 0;
}
