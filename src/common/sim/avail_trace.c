/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_trace.c - reading node availability traces (format in
 * avail_trace.h), with one message naming file:line and field for the
 * first malformed line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avail_trace.h"

void avail_trace_free(avail_trace_t *t)
{
	free(t->on);
	memset(t, 0, sizeof(*t));
}

/* Room for one more slot of `nodes` fields; 0 or -1 if out of memory. */
static int grow(avail_trace_t *t, size_t *capacity)
{
	if (t->slots < *capacity)
		return 0;
	size_t cap = *capacity ? 2 * *capacity : 256;
	unsigned char *on = realloc(t->on, cap * t->nodes);

	if (!on)
		return -1;
	t->on = on;
	*capacity = cap;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The fields of one slot line into row[] (room for `room`); the number of
 * fields into *count (counted past room).  0, or -1 with err for a field
 * that is not 0 or 1. */
static int parse_line(const char *line, unsigned char *row, size_t room, size_t *count,
		      const char *where, char *err, size_t errlen)
{
	const char *p = line;

	*count = 0;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			return 0;
		const char *start = p;

		while (*p && !is_blank(*p))
			p++;
		size_t len = (size_t)(p - start);

		(*count)++;
		if (len != 1 || (*start != '0' && *start != '1')) {
			snprintf(err, errlen, "%s: field %zu is '%.*s', not 0 or 1", where, *count,
				 len > 20 ? 20 : (int)len, start);
			return -1;
		}
		if (*count <= room)
			row[*count - 1] = (unsigned char)(*start == '1');
	}
}

static bool is_comment_or_blank(const char *line)
{
	while (is_blank(*line))
		line++;
	return !*line || *line == '#';
}

int avail_trace_read(const char *path, avail_trace_t *out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, where[512];
	size_t linecap = 0, capacity = 0, lineno = 0, first_line = 0;
	unsigned char *row = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &linecap, f) >= 0) {
		size_t count;

		lineno++;
		if (is_comment_or_blank(line))
			continue;
		snprintf(where, sizeof(where), "%s:%zu", path, lineno);
		if (!out->nodes) {
			/* the first slot line sets the number of nodes */
			if (parse_line(line, NULL, 0, &out->nodes, where, err, errlen))
				goto out;
			first_line = lineno;
			row = malloc(out->nodes);
			if (!row)
				goto oom;
		}
		if (parse_line(line, row, out->nodes, &count, where, err, errlen))
			goto out;
		if (count != out->nodes) {
			snprintf(err, errlen, "%s: %zu fields, line %zu has %zu", where, count,
				 first_line, out->nodes);
			goto out;
		}
		if (grow(out, &capacity))
			goto oom;
		memcpy(out->on + out->slots * out->nodes, row, out->nodes);
		out->slots++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		goto out;
	}
	if (!out->slots) {
		snprintf(err, errlen, "%s: no slot lines", path);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s:%zu: out of memory", path, lineno);
out:
	if (rc)
		avail_trace_free(out);
	free(row);
	free(line);
	fclose(f);
	return rc;
}
