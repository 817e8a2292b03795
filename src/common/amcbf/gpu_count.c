/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpu_count.c - the GPUs a Slurm GRES or TRES list names (gpu_count.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_count.h"

/* The count at the end of one entry's fields "name[:type][:count]"
 * (text .. end, the parenthesized socket list cut off); -1 if malformed. */
static long entry_count(const char *text, const char *end)
{
	const char *colon = NULL, *p;
	long n = 0, unit = 1;

	for (p = text; p < end; p++)
		if (*p == ':' || *p == '=')
			colon = p;
	if (!colon)
		return 1;	/* "gpu": one */
	p = colon + 1;
	if (p == end)
		return -1;
	if (!isdigit((unsigned char)*p))
		return *colon == ':' ? 1 : -1;	/* "gpu:a100": a type, one */
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if (n > (1L << 40))
			return -1;
		n = 10 * n + (*p - '0');
	}
	if (p < end) {
		switch (tolower((unsigned char)*p++)) {
		case 'k': unit = 1024; break;
		case 'm': unit = 1024L * 1024; break;
		case 'g': unit = 1024L * 1024 * 1024; break;
		default: return -1;
		}
	}
	return p == end ? n * unit : -1;
}

long gpu_count(const char *list)
{
	long sum = 0;
	const char *p = list;

	while (p && *p) {
		const char *start = p, *name, *end;
		long n;
		int depth = 0;

		/* one entry: up to a comma outside parentheses */
		for (; *p && (depth || *p != ','); p++)
			depth += (*p == '(') - (*p == ')');
		end = memchr(start, '(', (size_t)(p - start));
		if (!end)
			end = p;
		if (*p)
			p++;
		name = start;
		if (!strncmp(name, "gres:", 5) || !strncmp(name, "gres/", 5))
			name += 5;
		if (strncmp(name, "gpu", 3) ||
		    (name + 3 < end && name[3] != ':' && name[3] != '='))
			continue;
		if ((n = entry_count(name + 3, end)) < 0)
			return -1;
		sum += n;
	}
	return sum;
}
