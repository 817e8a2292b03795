/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_test_util.h - helpers shared by the trace reader's unit tests:
 * gzip a buffer, write a temporary file, parse with messages captured.
 */
#ifndef DFRS_TRACE_TEST_UTIL_H
#define DFRS_TRACE_TEST_UTIL_H

#include <stddef.h>

#include "trace/trace.h"

/* gzip data[0..len) into a malloc'ed buffer (one member); *outlen set. */
char *test_gzip(const char *data, size_t len, size_t *outlen);

/* Write data to a new temporary file; returns its malloc'ed path. */
char *test_write_temp(const char *data, size_t len);

/* The contents of a file (malloc'ed, NUL-terminated); *len set. */
char *test_slurp(const char *path, size_t *len);

/*
 * trace_parse(text) with opts (strict, max_diag, max_bytes from the
 * arguments) and its messages captured: returns trace_parse's value,
 * *diag gets the malloc'ed messages ("" if none), err the error line.
 */
int test_parse_capture(const char *data, size_t len, const char *name,
		       int strict, size_t max_diag, size_t max_bytes,
		       trace_t *out, char **diag, char *err, size_t errlen);

#endif
