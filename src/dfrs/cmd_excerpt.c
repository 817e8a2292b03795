/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_excerpt.c - dfrs excerpt: write the window of a trace that
 * contribs/live-compare replays on a local Slurm cluster, as SWF, in the
 * cluster's nodes and compressed time, with Slurm's whole-minute limits
 * as requested times and each job's CPU usage (doc/live-compare.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "sim/sim_workload.h"
#include "trace/trace.h"
#include "trace/trace_excerpt.h"

#define CMD "dfrs excerpt"

static void usage(FILE *out)
{
	fprintf(out,
"usage: dfrs excerpt --trace FILE --nodes N [--jobs N] [--offset S|auto]\n"
"                    [--compress F] [--procs-per-node P] [--target-load L]\n"
"                    [--max-runtime S] [--limit-margin S]\n"
"                    [--start-latency S] [--seed S] [--out FILE]\n"
"\n"
"Writes N consecutive jobs of FILE (SWF, plain or gzip, or a sacct export)\n"
"that fit N nodes, as SWF: submit and run times divided by F (run times at\n"
"least 1 s), sizes in nodes, the time limit Slurm applies (whole minutes,\n"
"at least the run time + the margin) as requested time, and each job's CPU\n"
"usage (dfrs sim's model, drawn from the seed) as average CPU time.\n"
"\n"
"  --jobs N           jobs in the excerpt (default 100)\n"
"  --offset S|auto    first job submitted at or after S s of the trace;\n"
"                     auto (default): the window of N jobs whose offered\n"
"                     load is closest to --target-load\n"
"  --compress F       divide times by F (default 1)\n"
"  --nodes N          nodes of the cluster (required)\n"
"  --procs-per-node P trace processors per node (default: the trace's\n"
"                     machine spread over the N nodes)\n"
"  --target-load L    for auto (default 0.9)\n"
"  --max-runtime S    for auto: only windows whose jobs all run at most\n"
"                     S s once compressed (default: any)\n"
"  --limit-margin S   a limit is at least the run time + S s (default 5)\n"
"  --start-latency S  add S s to every run time (default 0): Slurm starts\n"
"                     a job about a second after nodes free up; the live\n"
"                     job sleeps its run time less S (header StartLatency)\n"
"  --seed S           seed of the CPU usage model (default 1)\n"
"  --out FILE         where to write (default: standard output)\n");
}

typedef struct {
	const char *trace, *out;
	trace_excerpt_opts_t o;
	int seed;
} excerpt_cli_t;

static int parse_offset(void *ctx, const char *arg)
{
	excerpt_cli_t *c = ctx;

	if (!strcmp(arg, "auto")) {
		c->o.offset = -1;
		return 0;
	}
	return cli_number(CMD, "--offset", arg, &c->o.offset);
}

static int parse_args(excerpt_cli_t *c, int argc, char **argv)
{
	int nodes_given = 0;
	const cli_opt_t opts[] = {
		{ CLI_OPT("trace", CLI_STRING, &c->trace) },
		{ CLI_OPT("jobs", CLI_SIZE, &c->o.njobs), .min = 1 },
		{ CLI_FN("offset", parse_offset) },
		{ CLI_OPT("compress", CLI_DOUBLE, &c->o.compress), .min = 1,
		  .range_msg = CMD ": --compress must be at least 1" },
		{ CLI_OPT("nodes", CLI_INT, &c->o.nodes), .min = 1,
		  .given = &nodes_given },
		{ CLI_OPT("procs-per-node", CLI_INT, &c->o.procs_per_node),
		  .min = 1 },
		{ CLI_OPT("target-load", CLI_DOUBLE, &c->o.target_load) },
		{ CLI_OPT("max-runtime", CLI_DOUBLE, &c->o.max_runtime) },
		{ CLI_OPT("limit-margin", CLI_DOUBLE, &c->o.limit_margin) },
		{ CLI_OPT("start-latency", CLI_DOUBLE, &c->o.start_latency) },
		{ CLI_OPT("seed", CLI_INT, &c->seed), .min = 0 },
		{ CLI_OPT("out", CLI_STRING, &c->out) },
		{ CLI_HELP_OPT },
	};
	const cli_spec_t spec = { .cmd = CMD, .usage = usage, .ctx = c };

	if (cli_parse_or_exit(&spec, opts, CLI_COUNT_OF(opts), argc, argv))
		return -1;
	if (!c->trace || !nodes_given) {
		fprintf(stderr, CMD ": --trace FILE and --nodes N are required "
			"(dfrs excerpt --help)\n");
		return -1;
	}
	return 0;
}

/* Each job's CPU usage, drawn as dfrs sim draws it, as its average CPU
 * time, so that the simulator and the live job (dfrs:need) agree. */
static int set_cpu(trace_t *ex, int seed, char *err, size_t errlen)
{
	sim_workload_opts_t wo;
	sim_workload_t w;

	sim_workload_opts_defaults(&wo);
	wo.nodes = (int)ex->header_max_procs;
	wo.seed = (uint64_t)seed;
	if (sim_workload_build(ex, &wo, &w, err, errlen))
		return -1;
	for (size_t i = 0; i < w.njobs; i++) {
		double u = 0;

		for (int p = 0; p < w.jobs[i].nodes; p++)
			u += w.jobs[i].util[p];
		u = round(100 * u / w.jobs[i].nodes) / 100;
		ex->jobs[i].cpu_used = u * ex->jobs[i].runtime;
	}
	sim_workload_free(&w);
	return 0;
}

int cmd_excerpt(int argc, char **argv)
{
	excerpt_cli_t c = { .seed = 1 };
	trace_read_opts_t ropts = { .diag = stderr, .max_diag = 20 };
	trace_excerpt_info_t info;
	trace_t t = { 0 }, ex = { 0 };
	char err[512], comment[1024];
	FILE *out = stdout;
	int rc = 1;

	trace_excerpt_opts_defaults(&c.o);
	if (parse_args(&c, argc, argv))
		return 2;
	if (trace_read(c.trace, &ropts, &t, err, sizeof(err)) ||
	    trace_excerpt(&t, &c.o, &ex, &info, err, sizeof(err)) ||
	    set_cpu(&ex, c.seed, err, sizeof(err))) {
		fprintf(stderr, CMD ": %s\n", err);
		goto out;
	}
	snprintf(comment, sizeof(comment),
		 "dfrs excerpt of %s: %zu jobs from job %ld (submitted at "
		 "%.0f s), offered load %.2f\n%d nodes of %d trace processors, "
		 "times divided by %g, %zu jobs larger than %d nodes left out\n"
		 "field 9: the Slurm time limit (whole minutes); field 6: CPU "
		 "usage (seed %d) x run time\nStartLatency: %g", c.trace,
		 ex.njobs, ex.jobs[0].id, info.offset, info.load, c.o.nodes,
		 info.procs_per_node, c.o.compress, info.skipped_too_big,
		 c.o.nodes, c.seed, c.o.start_latency);
	if (c.out && !(out = fopen(c.out, "w"))) {
		perror(c.out);
		goto out;
	}
	if (trace_write_swf(out, &ex, comment)) {
		fprintf(stderr, CMD ": writing %s failed\n",
			c.out ? c.out : "standard output");
		goto out;
	}
	fprintf(stderr, CMD ": %s\n", comment);
	rc = 0;
out:
	if (out && out != stdout)
		fclose(out);
	trace_free(&ex);
	trace_free(&t);
	return rc;
}
