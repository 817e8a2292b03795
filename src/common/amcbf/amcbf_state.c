/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_state.c - sched/amcbf's restart state to and from JSON, every
 * field checked on the way in (amcbf_state.h).
 */
#include <json-c/json.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amcbf_state.h"

void amcbf_state_free(amcbf_state_t *s)
{
	for (size_t i = 0; i < s->njobs; i++) {
		for (size_t h = 0; h < s->jobs[i].nhosts; h++)
			free(s->jobs[i].hosts[h]);
		free(s->jobs[i].hosts);
	}
	free(s->jobs);
	free(s->params);
	memset(s, 0, sizeof(*s));
}

/*
 * The text is written straight into one growing buffer, as json-c's
 * JSON_C_TO_STRING_PLAIN would print the same values (test_amcbf_state
 * compares them): building json-c's objects first cost about 1.6 kB of
 * heap a job (32 MB for 20,000 jobs) every time sched/amcbf saved its
 * state, in slurmctld's memory.
 */
typedef struct {
	char *b;
	size_t n, cap;
	bool oom;
} out_t;

static void put(out_t *o, const char *text, size_t len)
{
	if (o->oom)
		return;
	if (o->n + len + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 256;
		char *b;

		while (o->n + len + 1 > cap)
			cap *= 2;
		if (!(b = realloc(o->b, cap))) {
			o->oom = true;
			return;
		}
		o->b = b;
		o->cap = cap;
	}
	memcpy(o->b + o->n, text, len);
	o->n += len;
	o->b[o->n] = '\0';
}

static void puts_(out_t *o, const char *text)
{
	put(o, text, strlen(text));
}

static void putf(out_t *o, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(buf))
		o->oom = true;	/* numbers only: cannot happen */
	else
		put(o, buf, (size_t)len);
}

/* A JSON string, escaped as json-c escapes it (/ as \/ too). */
static void put_string(out_t *o, const char *str)
{
	static const char hex[] = "0123456789abcdef";

	puts_(o, "\"");
	for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
		char esc[7] = { '\\', 0 };

		switch (*c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '/': esc[1] = '/'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			if (*c < 0x20) {
				memcpy(esc + 1, "u00", 3);
				esc[4] = hex[*c >> 4];
				esc[5] = hex[*c & 0xf];
			}
		}
		if (esc[1])
			puts_(o, esc);
		else
			put(o, (const char *)c, 1);
	}
	puts_(o, "\"");
}

/* A double as json-c prints it: %.17g, with ".0" when that looks like
 * an integer. */
static void put_double(out_t *o, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	puts_(o, buf);
	if (isfinite(v) && !strpbrk(buf, ".eE"))
		puts_(o, ".0");
}

static void put_job(out_t *o, const amcbf_state_job_t *j)
{
	putf(o, "{\"id\":%" PRId64 ",\"vt\":", (int64_t)j->id);
	put_double(o, j->vt);
	puts_(o, j->seen ? ",\"seen\":true" : ",\"seen\":false");
	if (j->submit)
		putf(o, ",\"submit\":%" PRId64, (int64_t)j->submit);
	puts_(o, ",\"hosts\":[");
	for (size_t h = 0; h < j->nhosts; h++) {
		if (h)
			puts_(o, ",");
		put_string(o, j->hosts[h]);
	}
	puts_(o, "]}");
}

char *amcbf_state_to_json(const amcbf_state_t *s)
{
	out_t o = { 0 };

	putf(&o, "{\"version\":%d,\"params\":", AMCBF_STATE_VERSION);
	if (s->params)
		put_string(&o, s->params);
	else
		puts_(&o, "null");
	putf(&o, ",\"last_periodic\":%" PRId64 ",\"jobs\":[",
	     (int64_t)s->last_periodic);
	for (size_t i = 0; i < s->njobs; i++) {
		if (i)
			puts_(&o, ",");
		put_job(&o, &s->jobs[i]);
	}
	puts_(&o, "]}");
	if (o.oom) {
		free(o.b);
		return NULL;
	}
	return o.b;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The member of an object, of a type; NULL when absent or another type. */
static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int parse_hosts(json_object *arr, amcbf_state_job_t *j, size_t at,
		       char *err, size_t errlen)
{
	size_t n = json_object_array_length(arr);

	if (n && !(j->hosts = calloc(n, sizeof(*j->hosts))))
		return fail(err, errlen, "out of memory");
	for (size_t h = 0; h < n; h++) {
		json_object *v = json_object_array_get_idx(arr, h);
		const char *name = json_object_get_string(v);
		if (!json_object_is_type(v, json_type_string) || !*name)
			return fail(err, errlen, "jobs[%zu].hosts[%zu]: not a node name",
				    at, h);
		if (!(j->hosts[h] = strdup(name)))
			return fail(err, errlen, "out of memory");
		j->nhosts++;
	}
	return 0;
}

static int parse_job(json_object *o, amcbf_state_job_t *j, size_t at,
		     uint32_t prev, char *err, size_t errlen)
{
	json_object *id, *vt, *seen, *hosts, *submit;
	int64_t v;
	double t;

	if (!json_object_is_type(o, json_type_object))
		return fail(err, errlen, "jobs[%zu]: not an object", at);
	id = member(o, "id", json_type_int);
	v = id ? json_object_get_int64(id) : 0;
	if (v <= prev || v > (int64_t)UINT32_MAX)
		return fail(err, errlen, "jobs[%zu].id: not a job id above the previous one (%u)",
			    at, prev);
	j->id = (uint32_t)v;
	vt = member(o, "vt", json_type_double);
	if (!vt)
		vt = member(o, "vt", json_type_int);
	t = vt ? json_object_get_double(vt) : -1;
	if (!vt || !isfinite(t) || t < 0)
		return fail(err, errlen, "jobs[%zu].vt: not a number >= 0", at);
	j->vt = t;
	if (!(seen = member(o, "seen", json_type_boolean)))
		return fail(err, errlen, "jobs[%zu].seen: not true or false", at);
	j->seen = json_object_get_boolean(seen);
	/* optional (files written before it have none) */
	if (json_object_object_get_ex(o, "submit", &submit)) {
		if (!json_object_is_type(submit, json_type_int) ||
		    json_object_get_int64(submit) < 0)
			return fail(err, errlen, "jobs[%zu].submit: not a time >= 0",
				    at);
		j->submit = (long)json_object_get_int64(submit);
	}
	if (!(hosts = member(o, "hosts", json_type_array)))
		return fail(err, errlen, "jobs[%zu].hosts: not an array", at);
	return parse_hosts(hosts, j, at, err, errlen);
}

/* The root's members but "jobs": version, params, last_periodic. */
static int parse_head(json_object *root, amcbf_state_t *s, char *err,
		      size_t errlen)
{
	json_object *v;

	if (!json_object_is_type(root, json_type_object))
		return fail(err, errlen, "not a JSON object");
	if (!(v = member(root, "version", json_type_int)) ||
	    json_object_get_int(v) != AMCBF_STATE_VERSION)
		return fail(err, errlen, "version: not %d", AMCBF_STATE_VERSION);
	if ((v = member(root, "params", json_type_string)) &&
	    !(s->params = strdup(json_object_get_string(v))))
		return fail(err, errlen, "out of memory");
	if (!v && json_object_object_get_ex(root, "params", &v) && v)
		return fail(err, errlen, "params: not a string or null");
	if (!(v = member(root, "last_periodic", json_type_int)) ||
	    json_object_get_int64(v) < 0)
		return fail(err, errlen, "last_periodic: not a time >= 0");
	s->last_periodic = (long)json_object_get_int64(v);
	return 0;
}

/* One more job in s->jobs (zeroed), *cap the room for them. */
static amcbf_state_job_t *add_job(amcbf_state_t *s, size_t *cap)
{
	if (s->njobs == *cap) {
		size_t n = *cap ? 2 * *cap : 256;
		amcbf_state_job_t *j = realloc(s->jobs, n * sizeof(*j));

		if (!j)
			return NULL;
		s->jobs = j;
		*cap = n;
	}
	memset(&s->jobs[s->njobs], 0, sizeof(s->jobs[0]));
	return &s->jobs[s->njobs++];
}

static int parse_root(json_object *root, amcbf_state_t *s, char *err, size_t errlen)
{
	json_object *jobs;
	size_t n, cap = 0;

	if (parse_head(root, s, err, errlen))
		return -1;
	if (!(jobs = member(root, "jobs", json_type_array)))
		return fail(err, errlen, "jobs: not an array");
	n = json_object_array_length(jobs);
	for (size_t i = 0; i < n; i++) {
		uint32_t prev = i ? s->jobs[i - 1].id : 0;
		amcbf_state_job_t *j = add_job(s, &cap);

		if (!j)
			return fail(err, errlen, "out of memory");
		if (parse_job(json_object_array_get_idx(jobs, i), j, i, prev,
			      err, errlen))
			return -1;
	}
	return 0;
}

/*
 * The text read piece by piece: the root object member by member and its
 * "jobs" array job by job, each piece a json-c tree of its own freed
 * before the next.  One tree of the whole file took about 1.4 kB of heap a
 * job (27.5 MB at 20,000 jobs), in slurmctld, on top of the job records it
 * had just loaded: its peak RSS.  json-c reads every piece; this walks
 * only the punctuation between them.  Returns 0 with *s read, or 1 for
 * any text not so read, or any error (*s then half read): the caller
 * reads it as one tree, for the same answer and the same message.
 */
static const char ws[] = " \t\r\n";

static size_t skip_ws(const char *t, size_t at)
{
	while (t[at] && strchr(ws, t[at]))
		at++;
	return at;
}

/* The JSON value at t[*at], *at past it and the white space after (a null
 * value is NULL with *ok true). */
static json_object *piece(json_tokener *tok, const char *t, size_t len,
			  size_t *at, bool *ok)
{
	json_object *v;

	json_tokener_reset(tok);
	v = json_tokener_parse_ex(tok, t + *at, (int)(len - *at));
	if (!(*ok = json_tokener_get_error(tok) == json_tokener_success)) {
		json_object_put(v);
		return NULL;
	}
	*at = skip_ws(t, *at + json_tokener_get_parse_end(tok));
	return v;
}

/* The "jobs" array at t[*at] ('['), each job read into s as it comes. */
static int pieces_jobs(json_tokener *tok, const char *t, size_t len,
		       size_t *at, amcbf_state_t *s, char *err, size_t errlen)
{
	size_t cap = 0;
	bool ok = true;

	*at = skip_ws(t, *at + 1);
	if (t[*at] == ']') {
		*at = skip_ws(t, *at + 1);
		return 0;
	}
	while (ok && t[*at] == '{') {
		json_object *o = piece(tok, t, len, at, &ok);
		uint32_t prev = s->njobs ? s->jobs[s->njobs - 1].id : 0;
		amcbf_state_job_t *j = ok ? add_job(s, &cap) : NULL;

		ok = j && !parse_job(o, j, s->njobs - 1, prev, err, errlen);
		json_object_put(o);
		if (ok && t[*at] == ']') {
			*at = skip_ws(t, *at + 1);
			return 0;
		}
		if (ok && t[*at] == ',')
			*at = skip_ws(t, *at + 1);
		else
			ok = false;
	}
	return 1;
}

static int parse_pieces(const char *t, amcbf_state_t *s, char *err,
			size_t errlen)
{
	size_t len = strlen(t), at = skip_ws(t, 0);
	/* as deep as in the whole text: the root is a level, "jobs" another */
	json_tokener *mt = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH - 1);
	json_tokener *jt = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH - 2);
	json_object *root = json_object_new_object(), *key;
	bool ok = mt && jt && root && t[at] == '{';
	bool jobs = false, closed = false;

	at = ok ? skip_ws(t, at + 1) : at;
	while (ok && t[at] == '"' && (key = piece(mt, t, len, &at, &ok))) {
		const char *name = json_object_get_string(key);

		ok = json_object_is_type(key, json_type_string) && t[at] == ':';
		at = ok ? skip_ws(t, at + 1) : at;
		if (ok && !strcmp(name, "jobs")) {
			/* a second "jobs" (json-c keeps the last): read whole */
			ok = !jobs && t[at] == '[' &&
			     !pieces_jobs(jt, t, len, &at, s, err, errlen);
			jobs = true;
		} else if (ok) {
			json_object *v = piece(mt, t, len, &at, &ok);

			if (ok)
				json_object_object_add(root, name, v);
		}
		json_object_put(key);
		if (ok && t[at] == '}') {
			at = skip_ws(t, at + 1);
			closed = true;
			ok = jobs && !t[at] && !parse_head(root, s, err, errlen);
			break;
		}
		if (ok && t[at] == ',')
			at = skip_ws(t, at + 1);
		else
			ok = false;
	}
	ok = ok && closed;	/* not e.g. an empty object, a trailing ',' */
	json_object_put(root);
	json_tokener_free(mt);
	json_tokener_free(jt);
	return ok ? 0 : 1;
}

int amcbf_state_parse(const char *text, amcbf_state_t *s, char *err,
		      size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *root;
	enum json_tokener_error jerr;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!parse_pieces(text, s, err, errlen)) {
		json_tokener_free(tok);
		return 0;
	}
	amcbf_state_free(s);
	if (!tok)
		return fail(err, errlen, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)strlen(text));
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		if (jerr == json_tokener_continue || jerr == json_tokener_success)
			rc = fail(err, errlen, "not JSON: it ends early (truncated?)");
		else
			rc = fail(err, errlen, "not JSON: %s at offset %zu",
				  json_tokener_error_desc(jerr),
				  (size_t)json_tokener_get_parse_end(tok));
		json_object_put(root);
		json_tokener_free(tok);
		return rc;
	}
	/* nothing but white space after the object */
	for (size_t at = json_tokener_get_parse_end(tok); text[at]; at++)
		if (!strchr(" \t\r\n", text[at])) {
			json_object_put(root);
			json_tokener_free(tok);
			return fail(err, errlen, "not JSON: text after the object at offset %zu",
				    at);
		}
	json_tokener_free(tok);
	rc = parse_root(root, s, err, errlen);
	json_object_put(root);
	return rc;
}
