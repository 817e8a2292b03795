/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_threshold.c - dfrs threshold: the optimal migrate-or-wait thresholds
 * (He et al. 2012, Theorem III.4) for n i.i.d. ON/OFF hosts, printed
 * as JSON, from the same src/common code the plugins call.
 *
 *   dfrs threshold --n N --beta B --p01 X --p11 Y [--lambda l0,...,ln] [--gamma G]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli_args.h"
#include "commands.h"
#include "avail/threshold_policy.h"

#define MAX_TASKS 1024 /* (n+1)^2 matrices, O(n^3) time: 1-3 s at this size */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dfrs threshold --n N --beta B --p01 X --p11 Y [--lambda l0,...,lN] [--gamma G]\n"
		"  --n N        tasks of the job = hosts it needs (1..%d)\n"
		"  --beta B     discount factor per slot, in (0,1)\n"
		"  --p01 X      Pr{host ON next slot | OFF now}, in [0,1]\n"
		"  --p11 Y      Pr{host ON next slot | ON now}, in [0,1]\n"
		"  --lambda L   N+1 comma-separated Pr{s hosts ON in the first slot}, s=0..N,\n"
		"               summing to 1 (default: all hosts ON)\n"
		"  --gamma G    cost of one task migration in slots of waiting (>= 0): also print\n"
		"               the optimal policy and its decision for each number of ON hosts\n",
		MAX_TASKS);
}

static int parse_double(const char *opt, const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out)) {
		fprintf(stderr, "dfrs threshold: %s %s: not a number\n", opt, s);
		return -1;
	}
	return 0;
}

/* lambda: exactly n+1 comma-separated numbers */
static int parse_lambda(const char *s, size_t n, double *lambda)
{
	size_t count = 0;
	const char *p = s;

	for (;;) {
		char *end;

		errno = 0;
		double v = strtod(p, &end);

		if (end == p || errno || !isfinite(v) || (*end && *end != ',')) {
			fprintf(stderr, "dfrs threshold: --lambda %s: entry %zu is not a number\n",
				s, count);
			return -1;
		}
		if (count == n + 1) {
			fprintf(stderr, "dfrs threshold: --lambda %s: more than n+1=%zu entries\n",
				s, n + 1);
			return -1;
		}
		lambda[count++] = v;
		if (!*end)
			break;
		p = end + 1;
	}
	if (count != n + 1) {
		fprintf(stderr, "dfrs threshold: --lambda %s: %zu entries, need n+1=%zu (s=0..n)\n",
			s, count, n + 1);
		return -1;
	}
	return 0;
}

static json_object *json_number(double v)
{
	char buf[64];

	if (!isfinite(v))
		return NULL; /* JSON null: an infinite threshold */
	snprintf(buf, sizeof(buf), "%.10g", v);
	return json_object_new_double_s(v, buf);
}

static json_object *json_numbers(const double *v, size_t count)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < count; i++)
		json_object_array_add(a, json_number(v[i]));
	return a;
}

/* The options as given; numbers are read once all are in (--lambda
 * needs --n). */
typedef struct {
	const char *n, *beta, *p01, *p11, *lambda, *gamma;
} threshold_args_t;

/* 0 to go on, 1 after --help, else -1 with one message */
static int parse_args(threshold_args_t *a, int argc, char **argv)
{
	const cli_opt_t opts[] = {
		{ CLI_OPT("n", CLI_STRING, &a->n) },
		{ CLI_OPT("beta", CLI_STRING, &a->beta) },
		{ CLI_OPT("p01", CLI_STRING, &a->p01) },
		{ CLI_OPT("p11", CLI_STRING, &a->p11) },
		{ CLI_OPT("lambda", CLI_STRING, &a->lambda) },
		{ CLI_OPT("gamma", CLI_STRING, &a->gamma) },
		{ CLI_HELP_OPT },
	};
	const char *unknown = "dfrs threshold: unknown argument '%s' (see "
			      "--help)\n";
	const cli_spec_t spec = {
		.cmd = "dfrs threshold", .usage = usage, .unknown = unknown,
		.no_value = "dfrs threshold: %s needs a value\n",
		.extra = unknown,
	};
	int rc = cli_parse(&spec, opts, CLI_COUNT_OF(opts), argc, argv);

	if (rc)
		return rc;
	if (!a->n || !a->beta || !a->p01 || !a->p11) {
		fprintf(stderr, "dfrs threshold: missing %s (required: --n --beta --p01 --p11)\n",
			!a->n ? "--n" : !a->beta ? "--beta" : !a->p01 ? "--p01" : "--p11");
		return -1;
	}
	return 0;
}

/* The model, gamma and lambda (malloc'd into *lambda, or NULL) from the
 * options: 0, or -1 with one message. */
static int read_model(const threshold_args_t *a, threshold_model_t *m,
		      double *gamma, double **lambda)
{
	char *end;
	double n_value;

	errno = 0;
	n_value = strtod(a->n, &end);
	if (end == a->n || *end || errno || n_value != floor(n_value) || n_value < 1 ||
	    n_value > MAX_TASKS) {
		fprintf(stderr, "dfrs threshold: --n %s: not an integer in 1..%d\n", a->n, MAX_TASKS);
		return -1;
	}
	m->n = (size_t)n_value;
	if (parse_double("--beta", a->beta, &m->beta) ||
	    parse_double("--p01", a->p01, &m->chain.p01) ||
	    parse_double("--p11", a->p11, &m->chain.p11) ||
	    (a->gamma && parse_double("--gamma", a->gamma, gamma)))
		return -1;
	if (a->gamma && *gamma < 0.0) {
		fprintf(stderr, "dfrs threshold: --gamma %s: must be >= 0\n", a->gamma);
		return -1;
	}
	*lambda = NULL;
	if (a->lambda) {
		*lambda = malloc((m->n + 1) * sizeof(**lambda));
		if (!*lambda || parse_lambda(a->lambda, m->n, *lambda)) {
			free(*lambda);
			*lambda = NULL;
			return -1;
		}
		m->lambda = *lambda;
	}
	return 0;
}

/* --gamma G: the optimal policy and its decision for each number of ON
 * hosts, added to out. */
static void add_policy(json_object *out, const threshold_model_t *m,
		       const threshold_partition_t *part, double gamma)
{
	size_t policy = threshold_partition_policy(part, gamma);
	json_object *table = json_object_new_array();

	json_object_object_add(out, "gamma", json_number(gamma));
	json_object_object_add(out, "policy", json_object_new_int64((int64_t)policy));
	for (size_t s = 0; s <= m->n; s++)
		json_object_array_add(table, json_object_new_string(threshold_decision_name(
			threshold_decide(policy, m->n, s, m->n))));
	json_object_object_add(out, "decision_table", table);
	json_object_object_add(out, "myopic_policy",
			       json_object_new_int64((int64_t)threshold_myopic_policy(m->n, gamma)));
}

/* The JSON document of the partition (myopic: m->n thresholds). */
static json_object *partition_json(const threshold_model_t *m,
				   const threshold_partition_t *part,
				   const double *myopic)
{
	json_object *out = json_object_new_object();

	json_object_object_add(out, "n", json_object_new_int64((int64_t)m->n));
	json_object_object_add(out, "beta", json_number(m->beta));
	json_object_object_add(out, "p01", json_number(m->chain.p01));
	json_object_object_add(out, "p11", json_number(m->chain.p11));
	json_object_object_add(out, "availability", json_number(onoff_chain_availability(&m->chain)));
	if (m->lambda) {
		json_object_object_add(out, "lambda", json_numbers(m->lambda, m->n + 1));
	} else {
		json_object *l = json_object_new_array();

		for (size_t s = 0; s <= m->n; s++)
			json_object_array_add(l, json_number(s == m->n ? 1.0 : 0.0));
		json_object_object_add(out, "lambda", l);
	}
	json_object_object_add(out, "thresholds", json_numbers(part->thresholds + 1, m->n));
	json_object_object_add(out, "processing", json_numbers(part->processing, m->n + 1));
	json_object_object_add(out, "migrations", json_numbers(part->migrations, m->n + 1));
	json_object_object_add(out, "myopic_thresholds", json_numbers(myopic, m->n));
	json_object_object_add(out, "monotone", json_object_new_boolean(part->monotone));
	return out;
}

int cmd_threshold(int argc, char **argv)
{
	threshold_args_t args = { 0 };
	threshold_model_t m = { 0 };
	threshold_partition_t part;
	double gamma = 0.0, *lambda = NULL, *myopic;
	char err[256];
	int rc = parse_args(&args, argc, argv);

	if (rc)
		return rc == 1 ? 0 : 2;
	if (read_model(&args, &m, &gamma, &lambda))
		return 2;
	if (threshold_partition_compute(&m, &part, err, sizeof(err))) {
		fprintf(stderr, "dfrs threshold: %s\n", err);
		free(lambda);
		return 2;
	}
	myopic = malloc((m.n ? m.n : 1) * sizeof(*myopic));
	if (!myopic) {
		fprintf(stderr, "dfrs threshold: out of memory\n");
		threshold_partition_free(&part);
		free(lambda);
		return 2;
	}
	threshold_myopic_thresholds(m.n, myopic);

	json_object *out = partition_json(&m, &part, myopic);

	if (args.gamma)
		add_policy(out, &m, &part, gamma);
	printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED));
	json_object_put(out);
	free(myopic);
	free(lambda);
	threshold_partition_free(&part);
	return 0;
}
