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

int cmd_threshold(int argc, char **argv)
{
	const char *arg_n = NULL, *arg_beta = NULL, *arg_p01 = NULL, *arg_p11 = NULL;
	const char *arg_lambda = NULL, *arg_gamma = NULL;

	for (int a = 1; a < argc; a++) {
		const char **slot = NULL;

		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[a], "--n"))
			slot = &arg_n;
		else if (!strcmp(argv[a], "--beta"))
			slot = &arg_beta;
		else if (!strcmp(argv[a], "--p01"))
			slot = &arg_p01;
		else if (!strcmp(argv[a], "--p11"))
			slot = &arg_p11;
		else if (!strcmp(argv[a], "--lambda"))
			slot = &arg_lambda;
		else if (!strcmp(argv[a], "--gamma"))
			slot = &arg_gamma;
		else {
			fprintf(stderr, "dfrs threshold: unknown argument '%s' (see --help)\n", argv[a]);
			return 2;
		}
		if (a + 1 >= argc) {
			fprintf(stderr, "dfrs threshold: %s needs a value\n", argv[a]);
			return 2;
		}
		*slot = argv[++a];
	}
	if (!arg_n || !arg_beta || !arg_p01 || !arg_p11) {
		fprintf(stderr, "dfrs threshold: missing %s (required: --n --beta --p01 --p11)\n",
			!arg_n ? "--n" : !arg_beta ? "--beta" : !arg_p01 ? "--p01" : "--p11");
		return 2;
	}

	char *end;
	threshold_model_t m = { 0 };
	double gamma = 0.0, n_value;

	errno = 0;
	n_value = strtod(arg_n, &end);
	if (end == arg_n || *end || errno || n_value != floor(n_value) || n_value < 1 ||
	    n_value > MAX_TASKS) {
		fprintf(stderr, "dfrs threshold: --n %s: not an integer in 1..%d\n", arg_n, MAX_TASKS);
		return 2;
	}
	m.n = (size_t)n_value;
	if (parse_double("--beta", arg_beta, &m.beta) ||
	    parse_double("--p01", arg_p01, &m.chain.p01) ||
	    parse_double("--p11", arg_p11, &m.chain.p11) ||
	    (arg_gamma && parse_double("--gamma", arg_gamma, &gamma)))
		return 2;
	if (arg_gamma && gamma < 0.0) {
		fprintf(stderr, "dfrs threshold: --gamma %s: must be >= 0\n", arg_gamma);
		return 2;
	}

	double *lambda = NULL;

	if (arg_lambda) {
		lambda = malloc((m.n + 1) * sizeof(*lambda));
		if (!lambda || parse_lambda(arg_lambda, m.n, lambda)) {
			free(lambda);
			return 2;
		}
		m.lambda = lambda;
	}

	threshold_partition_t part;
	char err[256];

	if (threshold_partition_compute(&m, &part, err, sizeof(err))) {
		fprintf(stderr, "dfrs threshold: %s\n", err);
		free(lambda);
		return 2;
	}

	double *myopic = malloc((m.n ? m.n : 1) * sizeof(*myopic));
	json_object *out;

	if (!myopic) {
		fprintf(stderr, "dfrs threshold: out of memory\n");
		threshold_partition_free(&part);
		free(lambda);
		return 2;
	}
	out = json_object_new_object();

	threshold_myopic_thresholds(m.n, myopic);
	json_object_object_add(out, "n", json_object_new_int64((int64_t)m.n));
	json_object_object_add(out, "beta", json_number(m.beta));
	json_object_object_add(out, "p01", json_number(m.chain.p01));
	json_object_object_add(out, "p11", json_number(m.chain.p11));
	json_object_object_add(out, "availability", json_number(onoff_chain_availability(&m.chain)));
	if (lambda) {
		json_object_object_add(out, "lambda", json_numbers(lambda, m.n + 1));
	} else {
		json_object *l = json_object_new_array();

		for (size_t s = 0; s <= m.n; s++)
			json_object_array_add(l, json_number(s == m.n ? 1.0 : 0.0));
		json_object_object_add(out, "lambda", l);
	}
	json_object_object_add(out, "thresholds", json_numbers(part.thresholds + 1, m.n));
	json_object_object_add(out, "processing", json_numbers(part.processing, m.n + 1));
	json_object_object_add(out, "migrations", json_numbers(part.migrations, m.n + 1));
	json_object_object_add(out, "myopic_thresholds", json_numbers(myopic, m.n));
	json_object_object_add(out, "monotone", json_object_new_boolean(part.monotone));
	if (arg_gamma) {
		size_t policy = threshold_partition_policy(&part, gamma);
		json_object *table = json_object_new_array();

		json_object_object_add(out, "gamma", json_number(gamma));
		json_object_object_add(out, "policy", json_object_new_int64((int64_t)policy));
		for (size_t s = 0; s <= m.n; s++)
			json_object_array_add(table, json_object_new_string(threshold_decision_name(
				threshold_decide(policy, m.n, s, m.n))));
		json_object_object_add(out, "decision_table", table);
		json_object_object_add(out, "myopic_policy",
				       json_object_new_int64((int64_t)threshold_myopic_policy(m.n, gamma)));
	}
	printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED));
	json_object_put(out);
	free(myopic);
	free(lambda);
	threshold_partition_free(&part);
	return 0;
}
