/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_params_check.h - what dfrs params --check says about a
 * SchedulerParameters line beyond parsing it: the settings sched/amcbf
 * would reject (errors) and the ones it would take in a way the
 * administrator did not mean (warnings).  Plain C, no Slurm headers.
 *
 * Errors: a value dfrs_params_parse() refuses; a line that leaves
 * slurmctld's main scheduler on (no defer, or sched_interval not -1), with
 * which sched/amcbf stays passive.  Warnings: a stray space in an item
 * (sched/amcbf then ignores its key); a key given twice (sched/amcbf takes
 * the last, Slurm its own keys' first); a name list of amcbf_partitions or
 * amcbf_exempt_qos continued after a ',' (the ',' ends it: names are
 * separated by ':').
 */
#ifndef DFRS_DFRS_PARAMS_CHECK_H
#define DFRS_DFRS_PARAMS_CHECK_H

#include <stddef.h>

#define DFRS_CHECK_MAX_NOTES 16

typedef enum { DFRS_CHECK_ERROR, DFRS_CHECK_WARNING } dfrs_check_level_t;

typedef struct {
	dfrs_check_level_t level;
	char text[320];		/* one line naming the key or item */
} dfrs_check_note_t;

typedef struct {
	dfrs_check_note_t notes[DFRS_CHECK_MAX_NOTES];
	size_t n;		/* notes kept (at most DFRS_CHECK_MAX_NOTES) */
	size_t errors, warnings;	/* all found, kept or not */
} dfrs_check_t;

/*
 * Is slurmctld's main scheduler off, so that sched/amcbf starts jobs?
 * As slurmctld 22.05 reads the line: sched_interval is the number after
 * the first "sched_interval=" (case ignored), and it must be -1; and one
 * of the ','-separated items must be "defer" (submissions do not start
 * jobs).  sp may be NULL (Slurm's defaults: on).
 */
int dfrs_params_owns_starts(const char *sp);

/* Check sp (may be NULL) into *out: errors first, then warnings, each in
 * the order of the items. */
void dfrs_params_check(const char *sp, dfrs_check_t *out);

#endif
