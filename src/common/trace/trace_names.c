/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_names.c - a small string hash table numbering names in order of
 * first appearance (see trace_names.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace_names.h"

static uint64_t hash_name(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot holding name, or the free slot where it belongs. */
static size_t find_slot(const trace_names_t *t, const char *s, size_t len)
{
	size_t i = hash_name(s, len) & (t->cap - 1);

	while (t->name[i] && (strlen(t->name[i]) != len ||
			      memcmp(t->name[i], s, len)))
		i = (i + 1) & (t->cap - 1);
	return i;
}

static int grow_table(trace_names_t *t)
{
	trace_names_t bigger = { NULL, NULL, t->cap ? t->cap * 2 : 64, 0 };
	size_t i;

	bigger.name = calloc(bigger.cap, sizeof(*bigger.name));
	bigger.number = calloc(bigger.cap, sizeof(*bigger.number));
	if (!bigger.name || !bigger.number) {
		free(bigger.name);
		free(bigger.number);
		return -1;
	}
	for (i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->name[i])
			continue;
		j = find_slot(&bigger, t->name[i], strlen(t->name[i]));
		bigger.name[j] = t->name[i];
		bigger.number[j] = t->number[i];
	}
	bigger.count = t->count;
	free(t->name);
	free(t->number);
	*t = bigger;
	return 0;
}

int trace_names_number(trace_names_t *t, const char *s, size_t len)
{
	size_t i;
	char *copy;

	if ((t->count + 1) * 2 > t->cap && grow_table(t) < 0)
		return -1;
	i = find_slot(t, s, len);
	if (t->name[i])
		return t->number[i];
	copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->name[i] = copy;
	t->number[i] = (int)++t->count;
	return t->number[i];
}

void trace_names_free(trace_names_t *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->name[i]);
	free(t->name);
	free(t->number);
	memset(t, 0, sizeof(*t));
}
