/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_gzip.h - gzip detection and bounded in-memory inflation for the
 * trace reader.
 */
#ifndef DFRS_TRACE_GZIP_H
#define DFRS_TRACE_GZIP_H

#include <stddef.h>
#include <stdio.h>

/* Whether data starts with the gzip magic bytes 1f 8b. */
int trace_is_gzip(const char *data, size_t len);

/*
 * Inflate in[0..inlen) (gzip members back to back) into a malloc'ed *out of
 * *outlen bytes, at most max_out.  0, or -1 with why ("truncated gzip
 * data", "corrupt gzip data: ...", "inflates to more than N bytes").
 */
int trace_gunzip(const char *in, size_t inlen, size_t max_out, char **out,
		 size_t *outlen, char *why, size_t whylen);

#endif
