/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_names.h - numbers for names: the first distinct name gets 1, the
 * next 2, ... (as SWF numbers users, groups and partitions).  Used for sacct
 * columns that hold names (User, Group, Partition).
 */
#ifndef DFRS_TRACE_NAMES_H
#define DFRS_TRACE_NAMES_H

#include <stddef.h>

typedef struct {
	char **name;		/* open addressing, NULL = free slot */
	int *number;
	size_t cap;		/* slots, a power of two (0 before first use) */
	size_t count;		/* distinct names so far */
} trace_names_t;

/* The number of name[0..len) (added if new); -1 on out-of-memory. */
int trace_names_number(trace_names_t *names, const char *name, size_t len);

void trace_names_free(trace_names_t *names);

#endif
