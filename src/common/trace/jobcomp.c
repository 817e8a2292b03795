/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobcomp.c - read jobcomp/filetxt records (jobcomp.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobcomp.h"
#include "trace.h"

void jobcomp_free(jobcomp_t *jc)
{
	if (!jc)
		return;
	free(jc->recs);
	memset(jc, 0, sizeof(*jc));
}

/* The value of " KEY=" in line (or at its start), up to the next space,
 * into buf; -1 if the key is absent or the value does not fit. */
static int value_of(const char *line, size_t len, const char *key,
		    char *buf, size_t buflen)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i + klen < len; i++) {
		if ((i && line[i - 1] != ' ') || strncmp(line + i, key, klen) ||
		    line[i + klen] != '=')
			continue;
		const char *v = line + i + klen + 1;
		size_t n = 0;

		while (v + n < line + len && v[n] != ' ')
			n++;
		if (n >= buflen)
			return -1;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return 0;
	}
	return -1;
}

/* 2026-11-22T20:45:55 as seconds (as if UTC); Unknown and None are -1. */
static int parse_time(const char *s, double *out)
{
	struct tm tm = { 0 };
	char rest;

	if (!strcmp(s, "Unknown") || !strcmp(s, "None")) {
		*out = -1;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
		   &rest) != 6 || tm.tm_mon < 1 || tm.tm_mon > 12 ||
	    tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = (double)timegm(&tm);
	return 0;
}

static int parse_line(const char *line, size_t len, jobcomp_rec_t *r,
		      char *what, size_t whatlen)
{
	static const char *const times[] = { "SubmitTime", "StartTime",
					     "EndTime" };
	double *dest[] = { &r->submit, &r->start, &r->end };
	char buf[64], *end;

	if (value_of(line, len, "JobId", buf, sizeof(buf))) {
		snprintf(what, whatlen, "no JobId= (not a jobcomp record)");
		return -1;
	}
	errno = 0;
	r->job_id = strtol(buf, &end, 10);
	if (end == buf || *end || errno || r->job_id < 1) {
		snprintf(what, whatlen, "JobId '%s' is not a job id", buf);
		return -1;
	}
	if (value_of(line, len, "Name", r->name, sizeof(r->name)) ||
	    value_of(line, len, "JobState", r->state, sizeof(r->state))) {
		snprintf(what, whatlen, "JobId=%ld: no Name= or JobState=",
			 r->job_id);
		return -1;
	}
	for (int i = 0; i < 3; i++) {
		if (value_of(line, len, times[i], buf, sizeof(buf))) {
			snprintf(what, whatlen, "JobId=%ld: no %s=", r->job_id,
				 times[i]);
			return -1;
		}
		if (parse_time(buf, dest[i])) {
			snprintf(what, whatlen, "JobId=%ld: %s '%s' is not a "
				 "time", r->job_id, times[i], buf);
			return -1;
		}
	}
	return 0;
}

int jobcomp_parse(const char *text, size_t len, const char *name,
		  jobcomp_t *out, char *err, size_t errlen)
{
	size_t pos = 0, number = 0, cap = 0;
	char what[160];

	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", name);
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		number++;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
			n--;
		if (!n)
			continue;
		if (out->n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			jobcomp_rec_t *p = realloc(out->recs,
						   ncap * sizeof(*p));
			if (!p) {
				snprintf(err, errlen, "%s: out of memory", name);
				jobcomp_free(out);
				return -1;
			}
			out->recs = p;
			cap = ncap;
		}
		jobcomp_rec_t *r = &out->recs[out->n];
		memset(r, 0, sizeof(*r));
		r->line = number;
		if (parse_line(line, n, r, what, sizeof(what))) {
			snprintf(err, errlen, "%s:%zu: %s", name, number, what);
			jobcomp_free(out);
			return -1;
		}
		out->n++;
	}
	return 0;
}

int jobcomp_read(const char *path, jobcomp_t *out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (trace_read_file(path, TRACE_MAX_BYTES, &text, &len, err, errlen))
		return -1;
	rc = jobcomp_parse(text ? text : "", len, path, out, err, errlen);
	free(text);
	return rc;
}
