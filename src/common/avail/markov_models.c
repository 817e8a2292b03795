/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markov_models.c - JSON save/restore of per-node ON/OFF models
 * (markov_estimator.h; He et al. 2012, Sec. III-A).
 *
 * {"format": "slurm-dfrs availability", "version": 1, "length_bins": 64,
 *  "nodes": [{"name": "n1", "transitions": [[oo, on], [no, nn]],
 *             "slots": [off, on, down], "on_lengths": [...64],
 *             "off_lengths": [...64], "last": -1|0|1, "run": k,
 *             "run_censored": bool}, ...]}
 * Numbers are written with 17 significant digits: a restore is exact.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markov_models.h"

/* A JSON string as json-c escapes it; false when out of memory. */
static bool write_string(FILE *f, const char *text)
{
	json_object *s = json_object_new_string(text);

	if (!s)
		return false;
	fputs(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN), f);
	json_object_put(s);
	return true;
}

/* Numbers as %.17g: read back exactly. */
static void write_numbers(FILE *f, const double *v, size_t count)
{
	fputc('[', f);
	for (size_t i = 0; i < count; i++)
		fprintf(f, "%s%.17g", i ? "," : "", v[i]);
	fputc(']', f);
}

/*
 * The document, written straight to f node by node: a json-c tree of it
 * took about 14 kB of heap a node (1,024 nodes: 14 MB, each number an
 * object and a string) every time the controller saved the models, in
 * slurmctld's memory.
 */
static bool write_models(FILE *f, const markov_node_model_t *nodes, size_t count,
			 const uint32_t *ids, size_t nids)
{
	bool ok;

	fputs("{\"format\":", f);
	ok = write_string(f, MARKOV_STATE_FORMAT);
	fprintf(f, ",\"version\":%d,\"length_bins\":%d,\"nodes\":[",
		MARKOV_STATE_VERSION, ONOFF_LENGTH_BINS);
	for (size_t i = 0; i < count; i++) {
		const markov_estimator_t *e = &nodes[i].model;

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		ok = write_string(f, nodes[i].name) && ok;
		fputs(",\"transitions\":[", f);
		write_numbers(f, e->transitions[0], 2);
		fputc(',', f);
		write_numbers(f, e->transitions[1], 2);
		fputs("],\"slots\":", f);
		write_numbers(f, e->slots, 3);
		fputs(",\"on_lengths\":", f);
		write_numbers(f, e->on_lengths, ONOFF_LENGTH_BINS);
		fputs(",\"off_lengths\":", f);
		write_numbers(f, e->off_lengths, ONOFF_LENGTH_BINS);
		fprintf(f, ",\"last\":%d,\"run\":%" PRId64 ",\"run_censored\":%s}",
			(int)e->last, (int64_t)e->run,
			e->run_censored ? "true" : "false");
	}
	fputc(']', f);
	if (ids) {
		fputs(",\"suspended\":[", f);
		for (size_t i = 0; i < nids; i++)
			fprintf(f, "%s%" PRIu32, i ? "," : "", ids[i]);
		fputc(']', f);
	}
	fputs("}\n", f);
	return ok;
}

/* count non-negative finite numbers from array `a` into out */
static int read_numbers(json_object *a, double *out, size_t count, const char *what,
			size_t node, char *err, size_t errlen)
{
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != count) {
		snprintf(err, errlen, "nodes[%zu].%s: expected an array of %zu numbers", node, what,
			 count);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		json_object *v = json_object_array_get_idx(a, i);

		if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
			snprintf(err, errlen, "nodes[%zu].%s[%zu]: not a number", node, what, i);
			return -1;
		}
		out[i] = json_object_get_double(v);
		if (!isfinite(out[i]) || out[i] < 0.0) {
			snprintf(err, errlen, "nodes[%zu].%s[%zu]=%g: not a non-negative number",
				 node, what, i, out[i]);
			return -1;
		}
	}
	return 0;
}

static json_object *field(json_object *o, const char *key, json_type type, size_t node,
			  char *err, size_t errlen)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type)) {
		snprintf(err, errlen, "nodes[%zu].%s: missing or not a %s", node, key,
			 json_type_to_name(type));
		return NULL;
	}
	return v;
}

/* o's member key, or NULL when it has none. */
static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int read_node(json_object *o, size_t i, markov_node_model_t *node, char *err, size_t errlen)
{
	json_object *v, *t;
	markov_estimator_t *e = &node->model;

	markov_estimator_init(e);
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "nodes[%zu]: not an object", i);
		return -1;
	}
	if (!(v = field(o, "name", json_type_string, i, err, errlen)))
		return -1;
	if (!*json_object_get_string(v)) {
		snprintf(err, errlen, "nodes[%zu].name: empty", i);
		return -1;
	}
	if (!(node->name = strdup(json_object_get_string(v)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!(t = field(o, "transitions", json_type_array, i, err, errlen)))
		return -1;
	if (json_object_array_length(t) != 2) {
		snprintf(err, errlen, "nodes[%zu].transitions: expected 2 rows", i);
		return -1;
	}
	if (read_numbers(json_object_array_get_idx(t, 0), e->transitions[0], 2,
			 "transitions[0]", i, err, errlen) ||
	    read_numbers(json_object_array_get_idx(t, 1), e->transitions[1], 2,
			 "transitions[1]", i, err, errlen))
		return -1;
	/* a missing list is read as NULL: read_numbers names it (returning
	 * early left err unset) */
	if (read_numbers(member(o, "slots"), e->slots, 3, "slots", i, err, errlen) ||
	    read_numbers(member(o, "on_lengths"), e->on_lengths, ONOFF_LENGTH_BINS,
			 "on_lengths", i, err, errlen) ||
	    read_numbers(member(o, "off_lengths"), e->off_lengths, ONOFF_LENGTH_BINS,
			 "off_lengths", i, err, errlen))
		return -1;
	if (!(v = field(o, "last", json_type_int, i, err, errlen)))
		return -1;
	int64_t last = json_object_get_int64(v);

	if (last < -1 || last > 1) {
		snprintf(err, errlen, "nodes[%zu].last=%lld: must be -1, 0 or 1", i, (long long)last);
		return -1;
	}
	e->last = (int)last;
	if (!(v = field(o, "run", json_type_int, i, err, errlen)))
		return -1;
	int64_t run = json_object_get_int64(v);

	if (run < 0) {
		snprintf(err, errlen, "nodes[%zu].run=%lld: must be >= 0", i, (long long)run);
		return -1;
	}
	e->run = (unsigned long)run;
	if (!(v = field(o, "run_censored", json_type_boolean, i, err, errlen)))
		return -1;
	e->run_censored = json_object_get_boolean(v);
	return 0;
}

int markov_models_from_json(json_object *root, markov_node_model_t **nodes, size_t *count,
			   char *err, size_t errlen)
{
	json_object *v, *list;

	*nodes = NULL;
	*count = 0;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), MARKOV_STATE_FORMAT)) {
		snprintf(err, errlen, "not a slurm-dfrs availability state (no \"format\": \"%s\")",
			 MARKOV_STATE_FORMAT);
		return -1;
	}
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != MARKOV_STATE_VERSION) {
		snprintf(err, errlen, "version %s not supported (this build reads version %d)",
			 v ? json_object_get_string(v) : "(missing)", MARKOV_STATE_VERSION);
		return -1;
	}
	if (!json_object_object_get_ex(root, "length_bins", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != ONOFF_LENGTH_BINS) {
		snprintf(err, errlen, "length_bins %s differs from this build's %d",
			 v ? json_object_get_string(v) : "(missing)", ONOFF_LENGTH_BINS);
		return -1;
	}
	if (!json_object_object_get_ex(root, "nodes", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		snprintf(err, errlen, "nodes: missing or not an array");
		return -1;
	}
	size_t n = json_object_array_length(list);
	markov_node_model_t *out = calloc(n ? n : 1, sizeof(*out));

	if (!out) {
		snprintf(err, errlen, "out of memory for %zu nodes", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (read_node(json_object_array_get_idx(list, i), i, &out[i], err, errlen)) {
			markov_models_free(out, n);
			return -1;
		}
	*nodes = out;
	*count = n;
	return 0;
}

void markov_models_free(markov_node_model_t *nodes, size_t count)
{
	if (!nodes)
		return;
	for (size_t i = 0; i < count; i++)
		free(nodes[i].name);
	free(nodes);
}

int markov_models_save(const char *path, const markov_node_model_t *nodes, size_t count,
		      const uint32_t *ids, size_t nids, char *err, size_t errlen)
{
	size_t len = strlen(path) + 5;
	char *tmp = malloc(len);
	FILE *f;
	int rc = -1;

	if (!tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	snprintf(tmp, len, "%s.tmp", path);
	if (!(f = fopen(tmp, "w"))) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	} else {
		bool whole = write_models(f, nodes, count, ids, nids);
		int werr = ferror(f);

		if (fclose(f) || werr)
			snprintf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
		else if (!whole)
			snprintf(err, errlen, "%s: out of memory", tmp);
		else if (rename(tmp, path))
			snprintf(err, errlen, "%s: rename from %s failed: %s", path, tmp, strerror(errno));
		else
			rc = 0;
		if (rc)
			remove(tmp);
	}
	free(tmp);
	return rc;
}

json_object *markov_models_json_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL;
	char buf[8192];
	size_t got;
	enum json_tokener_error jerr = json_tokener_continue;

	while (tok && jerr == json_tokener_continue && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
		root = json_tokener_parse_ex(tok, buf, (int)got);
		jerr = json_tokener_get_error(tok);
	}
	fclose(f);
	if (!tok || jerr != json_tokener_success || !root) {
		snprintf(err, errlen, "%s: not valid JSON (%s at byte %zu)", path,
			 tok ? (jerr == json_tokener_continue ? "truncated"
							     : json_tokener_error_desc(jerr))
			     : "out of memory",
			 tok ? json_tokener_get_parse_end(tok) : 0);
		json_object_put(root);
		if (tok)
			json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	return root;
}

int markov_models_load(const char *path, markov_node_model_t **nodes, size_t *count,
		      char *err, size_t errlen)
{
	json_object *root = markov_models_json_load(path, err, errlen);
	char why[256];

	*nodes = NULL;
	*count = 0;
	if (!root)
		return -1;
	int rc = markov_models_from_json(root, nodes, count, why, sizeof(why));

	if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	json_object_put(root);
	return rc;
}
