/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_share_json.c - export of select/dfrs's model for administrators
 * (each node's jobs, yields and CPU weights), and the table `dfrs status`
 * prints from it.
 */
#include "node_share_json.h"

#include <json-c/json.h>
#include <string.h>
#include <stdlib.h>

#include "cpu_weight.h"

/*
 * Which jobs are on each node, in the model's order, and each node's CPU
 * load and memory used, from one pass over the jobs: node n's jobs are
 * on[first[n]] .. on[first[n] + count[n] - 1].  Summed in the model's
 * order, as node_share_cpu_load and node_share_mem_used sum them.
 */
typedef struct {
	size_t *first, *count, *on;
	double *load, *mem;
} by_node_t;

static void by_node_free(by_node_t *b)
{
	free(b->first);
	free(b->count);
	free(b->on);
	free(b->load);
	free(b->mem);
}

static int by_node(const node_share_t *s, by_node_t *b)
{
	size_t n = s->nnodes > 0 ? (size_t)s->nnodes : 0, total = 0, at = 0;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < s->njobs; i++)
		total += s->jobs[i].nnodes > 0 ? (size_t)s->jobs[i].nnodes : 0;
	b->first = calloc(n + 1, sizeof(size_t));
	b->count = calloc(n + 1, sizeof(size_t));
	b->on = calloc(total + 1, sizeof(size_t));
	b->load = calloc(n + 1, sizeof(double));
	b->mem = calloc(n + 1, sizeof(double));
	if (!b->first || !b->count || !b->on || !b->load || !b->mem) {
		by_node_free(b);
		return -1;
	}
	/* room for each node's tasks, then the jobs in order (a job listed
	 * twice on a node counts once, as node_share_cpu_load counts it) */
	for (size_t i = 0; i < s->njobs; i++)
		for (int t = 0; t < s->jobs[i].nnodes; t++)
			if (s->jobs[i].nodes[t] >= 0 && (size_t)s->jobs[i].nodes[t] < n)
				b->first[s->jobs[i].nodes[t]]++;
	for (size_t k = 0; k < n; k++) {
		size_t c = b->first[k];

		b->first[k] = at;
		at += c;
	}
	for (size_t i = 0; i < s->njobs; i++) {
		const share_job_t *j = &s->jobs[i];

		for (int t = 0; t < j->nnodes; t++) {
			size_t k = (size_t)j->nodes[t];

			if (j->nodes[t] < 0 || k >= n ||
			    (b->count[k] && b->on[b->first[k] + b->count[k] - 1] == i))
				continue;
			b->on[b->first[k] + b->count[k]++] = i;
			if (!j->suspended)
				b->load[k] += j->need;
			b->mem[k] += j->mem;
		}
	}
	return 0;
}

char *node_share_to_json(const node_share_t *s, const char *const *names,
			 time_t updated)
{
	json_object *root, *nodes;
	char *text = NULL;
	by_node_t b;

	if (by_node(s, &b))
		return NULL;
	root = json_object_new_object();
	nodes = json_object_new_array();
	json_object_object_add(root, "updated", json_object_new_int64((int64_t)updated));
	json_object_object_add(root, "nodes", nodes);
	for (int n = 0; n < s->nnodes; n++) {
		json_object *node = json_object_new_object(), *jobs = json_object_new_array();
		char fallback[32];

		if (!names || !names[n])
			snprintf(fallback, sizeof(fallback), "node%d", n);
		json_object_object_add(node, "name", json_object_new_string(
			names && names[n] ? names[n] : fallback));
		json_object_object_add(node, "cpu_load",
			json_object_new_double(b.load[n]));
		json_object_object_add(node, "mem_used",
			json_object_new_double(b.mem[n]));
		for (size_t x = 0; x < b.count[n]; x++) {
			const share_job_t *j = &s->jobs[b.on[b.first[n] + x]];
			json_object *job = json_object_new_object();

			json_object_object_add(job, "job_id", json_object_new_int64(j->id));
			json_object_object_add(job, "yield", json_object_new_double(j->yield));
			json_object_object_add(job, "need", json_object_new_double(j->need));
			json_object_object_add(job, "mem", json_object_new_double(j->mem));
			json_object_object_add(job, "min_yield", json_object_new_double(j->min_yield));
			json_object_object_add(job, "suspended", json_object_new_boolean(j->suspended));
			json_object_object_add(job, "weight", json_object_new_int64(
				cpu_weight_for_yield(j->yield, j->need)));
			json_object_array_add(jobs, job);
		}
		json_object_object_add(node, "jobs", jobs);
		json_object_array_add(nodes, node);
	}
	const char *s_text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	if (s_text)
		text = strdup(s_text);
	json_object_put(root);
	by_node_free(&b);
	return text;
}

/* The member key of o, of the given type (an int is accepted as a double). */
static int get(json_object *o, const char *key, json_type type,
	       json_object **out, const char *where, char *err, size_t errlen)
{
	*out = NULL;
	if (json_object_object_get_ex(o, key, out) && *out &&
	    (json_object_is_type(*out, type) ||
	     (type == json_type_double && json_object_is_type(*out, json_type_int))))
		return 0;
	snprintf(err, errlen, "%s: missing or wrong type: \"%s\"", where, key);
	return -1;
}

int node_share_print_status(const char *json, FILE *out, char *err,
			    size_t errlen)
{
	json_object *root = json_tokener_parse(json), *nodes, *v;
	time_t updated;
	struct tm tm;
	char when[32] = "?";

	if (!root || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "not a JSON object");
		json_object_put(root);
		return -1;
	}
	if (get(root, "updated", json_type_int, &v, "top level", err, errlen) ||
	    get(root, "nodes", json_type_array, &nodes, "top level", err, errlen)) {
		json_object_put(root);
		return -1;
	}
	updated = (time_t)json_object_get_int64(v);
	/* a time no calendar holds (a damaged file) prints as "?" */
	if (localtime_r(&updated, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(out, "select/dfrs model at %s\n", when);
	fprintf(out, "%-10s %8s %8s  %-8s %7s %6s %6s %7s %7s\n", "NODE",
		"CPU_LOAD", "MEM_USED", "JOBID", "YIELD", "NEED", "MEM",
		"MIN_Y", "WEIGHT");
	for (size_t n = 0; n < json_object_array_length(nodes); n++) {
		json_object *node = json_object_array_get_idx(nodes, n), *jobs, *name, *load, *mem;
		char where[64];
		snprintf(where, sizeof(where), "node %zu", n);
		if (!node || get(node, "name", json_type_string, &name, where, err, errlen) ||
		    get(node, "cpu_load", json_type_double, &load, where, err, errlen) ||
		    get(node, "mem_used", json_type_double, &mem, where, err, errlen) ||
		    get(node, "jobs", json_type_array, &jobs, where, err, errlen)) {
			json_object_put(root);
			return -1;
		}
		size_t njobs = json_object_array_length(jobs);
		fprintf(out, "%-10s %8.3f %8.3f%s\n", json_object_get_string(name),
			json_object_get_double(load), json_object_get_double(mem),
			njobs ? "" : "  (idle)");
		for (size_t i = 0; i < njobs; i++) {
			json_object *job = json_object_array_get_idx(jobs, i), *id, *y, *nd, *m, *my, *w, *su;
			snprintf(where, sizeof(where), "node %zu job %zu", n, i);
			if (!job || get(job, "job_id", json_type_int, &id, where, err, errlen) ||
			    get(job, "yield", json_type_double, &y, where, err, errlen) ||
			    get(job, "need", json_type_double, &nd, where, err, errlen) ||
			    get(job, "mem", json_type_double, &m, where, err, errlen) ||
			    get(job, "min_yield", json_type_double, &my, where, err, errlen) ||
			    get(job, "weight", json_type_int, &w, where, err, errlen) ||
			    get(job, "suspended", json_type_boolean, &su, where, err, errlen)) {
				json_object_put(root);
				return -1;
			}
			fprintf(out, "%-10s %8s %8s  %-8lld %7.3f %6.3g %6.3g %7.3g %7lld%s\n",
				"", "", "", (long long)json_object_get_int64(id),
				json_object_get_double(y), json_object_get_double(nd),
				json_object_get_double(m), json_object_get_double(my),
				(long long)json_object_get_int64(w),
				json_object_get_boolean(su) ? "  suspended" : "");
		}
	}
	json_object_put(root);
	return 0;
}
