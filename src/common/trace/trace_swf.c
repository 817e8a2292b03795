/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_swf.c - the Parallel Workloads Archive's Standard Workload Format:
 * one job per line, 18 whitespace-separated numbers, -1 for unknown; lines
 * starting with ';' are header comments, of which MaxJobs, MaxProcs and
 * MaxNodes are kept.
 */
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "trace_parser.h"

#define SWF_FIELDS 18

static const char *const swf_field_name[SWF_FIELDS] = {
	"job number", "submit time", "wait time", "run time",
	"allocated processors", "average CPU time", "used memory",
	"requested processors", "requested time", "requested memory",
	"status", "user", "group", "executable", "queue", "partition",
	"preceding job", "think time",
};

/* Fields (1-based) holding integers, and those where only -1 may be < 0. */
static int swf_field_is_integer(int field)
{
	switch (field) {
	case 1: case 5: case 8: case 11: case 12: case 13: case 14:
	case 15: case 16: case 17:
		return 1;
	}
	return 0;
}

static int swf_field_must_not_be_negative(int field)
{
	return field == 2 || field == 4 || field == 5 || field == 8 ||
	       field == 9;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

typedef struct {
	const char *text;
	size_t len;
} swf_token_t;

/* Split into at most max tokens; returns how many there are, up to max+1. */
static int split_fields(const trace_line_t *line, swf_token_t *tok, int max)
{
	size_t i = 0;
	int n = 0;

	while (i < line->len) {
		size_t start;

		while (i < line->len && is_space(line->text[i]))
			i++;
		if (i == line->len)
			break;
		start = i;
		while (i < line->len && !is_space(line->text[i]))
			i++;
		if (n == max)
			return max + 1;
		tok[n].text = line->text + start;
		tok[n].len = i - start;
		n++;
	}
	return n;
}

/* "; MaxJobs: 42264": returns 0 (kept or not a key we keep) or -1. */
static int parse_header(trace_parser_t *p, const trace_line_t *line)
{
	static const char *const key[3] = { "MaxJobs", "MaxProcs", "MaxNodes" };
	long *slot[3] = { &p->out->header_max_jobs, &p->out->header_max_procs,
			  &p->out->header_max_nodes };
	const char *s = line->text + 1, *end = line->text + line->len;
	int k;

	while (s < end && is_space(*s))
		s++;
	for (k = 0; k < 3; k++) {
		size_t klen = strlen(key[k]);
		const char *v;
		char q[32];
		long value;

		if ((size_t)(end - s) <= klen || strncasecmp(s, key[k], klen))
			continue;
		v = s + klen;
		while (v < end && is_space(*v))
			v++;
		if (v == end || *v != ':')
			continue;	/* e.g. "MaxJobsPerUser" */
		v++;
		while (v < end && is_space(*v))
			v++;
		s = v;
		while (s < end && !is_space(*s))
			s++;
		if (trace_parse_integer(v, s - v, 0, LONG_MAX / 2, &value) < 0)
			return trace_bad_line(p, line->number,
					      "header %s is not a count: '%s'",
					      key[k], trace_quote(v, s - v, q));
		*slot[k] = value;
		return 0;
	}
	return 0;
}

/* Field f (token t) of the line is bad in the way `what` says; `note`
 * follows the quoted token (trace_bad_line). */
static void bad_field(trace_parser_t *p, const trace_line_t *line, int f,
		     const swf_token_t *t, const char *what, const char *note)
{
	char q[32];

	trace_bad_line(p, line->number, "field %d (%s) %s: '%s'%s", f,
		       swf_field_name[f - 1], what,
		       trace_quote(t->text, t->len, q), note);
}

/* Convert the 18 tokens; 1 if the job is well-formed, 0 if not (counted). */
static int convert_fields(trace_parser_t *p, const trace_line_t *line,
			  const swf_token_t *tok, double *value)
{
	for (int f = 1; f <= SWF_FIELDS; f++) {
		const swf_token_t *t = &tok[f - 1];
		double v;
		long iv;

		if (trace_parse_number(t->text, t->len, &v) < 0) {
			bad_field(p, line, f, t, "is not a number", "");
			return 0;
		}
		if (swf_field_is_integer(f)) {
			long limit = f == 1 ? (1L << 53) : INT_MAX;

			if (trace_parse_integer(t->text, t->len, -limit, limit,
						&iv) < 0) {
				bad_field(p, line, f, t,
					  "is not an integer in range", "");
				return 0;
			}
		}
		if (v < 0 && v != -1 && swf_field_must_not_be_negative(f)) {
			bad_field(p, line, f, t, "is negative",
				  " (the only negative value is -1, unknown)");
			return 0;
		}
		value[f] = v;
	}
	return 1;
}

/* Build the job from fields 1..18 and keep it, or count why it is skipped. */
static int keep_job(trace_parser_t *p, const trace_line_t *line,
		    const double *v)
{
	trace_t *t = p->out;
	trace_job_t job;

	trace_job_init(&job, line->number);
	job.id = (long)v[1];
	job.submit = v[2];
	job.wait = v[3];
	job.runtime = v[4];
	job.cpu_used = v[6];
	job.mem_used_kb = v[7];
	job.req_procs = (int)v[8];
	job.req_time = v[9];
	job.req_mem_kb = v[10];
	job.status = (int)v[11];
	job.user = (int)v[12];
	job.group = (int)v[13];
	job.app = (int)v[14];
	job.queue = (int)v[15];
	job.partition = (int)v[16];
	if (v[5] > 0)
		job.procs = (int)v[5];
	else if (v[8] > 0)
		job.procs = (int)v[8];

	if (job.submit < 0) {
		trace_skip(p, &t->skipped_no_submit);
		return 0;
	}
	if (job.runtime < 0) {
		trace_skip(p, &t->skipped_no_runtime);
		return 0;
	}
	if (job.procs < 1) {
		trace_skip(p, &t->skipped_no_procs);
		return 0;
	}
	if (job.req_time > 0)
		t->has_req_time = 1;
	return trace_add_job(p, &job);
}

int trace_swf_parse(trace_parser_t *p, const char *data, size_t len)
{
	size_t pos = 0, number = 0;
	trace_line_t line;

	while (!p->failed && trace_next_line(data, len, &pos, &number, &line)) {
		swf_token_t tok[SWF_FIELDS];
		double value[SWF_FIELDS + 1];
		size_t i = 0;
		int n;

		while (i < line.len && is_space(line.text[i]))
			i++;
		if (i == line.len)
			continue;	/* blank */
		if (line.text[i] == ';') {
			trace_line_t rest = { line.text + i, line.len - i,
					      line.number };

			parse_header(p, &rest);
			continue;
		}
		n = split_fields(&line, tok, SWF_FIELDS);
		if (n != SWF_FIELDS) {
			trace_bad_line(p, line.number, "has %s%d fields, an "
				       "SWF job line has %d",
				       n > SWF_FIELDS ? "more than " : "",
				       n > SWF_FIELDS ? SWF_FIELDS : n,
				       SWF_FIELDS);
			continue;
		}
		if (convert_fields(p, &line, tok, value))
			keep_job(p, &line, value);
	}
	return p->failed ? -1 : 0;
}
