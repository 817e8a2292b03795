/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.h - workload traces read into plain structs: the Parallel Workloads
 * Archive's Standard Workload Format (SWF, plain or gzip) and a CSV export of
 * Slurm's sacct (the exact sacct --format is in doc/).  dfrs sim and the live
 * comparison read traces only through this interface.
 *
 * Times are seconds; submit times are relative to the first job's submit
 * time (the earliest is 0).  -1 means unknown, as in SWF.
 *
 * What the reader keeps, skips and rejects (doc/traces.md has the details):
 *  - every job in trace_t.jobs can be simulated: submit >= 0, runtime >= 0
 *    (0 is kept: it ran for less than a second) and procs >= 1;
 *  - a well-formed record that cannot be simulated is SKIPPED: it is not
 *    in jobs, not a malformed line, gives no per-line message, does not
 *    stop a strict read; it is counted in skipped_jobs and in exactly one
 *    skipped_* reason;
 *  - a MALFORMED line (wrong field count, a field that is not a number,
 *    a negative value other than -1 in SWF fields 2, 4, 5, 8 or 9, a bad
 *    sacct time, ...) gives one "file:line: what" message on opts->diag
 *    and is counted in bad_lines; in strict mode it stops the read
 *    (-1, the message in err).
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
	double req_mem_kb;	/* field 10: per processor (-1) */
	int alloc_nodes;	/* sacct AllocTRES node= (-1 unknown) */
	int alloc_gpus;		/* sacct AllocTRES gres/gpu= (-1 unknown) */
	double alloc_mem_mb;	/* sacct AllocTRES mem=, the job's (-1) */
	int status;		/* field 11 (-1); 1 completed, 0 failed, 5 cancelled */
	int user, group, queue, partition;	/* fields 12, 13, 15, 16 (-1) */
	int app;		/* field 14, executable number (-1) */
	size_t line;		/* line number in the source, for messages */
} trace_job_t;

typedef struct {
	trace_job_t *jobs;	/* in submit order (stable for ties) */
	size_t njobs;
	size_t bad_lines;	/* malformed lines skipped (non-strict mode) */
	size_t skipped_jobs;	/* well-formed records not in jobs: the sum
				 * of the five reasons below */
	size_t skipped_no_submit;  /* submit time unknown (-1) */
	size_t skipped_no_runtime; /* SWF: run time (field 4) -1; sacct: the
				    * job never started (cancelled pending) */
	size_t skipped_no_procs;   /* SWF fields 5 and 8 both <= 0 or -1;
				    * sacct: no CPU count above 0 */
	size_t skipped_unfinished; /* sacct: no End yet (PENDING, RUNNING,
				    * SUSPENDED, REQUEUED, ...) */
	size_t skipped_steps;	   /* sacct: job-step rows (123.batch, 123.0:
				    * the export was made without -X) */
	size_t array_jobs;	/* sacct: job rows that are tasks of a job
				 * array (JobID 123_4), each kept as a job */
	size_t het_jobs;	/* sacct: job rows that are components of a
				 * heterogeneous job (JobID 123+0), likewise */
	int format;		/* TRACE_FORMAT_SWF or TRACE_FORMAT_SACCT */
	long header_max_jobs;	/* "; MaxJobs:" (-1 if absent) */
	long header_max_procs;	/* "; MaxProcs:" (-1 if absent) */
	long header_max_nodes;	/* "; MaxNodes:" (-1 if absent) */
	int has_req_time;	/* some job has a requested time */
	char source[256];	/* path, for messages */
	/* sacct only (0 and NULL otherwise): what a job row (not a step)
	 * shows that the simulator does not model, for dfrs advise */
	size_t array_tasks;	/* JobID 7_1: a task of a job array */
	size_t het_components;	/* JobID 7+1: a heterogeneous job's part */
	size_t gres_jobs;	/* AllocTRES or ReqTRES names a gres/ */
	size_t reservation_jobs;	/* Reservation not empty */
	char **partition_names;	/* partition number n is [n - 1] */
	size_t npartition_names;
} trace_t;

typedef struct {
	int strict;		/* 1: the first malformed line stops the read */
	FILE *diag;		/* where "file:line: what" messages go (NULL: none) */
	size_t max_diag;	/* at most this many messages (0: unlimited) */
	size_t max_bytes;	/* refuse files, or gzip data once inflated,
				 * larger than this (0: TRACE_MAX_BYTES) */
} trace_read_opts_t;

#define TRACE_FORMAT_SWF 1
#define TRACE_FORMAT_SACCT 2
#define TRACE_MAX_BYTES ((size_t)1 << 30)	/* 1 GiB */

/* "swf", "sacct" or "unknown", for reports. */
const char *trace_format_name(int format);

/*
 * Read a trace; the format is chosen by content (an SWF line is 18 numeric
 * fields; a sacct export has a header line naming its columns), gzip by magic
 * bytes.  Returns 0 and fills *out, or -1 with one line in err naming the
 * file (and line) and what is wrong: unreadable, empty, no job, or (strict)
 * the first malformed line.  Never aborts on bad input.  On -1 *out holds
 * no jobs and trace_free(out) is still safe.  opts may be NULL (non-strict,
 * no messages).  In non-strict mode, after the read, one summary line on
 * opts->diag gives the malformed and skipped counts if either is non-zero.
 */
int trace_read(const char *path, const trace_read_opts_t *opts,
	       trace_t *out, char *err, size_t errlen);

/* The same over a buffer already in memory (tests, fuzzing). */
int trace_parse(const char *data, size_t len, const char *name,
		const trace_read_opts_t *opts, trace_t *out,
		char *err, size_t errlen);

/* The whole file at path, at most max bytes, into *data (free it) and
 * *len; 0, or -1 with "PATH: what" in err (cannot open, a directory,
 * too large, read error).  Also for other inputs than traces. */
int trace_read_file(const char *path, size_t max, char **data, size_t *len,
		    char *err, size_t errlen);

/* The trace's machine in processors: MaxProcs, else MaxNodes, else its
 * largest job (0 without any). */
long trace_machine_procs(const trace_t *t);

/*
 * Write t as SWF (18 fields a job, -1 unknown) after a header of MaxJobs,
 * MaxProcs and MaxNodes (when known) and the lines of comment, each made a
 * ';' line.  trace_read() reads it back to the same jobs (times to 0.01 s).
 * Returns 0, or -1 if writing failed.
 */
int trace_write_swf(FILE *out, const trace_t *t, const char *comment);

/* Frees the jobs and zeroes *t; safe on a zeroed or failed trace. */
void trace_free(trace_t *t);

#endif
