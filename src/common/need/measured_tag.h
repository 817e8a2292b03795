/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measured_tag.h - the CPU needs dfrs-nodeagent measured on a node, as one
 * word in the node's Extra field (scontrol show node: Extra=), which
 * slurmctld keeps across restarts and every agent writes for its own node
 * only (so agents never race on one field):
 *
 *     dfrs:measured=<job>:<need>[,<job>:<need>...]@<unix time>
 *
 * e.g. dfrs:measured=12:0.42,13:0.97@1700000000: job 12 used 0.42 of the
 * CPUs it holds on this node over the agent's window, measured at that
 * time.  Other words of Extra are left alone.  Liu et al. 2013 (section
 * 4.1): CPU usage from history.  Plain C, no Slurm headers.
 */
#ifndef DFRS_MEASURED_TAG_H
#define DFRS_MEASURED_TAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEASURED_TAG_PREFIX "dfrs:measured="
#define MEASURED_TAG_MAX_JOBS 256

typedef struct {
	uint32_t job_id;
	double need;		/* 0..1, two decimals */
} measured_entry_t;

typedef struct {
	measured_entry_t jobs[MEASURED_TAG_MAX_JOBS];
	size_t njobs;
	long stamp;		/* unix time of the measurement */
} measured_tag_t;

/*
 * The word for jobs at stamp into buf (needs clamped to 0..1, two
 * decimals; at most MEASURED_TAG_MAX_JOBS).  0, or -1 when buf is too
 * small or n is 0 or too many.
 */
int measured_tag_format(const measured_entry_t *jobs, size_t n, long stamp,
			char *buf, size_t len);

/*
 * Find and read the word in text (NULL: none).  1 read, 0 no such word,
 * -1 a malformed one, with what is wrong in err ("job 12: need 1.5 is not
 * in 0..1").
 */
int measured_tag_parse(const char *text, measured_tag_t *out, char *err,
		       size_t errlen);

/* The need of job_id in t: 0, or -1 when t has none. */
int measured_tag_need(const measured_tag_t *t, uint32_t job_id,
		      double *need);

/*
 * text without any dfrs:measured= word, with word appended when not NULL,
 * in *out (malloc'ed, "" when nothing is left).  0, or -1 when out of
 * memory.
 */
int measured_tag_replace(const char *text, const char *word, char **out);

/* A node's report as the controller sees it. */
typedef enum {
	MEASURED_REPORT_NONE,	/* no word: no job measured there (an idle
				   node's agent removes it; or no agent) */
	MEASURED_REPORT_FRESH,	/* at most dfrs_need_stale seconds old */
	MEASURED_REPORT_STALE,	/* older: its agent stopped reporting */
	MEASURED_REPORT_BAD,	/* malformed */
} measured_report_t;

/* A report made at stamp is still fresh at now: at most stale seconds
 * old.  The one rule for the needs decided on and for the metrics. */
bool measured_tag_fresh(long stamp, long now, int stale);

/*
 * Which report a node's Extra text holds at now, with its age in seconds
 * in *age (NULL: not wanted) when it has one that reads (fresh or stale;
 * 0 otherwise).
 */
measured_report_t measured_tag_report(const char *text, long now, int stale,
				      long *age);

#endif
