/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * name_suggest.c - the closest known name to a mistyped one
 * (name_suggest.h): Damerau-Levenshtein distance (optimal string
 * alignment) over lower-cased letters, names of at most 63 characters.
 */
#include <ctype.h>
#include <string.h>

#include "name_suggest.h"

#define NAME_MAX_LEN 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Edit distance between a and b (each shorter than NAME_MAX_LEN). */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[NAME_MAX_LEN][NAME_MAX_LEN];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

const char *name_suggest(const char *typed, const char *const *names,
			 size_t n)
{
	size_t lt = typed ? strlen(typed) : 0;
	size_t limit = lt / 3, best_d = (size_t)-1;
	const char *best = NULL;

	if (lt == 0 || lt >= NAME_MAX_LEN)
		return NULL;
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < n; i++) {
		size_t ln = names[i] ? strlen(names[i]) : 0;
		if (ln == 0 || ln >= NAME_MAX_LEN)
			continue;
		size_t dist = distance(typed, lt, names[i], ln);
		if (dist <= limit && dist < best_d) {
			best_d = dist;
			best = names[i];
		}
	}
	return best;
}
