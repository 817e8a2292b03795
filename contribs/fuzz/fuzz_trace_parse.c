/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_trace_parse.c - libFuzzer harness for trace_parse(): any bytes,
 * plain or gzip, SWF or sacct.  The first byte picks strict mode and the
 * message limit; gzip output is capped at 1 MiB so a bomb is refused, not
 * fuzzed into an out-of-memory.  Built by contribs/fuzz/build.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	trace_read_opts_t opts = { 0, NULL, 0, (size_t)1 << 20 };
	trace_t t;
	char err[256];
	size_t i;

	if (size == 0)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	opts.strict = data[0] & 1;
	opts.diag = (data[0] & 2) ? devnull : NULL;
	opts.max_diag = (data[0] >> 2) & 7;
	if (trace_parse((const char *)data + 1, size - 1, "fuzz", &opts, &t,
			err, sizeof(err)) == 0) {
		/* what a successful read promises */
		if (t.njobs == 0 || !t.jobs || t.jobs[0].submit != 0)
			__builtin_trap();
		for (i = 0; i < t.njobs; i++)
			if (t.jobs[i].procs < 1 || t.jobs[i].runtime < 0 ||
			    (i && t.jobs[i].submit < t.jobs[i - 1].submit))
				__builtin_trap();
	} else if (t.jobs || t.njobs || err[0] == '\0') {
		__builtin_trap();
	}
	trace_free(&t);
	return 0;
}
