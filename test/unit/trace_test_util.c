/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_test_util.c - helpers for the trace reader's unit tests (see
 * trace_test_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace_test_util.h"

char *test_gzip(const char *data, size_t len, size_t *outlen)
{
	z_stream zs;
	size_t cap = len + len / 2 + 1024;
	char *out = malloc(cap);

	memset(&zs, 0, sizeof(zs));
	if (!out || deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = (Bytef *)out;
	zs.avail_out = (uInt)cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	*outlen = zs.total_out;
	deflateEnd(&zs);
	return out;
}

char *test_write_temp(const char *data, size_t len)
{
	char *path = strdup("/tmp/dfrs-test-trace-XXXXXX");
	int fd;

	if (!path || (fd = mkstemp(path)) < 0)
		abort();
	if (len && write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
	return path;
}

char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int test_parse_capture(const char *data, size_t len, const char *name,
		       int strict, size_t max_diag, size_t max_bytes,
		       trace_t *out, char **diag, char *err, size_t errlen)
{
	size_t diag_len = 0;
	FILE *f;
	trace_read_opts_t opts;
	int rc;

	*diag = NULL;
	f = open_memstream(diag, &diag_len);
	if (!f)
		abort();
	memset(&opts, 0, sizeof(opts));
	opts.strict = strict;
	opts.diag = f;
	opts.max_diag = max_diag;
	opts.max_bytes = max_bytes;
	rc = trace_parse(data, len, name, &opts, out, err, errlen);
	fclose(f);
	return rc;
}
