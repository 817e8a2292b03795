/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_gzip.c - inflate a gzip buffer (one or more concatenated members,
 * as gzip(1) writes them) into memory, refusing output beyond a limit so a
 * small corrupt or hostile file cannot exhaust memory.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace_gzip.h"

int trace_is_gzip(const char *data, size_t len)
{
	return len >= 2 && (unsigned char)data[0] == 0x1f &&
	       (unsigned char)data[1] == 0x8b;
}

/* Make room for at least one more byte in *buf, within max; -1 if not. */
static int grow(char **buf, size_t *cap, size_t used, size_t max)
{
	size_t cap2;
	char *b;

	if (used < *cap)
		return 0;
	if (*cap >= max)
		return -1;
	cap2 = *cap ? *cap * 2 : 65536;
	if (cap2 > max || cap2 < *cap)
		cap2 = max;
	b = realloc(*buf, cap2);
	if (!b)
		return -1;
	*buf = b;
	*cap = cap2;
	return 0;
}

int trace_gunzip(const char *in, size_t inlen, size_t max_out, char **out,
		 size_t *outlen, char *why, size_t whylen)
{
	z_stream zs;
	char *buf = NULL;
	size_t cap = 0, used = 0;
	int rc = Z_OK, ret = -1;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		snprintf(why, whylen, "cannot start zlib");
		return -1;
	}
	zs.next_in = (Bytef *)in;
	for (;;) {
		size_t left = inlen - (size_t)((const char *)zs.next_in - in);

		zs.avail_in = left > (1u << 30) ? (1u << 30) : (uInt)left;
		if (rc == Z_STREAM_END) {
			if (left == 0)
				break;
			if (!trace_is_gzip((const char *)zs.next_in, left)) {
				snprintf(why, whylen, "data that is not gzip "
					 "after the compressed stream (byte %zu)",
					 inlen - left);
				goto out;
			}
			inflateReset(&zs);	/* the next member */
		}
		if (grow(&buf, &cap, used, max_out) < 0) {
			snprintf(why, whylen, cap >= max_out ?
				 "inflates to more than %zu bytes" :
				 "out of memory inflating %zu bytes",
				 cap >= max_out ? max_out : cap);
			goto out;
		}
		zs.next_out = (Bytef *)buf + used;
		zs.avail_out = (cap - used) > (1u << 30) ? (1u << 30) :
			       (uInt)(cap - used);
		{
			uInt before = zs.avail_out;

			rc = inflate(&zs, Z_NO_FLUSH);
			used += before - zs.avail_out;
		}
		if (rc == Z_STREAM_END)
			continue;
		if (rc == Z_BUF_ERROR && zs.avail_in == 0 &&
		    (const char *)zs.next_in == in + inlen) {
			snprintf(why, whylen, "truncated gzip data (%zu bytes "
				 "inflated before the end)", used);
			goto out;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(why, whylen, "corrupt gzip data: %s",
				 zs.msg ? zs.msg : "inflate failed");
			goto out;
		}
		if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out > 0 &&
		    (const char *)zs.next_in == in + inlen) {
			snprintf(why, whylen, "truncated gzip data (%zu bytes "
				 "inflated before the end)", used);
			goto out;
		}
	}
	ret = 0;
out:
	inflateEnd(&zs);
	if (ret < 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = used;
	return 0;
}
