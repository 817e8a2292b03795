/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_util.c - what the fuzz targets share (fuzz_targets.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

void fuzz_broken(const char *file, int line, const char *what)
{
	fprintf(stderr, "fuzz: %s:%d: broken promise: %s\n", file, line, what);
	abort();
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int fuzz_one_message(const char *err)
{
	return err[0] != '\0' && !strchr(err, '\n');
}
