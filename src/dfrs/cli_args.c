/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_args.c - the dfrs subcommands' option table parser and the numbers
 * given on their command lines (cli_args.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"

#define CLI_MAX_OPTS 32
#define CLI_LONG_ONLY 256
#define CLI_LIST_MAX 1024	/* characters of a list, at most */	/* getopt value of opts[i] without -X: 256 + i */

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

int cli_split(const char *list, size_t max,
	      int (*item)(void *ctx, const char *value), void *ctx)
{
	char buf[CLI_LIST_MAX];

	if (max > sizeof(buf))
		max = sizeof(buf);
	if (!*list || strlen(list) >= max)
		return 1;
	strcpy(buf, list);
	for (char *save, *v = strtok_r(buf, ",", &save); v;
	     v = strtok_r(NULL, ",", &save))
		if (item(ctx, v))
			return -1;
	return 0;
}

/* CLI_DOUBLE: a number in the option's range. */
static int set_double(const char *cmd, const char *what, const cli_opt_t *o,
		      const char *value)
{
	double v;

	if (cli_number(cmd, what, value, &v))
		return -1;
	if (o->range_msg && (v < o->min || (o->min_open && v == o->min) ||
			     (o->max > o->min && v > o->max))) {
		fprintf(stderr, "%s\n", o->range_msg);
		return -1;
	}
	*(double *)o->dest = v;
	return 0;
}

/* One option seen with its value (NULL if it takes none): 0, 1, -1. */
static int apply(const cli_spec_t *spec, const cli_opt_t *o,
		 const char *value)
{
	char what[64];
	int n;

	snprintf(what, sizeof(what), "--%s", o->name);
	if (o->given)
		*o->given = 1;
	switch (o->kind) {
	case CLI_STRING:
		*(const char **)o->dest = value;
		return 0;
	case CLI_FLAG:
		*(int *)o->dest = 1;
		return 0;
	case CLI_INT:
		return cli_count(spec->cmd, what, value, (int)o->min,
				 (int *)o->dest);
	case CLI_SIZE:
		if (cli_count(spec->cmd, what, value, (int)o->min, &n))
			return -1;
		*(size_t *)o->dest = (size_t)n;
		return 0;
	case CLI_DOUBLE:
		return set_double(spec->cmd, what, o, value);
	case CLI_CALL:
	case CLI_CALL_FLAG:
		return o->call(spec->ctx, value);
	case CLI_HELP:
		spec->usage(stdout);
		return 1;
	}
	return -1;
}

/* getopt_long's tables for opts: longs[nopts + 1] and the short string. */
static void getopt_tables(const cli_opt_t *opts, size_t nopts,
			  struct option *longs, char *shorts)
{
	char *s = shorts;

	*s++ = ':';	/* a missing value is ':', told apart from '?' */
	for (size_t i = 0; i < nopts; i++) {
		int flag = opts[i].kind == CLI_FLAG ||
			   opts[i].kind == CLI_CALL_FLAG ||
			   opts[i].kind == CLI_HELP;

		longs[i].name = opts[i].name;
		longs[i].has_arg = flag ? no_argument : required_argument;
		longs[i].flag = NULL;
		longs[i].val = opts[i].short_name ? opts[i].short_name
						  : CLI_LONG_ONLY + (int)i;
		if (opts[i].short_name) {
			*s++ = opts[i].short_name;
			if (!flag)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&longs[nopts], 0, sizeof(longs[nopts]));
}

/* The option getopt_long returned as val, or NULL. */
static const cli_opt_t *find(const cli_opt_t *opts, size_t nopts, int val)
{
	if (val >= CLI_LONG_ONLY && (size_t)(val - CLI_LONG_ONLY) < nopts)
		return &opts[val - CLI_LONG_ONLY];
	for (size_t i = 0; i < nopts; i++)
		if (opts[i].short_name && opts[i].short_name == val)
			return &opts[i];
	return NULL;
}

static void bad_option(const cli_spec_t *spec, int missing, const char *arg)
{
	const char *fmt = missing ? spec->no_value : spec->unknown;

	if (fmt)
		fprintf(stderr, fmt, arg);
	else if (missing)
		fprintf(stderr, "%s: option '%s' needs a value (%s --help)\n",
			spec->cmd, arg, spec->cmd);
	else
		fprintf(stderr, "%s: unknown option '%s' (%s --help)\n",
			spec->cmd, arg, spec->cmd);
}

int cli_parse(const cli_spec_t *spec, const cli_opt_t *opts, size_t nopts,
	      int argc, char **argv)
{
	struct option longs[CLI_MAX_OPTS + 1];
	char shorts[2 * CLI_MAX_OPTS + 2];
	int val, rc;

	if (nopts > CLI_MAX_OPTS) {
		fprintf(stderr, "%s: %zu options, at most %d\n", spec->cmd,
			nopts, CLI_MAX_OPTS);
		return -1;
	}
	getopt_tables(opts, nopts, longs, shorts);
	optind = 1;
	opterr = 0;
	while ((val = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const cli_opt_t *o = find(opts, nopts, val);

		if (val == ':' || val == '?' || !o) {
			bad_option(spec, val == ':', argv[optind - 1]);
			return -1;
		}
		if ((rc = apply(spec, o, optarg)) != 0)
			return rc;
	}
	if (optind < argc) {
		if (spec->extra)
			fprintf(stderr, spec->extra, argv[optind]);
		else
			fprintf(stderr, "%s: unexpected argument '%s'\n",
				spec->cmd, argv[optind]);
		return -1;
	}
	return 0;
}

int cli_parse_or_exit(const cli_spec_t *spec, const cli_opt_t *opts,
		      size_t nopts, int argc, char **argv)
{
	int rc = cli_parse(spec, opts, nopts, argc, argv);

	if (rc == 1)
		exit(0);
	return rc;
}
