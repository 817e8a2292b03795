/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_write.c - write a trace_t back as SWF (trace.h): the live
 * comparison's excerpt is a file that both dfrs sim and the submitting
 * script read.
 */
#include <stdio.h>
#include <string.h>

#include "trace.h"

/* A time or size: -1 stays -1, whole values print without decimals. */
static void field(FILE *out, double v)
{
	if (v < 0)
		fprintf(out, " -1");
	else if (v == (double)(long long)v)
		fprintf(out, " %lld", (long long)v);
	else
		fprintf(out, " %.2f", v);
}

int trace_write_swf(FILE *out, const trace_t *t, const char *comment)
{
	const char *line = comment;

	fprintf(out, "; Version: 2.2\n");
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);

		fprintf(out, "; %.*s\n", len, line);
		line = nl ? nl + 1 : line + len;
	}
	fprintf(out, "; MaxJobs: %zu\n; MaxRecords: %zu\n", t->njobs,
		t->njobs);
	if (t->header_max_procs > 0)
		fprintf(out, "; MaxProcs: %ld\n", t->header_max_procs);
	if (t->header_max_nodes > 0)
		fprintf(out, "; MaxNodes: %ld\n", t->header_max_nodes);
	for (size_t i = 0; i < t->njobs; i++) {
		const trace_job_t *j = &t->jobs[i];

		fprintf(out, "%ld", j->id);
		field(out, j->submit);
		field(out, j->wait);
		field(out, j->runtime);
		fprintf(out, " %d", j->procs);
		field(out, j->cpu_used);
		field(out, j->mem_used_kb);
		fprintf(out, " %d", j->req_procs);
		field(out, j->req_time);
		field(out, j->req_mem_kb);
		fprintf(out, " %d %d %d -1 %d %d -1 -1\n", j->status, j->user,
			j->group, j->queue, j->partition);
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
