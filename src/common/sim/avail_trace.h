/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_trace.h - node availability traces for the migrate-or-wait
 * simulation (avail_sim.h): which nodes are ON in each slot, as measured,
 * in the spirit of the availability traces of He et al. (2012,
 * Sec. III-A and IV: utilization sampled per slot, ON iff <= zeta).
 *
 * File format (text, one line per slot, in time order):
 *
 *	# comment lines start with '#'; blank lines are ignored
 *	1 1 0 1
 *	1 0 0 1
 *
 * Each slot line has one field per node, separated by spaces or tabs:
 * 1 = ON (the node can host a task), 0 = OFF.  Every slot line has the
 * same number of fields.
 */
#ifndef DFRS_AVAIL_TRACE_H
#define DFRS_AVAIL_TRACE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	size_t slots;
	size_t nodes;
	unsigned char *on;	/* on[slot * nodes + node]: 1 ON, 0 OFF */
} avail_trace_t;

/* Reads FILE.  0, or -1 with one message in err: "FILE: cannot open: ...",
 * "FILE:LINE: field K is 'x', not 0 or 1", "FILE:LINE: K fields, line L
 * has M" or "FILE: no slot lines". */
int avail_trace_read(const char *path, avail_trace_t *out, char *err, size_t errlen);
void avail_trace_free(avail_trace_t *t);

static inline bool avail_trace_on(const avail_trace_t *t, size_t slot, size_t node)
{
	return t->on[slot * t->nodes + node];
}

#endif
