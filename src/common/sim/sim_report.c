/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_report.c - dfrs sim's three output formats (sim_report.h).  The JSON
 * keys are a contract (doc/simulator.md): trace, jobs, skipped, nodes, results[]
 * with policy, dfrs_model (online DFRS rows), mean_response, mean_wait, mean_bsld, max_bsld, mean_stretch,
 * max_stretch, utilization, migrations_per_job, preemptions_per_job,
 * lost_work_per_job,
 * makespan, wall_seconds, events_per_second, bg_time_share, head_in_bg,
 * drift_entries, drift_share, max_lost_work,
 * classes[] (size, runtime, jobs, mean_bsld, max_bsld, bsld_share, mean_wait,
 * mean_response, bg_fraction), and consolidation_potential at the top.
 */
#include <json-c/json.h>
#include <stddef.h>
#include <string.h>

#include "sim_report.h"

typedef struct {
	const char *key;
	size_t offset;
	const char *format;	/* table cell */
	int lower_is_better;
} metric_column_t;

#define COL(field, fmt, lower) \
	{ #field, offsetof(sim_metrics_t, field), fmt, lower }

static const metric_column_t columns[] = {
	COL(mean_response, "%.0f", 1),
	COL(mean_wait, "%.0f", 1),
	COL(mean_bsld, "%.2f", 1),
	COL(max_bsld, "%.1f", 1),
	COL(mean_stretch, "%.2f", 1),
	COL(max_stretch, "%.1f", 1),
	COL(utilization, "%.4f", 0),
	COL(migrations_per_job, "%.3f", 1),
	COL(preemptions_per_job, "%.3f", 1),
	COL(lost_work_per_job, "%.1f", 1),
	COL(makespan, "%.0f", 1),
	COL(wall_seconds, "%.2f", 1),
	COL(events_per_second, "%.0f", 0),
	COL(bg_time_share, "%.3f", 1),
	COL(head_in_bg, "%.3f", 1),
	COL(drift_entries, "%.0f", 1),
	COL(drift_share, "%.3f", 1),
	COL(max_lost_work, "%.0f", 1),
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static double value(const sim_metrics_t *m, const metric_column_t *c)
{
	return *(const double *)((const char *)m + c->offset);
}

static const char *estimates_note(const sim_report_t *r)
{
	if (r->estimates)
		return r->estimates;
	return r->estimates_exact
		? "exact runtimes (the trace has no requested times)"
		: "the trace's requested times";
}

/* In a sweep, the row of this policy with the lowest mean bounded
 * slowdown (the first such setting on ties), or NULL without a sweep. */
static const sim_report_row_t *best_row(const sim_report_t *r,
					const char *policy)
{
	const sim_report_row_t *best = NULL;

	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *row = &r->rows[i];
		if (!row->param_key || strcmp(row->policy, policy))
			continue;
		if (!best || row->m.mean_bsld < best->m.mean_bsld)
			best = row;
	}
	return best;
}

/* The simulated row that predicts a live row, or NULL. */
static const sim_report_row_t *predicted_row(const sim_report_t *r,
					     const sim_report_row_t *row)
{
	if (!row->predicted)
		return NULL;
	for (size_t i = 0; i < r->nrows; i++)
		if (!r->rows[i].predicted &&
		    !strcmp(r->rows[i].policy, row->predicted))
			return &r->rows[i];
	return NULL;
}

/* The metrics a live run is compared with its prediction on. */
static const char *const fidelity_keys[] = {
	"mean_response", "mean_wait", "mean_bsld", "max_bsld", "utilization",
	"makespan",
};
#define NFIDELITY (sizeof(fidelity_keys) / sizeof(fidelity_keys[0]))

static const metric_column_t *column(const char *key)
{
	for (size_t c = 0; c < NCOLUMNS; c++)
		if (!strcmp(columns[c].key, key))
			return &columns[c];
	return NULL;
}

static double ratio(const sim_report_row_t *a, const sim_report_row_t *b,
		    const metric_column_t *c)
{
	double base = value(&b->m, c);

	return base != 0 ? value(&a->m, c) / base : 0;
}

static void fidelity_json(json_object *root, const sim_report_t *r)
{
	json_object *arr = NULL;

	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *row = &r->rows[i];
		const sim_report_row_t *p = predicted_row(r, row);

		if (!p)
			continue;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "live",
				       json_object_new_string(row->policy));
		json_object_object_add(o, "predicted",
				       json_object_new_string(p->policy));
		for (size_t k = 0; k < NFIDELITY; k++) {
			char key[64];

			snprintf(key, sizeof(key), "%s_ratio", fidelity_keys[k]);
			json_object_object_add(o, key, json_object_new_double(
				ratio(row, p, column(fidelity_keys[k]))));
		}
		if (!arr)
			arr = json_object_new_array();
		json_object_array_add(arr, o);
	}
	if (arr)
		json_object_object_add(root, "fidelity", arr);
}

static void fidelity_table(FILE *out, const sim_report_t *r)
{
	int first = 1;

	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *row = &r->rows[i];
		const sim_report_row_t *p = predicted_row(r, row);

		if (!p)
			continue;
		if (first)
			fprintf(out, "\nlive / predicted (ratio, %% off):\n");
		first = 0;
		fprintf(out, "%s / %s:\n", row->policy, p->policy);
		for (size_t k = 0; k < NFIDELITY; k++) {
			double q = ratio(row, p, column(fidelity_keys[k]));

			fprintf(out, "  %-18s %6.3f (%+.1f %%)\n",
				fidelity_keys[k], q, 100 * (q - 1));
		}
	}
}

/* Is this the first row of its policy (each policy once, in order)? */
static int first_of_policy(const sim_report_t *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(r->rows[k].policy, r->rows[i].policy))
			return 0;
	return 1;
}

static json_object *classes_json(const sim_metrics_t *m)
{
	json_object *arr = json_object_new_array();
	for (int c = 0; c < SIM_CLASSES; c++) {
		const sim_class_metrics_t *k = &m->classes[c];
		if (!k->jobs)
			continue;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "size", json_object_new_string(
			sim_size_class_names[c / SIM_RUNTIME_CLASSES]));
		json_object_object_add(o, "runtime", json_object_new_string(
			sim_runtime_class_names[c % SIM_RUNTIME_CLASSES]));
		json_object_object_add(o, "jobs",
				       json_object_new_int64((int64_t)k->jobs));
		json_object_object_add(o, "mean_bsld",
				       json_object_new_double(k->mean_bsld));
		json_object_object_add(o, "max_bsld",
				       json_object_new_double(k->max_bsld));
		json_object_object_add(o, "bsld_share",
				       json_object_new_double(k->bsld_share));
		json_object_object_add(o, "mean_wait",
				       json_object_new_double(k->mean_wait));
		json_object_object_add(o, "mean_response",
				       json_object_new_double(k->mean_response));
		json_object_object_add(o, "bg_fraction",
				       json_object_new_double(k->bg_fraction));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The baselines every policy is also compared with: the backfilling
 * schedulers sites run and papers compare against. */
static const char *const baselines[] = {
	"easy", "easy++", "sjf-backfill", "conservative",
};
#define NBASELINES (sizeof(baselines) / sizeof(baselines[0]))

static int is_baseline(const sim_report_row_t *row)
{
	if (row->predicted)
		return 0;	/* a live run, not a replay */
	for (size_t b = 0; b < NBASELINES; b++)
		if (!strcmp(row->policy, baselines[b]))
			return 1;
	return 0;
}

/* The baseline row with the lowest mean bounded slowdown at the row's
 * parameter setting (the first such on ties); NULL unless at least two
 * baselines were replayed (with one, the ratio to EASY says it all). */
static const sim_report_row_t *best_baseline(const sim_report_t *r,
					     const sim_report_row_t *row)
{
	const sim_report_row_t *best = NULL;
	size_t count = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *b = &r->rows[i];

		if (!is_baseline(b) || (row->param_key &&
					b->param_value != row->param_value))
			continue;
		count++;
		if (!best || b->m.mean_bsld < best->m.mean_bsld)
			best = b;
	}
	return count >= 2 ? best : NULL;
}

/* The metrics compared with the best baseline. */
static const char *const against_keys[] = {
	"mean_bsld", "mean_response", "mean_wait",
};
#define NAGAINST (sizeof(against_keys) / sizeof(against_keys[0]))

static json_object *against_json(const sim_report_row_t *row,
				 const sim_report_row_t *best)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "baseline",
			       json_object_new_string(best->policy));
	for (size_t k = 0; k < NAGAINST; k++) {
		char key[64];

		const metric_column_t *c = column(against_keys[k]);

		snprintf(key, sizeof(key), "%s_ratio", against_keys[k]);
		/* null where the baseline's is 0 (nobody waited) */
		json_object_object_add(o, key, value(&best->m, c) != 0
				       ? json_object_new_double(
						ratio(row, best, c)) : NULL);
	}
	return o;
}

/* Each row's ratios to the best baseline at its setting (best_baseline),
 * when the first row has one; "-" for a row whose setting has none. */
static void against_table(FILE *out, const sim_report_t *r)
{
	if (!r->nrows || !best_baseline(r, &r->rows[0]))
		return;
	fprintf(out, "\nagainst the best baseline (of easy, easy++, "
		"sjf-backfill, conservative: the lowest mean bsld), "
		"value / its:\n");
	fprintf(out, "%-20s", "best baseline");
	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *best = best_baseline(r, &r->rows[i]);

		fprintf(out, " %22s", best ? best->policy : "-");
	}
	fprintf(out, "\n");
	for (size_t k = 0; k < NAGAINST; k++) {
		const metric_column_t *c = column(against_keys[k]);

		fprintf(out, "%-20s", against_keys[k]);
		for (size_t i = 0; i < r->nrows; i++) {
			const sim_report_row_t *best =
				best_baseline(r, &r->rows[i]);
			char cell[32] = "-";	/* none, or its value is 0 */

			if (best && value(&best->m, c) != 0)
				snprintf(cell, sizeof(cell), "%.2f",
					 ratio(&r->rows[i], best, c));
			fprintf(out, " %22s", cell);
		}
		fprintf(out, "\n");
	}
}

void sim_report_json(FILE *out, const sim_report_t *r)
{
	json_object *root = json_object_new_object();
	json_object_object_add(root, "trace", json_object_new_string(r->trace));
	json_object_object_add(root, "jobs",
			       json_object_new_int64((int64_t)r->jobs));
	json_object_object_add(root, "skipped",
			       json_object_new_int64((int64_t)r->skipped));
	json_object_object_add(root, "nodes", json_object_new_int(r->nodes));
	json_object_object_add(root, "load", json_object_new_double(r->load));
	json_object_object_add(root, "seed",
			       json_object_new_int64((int64_t)r->seed));
	json_object_object_add(root, "migration_cost",
			       json_object_new_double(r->migration_cost));
	json_object_object_add(root, "easy_estimates",
			       json_object_new_string(estimates_note(r)));
	json_object_object_add(root, "consolidation_potential",
			       json_object_new_double(r->potential));
	if (r->cpu_usage)
		json_object_object_add(root, "cpu_usage",
				       json_object_new_string(r->cpu_usage));
	json_object *results = json_object_new_array();
	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *row = &r->rows[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "policy",
				       json_object_new_string(row->policy));
		if (row->predicted)
			json_object_object_add(o, "predicted",
				json_object_new_string(row->predicted));
		if (row->dfrs_model)
			json_object_object_add(o, "dfrs_model",
				json_object_new_string(row->dfrs_model));
		if (row->param_key) {
			json_object *p = json_object_new_object();
			json_object_object_add(p, row->param_key,
				json_object_new_double(row->param_value));
			json_object_object_add(o, "param", p);
		}
		for (size_t c = 0; c < NCOLUMNS; c++)
			json_object_object_add(o, columns[c].key,
				json_object_new_double(value(&row->m,
							     &columns[c])));
		json_object_object_add(o, "classes", classes_json(&row->m));
		const sim_report_row_t *best = best_baseline(r, row);
		if (best)
			json_object_object_add(o, "vs_best_baseline",
					       against_json(row, best));
		json_object_array_add(results, o);
	}
	json_object_object_add(root, "results", results);
	fidelity_json(root, r);
	if (r->nrows && r->rows[0].param_key) {
		json_object *best = json_object_new_array();
		for (size_t i = 0; i < r->nrows; i++) {
			const sim_report_row_t *b;
			if (!first_of_policy(r, i) ||
			    !(b = best_row(r, r->rows[i].policy)))
				continue;
			json_object *o = json_object_new_object();
			json_object_object_add(o, "policy",
					       json_object_new_string(b->policy));
			json_object_object_add(o, b->param_key,
					       json_object_new_double(b->param_value));
			json_object_object_add(o, "mean_bsld",
					       json_object_new_double(b->m.mean_bsld));
			json_object_array_add(best, o);
		}
		json_object_object_add(root, "best", best);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* The EASY row to compare a row with: same parameter setting. */
static const sim_report_row_t *easy_row(const sim_report_t *r,
					const sim_report_row_t *row)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].policy, "easy") &&
		    (!row->param_key ||
		     r->rows[i].param_value == row->param_value))
			return &r->rows[i];
	return NULL;
}

/* Per class: mean bsld, its share of the mean, the bg part of its run
 * time; classes without a job are left out. */
static void classes_table(FILE *out, const sim_report_t *r)
{
	fprintf(out, "\nby class (processes x run time): mean bsld, share "
		"of the mean bsld %%, bg %% of its running time\n");
	fprintf(out, "%-14s %6s", "class", "jobs");
	for (size_t i = 0; i < r->nrows; i++)
		fprintf(out, " %22s", r->rows[i].policy);
	fprintf(out, "\n");
	for (int c = 0; r->nrows && c < SIM_CLASSES; c++) {
		char name[32];
		if (!r->rows[0].m.classes[c].jobs)
			continue;
		sim_class_name(c, name, sizeof(name));
		fprintf(out, "%-14s %6zu", name, r->rows[0].m.classes[c].jobs);
		for (size_t i = 0; i < r->nrows; i++) {
			const sim_class_metrics_t *k = &r->rows[i].m.classes[c];
			char cell[64];
			snprintf(cell, sizeof(cell), "%.1f %2.0f%% bg%2.0f%%",
				 k->mean_bsld, 100 * k->bsld_share,
				 100 * k->bg_fraction);
			fprintf(out, " %22s", cell);
		}
		fprintf(out, "\n");
	}
}

/* The row's column head: its policy, and the swept setting. */
static void row_head(const sim_report_row_t *row, char *buf, size_t len)
{
	if (row->param_key)
		snprintf(buf, len, "%s %s=%g", row->policy, row->param_key,
			 row->param_value);
	else
		snprintf(buf, len, "%s", row->policy);
}

/* Which rows model suspensions and moves as requeues (as live) and which
 * as the paper's free migrations: a line for each model some row used. */
static void dfrs_models(FILE *out, const sim_report_t *r)
{
	static const struct {
		const char *name, *meaning;
	} models[] = {
		{ "requeue", "as amcbf_mode=dfrs live, a suspension or a move "
		  "is a requeue and a job that does not checkpoint loses its "
		  "progress (dfrs_requeue=1)" },
		{ "free-migration", "Stillwell et al. 2010's model: progress "
		  "kept, each resume or move costs the migration cost "
		  "(dfrs_requeue=0)" },
	};

	for (size_t k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		const char *sep = "";
		for (size_t i = 0; i < r->nrows; i++) {
			char head[64];
			if (!r->rows[i].dfrs_model ||
			    strcmp(r->rows[i].dfrs_model, models[k].name))
				continue;
			row_head(&r->rows[i], head, sizeof(head));
			fprintf(out, "%s%s", *sep ? sep : "DFRS model of ",
				head);
			sep = ", ";
		}
		if (*sep)
			fprintf(out, ": %s:\n  %s\n", models[k].name,
				models[k].meaning);
	}
}

void sim_report_table(FILE *out, const sim_report_t *r)
{
	fprintf(out, "trace %s: %zu jobs simulated, %zu skipped (%zu larger "
		"than the machine), %zu malformed lines\n", r->trace, r->jobs,
		r->skipped, r->skipped_too_big, r->bad_lines);
	fprintf(out, "%d nodes, load x%g, seed %llu, migration cost %g s; "
		"EASY estimates: %s\n", r->nodes, r->load,
		(unsigned long long)r->seed, r->migration_cost,
		estimates_note(r));
	fprintf(out, "consolidation potential: %.1f %% of the CPU jobs hold "
		"is idle on nodes a bg tier may use\n", 100 * r->potential);
	if (r->cpu_usage)
		fprintf(out, "CPU usage: %s\n", r->cpu_usage);
	dfrs_models(out, r);
	fprintf(out, "(ratio) = value / EASY's; bsld: bounded slowdown, "
		"Gamma = %g s\n\n", SIM_BSLD_BOUND);
	fprintf(out, "%-20s", "metric");
	for (size_t i = 0; i < r->nrows; i++) {
		char head[64];
		row_head(&r->rows[i], head, sizeof(head));
		fprintf(out, " %22s", head);
	}
	fprintf(out, "\n");
	for (size_t c = 0; c < NCOLUMNS; c++) {
		fprintf(out, "%-20s", columns[c].key);
		for (size_t i = 0; i < r->nrows; i++) {
			const sim_report_row_t *row = &r->rows[i];
			const sim_report_row_t *easy = easy_row(r, row);
			char cell[64], num[32];
			double v = value(&row->m, &columns[c]);
			snprintf(num, sizeof(num), columns[c].format, v);
			double base = easy ? value(&easy->m, &columns[c]) : 0;
			if (easy && easy != row && base != 0 &&
			    strcmp(columns[c].key, "wall_seconds") &&
			    strcmp(columns[c].key, "events_per_second"))
				snprintf(cell, sizeof(cell), "%s (%.2f)", num,
					 v / base);
			else
				snprintf(cell, sizeof(cell), "%s", num);
			fprintf(out, " %22s", cell);
		}
		fprintf(out, "\n");
	}
	against_table(out, r);
	classes_table(out, r);
	fidelity_table(out, r);
	if (r->nrows && r->rows[0].param_key) {
		const char *sep = "";
		fprintf(out, "\nbest %s by mean bounded slowdown:", r->rows[0].param_key);
		for (size_t i = 0; i < r->nrows; i++) {
			const sim_report_row_t *b;
			if (first_of_policy(r, i) &&
			    (b = best_row(r, r->rows[i].policy))) {
				fprintf(out, "%s %s %g (%.2f)", sep, b->policy,
					b->param_value, b->m.mean_bsld);
				sep = ",";
			}
		}
		fprintf(out, "\n");
	}
}

void sim_report_csv(FILE *out, const sim_report_t *r)
{
	fprintf(out, "trace,jobs,skipped,nodes,load,seed,migration_cost,"
		"policy,param,param_value");
	for (size_t c = 0; c < NCOLUMNS; c++)
		fprintf(out, ",%s", columns[c].key);
	fprintf(out, "\n");
	for (size_t i = 0; i < r->nrows; i++) {
		const sim_report_row_t *row = &r->rows[i];
		/* the trace path is quoted: it may hold commas */
		fputc('"', out);
		for (const char *s = r->trace; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fprintf(out, "\",%zu,%zu,%d,%g,%llu,%g,%s,%s,", r->jobs,
			r->skipped, r->nodes, r->load,
			(unsigned long long)r->seed, r->migration_cost,
			row->policy, row->param_key ? row->param_key : "");
		if (row->param_key)
			fprintf(out, "%g", row->param_value);
		for (size_t c = 0; c < NCOLUMNS; c++)
			fprintf(out, ",%.6g", value(&row->m, &columns[c]));
		fprintf(out, "\n");
	}
}
