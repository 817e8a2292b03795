/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_source.h - where the migrate-or-wait simulation (avail_sim.h) gets
 * each node's ON/OFF state slot by slot: ON/OFF Markov chains (He et al.,
 * He et al. 2012, Sec. III-A; one chain for all nodes or one per node) or a
 * measured availability trace (avail_trace.h).
 *
 * Specs, as given to dfrs sim --availability:
 *	markov:p01=X,p11=Y		every node the same chain
 *	markov:p01=X1/X2/...,p11=Y1/Y2/...
 *					K values each: node h takes value
 *					h mod K (K <= nodes)
 *	trace:FILE			avail_trace.h's format
 *
 * Each source also knows a chain per node and the group's pooled chain
 * for the policies that are told the model: the true chains for markov,
 * the fit of the whole trace (markov_estimator.h) for trace.
 */
#ifndef DFRS_AVAIL_SOURCE_H
#define DFRS_AVAIL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "avail_trace.h"
#include "avail/onoff_chain.h"
#include "sim_random.h"

typedef enum {
	AVAIL_SOURCE_MARKOV,
	AVAIL_SOURCE_TRACE,
} avail_source_kind_t;

typedef struct {
	avail_source_kind_t kind;
	size_t nodes;
	onoff_chain_t *chains;	/* per node: known (markov) or fitted (trace) */
	onoff_chain_t pooled;	/* the group's chain */
	bool identical;		/* every node has the same chain */
	avail_trace_t trace;	/* trace only; its first `nodes` columns used */
} avail_source_t;

/* nodes: the pool size; for markov at least 1, for trace 0 means all the
 * trace's columns, else at most that many.  0, or one message in err and
 * AVAIL_SOURCE_BAD_SPEC (e.g. "markov:p01=1.5,p11=0.9: p01=1.5: not a
 * probability in [0,1]") or AVAIL_SOURCE_BAD_FILE (the trace reader's
 * "FILE:LINE: ..."). */
#define AVAIL_SOURCE_BAD_SPEC (-1)
#define AVAIL_SOURCE_BAD_FILE (-2)
int avail_source_open(const char *spec, size_t nodes, avail_source_t *out, char *err,
		      size_t errlen);
void avail_source_free(avail_source_t *s);

/* The nodes' states in slot `slot` into on[0..nodes-1].  Markov: slot 0
 * draws each node from its stationary law (ON when it has none), a later
 * slot steps every chain once from on[] (so call it for slots in order);
 * r is used by markov only.  Trace: the trace's row `slot`. */
void avail_source_slot(const avail_source_t *s, size_t slot, sim_random_t *r, bool *on);

#endif
