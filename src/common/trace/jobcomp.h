/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobcomp.h - the records Slurm's jobcomp/filetxt plugin writes, one line
 * per run of a job ("JobId=12 ... Name=7 JobState=COMPLETED ...
 * StartTime=2026-11-22T20:45:55 EndTime=... SubmitTime=..."), read into
 * plain structs for the live comparison.
 */
#ifndef DFRS_JOBCOMP_H
#define DFRS_JOBCOMP_H

#include <stddef.h>

typedef struct {
	long job_id;		/* Slurm's JobId */
	char name[64];		/* Name (the live comparison: trace job id) */
	char state[32];		/* JobState: COMPLETED, PREEMPTED, ... */
	double submit;		/* SubmitTime, StartTime, EndTime: seconds */
	double start;		/* (the times as if UTC: only differences */
	double end;		/* matter); -1 when Unknown */
	size_t line;		/* its line in the file */
} jobcomp_rec_t;

typedef struct {
	jobcomp_rec_t *recs;	/* in file order */
	size_t n;
	char source[256];	/* path, for messages */
} jobcomp_t;

/*
 * Read a jobcomp file.  Returns 0, or -1 with one line "FILE:LINE: what"
 * in err for the first line that is not a record (a field missing, a bad
 * number or time); blank lines are skipped.  jobcomp_free(out) is safe
 * either way.
 */
int jobcomp_read(const char *path, jobcomp_t *out, char *err, size_t errlen);

/* The same over text in memory; name is used in messages. */
int jobcomp_parse(const char *text, size_t len, const char *name,
		  jobcomp_t *out, char *err, size_t errlen);

void jobcomp_free(jobcomp_t *jc);

#endif
