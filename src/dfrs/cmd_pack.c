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
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_args.h"
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
		"  --random H,N,S[,C] a random instance (as Stillwell et al.'s), not a file: H hosts,\n"
		"                    N one-task jobs (CPU need, memory requirement), memory\n"
		"                    slack S in (0,1), host capacity variation C in [0,1]\n"
		"  --seed N          random seed for --random (default 1)\n"
		"  --print-instance  print the instance as JSON instead of placing it\n"
		"  --list            print every algorithm name\n"
		"  --pretty          indent the JSON output\n"
		"Output: {\"algorithm\", \"chosen\", \"min_yield\" (minimum scaled yield),\n"
		"         \"lp_bound\", \"yields\" (per job, rounded down), \"placement\" (host of\n"
		"         each task per job), \"seconds\"}\n"
		"Exit status: 0 placed, 1 some job cannot be placed at its minimum yield,\n"
		"2 bad arguments or instance.\n");
}

static void print_name(const char *name, void *arg)
{
	fprintf((FILE *)arg, "%s\n", name);
}

/* Numbers rounded to 6 significant digits: the bound and the time. */
static json_object *number(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

/* v >= 0 rounded down to 6 significant digits, into buf. */
static void floor_6_digits(double v, char *buf, size_t len)
{
	char mant[40];
	long digits;
	int exp10;

	snprintf(buf, len, "%.6g", v);
	if (!(strtod(buf, NULL) > v))
		return;
	/* "d.ddddde+XX": the six digits as an integer, one unit less */
	snprintf(mant, sizeof(mant), "%.5e", v);
	exp10 = atoi(strchr(mant, 'e') + 1);
	digits = strtol(mant, NULL, 10) * 100000 +
		 strtol(strchr(mant, '.') + 1, NULL, 10) - 1;
	snprintf(mant, sizeof(mant), "%lde%d", digits, exp10 - 5);
	snprintf(buf, len, "%.6g", strtod(mant, NULL));
}

/*
 * A yield as printed: rounded down to 6 significant digits, so that the
 * printed placement never uses more than a host's capacity (rounded to
 * nearest, two yields on one host could overcommit it by a few 1e-7 of
 * their needs); where that would fall below the job's minimum yield,
 * every digit needed to read the computed value back exactly.
 */
static json_object *yield_number(double v, double min_yield)
{
	char buf[40];

	floor_6_digits(v, buf, sizeof(buf));
	for (int digits = 7; strtod(buf, NULL) < min_yield && digits <= 17;
	     digits++)
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
	return json_object_new_double_s(strtod(buf, NULL), buf);
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

/* What the command line asks for. */
typedef struct {
	const char *path;		/* --instance, or "--random" */
	const char *algorithm;
	const char *random_spec;
	instance_gen_opts_t gen;
	int pretty, print_instance;
} pack_args_t;

static int parse_seed(void *ctx, const char *arg)
{
	pack_args_t *a = ctx;
	char *end;

	errno = 0;
	a->gen.seed = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || a->gen.seed == 0 || arg[0] == '-') {
		fprintf(stderr, "dfrs pack: --seed '%s': expected an integer >= 1\n",
			arg);
		return -1;
	}
	return 0;
}

/* --list: every algorithm name, then stop */
static int list_algorithms(void *ctx, const char *arg)
{
	(void)ctx;
	(void)arg;
	placement_algorithm_list(print_name, stdout);
	return 1;
}

/* Parse the options into *a: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, pack_args_t *a)
{
	const cli_opt_t opts[] = {
		{ CLI_OPT("instance", CLI_STRING, &a->path), .short_name = 'i' },
		{ CLI_OPT("algorithm", CLI_STRING, &a->algorithm), .short_name = 'a' },
		{ CLI_OPT("random", CLI_STRING, &a->random_spec), .short_name = 'r' },
		{ CLI_FN("seed", parse_seed), .short_name = 's' },
		{ CLI_OPT("print-instance", CLI_FLAG, &a->print_instance),
		  .short_name = 'P' },
		{ .name = "list", .short_name = 'l', .kind = CLI_CALL_FLAG,
		  .call = list_algorithms },
		{ CLI_OPT("pretty", CLI_FLAG, &a->pretty), .short_name = 'p' },
		{ CLI_HELP_OPT },
	};
	const cli_spec_t spec = {
		.cmd = "dfrs pack", .usage = usage, .ctx = a,
		.unknown = "dfrs pack: bad option '%s' (dfrs pack --help)\n",
	};
	int rc = cli_parse(&spec, opts, CLI_COUNT_OF(opts), argc, argv);

	if (rc)
		return rc == 1 ? 0 : 2;
	if (!a->path == !a->random_spec) {
		fprintf(stderr, "dfrs pack: give one of --instance FILE.json or --random H,N,SLACK (dfrs pack --help)\n");
		return 2;
	}
	if (a->algorithm && !placement_algorithm_known(a->algorithm)) {
		fprintf(stderr, "dfrs pack: unknown algorithm '%s' (dfrs pack --list shows them)\n",
			a->algorithm);
		return 2;
	}
	return -1;
}

/* The instance, read or generated: 0, or 2 with a message. */
static int load_instance(pack_args_t *a, dfrs_instance_store_t *store)
{
	char err[512];

	if (a->random_spec) {
		if (parse_random(a->random_spec, &a->gen))
			return 2;
		if (instance_generate(&a->gen, store)) {
			fprintf(stderr, "dfrs pack: out of memory\n");
			return 2;
		}
		a->path = "--random";
	} else if (dfrs_instance_read_json(a->path, store, err, sizeof(err))) {
		fprintf(stderr, "dfrs pack: %s\n", err);
		return 2;
	}
	return 0;
}

/* --print-instance: the instance as JSON; the exit status. */
static int print_instance(const dfrs_instance_t *inst)
{
	char *text = dfrs_instance_to_json(inst);

	if (!text) {
		fprintf(stderr, "dfrs pack: out of memory\n");
		return 2;
	}
	printf("%s\n", text);
	free(text);
	return 0;
}

/*
 * Place the jobs: 0 with *pl filled (checked against every capacity),
 * else the exit status with a message (*pl freed).
 */
static int place(const pack_args_t *a, const dfrs_instance_t *inst,
		 dfrs_placement_t *pl, char *chosen, size_t chosen_len,
		 double *seconds)
{
	char err[512];
	double t0 = now_seconds();
	int failed = -1;
	int rc = placement_algorithm_run(inst, a->algorithm, pl, chosen,
					 chosen_len, &failed, err, sizeof(err));

	*seconds = now_seconds() - t0;
	if (rc < 0) {
		fprintf(stderr, "dfrs pack: %s\n", err);
		return 2;
	}
	if (rc == 1) {
		const dfrs_job_t *job = &inst->jobs[failed];

		fprintf(stderr,
			"dfrs pack: %s: infeasible: job %d (%d task%s, min_yield %g) cannot be placed at its minimum yield by %s\n",
			a->path, failed, job->ntasks, job->ntasks == 1 ? "" : "s",
			job->min_yield, a->algorithm);
		dfrs_placement_free(pl);
		return 1;
	}
	if (dfrs_placement_check(inst, pl, err, sizeof(err))) {
		/* a bug, not bad input: say so rather than print a bad plan */
		fprintf(stderr, "dfrs pack: internal error: %s placement violates %s\n",
			chosen, err);
		dfrs_placement_free(pl);
		return 2;
	}
	return 0;
}

/* The placement as one JSON object on stdout. */
static void print_placement(const pack_args_t *a, const dfrs_instance_t *inst,
			    const dfrs_placement_t *pl, const char *chosen,
			    double seconds)
{
	json_object *out = json_object_new_object();
	json_object *yields = json_object_new_array();
	json_object *placement = json_object_new_array();

	for (int i = 0; i < inst->njobs; i++) {
		json_object *hosts = json_object_new_array();

		json_object_array_add(yields, yield_number(pl->yield[i],
							   inst->jobs[i].min_yield));
		for (int t = pl->first_task[i]; t < pl->first_task[i + 1]; t++)
			json_object_array_add(hosts,
					      json_object_new_int(pl->task_host[t]));
		json_object_array_add(placement, hosts);
	}
	json_object_object_add(out, "algorithm", json_object_new_string(a->algorithm));
	json_object_object_add(out, "chosen", json_object_new_string(chosen));
	json_object_object_add(out, "min_yield",
			       yield_number(inst->njobs ? pl->min_scaled_yield : 1.0, 0.0));
	json_object_object_add(out, "lp_bound", number(lp_bound(inst)));
	json_object_object_add(out, "yields", yields);
	json_object_object_add(out, "placement", placement);
	json_object_object_add(out, "seconds", number(seconds));
	printf("%s\n", json_object_to_json_string_ext(out,
		a->pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			    JSON_C_TO_STRING_SPACED));
	json_object_put(out);
}

int cmd_pack(int argc, char **argv)
{
	pack_args_t a = { .gen = { .seed = 1 } };
	dfrs_instance_store_t store;
	dfrs_placement_t pl;
	char chosen[32];
	double seconds;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) >= 0 ||
	    (rc = load_instance(&a, &store)) != 0)
		return rc;
	if (a.print_instance) {
		rc = print_instance(&store.inst);
		dfrs_instance_store_free(&store);
		return rc;
	}
	if (!a.algorithm)
		a.algorithm = placement_algorithm_default(&store.inst);
	rc = place(&a, &store.inst, &pl, chosen, sizeof(chosen), &seconds);
	if (rc == 0) {
		print_placement(&a, &store.inst, &pl, chosen, seconds);
		dfrs_placement_free(&pl);
	}
	dfrs_instance_store_free(&store);
	return rc;
}
