/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_parser.c - the parse state shared by the trace formats: splitting
 * the buffer into lines, "file:line: what" messages (strict mode stops at
 * the first), and the growing job array.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_parser.h"

int trace_next_line(const char *data, size_t len, size_t *pos,
		    size_t *number, trace_line_t *line)
{
	const char *nl;
	size_t start = *pos, end;

	if (start >= len)
		return 0;
	nl = memchr(data + start, '\n', len - start);
	end = nl ? (size_t)(nl - data) : len;
	*pos = nl ? end + 1 : len;
	line->text = data + start;
	line->len = end - start;
	if (line->len > 0 && line->text[line->len - 1] == '\r')
		line->len--;
	line->number = ++*number;
	return 1;
}

static void format_message(char *buf, size_t buflen, const char *name,
			   size_t line, const char *fmt, va_list ap)
{
	int n;

	if (line)
		n = snprintf(buf, buflen, "%s:%zu: ", name, line);
	else
		n = snprintf(buf, buflen, "%s: ", name);
	if (n < 0 || (size_t)n >= buflen)
		return;
	vsnprintf(buf + n, buflen - n, fmt, ap);
}

int trace_fail(trace_parser_t *p, size_t line, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -1;	/* keep the first reason */
	p->failed = 1;
	if (p->err && p->errlen) {
		va_start(ap, fmt);
		format_message(p->err, p->errlen, p->name, line, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int trace_bad_line(trace_parser_t *p, size_t line, const char *fmt, ...)
{
	const trace_read_opts_t *o = p->opts;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	format_message(msg, sizeof(msg), p->name, line, fmt, ap);
	va_end(ap);
	if (o->strict) {
		if (!p->failed && p->err && p->errlen)
			snprintf(p->err, p->errlen, "%s", msg);
		p->failed = 1;
		return -1;
	}
	p->out->bad_lines++;
	if (!o->diag)
		return 0;
	if (o->max_diag == 0 || p->ndiag < o->max_diag)
		fprintf(o->diag, "%s\n", msg);
	else if (p->ndiag == o->max_diag)
		fprintf(o->diag, "%s: further messages about malformed lines "
			"are not shown\n", p->name);
	else
		return 0;
	p->ndiag++;
	return 0;
}

int trace_add_job(trace_parser_t *p, const trace_job_t *job)
{
	trace_t *t = p->out;

	if (t->njobs == p->jobs_cap) {
		size_t cap = p->jobs_cap ? p->jobs_cap * 2 : 1024;
		trace_job_t *jobs = realloc(t->jobs, cap * sizeof(*jobs));

		if (!jobs)
			return trace_fail(p, 0, "out of memory after %zu jobs",
					  t->njobs);
		t->jobs = jobs;
		p->jobs_cap = cap;
	}
	t->jobs[t->njobs++] = *job;
	return 0;
}

void trace_job_init(trace_job_t *job, size_t line)
{
	job->id = -1;
	job->submit = -1;
	job->wait = -1;
	job->runtime = -1;
	job->procs = -1;
	job->req_procs = -1;
	job->cpu_used = -1;
	job->req_time = -1;
	job->mem_used_kb = -1;
	job->req_mem_kb = -1;
	job->alloc_nodes = -1;
	job->alloc_gpus = -1;
	job->alloc_mem_mb = -1;
	job->status = -1;
	job->user = job->group = job->queue = job->partition = -1;
	job->app = -1;
	job->line = line;
}

const char *trace_quote(const char *text, size_t len, char buf[32])
{
	size_t i, n = len > 24 ? 24 : len;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];

		buf[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (len > n) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

void trace_skip(trace_parser_t *p, size_t *reason)
{
	(*reason)++;
	p->out->skipped_jobs++;
}
