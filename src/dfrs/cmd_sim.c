/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_sim.c - dfrs sim: replay a workload trace (SWF or a sacct export)
 * through the decision engines the plugins run, and compare every policy
 * with EASY backfilling and with the best of the backfilling baselines.
 * doc/simulator.md is the manual.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "sim_args.h"
#include "trace/jobcomp.h"
#include "sim/sim_policy.h"
#include "sim/sim_classes.h"
#include "sim/sim_engine.h"
#include "sim/sim_live.h"
#include "sim/sim_metrics.h"
#include "sim/sim_need.h"
#include "sim/sim_params.h"
#include "sim_plot.h"
#include "sim/sim_report.h"
#include "sim/sim_workload.h"
#include "trace/trace.h"

#define MAX_POLICIES 32
#define MAX_PARAMS 32
#define MAX_SWEEP 64
#define MAX_LIVE 8

typedef struct {
	const char *trace;
	sim_policy_t policies[MAX_POLICIES];
	size_t npolicies;
	sim_workload_opts_t wopts;
	sim_model_t model;
	sim_format_t format;
	const char *plot_dir;
	int strict;
	const char *sweep_key;		/* the --param given a list */
	double sweep[MAX_SWEEP];
	size_t nsweep;
	const char *live_name[MAX_LIVE];	/* --live NAME=JOBCOMP */
	const char *live_file[MAX_LIVE];
	size_t nlive;
	const char *estimates_note;	/* --estimates exact|xF, else NULL */
	int needs[SIM_NEED_NONE + 1];	/* --need: sim_need.h sources */
	size_t nneeds;
} sim_cli_t;

/* One simulated row: a policy, the need source its engine sees. */
typedef struct {
	size_t policy;
	int need;
	char name[40];
} sim_run_t;

static void usage(FILE *out)
{
	size_t n = sim_policy_count();
	fprintf(out,
"usage: dfrs sim --trace FILE [--policy LIST] [--nodes N]\n"
"                [--procs-per-node P] [--migration-cost SECONDS] [--load F]\n"
"                [--seed S] [--param KEY=VALUE[,VALUE...]]...\n"
"                [--estimates requested|exact|xF] [--cpu-usage U]\n"
"                [--format table|json|csv] [--plot DIR] [--strict]\n"
"                [--live NAME=JOBCOMP]... [--need LIST]\n"
"\n"
"Replays FILE (SWF, plain or gzip, or a sacct CSV export) under each policy\n"
"and reports response time, wait, bounded slowdown (Gamma = 10 s), stretch,\n"
"utilization, migrations and preemptions, with each policy's ratio to EASY\n"
"and, when two or more were replayed, to the best of the baselines easy,\n"
"easy++, sjf-backfill and conservative (the lowest mean bounded slowdown).\n"
"\n"
"  --policy LIST      comma-separated (default: all but those marked *,\n"
"                     which take minutes on a loaded trace):\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "   %c%-13s %s\n",
			sim_policy_at(i).on_request ? '*' : ' ',
			sim_policy_at(i).name, sim_policy_at(i).summary);
	fprintf(out,
"  --need LIST        the CPU needs cmcbf and amcbf see (comma-separated,\n"
"                     default measured, as deployed): measured\n"
"                     (dfrs-nodeagent measures running jobs, history\n"
"                     predicts pending ones: row amcbf-measured), declared\n"
"                     (each job's true need, as if every job declared it:\n"
"                     the oracle, row amcbf), none (dfrs_cpu_need for all:\n"
"                     amcbf-none); all: the three\n"
"  --nodes N          machine size in allocation units (default: the\n"
"                     trace's MaxProcs, else MaxNodes, else largest job)\n"
"  --procs-per-node P trace processors per unit (default 1)\n"
"  --migration-cost S seconds per resume or move (default 20)\n"
"  --load F           divide inter-arrival times by F (default 1)\n"
"  --seed S           seed of the CPU-usage and progress models (default 1)\n"
"  --estimates E      run-time estimates EASY and the backfilling policies\n"
"                     are given: requested (default: the trace's requested\n"
"                     times where it has them, else exact), exact, or xF:\n"
"                     the run time times F (F >= 1, e.g. x2)\n"
"  --cpu-usage U      every process uses U of its CPU (0 < U <= 1; default:\n"
"                     the trace's field 6, else Liu et al.'s model); 1\n"
"                     leaves no idle CPU for a background tier\n"
"  --param K=V        a model parameter; K=V1,V2,... sweeps it and reports\n"
"                     the best value per policy (by mean bounded slowdown)\n"
"  --format F         table (default), json or csv\n"
"  --plot DIR         write PNG plots (gnuplot) and their data into DIR\n"
"  --strict           stop at the first malformed trace line (default:\n"
"                     report it as file:line, skip it and count it)\n"
"  --live NAME=FILE   also report a live run of this trace on Slurm from\n"
"                     its jobcomp/filetxt file (jobs named by trace job\n"
"                     id), beside the policy it is the counterpart of:\n"
"                     slurm-backfill beside easy, slurm-X beside X\n"
"                     (contribs/live-compare; doc/live-compare.md)\n"
"\nWith --availability SPEC, dfrs sim compares migrate-or-wait policies on\n"
"node availability instead (dfrs sim --availability X --help).\n"
"\nparameters (--param):\n");
	sim_params_describe(out);
	fprintf(out,
"  dfrs_cpu_need    CPU usage of each process of a job the trace gives none\n"
"                   for, as the deployed sched/amcbf assumes for a job with\n"
"                   no need declared, measured or predicted; default: Liu\n"
"                   et al.'s model\n");
}

static int add_policy(void *ctx, const char *name)
{
	sim_cli_t *c = ctx;
	sim_policy_t p;

	if (sim_arg_policy(name, &p))
		return -1;
	if (c->npolicies == MAX_POLICIES) {
		fprintf(stderr, "dfrs sim: --policy: more than %d\n",
			MAX_POLICIES);
		return -1;
	}
	c->policies[c->npolicies++] = p;
	return 0;
}

static int parse_policies(void *ctx, const char *list)
{
	sim_cli_t *c = ctx;
	int rc;

	c->npolicies = 0;
	rc = cli_split(list, 512, add_policy, c);
	if (rc == 1)
		fprintf(stderr, "dfrs sim: --policy: empty or too long list\n");
	if (rc)
		return -1;
	if (!c->npolicies) {
		fprintf(stderr, "dfrs sim: --policy: no policy named\n");
		return -1;
	}
	return 0;
}

static int parse_param(void *ctx, const char *arg)
{
	sim_cli_t *c = ctx;
	char key[64], err[256];
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(key) || !eq[1]) {
		fprintf(stderr, "dfrs sim: --param '%s': expected KEY=VALUE\n",
			arg);
		return -1;
	}
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	char values[512];
	if (strlen(eq + 1) >= sizeof(values)) {
		fprintf(stderr, "dfrs sim: --param %s: value list too long\n",
			key);
		return -1;
	}
	strcpy(values, eq + 1);
	if (!strcmp(key, "dfrs_cpu_need")) {	/* a workload option */
		if (strchr(values, ',')) {
			fprintf(stderr, "dfrs sim: --param dfrs_cpu_need takes "
				"one value (no sweep)\n");
			return -1;
		}
		return sim_arg_cpu_need(values, &c->wopts.default_cpu_need);
	}
	double list[MAX_SWEEP];
	size_t n = 0;
	for (char *save, *v = strtok_r(values, ",", &save); v;
	     v = strtok_r(NULL, ",", &save)) {
		if (n == MAX_SWEEP) {
			fprintf(stderr, "dfrs sim: --param %s: more than %d "
				"values\n", key, MAX_SWEEP);
			return -1;
		}
		if (cli_number("dfrs sim", key, v, &list[n]))
			return -1;
		/* check the key and range now, on a scratch model */
		sim_model_t scratch = c->model;
		if (sim_param_set(&scratch, key, list[n], err, sizeof(err))) {
			fprintf(stderr, "dfrs sim: %s\n", err);
			return -1;
		}
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "dfrs sim: --param %s: no value\n", key);
		return -1;
	}
	if (n == 1) {
		sim_param_set(&c->model, key, list[0], err, sizeof(err));
		return 0;
	}
	if (c->sweep_key) {
		fprintf(stderr, "dfrs sim: only one --param may be swept "
			"(%s and %s given lists)\n", c->sweep_key, key);
		return -1;
	}
	static char sweep_key[64];	/* lives as long as the run */
	strcpy(sweep_key, key);
	c->sweep_key = sweep_key;
	memcpy(c->sweep, list, n * sizeof(double));
	c->nsweep = n;
	return 0;
}

/* --estimates requested|exact|xF */
static int parse_estimates(void *ctx, const char *arg)
{
	sim_cli_t *c = ctx;
	static char note[96];	/* lives as long as the run */
	double f;

	if (!strcmp(arg, "requested")) {
		c->wopts.estimate_factor = 0;
		c->estimates_note = NULL;
		return 0;
	}
	if (!strcmp(arg, "exact")) {
		c->wopts.estimate_factor = 1;
		c->estimates_note = "exact runtimes (--estimates exact)";
		return 0;
	}
	if (arg[0] != 'x' || cli_number("dfrs sim", "--estimates", arg + 1,
					&f))
		goto bad;
	if (!(f >= 1)) {
		fprintf(stderr, "dfrs sim: --estimates %s: the factor must be "
			"at least 1 (an estimate under the run time would "
			"kill the job)\n", arg);
		return -1;
	}
	c->wopts.estimate_factor = f;
	snprintf(note, sizeof(note), "runtimes x %g (--estimates %s)", f, arg);
	c->estimates_note = note;
	return 0;
bad:
	fprintf(stderr, "dfrs sim: --estimates '%s': expected requested, "
		"exact or xF (e.g. x2)\n", arg);
	return -1;
}

/* NAME=JOBCOMP, split in place (argv outlives the run) */
static int parse_live(void *ctx, const char *value)
{
	sim_cli_t *c = ctx;
	char *arg = (char *)value;
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "dfrs sim: --live '%s': expected NAME=JOBCOMP\n",
			arg);
		return -1;
	}
	if (c->nlive == MAX_LIVE) {
		fprintf(stderr, "dfrs sim: --live: more than %d\n", MAX_LIVE);
		return -1;
	}
	*eq = '\0';
	c->live_name[c->nlive] = arg;
	c->live_file[c->nlive++] = eq + 1;
	return 0;
}

static int add_need(void *ctx, const char *n)
{
	sim_cli_t *c = ctx;
	int src;

	if (sim_need_find(n, &src)) {
		fprintf(stderr, "dfrs sim: --need: '%s' is not "
			"declared, measured, none or all\n", n);
		return -1;
	}
	for (size_t i = 0; i < c->nneeds; i++)
		if (c->needs[i] == src) {
			fprintf(stderr, "dfrs sim: --need: '%s' twice\n", n);
			return -1;
		}
	c->needs[c->nneeds++] = src;
	return 0;
}

static int parse_needs(void *ctx, const char *list)
{
	sim_cli_t *c = ctx;
	int rc;

	c->nneeds = 0;
	if (!strcmp(list, "all"))
		list = "declared,measured,none";
	rc = cli_split(list, 128, add_need, c);
	if (rc == 1)
		fprintf(stderr, "dfrs sim: --need: empty or too long list\n");
	return rc ? -1 : 0;
}

/* The simulated rows of one setting: every policy, and each --need
 * source for the policies whose engine uses CPU needs. */
static size_t plan_runs(const sim_cli_t *c, sim_run_t *runs)
{
	size_t n = 0;

	for (size_t p = 0; p < c->npolicies; p++) {
		const char *name = c->policies[p].name;
		size_t k = sim_need_matters(name) ? c->nneeds : 1;
		for (size_t i = 0; i < k; i++) {
			sim_run_t *r = &runs[n++];
			r->policy = p;
			r->need = sim_need_matters(name) ? c->needs[i]
							 : SIM_NEED_DECLARED;
			if (r->need == SIM_NEED_DECLARED)
				snprintf(r->name, sizeof(r->name), "%s", name);
			else
				snprintf(r->name, sizeof(r->name), "%s-%s",
					 name, sim_need_name(r->need));
		}
	}
	return n;
}

static int parse_seed(void *ctx, const char *arg)
{
	sim_cli_t *c = ctx;

	if (sim_arg_seed(arg, &c->model.seed))
		return -1;
	c->wopts.seed = c->model.seed;
	return 0;
}

static int parse_format(void *ctx, const char *arg)
{
	return sim_arg_format(arg, &((sim_cli_t *)ctx)->format);
}

static int parse_args(sim_cli_t *c, int argc, char **argv)
{
	const cli_opt_t opts[] = {
		{ CLI_OPT("trace", CLI_STRING, &c->trace) },
		{ CLI_FN("policy", parse_policies) },
		{ CLI_OPT("nodes", CLI_INT, &c->wopts.nodes), .min = 1 },
		{ CLI_OPT("procs-per-node", CLI_INT, &c->wopts.procs_per_node),
		  .min = 1 },
		{ CLI_OPT("migration-cost", CLI_DOUBLE,
			  &c->model.migration_cost) },
		{ CLI_OPT("load", CLI_DOUBLE, &c->wopts.load), .min_open = 1,
		  .range_msg = "dfrs sim: --load must be above 0" },
		{ CLI_FN("seed", parse_seed) },
		{ CLI_FN("estimates", parse_estimates) },
		{ CLI_OPT("cpu-usage", CLI_DOUBLE, &c->wopts.cpu_usage),
		  .max = 1, .min_open = 1, .range_msg = "dfrs sim: --cpu-usage "
		  "must be above 0 and at most 1" },
		{ CLI_FN("param", parse_param) },
		{ CLI_FN("format", parse_format) },
		{ CLI_OPT("plot", CLI_STRING, &c->plot_dir) },
		{ CLI_OPT("strict", CLI_FLAG, &c->strict) },
		{ CLI_FN("live", parse_live) },
		{ CLI_FN("need", parse_needs) },
		{ CLI_HELP_OPT },
	};
	const cli_spec_t spec = { .cmd = "dfrs sim", .usage = usage, .ctx = c };

	if (cli_parse_or_exit(&spec, opts, CLI_COUNT_OF(opts), argc, argv))
		return -1;
	if (!c->trace) {
		fprintf(stderr, "dfrs sim: --trace FILE is required (dfrs sim "
			"--help)\n");
		return -1;
	}
	if (c->nlive && c->sweep_key) {
		fprintf(stderr, "dfrs sim: --live and a --param sweep do not "
			"go together\n");
		return -1;
	}
	return 0;
}

/* A row for each --live run, after the simulated rows; plotted too. */
static int live_rows(const sim_cli_t *c, const sim_workload_t *w,
		     sim_report_row_t *rows, sim_plot_t *plot)
{
	char err[1024];

	for (size_t k = 0; k < c->nlive; k++) {
		jobcomp_t jc;
		sim_workload_t live;
		sim_result_t res;

		if (jobcomp_read(c->live_file[k], &jc, err, sizeof(err))) {
			fprintf(stderr, "dfrs sim: --live %s: %s\n",
				c->live_name[k], err);
			return -1;
		}
		if (sim_live_result(w, &jc, &c->model, &live, &res, err,
				    sizeof(err))) {
			fprintf(stderr, "dfrs sim: --live %s: %s\n",
				c->live_name[k], err);
			jobcomp_free(&jc);
			return -1;
		}
		rows[k].policy = c->live_name[k];
		rows[k].predicted = sim_live_predicted(c->live_name[k]);
		sim_metrics_compute(&live, &res, SIM_BSLD_BOUND, &rows[k].m);
		int rc = c->plot_dir ? sim_plot_add(plot, rows[k].policy, &live,
						    &res, err, sizeof(err)) : 0;
		if (rc)
			fprintf(stderr, "dfrs sim: --plot: %s\n", err);
		sim_result_free(&res);
		sim_live_free(&live);
		jobcomp_free(&jc);
		if (rc)
			return -1;
	}
	return 0;
}

/* rows[0..nsim) simulated, then live rows: each live row moves to just
 * after the simulated row of the policy it is the counterpart of. */
static void place_live_rows(sim_report_row_t *rows, size_t nsim,
			    size_t nlive)
{
	for (size_t k = nsim; k < nsim + nlive; k++) {
		sim_report_row_t row = rows[k];
		size_t at = k;

		for (size_t i = 0; i < k; i++)
			if (row.predicted && !rows[i].predicted &&
			    !strcmp(rows[i].policy, row.predicted)) {
				at = i + 1;
				while (at < k && rows[at].predicted)
					at++;
				break;
			}
		memmove(&rows[at + 1], &rows[at], (k - at) * sizeof(*rows));
		rows[at] = row;
	}
}

/* The command line with the defaults: 0, or -1 after one message. */
static int setup(sim_cli_t *c, int argc, char **argv)
{
	sim_workload_opts_defaults(&c->wopts);
	sim_model_defaults(&c->model);
	c->needs[c->nneeds++] = SIM_NEED_MEASURED;	/* as deployed */
	for (size_t i = 0; i < sim_policy_count() && i < MAX_POLICIES; i++)
		if (!sim_policy_at(i).on_request)
			c->policies[c->npolicies++] = sim_policy_at(i);
	if (parse_args(c, argc, argv))
		return -1;
	sim_params_warn_inert(stderr, &c->model, c->sweep_key);
	return 0;
}

/* The trace and its workload, with the warnings about what the replay
 * assumes and the CPU usage note (cpu_note): 0, or -1 after a message
 * (*trace freed). */
static int load(const sim_cli_t *c, trace_t *trace, sim_workload_t *w,
		char *cpu_note, size_t len)
{
	trace_read_opts_t ropts = { .strict = c->strict, .diag = stderr,
				    .max_diag = 20 };
	char err[512];

	if (trace_read(c->trace, &ropts, trace, err, sizeof(err)) ||
	    sim_workload_build(trace, &c->wopts, w, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: %s\n", err);
		trace_free(trace);
		return -1;
	}
	sim_warn_history(stderr, trace);
	sim_warn_machine(stderr, trace, &c->wopts, w);
	if (sim_cpu_note(&c->wopts, w, cpu_note, len))
		fprintf(stderr, "dfrs sim: warning: CPU usage: %s\n", cpu_note);
	return 0;
}

/* One simulated row: run's policy under model, its metrics into row,
 * its plot when plot is not NULL.  0, or -1 after a message. */
static int run_one(const sim_cli_t *c, const sim_run_t *run,
		   const sim_workload_t *w, sim_model_t *model,
		   sim_report_row_t *row, sim_plot_t *plot)
{
	const sim_policy_t *policy = &c->policies[run->policy];
	sim_result_t res;
	char err[512];
	int rc = 0;

	row->policy = run->name;
	model->need_source = run->need;
	model->need_default = c->wopts.default_cpu_need > 0
			      ? c->wopts.default_cpu_need : 1;
	row->dfrs_model = sim_policy_dfrs_model(policy, model);
	if (sim_policy_run(policy, w, model, &res, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: %s: %s\n", row->policy, err);
		return -1;
	}
	sim_metrics_compute(w, &res, SIM_BSLD_BOUND, &row->m);
	if (res.need_procs)
		fprintf(stderr, "dfrs sim: %s: the CPU need it saw for each "
			"process at its job's first start, minus the true one: "
			"mean %+.3f, mean absolute %.3f, below it for %.1f %% "
			"of %zu\n", row->policy,
			res.need_err_sum / res.need_procs,
			res.need_abs_sum / res.need_procs,
			100.0 * res.need_under / res.need_procs,
			res.need_procs);
	if (plot && sim_plot_add(plot, row->policy, w, &res, err,
				 sizeof(err))) {
		fprintf(stderr, "dfrs sim: --plot: %s\n", err);
		rc = -1;
	}
	sim_result_free(&res);
	return rc;
}

/* Every row of every setting (the --param sweep's values, else one):
 * rows[s * nruns + k] is runs[k] at setting s.  0, or -1. */
static int run_all(const sim_cli_t *c, const sim_run_t *runs, size_t nruns,
		   const sim_workload_t *w, sim_report_row_t *rows,
		   sim_plot_t *plot)
{
	size_t nsettings = c->sweep_key ? c->nsweep : 1;
	char err[512];

	for (size_t s = 0; s < nsettings; s++) {
		sim_model_t model = c->model;

		if (c->sweep_key)
			sim_param_set(&model, c->sweep_key, c->sweep[s], err,
				      sizeof(err));
		for (size_t k = 0; k < nruns; k++) {
			sim_report_row_t *row = &rows[s * nruns + k];

			row->param_key = c->sweep_key;
			row->param_value = c->sweep_key ? c->sweep[s] : 0;
			if (run_one(c, &runs[k], w, &model, row,
				    c->plot_dir && s == 0 ? plot : NULL))
				return -1;
		}
	}
	return 0;
}

/* The report of rows[0..nrows) in the --format asked for, on stdout. */
static void report(const sim_cli_t *c, const trace_t *trace,
		   const sim_workload_t *w, const char *cpu_note,
		   sim_report_row_t *rows, size_t nrows)
{
	sim_report_t report = {
		.trace = c->trace, .jobs = w->njobs,
		.skipped = trace->skipped_jobs + w->skipped_too_big +
			   w->skipped_unusable,
		.skipped_too_big = w->skipped_too_big,
		.bad_lines = trace->bad_lines, .nodes = w->nodes,
		.load = c->wopts.load, .seed = c->model.seed,
		.migration_cost = c->model.migration_cost,
		.estimates_exact = w->estimates_exact,
		.potential = sim_consolidation_potential(w, &c->model.sched),
		.estimates = c->estimates_note,
		.cpu_usage = cpu_note,
		.rows = rows, .nrows = nrows,
	};

	if (c->format == SIM_FORMAT_JSON)
		sim_report_json(stdout, &report);
	else if (c->format == SIM_FORMAT_CSV)
		sim_report_csv(stdout, &report);
	else
		sim_report_table(stdout, &report);
}

int cmd_sim(int argc, char **argv)
{
	for (int a = 1; a < argc; a++)
		if (!strncmp(argv[a], "--availability", 14) &&
		    (!argv[a][14] || argv[a][14] == '='))
			return cmd_sim_availability(argc, argv);

	static sim_run_t runs[MAX_POLICIES * (SIM_NEED_NONE + 1)];
	sim_cli_t c = { 0 };
	trace_t trace = { 0 };
	sim_workload_t w;
	sim_plot_t plot = { 0 };
	char err[512], cpu_note[320];

	if (setup(&c, argc, argv))
		return 2;
	if (load(&c, &trace, &w, cpu_note, sizeof(cpu_note)))
		return 1;

	size_t nruns = plan_runs(&c, runs);
	size_t nsim = (c.sweep_key ? c.nsweep : 1) * nruns;
	size_t nrows = nsim + c.nlive;
	sim_report_row_t *rows = calloc(nrows, sizeof(*rows));
	int rc = 1;

	if (!rows) {
		fprintf(stderr, "dfrs sim: out of memory\n");
		goto out;
	}
	if (c.plot_dir && sim_plot_begin(&plot, c.plot_dir, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: --plot: %s\n", err);
		goto out;
	}
	sim_plot_describe(&plot, c.trace, w.nodes, c.wopts.load,
			  c.wopts.procs_per_node);
	if (run_all(&c, runs, nruns, &w, rows, &plot) ||
	    live_rows(&c, &w, rows + nsim, &plot))
		goto out;
	place_live_rows(rows, nsim, c.nlive);
	report(&c, &trace, &w, cpu_note, rows, nrows);
	rc = 0;
	if (c.plot_dir && sim_plot_finish(&plot, err, sizeof(err))) {
		fprintf(stderr, "dfrs sim: --plot: %s\n", err);
		rc = 1;
	}
out:
	sim_plot_free(&plot);
	free(rows);
	sim_workload_free(&w);
	trace_free(&trace);
	return rc;
}
