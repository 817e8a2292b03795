/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_instance_json.c - read a DFRS placement instance from JSON (the
 * input format of dfrs pack; model of Stillwell et al. 2010).  See dfrs_instance_json.h.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_instance_json.h"

void dfrs_instance_store_free(dfrs_instance_store_t *s)
{
	free(s->hosts);
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}

static int get_number(json_object *o, const char *path, double *v,
		      char *err, size_t errlen)
{
	if (!json_object_is_type(o, json_type_double) &&
	    !json_object_is_type(o, json_type_int)) {
		snprintf(err, errlen, "%s: expected a number, got %s", path,
			 json_object_to_json_string(o));
		return -1;
	}
	*v = json_object_get_double(o);
	return 0;
}

/* A list of exactly nd numbers (nd < 0: any length 1..MAX, set *nd). */
static int get_vector(json_object *o, const char *path, int *nd, double *v,
		      char *err, size_t errlen)
{
	size_t n;

	if (!json_object_is_type(o, json_type_array)) {
		snprintf(err, errlen, "%s: expected a list of numbers", path);
		return -1;
	}
	n = json_object_array_length(o);
	if (*nd < 0) {
		if (n < 1 || n > DFRS_MAX_DIMS) {
			snprintf(err, errlen,
				 "%s: %zu resource dimensions, must be 1..%d",
				 path, n, DFRS_MAX_DIMS);
			return -1;
		}
		*nd = (int)n;
	} else if ((int)n != *nd) {
		snprintf(err, errlen,
			 "%s: %zu values, but hosts[0] has %d dimensions",
			 path, n, *nd);
		return -1;
	}
	for (int d = 0; d < *nd; d++) {
		char p[96];

		snprintf(p, sizeof(p), "%s[%d]", path, d);
		if (get_number(json_object_array_get_idx(o, d), p, &v[d], err,
			       errlen))
			return -1;
		if (v[d] < 0.0) {
			snprintf(err, errlen, "%s: %g is negative", p, v[d]);
			return -1;
		}
	}
	return 0;
}

static int check_keys(json_object *o, const char *path, const char *const *keys,
		      char *err, size_t errlen)
{
	json_object_object_foreach(o, key, val) {
		int ok = 0;

		(void)val;
		for (int i = 0; keys[i]; i++)
			ok |= !strcmp(key, keys[i]);
		if (!ok) {
			snprintf(err, errlen, "%s: unknown key \"%s\"", path, key);
			return -1;
		}
	}
	return 0;
}

static int parse_host(json_object *o, int h, int *nd, dfrs_host_t *host,
		      char *err, size_t errlen)
{
	static const char *const keys[] = { "cap", "elem", NULL };
	char path[64];
	json_object *cap, *elem;

	snprintf(path, sizeof(path), "hosts[%d]", h);
	if (json_object_is_type(o, json_type_array)) {
		if (get_vector(o, path, nd, host->cap, err, errlen))
			return -1;
		memcpy(host->elem, host->cap, sizeof(host->cap));
		return 0;
	}
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "cap", &cap)) {
		snprintf(err, errlen,
			 "%s: expected a list of capacities or {\"cap\": [...], \"elem\": [...]}",
			 path);
		return -1;
	}
	if (check_keys(o, path, keys, err, errlen))
		return -1;
	snprintf(path, sizeof(path), "hosts[%d].cap", h);
	if (get_vector(cap, path, nd, host->cap, err, errlen))
		return -1;
	memcpy(host->elem, host->cap, sizeof(host->cap));
	if (json_object_object_get_ex(o, "elem", &elem)) {
		snprintf(path, sizeof(path), "hosts[%d].elem", h);
		if (get_vector(elem, path, nd, host->elem, err, errlen))
			return -1;
	}
	return 0;
}

static int parse_job(json_object *o, int i, int nd, dfrs_job_t *job,
		     char *err, size_t errlen)
{
	static const char *const keys[] = { "tasks", "need", "req",
					    "min_yield", "elem_req",
					    "elem_need", NULL };
	char path[64];
	json_object *v;

	snprintf(path, sizeof(path), "jobs[%d]", i);
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "%s: expected an object {\"tasks\": k, \"need\": [...], \"req\": [...], \"min_yield\": y}",
			 path);
		return -1;
	}
	if (check_keys(o, path, keys, err, errlen))
		return -1;
	job->ntasks = 1;
	if (json_object_object_get_ex(o, "tasks", &v)) {
		int64_t k;

		if (!json_object_is_type(v, json_type_int) ||
		    (k = json_object_get_int64(v)) < 1 || k > 1000000) {
			snprintf(err, errlen,
				 "%s.tasks: %s is not an integer in 1..1000000",
				 path, json_object_to_json_string(v));
			return -1;
		}
		job->ntasks = (int)k;
	}
	if (json_object_object_get_ex(o, "need", &v)) {
		snprintf(path, sizeof(path), "jobs[%d].need", i);
		if (get_vector(v, path, &nd, job->need, err, errlen))
			return -1;
	}
	if (json_object_object_get_ex(o, "req", &v)) {
		snprintf(path, sizeof(path), "jobs[%d].req", i);
		if (get_vector(v, path, &nd, job->req, err, errlen))
			return -1;
	}
	/* elementary amounts: either given makes both count; the one not
	 * given is the aggregate one */
	memcpy(job->elem_req, job->req, sizeof(job->req));
	memcpy(job->elem_need, job->need, sizeof(job->need));
	if (json_object_object_get_ex(o, "elem_req", &v)) {
		snprintf(path, sizeof(path), "jobs[%d].elem_req", i);
		if (get_vector(v, path, &nd, job->elem_req, err, errlen))
			return -1;
		job->elem_given = 1;
	}
	if (json_object_object_get_ex(o, "elem_need", &v)) {
		snprintf(path, sizeof(path), "jobs[%d].elem_need", i);
		if (get_vector(v, path, &nd, job->elem_need, err, errlen))
			return -1;
		job->elem_given = 1;
	}
	if (!job->elem_given) {
		memset(job->elem_req, 0, sizeof(job->elem_req));
		memset(job->elem_need, 0, sizeof(job->elem_need));
	}
	if (json_object_object_get_ex(o, "min_yield", &v)) {
		snprintf(path, sizeof(path), "jobs[%d].min_yield", i);
		if (get_number(v, path, &job->min_yield, err, errlen))
			return -1;
		if (!(job->min_yield >= 0.0 && job->min_yield <= 1.0)) {
			snprintf(err, errlen, "%s: %g is not in [0, 1]", path,
				 job->min_yield);
			return -1;
		}
	}
	return 0;
}

static int parse_root(json_object *root, dfrs_instance_store_t *out,
		      char *err, size_t errlen)
{
	static const char *const keys[] = { "hosts", "jobs", NULL };
	json_object *hosts, *jobs;
	int nd = -1;
	size_t nh, nj;

	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen,
			 "expected an object {\"hosts\": [...], \"jobs\": [...]}");
		return -1;
	}
	if (check_keys(root, "instance", keys, err, errlen))
		return -1;
	if (!json_object_object_get_ex(root, "hosts", &hosts) ||
	    !json_object_is_type(hosts, json_type_array) ||
	    (nh = json_object_array_length(hosts)) == 0) {
		snprintf(err, errlen, "\"hosts\": expected a non-empty list of hosts");
		return -1;
	}
	if (!json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		snprintf(err, errlen, "\"jobs\": expected a list of jobs");
		return -1;
	}
	nj = json_object_array_length(jobs);
	out->hosts = calloc(nh, sizeof(*out->hosts));
	out->jobs = calloc(nj ? nj : 1, sizeof(*out->jobs));
	if (!out->hosts || !out->jobs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t h = 0; h < nh; h++)
		if (parse_host(json_object_array_get_idx(hosts, h), (int)h,
			       &nd, &out->hosts[h], err, errlen))
			return -1;
	for (size_t i = 0; i < nj; i++)
		if (parse_job(json_object_array_get_idx(jobs, i), (int)i, nd,
			      &out->jobs[i], err, errlen))
			return -1;
	out->inst.ndims = nd;
	out->inst.nhosts = (int)nh;
	out->inst.hosts = out->hosts;
	out->inst.njobs = (int)nj;
	out->inst.jobs = out->jobs;
	return dfrs_instance_check(&out->inst, err, errlen);
}

/* Control characters quoted from the input as '?': one line. */
static void printable(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = '?';
}

int dfrs_instance_parse_json(const char *text, size_t len,
			     dfrs_instance_store_t *out,
			     char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *root;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		size_t off = json_tokener_get_parse_end(tok);
		size_t rest = off, line = 1;
		enum json_tokener_error e = json_tokener_get_error(tok);

		/* trailing white space after the document is fine */
		while (root && rest < len && text[rest] &&
		       strchr(" \t\r\n", text[rest]))
			rest++;
		if (!root || e != json_tokener_success || rest < len) {
			for (size_t i = 0; i < off && i < len; i++)
				line += text[i] == '\n';
			snprintf(err, errlen, "malformed JSON at line %zu (byte %zu): %s",
				 line, off,
				 !root && e == json_tokener_continue ? "unexpected end of input" :
				 e != json_tokener_success ? json_tokener_error_desc(e) :
				 "text after the end of the document");
			goto out;
		}
	}
	rc = parse_root(root, out, err, errlen);
out:
	if (rc != 0) {
		dfrs_instance_store_free(out);
		if (errlen)
			printable(err);
	}
	json_object_put(root);
	json_tokener_free(tok);
	return rc;
}

int dfrs_instance_read_json(const char *path, dfrs_instance_store_t *out,
			    char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, msg[512];
	size_t len = 0, cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file", path);
		free(buf);
		return -1;
	}
	rc = dfrs_instance_parse_json(buf, len, out, msg, sizeof(msg));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, msg);
	free(buf);
	return rc;
}

static json_object *vector_json(const double *v, int nd)
{
	json_object *a = json_object_new_array();

	for (int d = 0; d < nd; d++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%.17g", v[d]);
		json_object_array_add(a, json_object_new_double_s(v[d], buf));
	}
	return a;
}

char *dfrs_instance_to_json(const dfrs_instance_t *inst)
{
	json_object *root = json_object_new_object();
	json_object *hosts = json_object_new_array();
	json_object *jobs = json_object_new_array();
	char *text;
	int nd = inst->ndims;

	for (int h = 0; h < inst->nhosts; h++) {
		const dfrs_host_t *host = &inst->hosts[h];

		if (!memcmp(host->cap, host->elem, sizeof(double) * nd)) {
			json_object_array_add(hosts, vector_json(host->cap, nd));
		} else {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "cap", vector_json(host->cap, nd));
			json_object_object_add(o, "elem", vector_json(host->elem, nd));
			json_object_array_add(hosts, o);
		}
	}
	for (int i = 0; i < inst->njobs; i++) {
		const dfrs_job_t *job = &inst->jobs[i];
		json_object *o = json_object_new_object();
		char buf[32];

		json_object_object_add(o, "tasks", json_object_new_int(job->ntasks));
		json_object_object_add(o, "need", vector_json(job->need, nd));
		json_object_object_add(o, "req", vector_json(job->req, nd));
		if (job->elem_given) {
			json_object_object_add(o, "elem_need",
					       vector_json(job->elem_need, nd));
			json_object_object_add(o, "elem_req",
					       vector_json(job->elem_req, nd));
		}
		snprintf(buf, sizeof(buf), "%.17g", job->min_yield);
		json_object_object_add(o, "min_yield",
				       json_object_new_double_s(job->min_yield, buf));
		json_object_array_add(jobs, o);
	}
	json_object_object_add(root, "hosts", hosts);
	json_object_object_add(root, "jobs", jobs);
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_SPACED));
	json_object_put(root);
	return text;
}
