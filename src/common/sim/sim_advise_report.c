/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_advise_report.c - dfrs advise's text page and JSON
 * (sim_advise_report.h).  Bounded slowdown as Liu et al. 2013 section 5.2
 * (Gamma = 10 s); the baseline of the verdict is conservative backfilling,
 * the model of Slurm's sched/backfill; EASY, EASY++ and SJF-ordered
 * backfilling are beside it, and the deployed mode is compared with the
 * best of the four too.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sim_advise_report.h"
#include "sim_need.h"
#include "sim_quantile.h"
#include "suite/dfrs_params_check.h"

static const char *const policy_label[SIM_ADVISE_POLICIES] = {
	"conservative", "easy", "easy++", "sjf-backfill",
	NULL,	/* the deployed mode's name */
};

/* A group's deployed p95 bounded slowdown this far over conservative's,
 * with this many jobs, is named under the verdict. */
#define WORSE_P95 1.25
#define WORSE_MIN_JOBS 20

static const char *label(const sim_advise_report_t *r, int p)
{
	return p == SIM_ADVISE_DEPLOYED ? r->policy : policy_label[p];
}

static const char *partition_name(const sim_advise_report_t *r, int part)
{
	if (part <= 0)
		return "all";
	if ((size_t)part <= r->trace->npartition_names &&
	    r->trace->partition_names[part - 1])
		return r->trace->partition_names[part - 1];
	return "?";
}

static const char *size_name(int cls)
{
	return cls < 0 ? "all" : sim_size_class_names[cls];
}

/* The item (n bytes, spaces around it trimmed) is key, or key=value when
 * with_value; case ignored, as Slurm and sched/amcbf read keys. */
static int is_item(const char *item, size_t n, const char *key,
		   int with_value)
{
	size_t k = strlen(key);

	if (n < k || strncasecmp(item, key, k))
		return 0;
	return with_value ? n > k && item[k] == '=' : n == k;
}

/* Append text (n bytes) and a ',' to buf: 0, or -1 when it is full. */
static int append(char *buf, size_t len, size_t *used, const char *text,
		  size_t n)
{
	if (*used + n + 2 > len)
		return -1;
	memcpy(buf + *used, text, n);
	*used += n;
	buf[(*used)++] = ',';
	buf[*used] = '\0';
	return 0;
}

int sim_advise_recommend(const char *params, double util, double rate,
			 char *buf, size_t len)
{
	size_t used = 0;
	const char *p = params ? params : "";

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (append(buf, len, &used, SIM_ADVISE_OWN_STARTS,
		   strlen(SIM_ADVISE_OWN_STARTS)))
		return -1;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *item = p;

		p += n + (end ? 1 : 0);
		while (n && isspace((unsigned char)*item))
			item++, n--;
		while (n && isspace((unsigned char)item[n - 1]))
			n--;
		if (!n || is_item(item, n, "defer", 0) ||
		    is_item(item, n, "sched_interval", 1) ||
		    is_item(item, n, "amcbf_util_threshold", 1) ||
		    is_item(item, n, "amcbf_bg_min_rate", 1))
			continue;
		if (append(buf, len, &used, item, n))
			return -1;
	}
	int w = snprintf(buf + used, len - used, "amcbf_util_threshold=%g,"
			 "amcbf_bg_min_rate=%g", util, rate);
	return w < 0 || (size_t)w >= len - used ? -1 : 0;
}

int sim_advise_recommended(const sim_advise_report_t *r, char *buf,
			   size_t len)
{
	const sim_advise_t *a = r->a;
	double util = a->nsweep ? a->sweep[a->best].util_threshold
				: r->util_threshold;
	double rate = a->nsweep ? a->sweep[a->best].bg_min_rate
				: r->bg_min_rate;

	return sim_advise_recommend(r->params, util, rate, buf, len);
}

static void recommended(const sim_advise_report_t *r, char *buf, size_t len)
{
	if (sim_advise_recommended(r, buf, len))
		snprintf(buf, len, "(too long to print)");
}

static void header(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	const trace_t *t = r->trace;

	fprintf(out, "dfrs advise: %s (%s), %zu jobs replayed", r->history,
		trace_format_name(t->format), a->jobs);
	if (t->skipped_jobs || t->bad_lines)
		fprintf(out, " (%zu skipped, %zu malformed lines)",
			t->skipped_jobs, t->bad_lines);
	if (!r->cpu_granularity) {
		fprintf(out, "\nmachine: %d nodes of %d CPUs, jobs take whole "
			"nodes (from %s)\n", a->nodes, r->procs_per_node,
			r->nodes_from);
	} else {
		fprintf(out, "\nmachine: %d nodes of %d CPUs", a->nodes,
			r->procs_per_node);
		if (r->node_mem_mb > 0)
			fprintf(out, ", %ld MB", r->node_mem_mb);
		if (r->node_gpus > 0)
			fprintf(out, ", %d GPUs", r->node_gpus);
		fprintf(out, " (from %s)\n  jobs take the CPUs, memory and "
			"GPUs their AllocTRES says, as select/cons_tres "
			"allocates them\n", r->nodes_from);
		if (a->clamped)
			fprintf(out, "  (%zu jobs held more memory or GPUs on "
				"a node than a node has: cut to a node's)\n",
				a->clamped);
	}
	fprintf(out, "deployed (from %s): policy %s, "
		"amcbf_util_threshold=%g, amcbf_bg_min_rate=%g\n",
		r->params_from, r->policy, r->util_threshold, r->bg_min_rate);
	fprintf(out, "CPU use: %zu of %zu jobs from the history's TotalCPU, "
		"the others dfrs_cpu_need=%g%s\n", a->cpu_from_trace, a->jobs,
		r->cpu_default, r->cpu_default >= 1 ? "\n  (a whole CPU each: "
		"no idle CPU for the background tier)" : "");
	if (t->npartition_names > 1)
		fprintf(out, "partitions: %zu in the history, reported apart but "
			"not modelled as node sets (any job may use any node)\n",
			t->npartition_names);
	fprintf(out, "today: conservative backfilling, the model of Slurm's "
		"sched/backfill (a reservation for every job,\n  requested "
		"time limits); EASY, EASY++ and SJF-backfill beside it\n\n");
}

/* The deployed policy under the three CPU-need sources (sim_need.h). */
static void need_rows(FILE *out, const sim_advise_report_t *r)
{
	static const char *what[] = {
		"every job declares its exact need (dfrs:need)",
		"dfrs-nodeagent measures, history predicts",
		"nothing declared or measured: dfrs_cpu_need",
	};
	const sim_advise_t *a = r->a;

	fprintf(out, "  CPU needs sched/amcbf sees, %s mean bounded slowdown "
		"/ conservative (the verdict's row *):\n", r->policy);
	for (int src = 0; src <= SIM_NEED_NONE; src++)
		fprintf(out, "   %c %-9s %.2f (%.2f..%.2f)  %s\n",
			src == a->need_source ? '*' : ' ', sim_need_name(src),
			a->need_bsld[src] / (a->loads[0].bsld_mean[0] > 0
					     ? a->loads[0].bsld_mean[0] : 1),
			a->need_ratio_lo[src], a->need_ratio_hi[src],
			what[src]);
	if (a->need_source == SIM_NEED_MEASURED)
		fprintf(out, "  (measured: what the deployment gets with "
			"dfrs-nodeagent on every node; without it, none)\n");
}

/* SIM_ADVISE_ALT_POLICY beside the deployed mode, and whether advise
 * recommends it instead (sim_advise_alt_wins). */
static void alternative_line(FILE *out, const sim_advise_t *a)
{
	const sim_advise_load_t *L = &a->loads[0];
	double bsld = L->bsld_mean[SIM_ADVISE_DEPLOYED];
	double easy = L->response_mean[SIM_ADVISE_EASY];
	double rb = bsld > 0 ? a->alt_bsld / bsld : 1;
	double rr = easy > 0 ? a->alt_response / easy : 1;

	if (!a->alt_run)
		return;
	fprintf(out, "  %s: mean bounded slowdown %.2f x the deployed "
		"mode's, mean response %.2f x EASY's:\n    %s%s\n",
		SIM_ADVISE_ALT_POLICY, rb, rr,
		a->alt_wins ? "RECOMMENDED instead (it wins on both): " :
		rb >= SIM_ADVISE_ALT_MARGIN ? "not recommended (slowdown not "
		"10 % lower)" : "not recommended (its mean response is over "
		"EASY's)", a->alt_wins ? SIM_ADVISE_ALT_PARAMS : "");
}


/* The deployed mode against the best baseline at the first load
 * (sim_advise_best_baseline). */
static void best_baseline_line(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_load_t *L = &r->a->loads[0];
	int b = sim_advise_best_baseline(L);
	double bsld = L->bsld_mean[b], resp = L->response_mean[b];

	fprintf(out, "  against the best baseline, %s (the lowest mean bounded "
		"slowdown of the four): %s / %s:\n    mean bounded slowdown "
		"%.2f (%.2f..%.2f across seeds), mean response %.2f\n",
		label(r, b), r->policy, label(r, b),
		L->bsld_mean[SIM_ADVISE_DEPLOYED] / (bsld > 0 ? bsld : 1),
		L->ratio_lo[b], L->ratio_hi[b],
		L->response_mean[SIM_ADVISE_DEPLOYED] / (resp > 0 ? resp : 1));
}

static void verdict(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	const sim_advise_load_t *L = &a->loads[0];

	char why[256];

	fprintf(out, "VERDICT (load x%g, %u seeds): %s\n", L->load, a->nseeds,
		sim_advise_verdict_name(a->verdict));
	if (sim_advise_excluded_line(a, r->policy, why, sizeof(why)))
		fprintf(out, "  %s\n", why);
	fprintf(out, "  mean bounded slowdown, %s / conservative: %.2f "
		"(%.2f..%.2f across seeds); / easy: %.2f (%.2f..%.2f)\n",
		r->policy, L->bsld_mean[SIM_ADVISE_DEPLOYED] /
		(L->bsld_mean[0] > 0 ? L->bsld_mean[0] : 1), L->ratio_lo[0],
		L->ratio_hi[0], L->bsld_mean[SIM_ADVISE_DEPLOYED] /
		(L->bsld_mean[1] > 0 ? L->bsld_mean[1] : 1), L->ratio_lo[1],
		L->ratio_hi[1]);
	fprintf(out, "  mean wait, %s / conservative: %.2f..%.2f; / easy: "
		"%.2f..%.2f\n", r->policy, L->wait_ratio_lo[0],
		L->wait_ratio_hi[0], L->wait_ratio_lo[1], L->wait_ratio_hi[1]);
	best_baseline_line(out, r);
	need_rows(out, r);
	for (size_t l = 1; l < a->nloads; l++)
		fprintf(out, "  if the load grows x%g: %s (mean bounded slowdown "
			"/ conservative %.2f..%.2f)\n", a->loads[l].load,
			sim_advise_verdict_name(sim_advise_verdict(
				a->loads[l].ratio_lo[0], a->loads[l].ratio_hi[0])),
			a->loads[l].ratio_lo[0], a->loads[l].ratio_hi[0]);
	fprintf(out, "  (deploy: every seed under %.2f; do not deploy: every "
		"seed over %.2f; otherwise no clear difference)\n",
		SIM_ADVISE_BETTER, SIM_ADVISE_WORSE);
	alternative_line(out, a);
	for (size_t i = 0; i < a->ngroups; i++) {
		const sim_advise_group_t *g = &a->groups[i];
		const sim_advise_cell_t *c = &g->cell[0];
		const sim_advise_cell_t *d = &g->cell[SIM_ADVISE_DEPLOYED];
		if (g->size_class < 0 || c->jobs < WORSE_MIN_JOBS ||
		    !(d->bsld_p95 > WORSE_P95 * c->bsld_p95))
			continue;
		fprintf(out, "  worse for %s%s, size %s (%zu jobs): "
			"p95 bounded slowdown %.2f vs %.2f under conservative\n",
			g->partition ? "partition " : "",
			g->partition ? partition_name(r, g->partition)
				     : "all partitions", size_name(g->size_class),
			c->jobs, d->bsld_p95, c->bsld_p95);
	}
	fprintf(out, "\n");
}

static void loads_table(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	char w[32];

	fprintf(out, "By load (arrivals closer by the factor; mean over %u "
		"seeds; ratio range across seeds)\n", a->nseeds);
	fprintf(out, "%-6s %-13s %12s %10s %10s %16s %16s %16s\n", "load",
		"policy", "mean wait", "mean bsld", "max bsld",
		"bsld/conserv.", "bsld/easy", "bsld/best");
	for (size_t l = 0; l < a->nloads; l++) {
		const sim_advise_load_t *L = &a->loads[l];
		for (int p = 0; p < SIM_ADVISE_POLICIES; p++) {
			char load[16] = "", r0[32] = "", r1[32] = "";
			char rb[48] = "";
			if (p == 0)
				snprintf(load, sizeof(load), "x%g", L->load);
			if (p == SIM_ADVISE_DEPLOYED) {
				snprintf(r0, sizeof(r0), "%.2f..%.2f",
					 L->ratio_lo[0], L->ratio_hi[0]);
				snprintf(r1, sizeof(r1), "%.2f..%.2f",
					 L->ratio_lo[1], L->ratio_hi[1]);
				int b = sim_advise_best_baseline(L);
				snprintf(rb, sizeof(rb), "%.2f..%.2f",
					 L->ratio_lo[b], L->ratio_hi[b]);
			}
			sim_quantile_duration(L->wait_mean[p], w, sizeof(w));
			fprintf(out, "%-6s %-13s %12s %10.2f %10.1f", load,
				label(r, p), w, L->bsld_mean[p], L->bsld_max[p]);
			if (p == SIM_ADVISE_DEPLOYED)
				fprintf(out, " %16s %16s %16s", r0, r1, rb);
			fprintf(out, "\n");
		}
	}
	fprintf(out, "\n");
}

static void groups_table(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;

	fprintf(out, "By partition and job size in %s (load x%g, seed 1; "
		"wait [D-]HH:MM:SS; bsld: bounded slowdown, Gamma = 10 s)\n",
		r->cpu_granularity ? "CPUs" : "nodes", a->loads[0].load);
	fprintf(out, "%-12s %-6s %-13s %7s %12s %12s %12s %9s %9s %9s\n",
		"partition", "size", "policy", "jobs", "wait p50", "wait p95",
		"wait mean", "bsld p50", "bsld p95", "bsld mean");
	for (size_t i = 0; i < a->ngroups; i++) {
		const sim_advise_group_t *g = &a->groups[i];
		for (int p = 0; p < SIM_ADVISE_POLICIES; p++) {
			const sim_advise_cell_t *c = &g->cell[p];
			char w50[32], w95[32], wm[32];
			sim_quantile_duration(c->wait_p50, w50, sizeof(w50));
			sim_quantile_duration(c->wait_p95, w95, sizeof(w95));
			sim_quantile_duration(c->wait_mean, wm, sizeof(wm));
			fprintf(out, "%-12.12s %-6s %-13s %7zu %12s %12s %12s "
				"%9.2f %9.2f %9.2f\n", p ? "" :
				partition_name(r, g->partition),
				p ? "" : size_name(g->size_class), label(r, p),
				c->jobs, w50, w95, wm, c->bsld_p50, c->bsld_p95,
				c->bsld_mean);
		}
	}
	fprintf(out, "\n");
}

/* What the recommended line changed in the one given, and anything
 * dfrs params --check still says of it. */
static void line_notes(FILE *out, const sim_advise_report_t *r,
		       const char *line)
{
	dfrs_check_t chk;

	if (!dfrs_params_owns_starts(r->params))
		fprintf(out, "  (%s added: without both, slurmctld's main "
			"scheduler starts jobs and sched/amcbf\n  stays "
			"passive%s)\n", SIM_ADVISE_OWN_STARTS,
			r->params && *r->params ? "; the other items of the "
			"deployed line are kept" : "");
	dfrs_params_check(line, &chk);
	for (size_t i = 0; i < chk.n; i++)
		fprintf(out, "  dfrs params --check: %s:\n    %s\n",
			chk.notes[i].level == DFRS_CHECK_ERROR ? "error"
			: "warning", chk.notes[i].text);
}

static void sweep_table(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	char line[1200];

	recommended(r, line, sizeof(line));
	fprintf(out, "Recommended slurm.conf lines%s:\n  SchedulerType="
		"sched/amcbf\n  SchedulerParameters=%s\n",
		a->verdict == SIM_ADVISE_DO_NOT_DEPLOY ? " (if you deploy "
		"despite the verdict)" : "", line);
	line_notes(out, r, line);
	if (!a->nsweep) {
		fprintf(out, "\n");
		return;
	}
	fprintf(out, "from a sweep of %s at load x%g, mean over %u seeds "
		"(the first row is as deployed; another wins only 1 %% "
		"better):\n", r->policy, a->loads[0].load, a->nseeds);
	fprintf(out, "  %-22s %-19s %10s\n", "amcbf_util_threshold",
		"amcbf_bg_min_rate", "mean bsld");
	for (size_t i = 0; i < a->nsweep; i++)
		fprintf(out, "  %-22g %-19g %10.2f%s\n",
			a->sweep[i].util_threshold, a->sweep[i].bg_min_rate,
			a->sweep[i].bsld_mean,
			a->sweep[i].excluded ? "  excluded: mean response "
			"over the bound" : i == a->best ? "  <-" : "");
	fprintf(out, "\n");
}

/* Job arrays are none: sched/amcbf starts an array's tasks as it starts
 * single jobs (Slurm splits each off the array's pending record). */
void sim_advise_report_blockers(FILE *out, const sim_advise_report_t *r)
{
	const trace_t *t = r->trace;
	int found = 0;

	fprintf(out, "Blockers found in the history and slurm.conf:\n");
	if (t->het_components && ++found)
		fprintf(out, "  %zu parts of heterogeneous jobs (JobID 7+1): "
			"sched/amcbf never starts them;\n    they stay pending "
			"(one log line)\n", t->het_components);
	if (t->gres_jobs && ++found && r->cpu_granularity && r->node_gpus > 0)
		fprintf(out, "  %zu jobs with GRES: their gres/gpu replayed on "
			"the nodes' GPUs (Gres=gpu:N), other GRES not "
			"modelled\n", t->gres_jobs);
	else if (t->gres_jobs)
		fprintf(out, "  %zu jobs with GRES: not modelled, replayed as "
			"CPU-only jobs\n", t->gres_jobs);
	if (t->reservation_jobs && ++found)
		fprintf(out, "  %zu jobs in reservations: not modelled, "
			"replayed on the whole machine\n", t->reservation_jobs);
	/* amcbf_priority=priority (the default) orders by Slurm's job
	 * priority, multifactor's included */
	if (r->stretch_priority && r->priority_type &&
	    !strcmp(r->priority_type, "priority/multifactor") && ++found)
		fprintf(out, "  PriorityType=priority/multifactor: the deployed "
			"mode orders the queue by DFRS stretch and\n    "
			"overwrites pending jobs' priority (amcbf_mode=dfrs or "
			"amcbf_priority=stretch):\n    fairshare, QOS and age "
			"no longer order it\n");
	if (!found)
		fprintf(out, "  none of: heterogeneous jobs, GRES, "
			"reservations, priority/multifactor\n  under a "
			"stretch order (the sacct columns JobID, AllocTRES, "
			"Reservation; slurm.conf's PriorityType)\n");
}

void sim_advise_report_table(FILE *out, const sim_advise_report_t *r)
{
	header(out, r);
	verdict(out, r);
	loads_table(out, r);
	groups_table(out, r);
	sweep_table(out, r);
	sim_advise_report_blockers(out, r);
}

static json_object *cell_json(const sim_advise_cell_t *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "jobs", json_object_new_int64((int64_t)c->jobs));
	json_object_object_add(o, "wait_p50", json_object_new_double(c->wait_p50));
	json_object_object_add(o, "wait_p95", json_object_new_double(c->wait_p95));
	json_object_object_add(o, "wait_mean", json_object_new_double(c->wait_mean));
	json_object_object_add(o, "bsld_p50", json_object_new_double(c->bsld_p50));
	json_object_object_add(o, "bsld_p95", json_object_new_double(c->bsld_p95));
	json_object_object_add(o, "bsld_mean", json_object_new_double(c->bsld_mean));
	return o;
}

static json_object *range_json(double lo, double hi)
{
	json_object *o = json_object_new_array();

	json_object_array_add(o, json_object_new_double(lo));
	json_object_array_add(o, json_object_new_double(hi));
	return o;
}

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v ? v : ""));
}

static json_object *loads_json(const sim_advise_report_t *r)
{
	json_object *arr = json_object_new_array();

	for (size_t l = 0; l < r->a->nloads; l++) {
		const sim_advise_load_t *L = &r->a->loads[l];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "load", json_object_new_double(L->load));
		for (int p = 0; p < SIM_ADVISE_POLICIES; p++) {
			json_object *q = json_object_new_object();
			json_object_object_add(q, "mean_wait",
				json_object_new_double(L->wait_mean[p]));
			json_object_object_add(q, "mean_bsld",
				json_object_new_double(L->bsld_mean[p]));
			json_object_object_add(q, "max_bsld",
				json_object_new_double(L->bsld_max[p]));
			json_object_object_add(o, label(r, p), q);
		}
		json_object_object_add(o, "bsld_ratio_conservative",
			range_json(L->ratio_lo[0], L->ratio_hi[0]));
		json_object_object_add(o, "bsld_ratio_easy",
			range_json(L->ratio_lo[1], L->ratio_hi[1]));
		json_object_object_add(o, "wait_ratio_conservative",
			range_json(L->wait_ratio_lo[0], L->wait_ratio_hi[0]));
		json_object_object_add(o, "wait_ratio_easy",
			range_json(L->wait_ratio_lo[1], L->wait_ratio_hi[1]));
		int b = sim_advise_best_baseline(L);
		add_str(o, "best_baseline", label(r, b));
		json_object_object_add(o, "bsld_ratio_best",
			range_json(L->ratio_lo[b], L->ratio_hi[b]));
		json_object_object_add(o, "wait_ratio_best",
			range_json(L->wait_ratio_lo[b], L->wait_ratio_hi[b]));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *groups_json(const sim_advise_report_t *r)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < r->a->ngroups; i++) {
		const sim_advise_group_t *g = &r->a->groups[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "partition", json_object_new_string(
			partition_name(r, g->partition)));
		json_object_object_add(o, "size", json_object_new_string(
			size_name(g->size_class)));
		for (int p = 0; p < SIM_ADVISE_POLICIES; p++)
			json_object_object_add(o, label(r, p),
					       cell_json(&g->cell[p]));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *sweep_json(const sim_advise_report_t *r)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < r->a->nsweep; i++) {
		const sim_advise_sweep_t *s = &r->a->sweep[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "amcbf_util_threshold",
				       json_object_new_double(s->util_threshold));
		json_object_object_add(o, "amcbf_bg_min_rate",
				       json_object_new_double(s->bg_min_rate));
		json_object_object_add(o, "mean_bsld",
				       json_object_new_double(s->bsld_mean));
		json_object_object_add(o, "best", json_object_new_boolean(
			i == r->a->best));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *blockers_json(const sim_advise_report_t *r)
{
	const trace_t *t = r->trace;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "het_components",
			       json_object_new_int64((int64_t)t->het_components));
	json_object_object_add(o, "gres_jobs",
			       json_object_new_int64((int64_t)t->gres_jobs));
	json_object_object_add(o, "reservation_jobs",
			       json_object_new_int64((int64_t)t->reservation_jobs));
	/* a blocker only under a stretch order, as in the table */
	json_object_object_add(o, "priority_multifactor",
		json_object_new_boolean(r->stretch_priority &&
			r->priority_type &&
			!strcmp(r->priority_type, "priority/multifactor")));
	return o;
}

/* {"declared": {"bsld_mean": .., "vs_conservative": [lo, hi]}, ...} */
static json_object *need_json(const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	json_object *o = json_object_new_object();

	for (int src = 0; src <= SIM_NEED_NONE; src++) {
		json_object *row = json_object_new_object();
		json_object_object_add(row, "bsld_mean",
				       json_object_new_double(a->need_bsld[src]));
		json_object_object_add(row, "vs_conservative",
				       range_json(a->need_ratio_lo[src],
						  a->need_ratio_hi[src]));
		json_object_object_add(o, sim_need_name(src), row);
	}
	return o;
}

void sim_advise_report_json(FILE *out, const sim_advise_report_t *r)
{
	const sim_advise_t *a = r->a;
	json_object *root = json_object_new_object();
	char line[1200];

	recommended(r, line, sizeof(line));
	add_str(root, "history", r->history);
	add_str(root, "format", trace_format_name(r->trace->format));
	json_object_object_add(root, "jobs", json_object_new_int64((int64_t)a->jobs));
	json_object_object_add(root, "nodes", json_object_new_int(a->nodes));
	json_object_object_add(root, "cpus_per_node",
			       json_object_new_int(r->procs_per_node));
	json_object_object_add(root, "cpu_granularity",
			       json_object_new_boolean(r->cpu_granularity));
	add_str(root, "nodes_from", r->nodes_from);
	add_str(root, "policy", r->policy);
	add_str(root, "params_from", r->params_from);
	json_object_object_add(root, "cpu_default",
			       json_object_new_double(r->cpu_default));
	json_object_object_add(root, "cpu_from_trace",
			       json_object_new_int64((int64_t)a->cpu_from_trace));
	json_object_object_add(root, "seeds", json_object_new_int((int)a->nseeds));
	json_object_object_add(root, "replays", json_object_new_int64((int64_t)a->runs));
	add_str(root, "baseline", "conservative");
	add_str(root, "verdict", sim_advise_verdict_name(a->verdict));
	json_object_object_add(root, "max_response",
			       json_object_new_double(a->max_response));
	json_object_object_add(root, "response_ratio_easy",
			       json_object_new_double(a->response_ratio));
	json_object_object_add(root, "excluded",
			       json_object_new_boolean(a->excluded));
	add_str(root, "cpu_needs", sim_need_name(a->need_source));
	json_object_object_add(root, "cpu_need_rows", need_json(r));
	json_object_object_add(root, "loads", loads_json(r));
	json_object_object_add(root, "groups", groups_json(r));
	json_object_object_add(root, "sweep", sweep_json(r));
	add_str(root, "recommended_scheduler_parameters", line);
	if (a->alt_run) {
		json_object *alt = json_object_new_object();

		add_str(alt, "policy", SIM_ADVISE_ALT_POLICY);
		add_str(alt, "scheduler_parameters", SIM_ADVISE_ALT_PARAMS);
		json_object_object_add(alt, "mean_bsld",
				       json_object_new_double(a->alt_bsld));
		json_object_object_add(alt, "mean_response",
				       json_object_new_double(a->alt_response));
		json_object_object_add(alt, "recommended",
				       json_object_new_boolean(a->alt_wins));
		json_object_object_add(root, "alternative", alt);
	}
	json_object_object_add(root, "blockers", blockers_json(r));
	fprintf(out, "%s\n", json_object_to_json_string_ext(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}
