/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_availability_report.c - dfrs sim --availability's table, JSON and CSV
 * (sim_availability_report.h).  The ratio column divides each policy's
 * mean cost by the threshold policy's at the same gamma (by the first
 * policy's when threshold was not run).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim_availability_report.h"

/* The policy the ratios refer to. */
static size_t reference_policy(const avail_sim_config_t *cfg)
{
	for (size_t p = 0; p < cfg->npolicies; p++)
		if (cfg->policies[p].kind == AVAIL_POLICY_THRESHOLD)
			return p;
	return 0;
}

static const avail_sim_cell_t *cell(const sim_availability_report_t *r, size_t g, size_t p)
{
	return &r->res->cells[g * r->res->npolicies + p];
}

static double ratio(const sim_availability_report_t *r, size_t g, size_t p)
{
	double ref = cell(r, g, reference_policy(r->cfg))->cost;

	return ref > 0.0 ? cell(r, g, p)->cost / ref : NAN;
}

static void print_table(FILE *out, const sim_availability_report_t *r)
{
	const avail_sim_config_t *cfg = r->cfg;
	char name[32], ref[32];

	avail_policy_name(&cfg->policies[reference_policy(cfg)], ref, sizeof(ref));
	fprintf(out, "availability %s: n=%zu tasks on N=%zu nodes, pooled chain p01=%.4g "
		"p11=%.4g, beta=%g\n", r->spec, cfg->n, r->src->nodes, r->src->pooled.p01,
		r->src->pooled.p11, cfg->beta);
	fprintf(out, "%zu runs x %zu slots, seed %llu, %.2f s; cost = w + gamma m "
		"(discounted); ratio = cost / %s's\n", r->res->runs, r->res->slots,
		(unsigned long long)cfg->seed, r->seconds, ref);
	for (size_t g = 0; g < cfg->ngammas; g++) {
		fprintf(out, "\ngamma=%g: T_%zu optimal for the pooled chain\n", cfg->gammas[g],
			r->res->optimal_index[g]);
		fprintf(out, "%-14s %4s %9s %8s %9s %9s %7s %9s\n", "policy", "T_i", "cost",
			"+-se", "w", "m", "ratio", "eq4_cost");
		for (size_t p = 0; p < cfg->npolicies; p++) {
			const avail_sim_cell_t *c = cell(r, g, p);
			char idx[24] = "-", eq4[32] = "-";

			avail_policy_name(&cfg->policies[p], name, sizeof(name));
			if (c->index != SIZE_MAX)
				snprintf(idx, sizeof(idx), "%zu", c->index);
			if (!isnan(c->analytic))
				snprintf(eq4, sizeof(eq4), "%.3f", c->analytic);
			fprintf(out, "%-14s %4s %9.3f %8.3f %9.3f %9.3f %7.3f %9s\n", name, idx,
				c->cost, c->cost_se, c->w, c->m, ratio(r, g, p), eq4);
		}
	}
}

static json_object *number(double v)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

static void print_json(FILE *out, const sim_availability_report_t *r)
{
	const avail_sim_config_t *cfg = r->cfg;
	json_object *top = json_object_new_object(), *results = json_object_new_array();
	char name[32];

	json_object_object_add(top, "availability", json_object_new_string(r->spec));
	json_object_object_add(top, "n", json_object_new_int64((int64_t)cfg->n));
	json_object_object_add(top, "nodes", json_object_new_int64((int64_t)r->src->nodes));
	json_object_object_add(top, "pooled_p01", number(r->src->pooled.p01));
	json_object_object_add(top, "pooled_p11", number(r->src->pooled.p11));
	json_object_object_add(top, "beta", number(cfg->beta));
	json_object_object_add(top, "runs", json_object_new_int64((int64_t)r->res->runs));
	json_object_object_add(top, "slots", json_object_new_int64((int64_t)r->res->slots));
	json_object_object_add(top, "seed", json_object_new_uint64(cfg->seed));
	json_object_object_add(top, "wall_seconds", number(r->seconds));
	avail_policy_name(&cfg->policies[reference_policy(cfg)], name, sizeof(name));
	json_object_object_add(top, "ratio_to", json_object_new_string(name));
	for (size_t g = 0; g < cfg->ngammas; g++) {
		json_object *one = json_object_new_object(), *rows = json_object_new_array();

		json_object_object_add(one, "gamma", number(cfg->gammas[g]));
		json_object_object_add(one, "optimal_index",
				       json_object_new_int64((int64_t)r->res->optimal_index[g]));
		for (size_t p = 0; p < cfg->npolicies; p++) {
			const avail_sim_cell_t *c = cell(r, g, p);
			json_object *row = json_object_new_object();

			avail_policy_name(&cfg->policies[p], name, sizeof(name));
			json_object_object_add(row, "policy", json_object_new_string(name));
			json_object_object_add(row, "index", c->index == SIZE_MAX ? NULL :
					       json_object_new_int64((int64_t)c->index));
			json_object_object_add(row, "cost", number(c->cost));
			json_object_object_add(row, "cost_se", number(c->cost_se));
			json_object_object_add(row, "w", number(c->w));
			json_object_object_add(row, "m", number(c->m));
			json_object_object_add(row, "ratio", number(ratio(r, g, p)));
			json_object_object_add(row, "eq4_cost", number(c->analytic));
			json_object_array_add(rows, row);
		}
		json_object_object_add(one, "policies", rows);
		json_object_array_add(results, one);
	}
	json_object_object_add(top, "results", results);
	fprintf(out, "%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(top);
}

static void print_csv(FILE *out, const sim_availability_report_t *r)
{
	const avail_sim_config_t *cfg = r->cfg;
	char name[32];

	fprintf(out, "gamma,policy,index,cost,cost_se,w,m,ratio,eq4_cost\n");
	for (size_t g = 0; g < cfg->ngammas; g++)
		for (size_t p = 0; p < cfg->npolicies; p++) {
			const avail_sim_cell_t *c = cell(r, g, p);

			avail_policy_name(&cfg->policies[p], name, sizeof(name));
			fprintf(out, "%g,%s,", cfg->gammas[g], name);
			if (c->index != SIZE_MAX)
				fprintf(out, "%zu", c->index);
			fprintf(out, ",%.6g,%.6g,%.6g,%.6g,%.6g,", c->cost, c->cost_se, c->w, c->m,
				ratio(r, g, p));
			if (!isnan(c->analytic))
				fprintf(out, "%.6g", c->analytic);
			fprintf(out, "\n");
		}
}

void sim_availability_report(FILE *out, const sim_availability_report_t *r, sim_format_t format)
{
	if (format == SIM_FORMAT_JSON)
		print_json(out, r);
	else if (format == SIM_FORMAT_CSV)
		print_csv(out, r);
	else
		print_table(out, r);
}
