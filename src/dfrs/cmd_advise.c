/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_advise.c - dfrs advise: should this site deploy sched/amcbf, and
 * with which SchedulerParameters?  Replays the site's own history (a sacct
 * export, or SWF) on its machine (slurm.conf) under the deployed settings
 * and under conservative backfilling (today's sched/backfill) and EASY;
 * sim_advise.c does the work, sim_advise_report.c the report.
 * doc/admin-guide.md starts from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "sim/sim_advise.h"
#include "sim/sim_advise_report.h"
#include "sim/slurmconf.h"
#include "dfrs/dfrs_online.h"
#include "sim/sim_need.h"
#include "suite/dfrs_params.h"
#include "trace/trace.h"

typedef struct {
	const char *history;
	const char *conf_path;
	const char *params;	/* --params, else slurm.conf's */
	int nodes, cpus_per_node;
	int json;
	int strict;
	int ckpt_given;		/* --ckpt-jobs */
	sim_advise_opts_t o;
} advise_cli_t;

static void usage(FILE *out)
{
	fprintf(out,
"usage: dfrs advise --history FILE [--slurm-conf FILE] [--params STRING]\n"
"                   [--nodes N] [--cpus-per-node C] [--seeds N]\n"
"                   [--loads F[,F...]] [--migration-cost SECONDS]\n"
"                   [--no-sweep] [--no-alternative] [--format table|json]\n"
"                   [--strict]\n"
"                   [--need measured|none|declared] [--max-response R]\n"
"                   [--ckpt-jobs all|user=UID|partition=NAME[,...]]\n"
"\n"
"Should sched/amcbf be deployed here, and with which SchedulerParameters?\n"
"Replays the history (a sacct export or SWF, doc/traces.md) under the\n"
"deployed mode and under conservative backfilling (the model of Slurm's\n"
"sched/backfill, today's scheduler) and EASY, over seeds and loads; prints\n"
"the verdict with its range across seeds, percentiles per partition and\n"
"job size, the recommended SchedulerParameters line from a sweep of\n"
"amcbf_util_threshold x amcbf_bg_min_rate, and the blockers found.  It\n"
"replays greedypmr too and recommends it instead where it wins: a mean\n"
"bounded slowdown under 0.9 x the deployed mode's at a mean response no\n"
"higher than EASY's.\n"
"\n"
"  --history FILE      the job history (required)\n"
"  --slurm-conf FILE   nodes, CPUs, partitions, PriorityType and the\n"
"                      SchedulerParameters line from this slurm.conf\n"
"  --params STRING     the SchedulerParameters to deploy (default: the\n"
"                      slurm.conf's, else the documented defaults)\n"
"  --nodes N           nodes (default: slurm.conf's, else a guess from the\n"
"                      history, with a warning)\n"
"  --cpus-per-node C   CPUs of a node, a job takes whole nodes (default:\n"
"                      slurm.conf's, else 1)\n"
"  --seeds N           seeds 1..N of the efficiency model (default 5)\n"
"  --loads LIST        arrival-rate factors (default 1,1.5; the verdict is\n"
"                      at the first)\n"
"  --migration-cost S  seconds per resume or move (default 20)\n"
"  --no-sweep          do not sweep the two parameters\n"
"  --no-alternative    do not replay greedypmr beside the deployed mode\n"
"  --format F          table (default) or json\n"
"  --strict            stop at the first malformed history line\n"
"  --need SOURCE       the CPU needs the deployment gets, which the verdict\n"
"                      and the sweep use: measured (default: dfrs-nodeagent\n"
"                      on every node measures running jobs, their history\n"
"                      predicts pending ones), none (no agent: dfrs_cpu_need\n"
"                      for every job) or declared (every job submitted with\n"
"                      its exact --comment=dfrs:need=X); the three are\n"
"                      reported\n"
"  --max-response R    never recommend a mode whose mean response at the\n"
"                      first load is over R x EASY's: the verdict is do\n"
"                      not deploy and one line names it (default 1.25;\n"
"                      0: no bound)\n"
"  --ckpt-jobs LIST    the jobs that asked for the checkpoint signal\n"
"                      (--signal=B:SIG@TIME), which the history does not\n"
"                      record: all, or those of the users (user=UID) and\n"
"                      partitions (partition=NAME) listed; with the\n"
"                      deployed amcbf_ckpt_signal and amcbf_ckpt_wait\n"
"                      they keep their progress over a requeue (default:\n"
"                      no job asked, every requeue loses the run, as live\n"
"                      for a job without --signal)\n");
}

static int add_load(void *ctx, const char *v)
{
	advise_cli_t *c = ctx;
	double f;

	if (c->o.nloads == SIM_ADVISE_MAX_LOADS) {
		fprintf(stderr, "dfrs advise: --loads: more than %d\n",
			SIM_ADVISE_MAX_LOADS);
		return -1;
	}
	if (cli_number("dfrs advise", "--loads", v, &f))
		return -1;
	if (!(f > 0)) {
		fprintf(stderr, "dfrs advise: --loads %s: a factor must "
			"be above 0\n", v);
		return -1;
	}
	c->o.loads[c->o.nloads++] = f;
	return 0;
}

static int parse_loads(void *ctx, const char *arg)
{
	advise_cli_t *c = ctx;
	int rc;

	c->o.nloads = 0;
	rc = cli_split(arg, 256, add_load, c);
	if (rc == 1)
		fprintf(stderr, "dfrs advise: --loads: empty or too long\n");
	if (rc)
		return -1;
	return c->o.nloads ? 0 : (fprintf(stderr, "dfrs advise: --loads: "
					  "no value\n"), -1);
}

static int parse_seeds(void *ctx, const char *arg)
{
	advise_cli_t *c = ctx;
	int n;

	if (cli_count("dfrs advise", "--seeds", arg, 1, &n))
		return -1;
	if (n > SIM_ADVISE_MAX_SEEDS) {
		fprintf(stderr, "dfrs advise: --seeds: at most %d\n",
			SIM_ADVISE_MAX_SEEDS);
		return -1;
	}
	c->o.nseeds = (unsigned)n;
	return 0;
}

static int parse_no_sweep(void *ctx, const char *arg)
{
	(void)arg;
	((advise_cli_t *)ctx)->o.sweep = 0;
	return 0;
}

static int parse_no_alternative(void *ctx, const char *arg)
{
	(void)arg;
	((advise_cli_t *)ctx)->o.alternative = 0;
	return 0;
}

static int parse_need(void *ctx, const char *arg)
{
	if (sim_need_find(arg, &((advise_cli_t *)ctx)->o.need_source)) {
		fprintf(stderr, "dfrs advise: --need '%s': expected "
			"measured, none or declared\n", arg);
		return -1;
	}
	return 0;
}

static int parse_ckpt_jobs(void *ctx, const char *arg)
{
	char err[256];

	if (sim_ckpt_parse(arg, &((advise_cli_t *)ctx)->o.ckpt, err,
			   sizeof(err))) {
		fprintf(stderr, "dfrs advise: --ckpt-jobs: %s\n", err);
		return -1;
	}
	((advise_cli_t *)ctx)->ckpt_given = 1;
	return 0;
}

static int parse_format(void *ctx, const char *arg)
{
	if (strcmp(arg, "table") && strcmp(arg, "json")) {
		fprintf(stderr, "dfrs advise: --format '%s': expected "
			"table or json\n", arg);
		return -1;
	}
	((advise_cli_t *)ctx)->json = !strcmp(arg, "json");
	return 0;
}

static int parse_args(advise_cli_t *c, int argc, char **argv)
{
	const cli_opt_t opts[] = {
		{ CLI_OPT("history", CLI_STRING, &c->history) },
		{ CLI_OPT("slurm-conf", CLI_STRING, &c->conf_path) },
		{ CLI_OPT("params", CLI_STRING, &c->params) },
		{ CLI_OPT("nodes", CLI_INT, &c->nodes), .min = 1 },
		{ CLI_OPT("cpus-per-node", CLI_INT, &c->cpus_per_node),
		  .min = 1 },
		{ CLI_FN("seeds", parse_seeds) },
		{ CLI_FN("loads", parse_loads) },
		{ CLI_OPT("migration-cost", CLI_DOUBLE,
			  &c->o.model.migration_cost) },
		{ .name = "no-sweep", .kind = CLI_CALL_FLAG,
		  .call = parse_no_sweep },
		{ .name = "no-alternative", .kind = CLI_CALL_FLAG,
		  .call = parse_no_alternative },
		{ CLI_FN("need", parse_need) },
		{ CLI_OPT("max-response", CLI_DOUBLE, &c->o.max_response),
		  .min = 0, .range_msg = "dfrs advise: --max-response: a "
		  "multiple of EASY's mean response, 0 or more (0: no "
		  "bound)" },
		{ CLI_FN("ckpt-jobs", parse_ckpt_jobs) },
		{ CLI_FN("format", parse_format) },
		{ CLI_OPT("strict", CLI_FLAG, &c->strict) },
		{ CLI_HELP_OPT },
	};
	const cli_spec_t spec = {
		.cmd = "dfrs advise", .usage = usage, .ctx = c,
		.no_value = "dfrs advise: option needs a value: '%s' (dfrs "
			    "advise --help)\n",
	};

	if (cli_parse_or_exit(&spec, opts, CLI_COUNT_OF(opts), argc, argv))
		return -1;
	if (!c->history) {
		fprintf(stderr, "dfrs advise: --history FILE is required (dfrs "
			"advise --help)\n");
		return -1;
	}
	return 0;
}

/* The machine: --nodes/--cpus-per-node, else slurm.conf, else a guess. */
static const char *machine(advise_cli_t *c, const slurmconf_t *conf,
			   const trace_t *t)
{
	int cpus = c->cpus_per_node ? c->cpus_per_node
		   : conf ? conf->cpus_min : 1;

	if (conf && !c->cpus_per_node && conf->cpus_min != conf->cpus_max)
		fprintf(stderr, "dfrs advise: warning: %s has nodes of %d to %d "
			"CPUs; the replay gives every node %d (--cpus-per-node "
			"to choose)\n", c->conf_path, conf->cpus_min,
			conf->cpus_max, cpus);
	/* nodes of `cpus` CPUs on which jobs take CPUs, memory and GPUs
	 * (sim_workload_opts_t.cpus_per_node), as cons_tres allocates */
	c->o.wopts.procs_per_node = 1;
	c->o.wopts.cpus_per_node = cpus;
	if (conf) {
		c->o.wopts.host_mem_mb = conf->mem_mb_min;
		c->o.wopts.host_gpus = conf->gpus_min;
	}
	if (c->nodes) {
		c->o.wopts.nodes = c->nodes * cpus;
		return "--nodes";
	}
	if (conf) {
		c->o.wopts.nodes = conf->nodes * cpus;
		return "slurm.conf";
	}
	long procs = trace_machine_procs(t);
	fprintf(stderr, "dfrs advise: warning: no --nodes and no --slurm-conf:"
		" guessing %ld nodes of %d CPUs from the history (%s); the "
		"verdict depends on it\n", (procs + cpus - 1) / cpus, cpus,
		t->header_max_procs > 0 ? "its MaxProcs header"
		: t->header_max_nodes > 0 ? "its MaxNodes header"
		: "its largest job");
	return "the history: a guess";
}

/* The deployed settings from --params, slurm.conf or the defaults. */
static int deployed(advise_cli_t *c, const slurmconf_t *conf,
		    dfrs_params_t *p, const char **from)
{
	char err[512];
	const char *str = c->params;

	*from = "--params";
	if (!str && conf && conf->sched_params[0]) {
		str = conf->sched_params;
		*from = "slurm.conf SchedulerParameters";
	}
	if (!str) {
		str = "";
		*from = "the defaults";
	}
	c->params = str;
	if (sim_advise_deploy(&c->o, str, p, err, sizeof(err))) {
		fprintf(stderr, "dfrs advise: %s: %s\n", *from, err);
		return -1;
	}
	/* the signal reaches only the jobs that asked (ckpt_opt_in) */
	if (c->ckpt_given && !(c->o.ckpt_signo && c->o.ckpt_wait > 0))
		fprintf(stderr, "dfrs advise: warning: --ckpt-jobs: %s sends "
			"no checkpoint signal (amcbf_ckpt_signal=none or "
			"amcbf_ckpt_wait=0): no job checkpoints\n", *from);
	if (!c->ckpt_given && c->o.ckpt_signo && c->o.ckpt_wait > 0)
		fprintf(stderr, "dfrs advise: note: amcbf_ckpt_signal=%s goes "
			"only to jobs that asked for it with --signal, which "
			"the history does not record: no job checkpoints in "
			"the replay (--ckpt-jobs names those that do)\n",
			dfrs_params_ckpt_signal_name(p->ckpt_signal));
	return 0;
}

static int advise(advise_cli_t *c, const slurmconf_t *conf, trace_t *t)
{
	dfrs_params_t p;
	const char *params_from;
	char err[1024];
	sim_advise_t a;

	if (deployed(c, conf, &p, &params_from))
		return 2;
	const char *nodes_from = machine(c, conf, t);
	if (sim_advise_run(t, &c->o, &a, err, sizeof(err))) {
		fprintf(stderr, "dfrs advise: %s\n", err);
		return 1;
	}
	sim_advise_report_t r = {
		.history = c->history, .trace = t, .a = &a,
		.policy = c->o.policy, .params = c->params,
		.stretch_priority = p.mode == AMCBF_MODE_DFRS ||
				    p.priority == AMCBF_PRIO_STRETCH,
		.params_from = params_from,
		.util_threshold = p.util_threshold,
		.bg_min_rate = p.bg_min_rate, .cpu_default = c->o.cpu_default,
		.procs_per_node = c->o.wopts.cpus_per_node,
		.cpu_granularity = c->o.wopts.cpus_per_node > 1 ||
				   c->o.wopts.host_mem_mb > 0 ||
				   c->o.wopts.host_gpus > 0,
		.node_mem_mb = c->o.wopts.host_mem_mb,
		.node_gpus = c->o.wopts.host_gpus,
		.nodes_from = nodes_from,
		.priority_type = conf ? conf->priority_type : "",
		.sched_type = conf ? conf->sched_type : "",
	};
	if (c->json)
		sim_advise_report_json(stdout, &r);
	else
		sim_advise_report_table(stdout, &r);
	sim_advise_free(&a);
	return 0;
}

int cmd_advise(int argc, char **argv)
{
	advise_cli_t c = { 0 };
	slurmconf_t conf;
	trace_t t = { 0 };
	char err[1024];

	sim_advise_opts_defaults(&c.o);
	if (parse_args(&c, argc, argv))
		return 2;
	if (c.conf_path && slurmconf_read(c.conf_path, &conf, err,
					  sizeof(err))) {
		fprintf(stderr, "dfrs advise: %s\n", err);
		return 1;
	}
	trace_read_opts_t ropts = { .strict = c.strict, .diag = stderr,
				    .max_diag = 20 };
	if (trace_read(c.history, &ropts, &t, err, sizeof(err))) {
		fprintf(stderr, "dfrs advise: %s\n", err);
		trace_free(&t);
		return 1;
	}
	int rc = advise(&c, c.conf_path ? &conf : NULL, &t);
	trace_free(&t);
	return rc;
}
