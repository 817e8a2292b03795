/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_read.c - the trace reader's entry points (trace.h): read a file
 * (bounded), inflate gzip, refuse binary data, choose SWF or sacct by
 * content, then sort the jobs by submit time and make times relative to
 * the first submit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace_gzip.h"
#include "trace_parser.h"
#include "arrival_order.h"

const char *trace_format_name(int format)
{
	switch (format) {
	case TRACE_FORMAT_SWF:
		return "swf";
	case TRACE_FORMAT_SACCT:
		return "sacct";
	}
	return "unknown";
}

void trace_free(trace_t *t)
{
	if (!t)
		return;
	free(t->jobs);
	for (size_t i = 0; i < t->npartition_names; i++)
		free(t->partition_names[i]);
	free(t->partition_names);
	memset(t, 0, sizeof(*t));
}

long trace_machine_procs(const trace_t *t)
{
	long procs = t->header_max_procs > 0 ? t->header_max_procs
					      : t->header_max_nodes;

	if (procs <= 0) {
		procs = 0;
		for (size_t i = 0; i < t->njobs; i++)
			if (t->jobs[i].procs > procs)
				procs = t->jobs[i].procs;
	}
	return procs;
}

static void trace_init(trace_t *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->header_max_jobs = t->header_max_procs = t->header_max_nodes = -1;
	snprintf(t->source, sizeof(t->source), "%s", name);
}

static void set_err(char *err, size_t errlen, const char *name,
		    const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", name, what);
}

/* Submit order, ties in file order (line numbers are unique). */
static int by_submit(const void *a, const void *b)
{
	const trace_job_t *x = a, *y = b;

	return arrival_order(x->submit, (long)x->line, y->submit,
			     (long)y->line);
}

/*
 * The first line with content decides: a sacct header, else SWF.  Returns
 * 0 if every line is blank or a ';' comment, -1 (its number in *line_no)
 * if that line starts with a letter but names no job id column: neither
 * format, and one message says so rather than one per line.
 */
static int detect_format(const char *data, size_t len, size_t *line_no)
{
	size_t pos = 0, number = 0;
	trace_line_t line;

	while (trace_next_line(data, len, &pos, &number, &line)) {
		size_t i = 0;

		while (i < line.len && (line.text[i] == ' ' ||
					line.text[i] == '\t'))
			i++;
		if (i == line.len || line.text[i] == ';')
			continue;
		if (trace_sacct_is_header(&line))
			return TRACE_FORMAT_SACCT;
		if ((line.text[i] >= 'a' && line.text[i] <= 'z') ||
		    (line.text[i] >= 'A' && line.text[i] <= 'Z')) {
			*line_no = line.number;
			return -1;
		}
		return TRACE_FORMAT_SWF;
	}
	return 0;
}

static void write_summary(const trace_parser_t *p)
{
	const trace_t *t = p->out;
	FILE *f = p->opts->diag;

	if (!f || (t->bad_lines == 0 && t->skipped_jobs == 0))
		return;
	fprintf(f, "%s: %zu jobs read, %zu malformed lines skipped, %zu "
		"records that cannot be simulated skipped (%zu no submit "
		"time, %zu no run time, %zu no processors, %zu not ended, "
		"%zu job steps)\n", p->name, t->njobs, t->bad_lines,
		t->skipped_jobs, t->skipped_no_submit, t->skipped_no_runtime,
		t->skipped_no_procs, t->skipped_unfinished, t->skipped_steps);
}

/* Parse text (already inflated); fills p->out. */
static int parse_text(trace_parser_t *p, const char *text, size_t len)
{
	trace_t *t = p->out;
	const char *nul = memchr(text, '\0', len);
	size_t i, line_no = 0;
	double first;

	if (nul)
		return trace_fail(p, 0, "binary data, not an SWF or sacct "
				  "trace (a NUL byte at offset %zu)",
				  (size_t)(nul - text));
	t->format = detect_format(text, len, &line_no);
	if (t->format < 0) {
		t->format = 0;
		return trace_fail(p, line_no, "neither an SWF job line (18 "
				  "numbers) nor a sacct header (a JobIDRaw or "
				  "JobID column): not a trace");
	}
	if (t->format == 0)
		return trace_fail(p, 0, len ? "no job line (only comments "
				  "or blank lines)" : "empty");
	if (t->format == TRACE_FORMAT_SACCT ?
	    trace_sacct_parse(p, text, len) < 0 :
	    trace_swf_parse(p, text, len) < 0)
		return -1;
	if (t->njobs == 0)
		return trace_fail(p, 0, "no job that can be simulated (%zu "
				  "malformed lines, %zu records skipped)",
				  t->bad_lines, t->skipped_jobs);
	qsort(t->jobs, t->njobs, sizeof(*t->jobs), by_submit);
	first = t->jobs[0].submit;
	for (i = 0; i < t->njobs; i++)
		t->jobs[i].submit -= first;
	return 0;
}

int trace_parse(const char *data, size_t len, const char *name,
		const trace_read_opts_t *opts, trace_t *out,
		char *err, size_t errlen)
{
	static const trace_read_opts_t defaults;
	trace_parser_t p;
	size_t max;
	char *inflated = NULL;
	int rc;

	if (!name)
		name = "(buffer)";
	if (!opts)
		opts = &defaults;
	if (err && errlen)
		err[0] = '\0';
	trace_init(out, name);
	memset(&p, 0, sizeof(p));
	p.name = name;
	p.opts = opts;
	p.out = out;
	p.err = err;
	p.errlen = errlen;
	max = opts->max_bytes ? opts->max_bytes : TRACE_MAX_BYTES;

	if (len == 0) {
		rc = trace_fail(&p, 0, "empty");
	} else if (len > max) {
		rc = trace_fail(&p, 0, "larger than %zu bytes", max);
	} else if (trace_is_gzip(data, len)) {
		char why[128];
		size_t inflated_len;

		if (trace_gunzip(data, len, max, &inflated, &inflated_len,
				 why, sizeof(why)) < 0)
			rc = trace_fail(&p, 0, "%s", why);
		else if (inflated_len == 0)
			rc = trace_fail(&p, 0, "empty (gzip data inflates to "
					"nothing)");
		else
			rc = parse_text(&p, inflated, inflated_len);
	} else {
		rc = parse_text(&p, data, len);
	}
	free(inflated);
	if (rc < 0) {
		free(out->jobs);
		out->jobs = NULL;
		out->njobs = 0;
		return -1;
	}
	if (!opts->strict)
		write_summary(&p);
	return 0;
}

int trace_read_file(const char *path, size_t max, char **data, size_t *len,
		    char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf = NULL;
	size_t cap = 0, used = 0;
	char what[160];

	if (!f) {
		snprintf(what, sizeof(what), "cannot open: %s",
			 strerror(errno));
		set_err(err, errlen, path, what);
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		set_err(err, errlen, path, "is a directory, not a trace file");
		return -1;
	}
	for (;;) {
		size_t n;

		if (used == cap) {
			size_t cap2 = cap ? cap * 2 : 65536;
			char *b;

			if (cap > max) {
				snprintf(what, sizeof(what), "larger than %zu "
					 "bytes", max);
				goto fail;
			}
			if (cap2 > max + 1)
				cap2 = max + 1;
			b = realloc(buf, cap2);
			if (!b) {
				snprintf(what, sizeof(what), "out of memory "
					 "reading %zu bytes", cap2);
				goto fail;
			}
			buf = b;
			cap = cap2;
		}
		n = fread(buf + used, 1, cap - used, f);
		used += n;
		if (n == 0) {
			if (ferror(f)) {
				snprintf(what, sizeof(what), "read error: %s",
					 strerror(errno));
				goto fail;
			}
			break;
		}
	}
	fclose(f);
	*data = buf;
	*len = used;
	return 0;
fail:
	fclose(f);
	free(buf);
	set_err(err, errlen, path, what);
	return -1;
}

int trace_read(const char *path, const trace_read_opts_t *opts,
	       trace_t *out, char *err, size_t errlen)
{
	size_t max = opts && opts->max_bytes ? opts->max_bytes :
		     TRACE_MAX_BYTES;
	char *data = NULL;
	size_t len = 0;
	int rc;

	trace_init(out, path);
	if (trace_read_file(path, max, &data, &len, err, errlen) < 0)
		return -1;
	rc = trace_parse(data, len, path, opts, out, err, errlen);
	free(data);
	return rc;
}
