/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measured_tag.c - the dfrs:measured= word of a node's Extra field
 * (measured_tag.h; Liu et al. 2013, section 4.1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured_tag.h"

int measured_tag_format(const measured_entry_t *jobs, size_t n, long stamp,
			char *buf, size_t len)
{
	size_t at;
	int k;

	if (n == 0 || n > MEASURED_TAG_MAX_JOBS)
		return -1;
	k = snprintf(buf, len, "%s", MEASURED_TAG_PREFIX);
	at = (size_t)k;
	for (size_t i = 0; i < n && at < len; i++) {
		double v = jobs[i].need;
		v = !(v >= 0) ? 0 : v > 1 ? 1 : v;
		k = snprintf(buf + at, len - at, "%s%u:%.2f", i ? "," : "",
			     jobs[i].job_id, v);
		at += (size_t)k;
	}
	if (at < len) {
		k = snprintf(buf + at, len - at, "@%ld", stamp);
		at += (size_t)k;
	}
	return at < len ? 0 : -1;
}

/* The word of text starting with the prefix, and its length. */
static const char *find_word(const char *text, size_t *wlen)
{
	size_t plen = strlen(MEASURED_TAG_PREFIX);

	for (const char *s = text; s && *s;) {
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		if (n >= plen && !strncmp(s, MEASURED_TAG_PREFIX, plen)) {
			*wlen = n;
			return s;
		}
		s += n;
	}
	return NULL;
}

static int parse_u32(const char **s, uint32_t *out)
{
	unsigned long long v = 0;
	const char *c = *s;

	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		v = v * 10 + (unsigned long long)(*c - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*s = c;
	*out = (uint32_t)v;
	return 0;
}

int measured_tag_parse(const char *text, measured_tag_t *out, char *err,
		       size_t errlen)
{
	size_t wlen;
	const char *w = find_word(text, &wlen);
	char buf[8192], *end;

	out->njobs = 0;
	out->stamp = 0;
	if (!w)
		return 0;
	if (wlen >= sizeof(buf)) {
		snprintf(err, errlen, "%s...: longer than %zu characters",
			 MEASURED_TAG_PREFIX, sizeof(buf) - 1);
		return -1;
	}
	memcpy(buf, w, wlen);
	buf[wlen] = 0;
	const char *s = buf + strlen(MEASURED_TAG_PREFIX);
	char *at = strrchr(buf, '@');
	if (!at || at < s) {
		snprintf(err, errlen, "%s: no @<time> at the end", buf);
		return -1;
	}
	*at = 0;
	errno = 0;
	long stamp = strtol(at + 1, &end, 10);
	if (errno || end == at + 1 || *end || stamp <= 0) {
		snprintf(err, errlen, "%s@%s: the time is not a positive "
			 "integer", buf, at + 1);
		return -1;
	}
	while (*s) {
		measured_entry_t e;
		if (out->njobs == MEASURED_TAG_MAX_JOBS) {
			snprintf(err, errlen, "more than %d jobs",
				 MEASURED_TAG_MAX_JOBS);
			return -1;
		}
		if (parse_u32(&s, &e.job_id) || *s != ':') {
			snprintf(err, errlen, "'%s': expected <job>:<need>", s);
			return -1;
		}
		s++;
		errno = 0;
		e.need = strtod(s, &end);
		if (end == s || errno || !isfinite(e.need) ||
		    (*end && *end != ',')) {
			snprintf(err, errlen, "job %u: need '%.*s' is not a "
				 "number", e.job_id, (int)strcspn(s, ","), s);
			return -1;
		}
		if (e.need < 0 || e.need > 1) {
			snprintf(err, errlen, "job %u: need %g is not in 0..1",
				 e.job_id, e.need);
			return -1;
		}
		out->jobs[out->njobs++] = e;
		s = *end ? end + 1 : end;
		if (*end && !*s) {
			snprintf(err, errlen, "a ',' ends the job list");
			return -1;
		}
	}
	if (!out->njobs) {
		snprintf(err, errlen, "no job before @");
		return -1;
	}
	out->stamp = stamp;
	return 1;
}

int measured_tag_need(const measured_tag_t *t, uint32_t job_id, double *need)
{
	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].job_id == job_id) {
			*need = t->jobs[i].need;
			return 0;
		}
	return -1;
}

int measured_tag_replace(const char *text, const char *word, char **out)
{
	size_t len = (text ? strlen(text) : 0) + (word ? strlen(word) : 0) + 2;
	char *o = malloc(len);
	size_t at = 0, plen = strlen(MEASURED_TAG_PREFIX);

	if (!o)
		return -1;
	for (const char *s = text; s && *s;) {
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		if (n && !(n >= plen && !strncmp(s, MEASURED_TAG_PREFIX, plen))) {
			if (at)
				o[at++] = ' ';
			memcpy(o + at, s, n);
			at += n;
		}
		s += n;
	}
	if (word) {
		if (at)
			o[at++] = ' ';
		memcpy(o + at, word, strlen(word));
		at += strlen(word);
	}
	o[at] = 0;
	*out = o;
	return 0;
}

bool measured_tag_fresh(long stamp, long now, int stale)
{
	return now - stamp <= stale;
}

measured_report_t measured_tag_report(const char *text, long now, int stale,
				      long *age)
{
	measured_tag_t tag;
	char err[160];
	int rc = measured_tag_parse(text, &tag, err, sizeof(err));

	if (age)
		*age = 0;
	if (rc < 0)
		return MEASURED_REPORT_BAD;
	if (rc == 0)
		return MEASURED_REPORT_NONE;
	if (age)
		*age = now > tag.stamp ? now - tag.stamp : 0;
	return measured_tag_fresh(tag.stamp, now, stale) ?
	       MEASURED_REPORT_FRESH : MEASURED_REPORT_STALE;
}
