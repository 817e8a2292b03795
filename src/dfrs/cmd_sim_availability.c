/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_sim_availability.c - dfrs sim --availability: compare migrate-or-wait
 * policies (threshold with the model known or estimated, myopic, always
 * wait, always migrate, the exact optimum) on cost w + gamma m by Monte Carlo on Markov or
 * trace-driven node availability (src/common/sim/avail_sim.h), as in the
 * evaluation of He et al. (2012), Figs. 4-5.  doc/availability.md,
 * "Evaluation: wait vs migrate", is the manual.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/avail_sim.h"
#include "commands.h"
#include "cli_args.h"
#include "sim_args.h"
#include "sim_availability_report.h"

#define MAX_GAMMAS 64
#define MAX_AVAIL_POLICIES 32
#define DEFAULT_POLICIES "threshold,threshold-est,myopic,wait,migrate"

typedef struct {
	const char *spec;
	const char *policies;
	int n, nodes, runs, slots, warmup;
	double beta;
	double gammas[MAX_GAMMAS];
	size_t ngammas;
	uint64_t seed;
	sim_format_t format;
} avail_cli_t;

static void usage(FILE *out)
{
	fprintf(out,
"usage: dfrs sim --availability markov:p01=X,p11=Y | trace:FILE\n"
"                [--n N] [--nodes N] [--gamma G[,G...]] [--beta B]\n"
"                [--runs R] [--slots S] [--warmup S] [--seed S]\n"
"                [--policy LIST] [--format table|json|csv]\n"
"\n"
"A parallel job of n tasks needs all its n hosts ON to progress.  In each\n"
"slot where a host is OFF a policy waits or migrates the tasks of the OFF\n"
"hosts to spare ON nodes.  Reports, per gamma, each policy's mean cost\n"
"w + gamma m (w: slots not running, m: task migrations, both discounted by\n"
"beta per slot), w, m, and the ratio of its cost to the threshold policy's\n"
"(He et al., \"To Migrate or to Wait\", Figs. 4-5).\n"
"\n"
"  --availability SPEC  where node states come from:\n"
"        markov:p01=X,p11=Y  every node an ON/OFF Markov chain;\n"
"                            p01=X1/X2/...: node h takes value h mod K\n"
"        trace:FILE          one line per slot, one 0/1 field per node\n"
"                            ('#' comments); runs start evenly spread\n"
"                            over the trace and end at its end\n"
"  --n N          tasks of the job (default 3)\n"
"  --nodes N      nodes in the pool (default: markov 10, trace all columns;\n"
"                 for a trace, its first N columns)\n"
"  --gamma LIST   cost of one task migration in slots of waiting\n"
"                 (default 0.5,1,2,4)\n"
"  --beta B       discount per slot, in (0,1) (default 0.9)\n"
"  --runs R       independent jobs (default 2000)\n"
"  --slots S      slots per run (default: until beta^S <= 1e-6)\n"
"  --warmup S     markov: slots the estimator sees before the job starts\n"
"                 (default 0; a trace run sees every slot before its start)\n"
"  --seed S       random seed (default 1; a trace run uses none)\n"
"  --policy LIST  comma-separated (default " DEFAULT_POLICIES "):\n"
"        threshold      optimal threshold policy T_i for the known chain\n"
"                       (trace: fitted to the whole trace)\n"
"        threshold-est  the same for the chain estimated from the slots\n"
"                       seen so far (myopic until the estimate is valid)\n"
"        myopic         migrate iff the number of OFF hosts < 1/gamma\n"
"        wait           always wait\n"
"        migrate        always migrate (when enough spare nodes are ON)\n"
"        lookahead      threshold, and where it would wait a one-step\n"
"                       lookahead on the nodes' own chains (for\n"
"                       heterogeneous nodes; migrate_or_wait_lookahead)\n"
"        optimal        the exact MDP optimum (markov, at most 12 nodes;\n"
"                       seconds per gamma at beta = 0.999)\n"
"        T0..Tn         a fixed threshold policy T_i\n"
"  --format F     table (default), json or csv\n"
"\n"
"Bad arguments: one message, exit status 2; an unreadable or malformed\n"
"trace: one message naming FILE:LINE and the field, exit status 1.\n");
}

static int add_gamma(void *ctx, const char *v)
{
	avail_cli_t *c = ctx;

	if (c->ngammas == MAX_GAMMAS) {
		fprintf(stderr, "dfrs sim: --gamma: more than %d values\n", MAX_GAMMAS);
		return -1;
	}
	return cli_number("dfrs sim", "--gamma", v, &c->gammas[c->ngammas++]);
}

static int parse_gammas(void *ctx, const char *list)
{
	avail_cli_t *c = ctx;
	int rc;

	c->ngammas = 0;
	rc = cli_split(list, 1024, add_gamma, c);
	if (rc == 1)
		fprintf(stderr, "dfrs sim: --gamma: empty or too long list\n");
	if (rc)
		return -1;
	if (!c->ngammas) {
		fprintf(stderr, "dfrs sim: --gamma: no value\n");
		return -1;
	}
	return 0;
}

/* The policies named so far, for a job of n tasks. */
typedef struct {
	size_t n;
	avail_policy_t *out;
	size_t count;
} avail_policy_list_t;

static int add_policy(void *ctx, const char *name)
{
	avail_policy_list_t *l = ctx;
	char err[256];

	if (l->count == MAX_AVAIL_POLICIES) {
		fprintf(stderr, "dfrs sim: --policy: more than %d\n", MAX_AVAIL_POLICIES);
		return -1;
	}
	if (avail_policy_parse(name, l->n, &l->out[l->count++], err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: --policy: %s\n", err);
		return -1;
	}
	return 0;
}

static int parse_policies(const char *list, size_t n, avail_policy_t *out, size_t *count)
{
	avail_policy_list_t l = { .n = n, .out = out, .count = 0 };
	int rc = cli_split(list, 512, add_policy, &l);

	*count = l.count;
	if (rc == 1)
		fprintf(stderr, "dfrs sim: --policy: empty or too long list\n");
	if (rc)
		return -1;
	if (!*count) {
		fprintf(stderr, "dfrs sim: --policy: no policy named\n");
		return -1;
	}
	return 0;
}

static int parse_beta(void *ctx, const char *s)
{
	avail_cli_t *c = ctx;
	if (cli_number("dfrs sim", "--beta", s, &c->beta))
		return -1;
	if (c->beta <= 0.0 || c->beta >= 1.0) {
		fprintf(stderr, "dfrs sim: --beta: %s is not in (0,1)\n", s);
		return -1;
	}
	return 0;
}

static int parse_seed(void *ctx, const char *arg)
{
	return sim_arg_seed(arg, &((avail_cli_t *)ctx)->seed);
}

static int parse_format(void *ctx, const char *arg)
{
	return sim_arg_format(arg, &((avail_cli_t *)ctx)->format);
}

static int parse_args(avail_cli_t *c, int argc, char **argv)
{
	const cli_opt_t opts[] = {
		{ CLI_OPT("availability", CLI_STRING, &c->spec) },
		{ CLI_OPT("n", CLI_INT, &c->n), .min = 1 },
		{ CLI_OPT("nodes", CLI_INT, &c->nodes), .min = 1 },
		{ CLI_FN("gamma", parse_gammas) },
		{ CLI_FN("beta", parse_beta) },
		{ CLI_OPT("runs", CLI_INT, &c->runs), .min = 1 },
		{ CLI_OPT("slots", CLI_INT, &c->slots), .min = 1 },
		{ CLI_OPT("warmup", CLI_INT, &c->warmup), .min = 0 },
		{ CLI_FN("seed", parse_seed) },
		{ CLI_OPT("policy", CLI_STRING, &c->policies) },
		{ CLI_FN("format", parse_format) },
		{ CLI_HELP_OPT },
	};
	const cli_spec_t spec = {
		.cmd = "dfrs sim", .usage = usage, .ctx = c,
		.unknown = "dfrs sim: unknown option '%s' with --availability "
			   "(dfrs sim --availability X --help)\n",
		.no_value = "dfrs sim: %s needs a value\n",
	};
	return cli_parse_or_exit(&spec, opts, CLI_COUNT_OF(opts), argc, argv);
}

int cmd_sim_availability(int argc, char **argv)
{
	avail_cli_t c = { .policies = DEFAULT_POLICIES, .n = 3, .runs = 2000, .beta = 0.9,
			  .gammas = { 0.5, 1, 2, 4 }, .ngammas = 4, .seed = 1 };
	avail_policy_t policies[MAX_AVAIL_POLICIES];
	size_t npolicies;
	avail_source_t src;
	avail_sim_result_t res;
	char err[1024];

	if (parse_args(&c, argc, argv))
		return 2;
	if (!c.spec) {
		fprintf(stderr, "dfrs sim: --availability needs a value\n");
		return 2;
	}
	bool is_trace = !strncmp(c.spec, "trace:", 6);
	int open_rc = avail_source_open(c.spec, c.nodes ? (size_t)c.nodes : is_trace ? 0 : 10,
					&src, err, sizeof(err));

	if (open_rc == AVAIL_SOURCE_BAD_FILE) {
		fprintf(stderr, "dfrs sim: %s\n", err);
		return 1;
	}
	if (open_rc) {
		fprintf(stderr, "dfrs sim: --availability %s\n", err);
		return 2;
	}
	if ((size_t)c.n > src.nodes) {
		fprintf(stderr, "dfrs sim: --n %d: more tasks than the %zu nodes\n", c.n,
			src.nodes);
		avail_source_free(&src);
		return 2;
	}
	if (parse_policies(c.policies, (size_t)c.n, policies, &npolicies)) {
		avail_source_free(&src);
		return 2;
	}
	avail_sim_config_t cfg = {
		.n = (size_t)c.n, .beta = c.beta, .gammas = c.gammas, .ngammas = c.ngammas,
		.policies = policies, .npolicies = npolicies, .runs = (size_t)c.runs,
		.seed = c.seed, .slots = (size_t)c.slots, .warmup = (size_t)c.warmup,
		.quantum = 0.001,
	};
	struct timespec t0, t1;

	if (avail_sim_check(&src, &cfg, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: %s\n", err);
		avail_source_free(&src);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (avail_sim_run(&src, &cfg, &res, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: %s\n", err);
		avail_source_free(&src);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	sim_availability_report_t report = {
		.spec = c.spec, .src = &src, .cfg = &cfg, .res = &res,
		.seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
	};

	sim_availability_report(stdout, &report, c.format);
	avail_sim_result_free(&res);
	avail_source_free(&src);
	return 0;
}
