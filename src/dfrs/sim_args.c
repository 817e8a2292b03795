/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_args.c - dfrs sim's shared command-line values (sim_args.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "sim_args.h"

int sim_arg_seed(const char *s, uint64_t *out)
{
	double v;
	if (cli_number("dfrs sim", "--seed", s, &v))
		return -1;
	if (v != floor(v) || v > 1.8e19) {
		fprintf(stderr, "dfrs sim: --seed: '%s' must be a whole number\n", s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int sim_arg_format(const char *s, sim_format_t *out)
{
	if (!strcmp(s, "table"))
		*out = SIM_FORMAT_TABLE;
	else if (!strcmp(s, "json"))
		*out = SIM_FORMAT_JSON;
	else if (!strcmp(s, "csv"))
		*out = SIM_FORMAT_CSV;
	else {
		fprintf(stderr, "dfrs sim: --format: '%s' is not table, json or csv\n", s);
		return -1;
	}
	return 0;
}

int sim_arg_policy(const char *name, sim_policy_t *out)
{
	const char *near;

	if (!sim_policy_find(name, out))
		return 0;
	near = sim_policy_suggest(name);
	if (near)
		fprintf(stderr, "dfrs sim: --policy: unknown policy '%s' (did "
			"you mean %s?)\n", name, near);
	else
		fprintf(stderr, "dfrs sim: --policy: unknown policy '%s' (dfrs "
			"sim --help lists them)\n", name);
	return -1;
}

int sim_arg_cpu_need(const char *value, double *out)
{
	double v;

	if (cli_number("dfrs sim", "dfrs_cpu_need", value, &v))
		return -1;
	/* dfrs_params.c's range for dfrs_cpu_need */
	if (!(v >= 0.01 && v <= 1)) {
		fprintf(stderr, "dfrs sim: parameter dfrs_cpu_need=%s is out of "
			"range 0.01..1\n", value);
		return -1;
	}
	*out = v;
	return 0;
}

void sim_warn_history(FILE *out, const trace_t *t)
{
	if (t->array_jobs)
		fprintf(out, "dfrs sim: warning: %s: %zu jobs are tasks of job "
			"arrays (JobID 123_4), each replayed as a job of its own "
			"(sched/amcbf schedules an array's tasks once Slurm has "
			"split them)\n", t->source, t->array_jobs);
	if (t->het_jobs)
		fprintf(out, "dfrs sim: warning: %s: %zu jobs are components of "
			"heterogeneous jobs (JobID 123+0), each replayed as a job "
			"of its own: sched/amcbf does not start heterogeneous "
			"jobs\n", t->source, t->het_jobs);
}

void sim_warn_machine(FILE *out, const trace_t *t,
		      const sim_workload_opts_t *o, const sim_workload_t *w)
{
	if (o->nodes > 0 || t->header_max_procs > 0 || t->header_max_nodes > 0)
		return;
	fprintf(out, "dfrs sim: warning: %s: machine size guessed from the "
		"largest job: %d units of %d processor%s (no --nodes, no "
		"MaxProcs/MaxNodes header); give --nodes with the site's node "
		"count and --procs-per-node with its CPUs per node\n",
		t->source, w->nodes, o->procs_per_node,
		o->procs_per_node == 1 ? "" : "s");
}

int sim_cpu_note(const sim_workload_opts_t *o, const sim_workload_t *w,
		 char *buf, size_t len)
{
	size_t traced = (size_t)w->cpu_from_trace;
	size_t others = w->njobs - traced;

	if (o->cpu_usage > 0) {
		snprintf(buf, len, "every process at %g (--cpu-usage)",
			 o->cpu_usage);
		return 0;
	}
	if (!others) {
		snprintf(buf, len, "the trace's, for every job");
		return 0;
	}
	if (o->default_cpu_need > 0) {
		snprintf(buf, len, "the trace's for %zu jobs, dfrs_cpu_need=%g "
			 "(what sched/amcbf assumes) for %zu", traced,
			 o->default_cpu_need, others);
		return 0;
	}
	char whose[64];
	if (traced)
		snprintf(whose, sizeof(whose), "the trace's for %zu jobs, ",
			 traced);
	else
		whose[0] = '\0';
	snprintf(buf, len, "%sLiu et al.'s model (1 process 100 %%, more "
		 "40..100 %%) for %s%zu%s: a model, NOT this site's usage (a "
		 "sacct export with TotalCPU gives it); deployed, sched/amcbf "
		 "decides on the CPU needs dfrs-nodeagent measures: --need "
		 "measured models it", whose, traced ? "" : "all ", others,
		 traced ? "" : " (the trace has none)");
	return 1;
}
