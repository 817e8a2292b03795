/*
 * trace.h - workload traces read into plain structs: the Parallel Workloads
 * Archive's Standard Workload Format (SWF, plain or gzip) and a CSV export of
 * Slurm's sacct (the exact sacct --format is in doc/).  dfrs sim and the live
 * comparison read traces only through this interface.
 *
 * Times are seconds; submit times are relative to the first job's submit
 * time (the earliest is 0).  -1 means unknown, as in SWF.
 */
#ifndef DFRS_TRACE_H
#define DFRS_TRACE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
	long id;		/* SWF field 1, or sacct JobID */
	double submit;		/* field 2, relative to the trace start */
	double wait;		/* field 3, as recorded (-1 unknown) */
	double runtime;		/* field 4: actual run time */
	int procs;		/* field 5 allocated processors, else field 8 */
	int req_procs;		/* field 8 (-1 unknown) */
	double cpu_used;	/* field 6: average CPU time per processor (-1) */
	double req_time;	/* field 9: requested (wall) time (-1 unknown) */
	double mem_used_kb;	/* field 7 (-1) */
	double req_mem_kb;	/* field 10 (-1) */
	int status;		/* field 11 (-1); 1 completed, 0 failed, 5 cancelled */
	int user, group, queue, partition;	/* fields 12, 13, 15, 16 (-1) */
	size_t line;		/* line number in the source, for messages */
} trace_job_t;

typedef struct {
	trace_job_t *jobs;	/* in submit order (stable for ties) */
	size_t njobs;
	size_t bad_lines;	/* malformed lines skipped (non-strict mode) */
	long header_max_jobs;	/* "; MaxJobs:" (-1 if absent) */
	long header_max_procs;	/* "; MaxProcs:" (-1 if absent) */
	long header_max_nodes;	/* "; MaxNodes:" (-1 if absent) */
	int has_req_time;	/* some job has a requested time */
	char source[256];	/* path, for messages */
} trace_t;

typedef struct {
	int strict;		/* 1: the first malformed line stops the read */
	FILE *diag;		/* where "file:line: what" messages go (NULL: none) */
	size_t max_diag;	/* at most this many messages (0: unlimited) */
} trace_read_opts_t;

/*
 * Read a trace; the format is chosen by content (an SWF line is 18 numeric
 * fields; a sacct export has a header line naming its columns), gzip by magic
 * bytes.  Returns 0 and fills *out, or -1 with one line in err naming the
 * file (and line) and what is wrong: unreadable, empty, no job, or (strict)
 * the first malformed line.  Never aborts on bad input.
 */
int trace_read(const char *path, const trace_read_opts_t *opts,
	       trace_t *out, char *err, size_t errlen);

/* The same over a buffer already in memory (tests, fuzzing). */
int trace_parse(const char *data, size_t len, const char *name,
		const trace_read_opts_t *opts, trace_t *out,
		char *err, size_t errlen);

void trace_free(trace_t *t);

#endif
