/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_pack.c - dfrs pack: place the jobs of a JSON instance on hosts with a
 * DFRS static placement algorithm (Stillwell et al. 2010: vector packing, greedy) and
 * print the placement, the yields and the LP bound as JSON.
 *
 *   dfrs pack --instance FILE.json [--algorithm NAME] [--pretty]
 *   dfrs pack --random HOSTS,TASKS,SLACK[,COV] [--seed N] [--print-instance]
 *   dfrs pack --list
 *
 * Exit status: 0 placed; 1 infeasible (a job cannot be placed at its
 * minimum yield: named on stderr); 2 bad usage or bad instance.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "dfrs/dfrs_instance_json.h"
#include "dfrs/instance_generator.h"
#include "dfrs/lp_bound.h"
#include "dfrs/placement_algorithm.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dfrs pack --instance FILE.json [--algorithm NAME] [--pretty]\n"
		"       dfrs pack --random HOSTS,TASKS,SLACK[,COV] [--seed N] [--print-instance]\n"
		"       dfrs pack --list\n"
		"\n"
		"Place jobs on hosts, maximizing the minimum scaled yield (DFRS).\n"
		"FILE.json: {\"hosts\": [[cap_dim0, cap_dim1, ...], ...],\n"
		"            \"jobs\": [{\"tasks\": k, \"need\": [...], \"req\": [...], \"min_yield\": y}, ...]}\n"
		"  --algorithm NAME  METAVP (default, equal hosts), METAHVP (default, unequal\n"
		"                    hosts), METAGREEDY, VP_CPSUM, HVP_FFSUM_L, GREEDY_S3_P2, ...\n"
		"  --random H,N,S[,C] a seed-style random instance instead of a file: H hosts,\n"
		"                    N one-task jobs (CPU need, memory requirement), memory\n"
		"                    slack S in (0,1), host capacity variation C in [0,1]\n"
		"  --seed N          random seed for --random (default 1)\n"
		"  --print-instance  print the instance as JSON instead of placing it\n"
		"  --list            print every algorithm name\n"
		"  --pretty          indent the JSON output\n"
		"Output: {\"algorithm\", \"chosen\", \"min_yield\" (minimum scaled yield),\n"
		"         \"lp_bound\", \"yields\" (per job), \"placement\" (host of each task\n"
		"         per job), \"seconds\"}\n"
		"Exit status: 0 placed, 1 some job cannot be placed at its minimum yield,\n"
		"2 bad arguments or instance.\n");
}

static void print_name(const char *name, void *arg)
{
	fprintf((FILE *)arg, "%s\n", name);
}

/* Numbers rounded to 6 significant digits: yields are not exact anyway. */
static json_object *number(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

/* "H,N,SLACK[,COV]" for --random: 0, or -1 with a message on stderr. */
static int parse_random(const char *arg, instance_gen_opts_t *o)
{
	char *end;
	double v[4] = { 0, 0, 0, 0 };
	int n = 0;
	const char *p = arg;

	while (n < 4) {
		errno = 0;
		v[n++] = strtod(p, &end);
		if (end == p || errno)
			goto bad;
		if (*end == '\0')
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	if (n < 3 || *end != '\0')
		goto bad;
	if (v[0] < 1 || v[0] > 100000 || v[0] != (int)v[0] ||
	    v[1] < 0 || v[1] > 1000000 || v[1] != (int)v[1] ||
	    !(v[2] > 0 && v[2] < 1) || !(v[3] >= 0 && v[3] <= 1))
		goto bad;
	o->nhosts = (int)v[0];
	o->njobs = (int)v[1];
	o->tasks_per_job = 1;
	o->memory_slack = v[2];
	o->cov = v[3];
	return 0;
bad:
	fprintf(stderr,
		"dfrs pack: --random '%s': expected HOSTS,TASKS,SLACK[,COV] with HOSTS 1..100000, TASKS 0..1000000, SLACK in (0,1), COV in [0,1]\n",
		arg);
	return -1;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cmd_pack(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "instance", required_argument, NULL, 'i' },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "random", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "print-instance", no_argument, NULL, 'P' },
		{ "list", no_argument, NULL, 'l' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL, *algorithm = NULL, *random_spec = NULL;
	int pretty = 0, c, failed = -1, rc, print_instance = 0;
	instance_gen_opts_t gen = { .seed = 1 };
	dfrs_instance_store_t store;
	dfrs_placement_t pl;
	char err[512], chosen[32];
	double t0, seconds, bound;
	json_object *out, *yields, *placement;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:a:r:s:Plph", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'r':
			random_spec = optarg;
			break;
		case 's':
			errno = 0;
			gen.seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || gen.seed == 0 ||
			    optarg[0] == '-') {
				fprintf(stderr, "dfrs pack: --seed '%s': expected an integer >= 1\n",
					optarg);
				return 2;
			}
			break;
		case 'P':
			print_instance = 1;
			break;
		case 'i':
			path = optarg;
			break;
		case 'a':
			algorithm = optarg;
			break;
		case 'l':
			placement_algorithm_list(print_name, stdout);
			return 0;
		case 'p':
			pretty = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "dfrs pack: option '%s' needs a value (dfrs pack --help)\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "dfrs pack: bad option '%s' (dfrs pack --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dfrs pack: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!path == !random_spec) {
		fprintf(stderr, "dfrs pack: give one of --instance FILE.json or --random H,N,SLACK (dfrs pack --help)\n");
		return 2;
	}
	if (algorithm && !placement_algorithm_known(algorithm)) {
		fprintf(stderr, "dfrs pack: unknown algorithm '%s' (dfrs pack --list shows them)\n",
			algorithm);
		return 2;
	}
	if (random_spec) {
		if (parse_random(random_spec, &gen))
			return 2;
		if (instance_generate(&gen, &store)) {
			fprintf(stderr, "dfrs pack: out of memory\n");
			return 2;
		}
		path = "--random";
	} else if (dfrs_instance_read_json(path, &store, err, sizeof(err))) {
		fprintf(stderr, "dfrs pack: %s\n", err);
		return 2;
	}
	if (print_instance) {
		char *text = dfrs_instance_to_json(&store.inst);

		rc = text ? 0 : 2;
		if (text)
			printf("%s\n", text);
		else
			fprintf(stderr, "dfrs pack: out of memory\n");
		free(text);
		dfrs_instance_store_free(&store);
		return rc;
	}
	if (!algorithm)
		algorithm = placement_algorithm_default(&store.inst);

	t0 = now_seconds();
	rc = placement_algorithm_run(&store.inst, algorithm, &pl, chosen, sizeof(chosen),
			&failed, err, sizeof(err));
	seconds = now_seconds() - t0;
	if (rc < 0) {
		fprintf(stderr, "dfrs pack: %s\n", err);
		dfrs_instance_store_free(&store);
		return 2;
	}
	if (rc == 1) {
		const dfrs_job_t *job = &store.inst.jobs[failed];

		fprintf(stderr,
			"dfrs pack: %s: infeasible: job %d (%d task%s, min_yield %g) cannot be placed at its minimum yield by %s\n",
			path, failed, job->ntasks, job->ntasks == 1 ? "" : "s",
			job->min_yield, algorithm);
		dfrs_placement_free(&pl);
		dfrs_instance_store_free(&store);
		return 1;
	}
	if (dfrs_placement_check(&store.inst, &pl, err, sizeof(err))) {
		/* a bug, not bad input: say so rather than print a bad plan */
		fprintf(stderr, "dfrs pack: internal error: %s placement violates %s\n",
			chosen, err);
		dfrs_placement_free(&pl);
		dfrs_instance_store_free(&store);
		return 2;
	}
	bound = lp_bound(&store.inst);

	out = json_object_new_object();
	yields = json_object_new_array();
	placement = json_object_new_array();
	for (int i = 0; i < store.inst.njobs; i++) {
		json_object *hosts = json_object_new_array();

		json_object_array_add(yields, number(pl.yield[i]));
		for (int t = pl.first_task[i]; t < pl.first_task[i + 1]; t++)
			json_object_array_add(hosts,
					      json_object_new_int(pl.task_host[t]));
		json_object_array_add(placement, hosts);
	}
	json_object_object_add(out, "algorithm", json_object_new_string(algorithm));
	json_object_object_add(out, "chosen", json_object_new_string(chosen));
	json_object_object_add(out, "min_yield",
			       number(store.inst.njobs ? pl.min_scaled_yield : 1.0));
	json_object_object_add(out, "lp_bound", number(bound));
	json_object_object_add(out, "yields", yields);
	json_object_object_add(out, "placement", placement);
	json_object_object_add(out, "seconds", number(seconds));
	printf("%s\n", json_object_to_json_string_ext(out,
		pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			 JSON_C_TO_STRING_SPACED));
	json_object_put(out);
	dfrs_placement_free(&pl);
	dfrs_instance_store_free(&store);
	return 0;
}
