/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_parser.h - what the per-format trace readers (trace_swf.c,
 * trace_sacct.c) share with the dispatcher (trace_read.c): the parse state
 * with its message and job-array handling, line splitting and the field
 * conversions.  Internal to the trace reader; users include trace.h.
 */
#ifndef DFRS_TRACE_PARSER_H
#define DFRS_TRACE_PARSER_H

#include <stddef.h>

#include "trace.h"

/* One read in progress. */
typedef struct {
	const char *name;		/* the source, for messages */
	const trace_read_opts_t *opts;	/* never NULL here */
	trace_t *out;
	size_t jobs_cap;		/* allocated entries of out->jobs */
	size_t ndiag;			/* messages written to opts->diag */
	char *err;
	size_t errlen;
	int failed;			/* err holds why the read stops */
} trace_parser_t;

/* One line of the buffer, without its '\n' (nor a '\r' before it). */
typedef struct {
	const char *text;
	size_t len;
	size_t number;			/* 1-based */
} trace_line_t;

/*
 * The next line of data[0..len) from *pos (advanced past it); 0 at the end.
 * *number counts lines (start it at 0).
 */
int trace_next_line(const char *data, size_t len, size_t *pos,
		    size_t *number, trace_line_t *line);

/*
 * A malformed line: in strict mode the message goes to err and the parse
 * fails (returns -1); otherwise it is counted in bad_lines and written to
 * opts->diag (up to max_diag) and 0 is returned.  Prefixed "name:line: ".
 */
int trace_bad_line(trace_parser_t *p, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A fatal error for the whole read: err = "name[:line]: what"; returns -1. */
int trace_fail(trace_parser_t *p, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append a job (copied); -1 and trace_fail on out-of-memory. */
int trace_add_job(trace_parser_t *p, const trace_job_t *job);

/* A job with every field unknown (-1) and its line number. */
void trace_job_init(trace_job_t *job, size_t line);

/*
 * Quote a field for a message: at most 24 characters, non-printable bytes
 * as '?', "..." when cut.  buf must hold 32 bytes.
 */
const char *trace_quote(const char *text, size_t len, char buf[32]);

/*
 * Parse text[0..len) as a whole decimal number (optional sign, digits,
 * optional fraction and exponent; no inf/nan, no spaces).  0 on success.
 */
int trace_parse_number(const char *text, size_t len, double *value);

/* The same, requiring an integer within [min, max]. */
int trace_parse_integer(const char *text, size_t len, long min, long max,
			long *value);

/*
 * A Slurm duration: "[D-]H:M:S", "[D-]H:M", "D-H", "M:S" or "M", the last
 * component with an optional fraction (TotalCPU has ".mmm").  Seconds, 0
 * on success.
 */
int trace_parse_duration(const char *text, size_t len, double *seconds);

/*
 * A sacct timestamp "YYYY-MM-DDTHH:MM:SS" (a space for the T accepted) as
 * seconds since 1970-01-01 read as UTC (the trace only needs differences).
 */
int trace_parse_timestamp(const char *text, size_t len, double *seconds);

/*
 * The format readers: parse every line of data[0..len) into p->out (jobs,
 * counters, header values).  0, or -1 when p->failed (strict mode, out of
 * memory, a sacct file without a usable header).
 */
int trace_swf_parse(trace_parser_t *p, const char *data, size_t len);
int trace_sacct_parse(trace_parser_t *p, const char *data, size_t len);

/*
 * Whether a line is the header of a sacct export: it starts with a letter
 * and one of its '|' or ',' separated names is JobID or JobIDRaw.
 */
int trace_sacct_is_header(const trace_line_t *line);

/* Count a skipped record under reason (one of out->skipped_*). */
void trace_skip(trace_parser_t *p, size_t *reason);

#endif
