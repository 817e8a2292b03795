/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_priority.h - the online DFRS job priorities (Stillwell et al. 2010, "Priority"):
 * jobs are preempted by increasing priority; a job that has not yet run
 * has infinite priority ("newly arrived jobs first").
 *
 *   DFRS_PRIO_VT       1 / virtual_time
 *   DFRS_PRIO_FT_VT    flow_time / virtual_time
 *   DFRS_PRIO_FT_VT2   flow_time / virtual_time^2   (the default)
 *
 * flow_time = now - submit; virtual_time = integral of the job's yield since
 * it arrived (seconds of dedicated-machine progress).
 */
#ifndef DFRS_PRIORITY_H
#define DFRS_PRIORITY_H

typedef enum {
	DFRS_PRIO_FT_VT2 = 0,	/* default */
	DFRS_PRIO_VT,
	DFRS_PRIO_FT_VT,
} dfrs_priority_t;

/* Priority of a job; INFINITY when virtual_time <= 0 (never ran). */
double dfrs_priority_value(dfrs_priority_t kind, double submit,
			   double virtual_time, double now);

/* "1/vt", "ft/vt", "ft/vt2" (also "ft/vt^2"); 0 or -1 if unknown. */
int dfrs_priority_parse(const char *name, dfrs_priority_t *out);

/*
 * Order two jobs for preemption: < 0 when job a comes before job b in
 * priority order (higher priority first).  Equal priorities (e.g. two new
 * jobs) go by earlier submit, then by lower index.
 */
static inline int dfrs_priority_compare(double prio_a, double submit_a,
					int index_a, double prio_b,
					double submit_b, int index_b)
{
	if (prio_a > prio_b)
		return -1;
	if (prio_a < prio_b)
		return 1;
	if (submit_a < submit_b)
		return -1;
	if (submit_a > submit_b)
		return 1;
	return (index_a > index_b) - (index_a < index_b);
}

#endif
