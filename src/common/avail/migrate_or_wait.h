/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * migrate_or_wait.h - the slot decision for one running job on concrete,
 * possibly heterogeneous servers: wait (suspend) or migrate the tasks of its
 * OFF hosts, and onto WHICH ON servers.
 *
 * He et al. (2012), Sec. III-C and IV: the threshold (or myopic) policy
 * decides from the number of ON hosts s'; the paper notes it loses at large
 * gamma on heterogeneous servers because it picks replacement hosts at
 * random.  Here replacements are the ON servers most likely to stay ON:
 * highest estimated p11, then highest stationary availability; and
 * migrate_or_wait_lookahead also takes the replacements' chains into
 * account when deciding.
 */
#ifndef DFRS_MIGRATE_OR_WAIT_H
#define DFRS_MIGRATE_OR_WAIT_H

#include <stdbool.h>
#include <stddef.h>

#include "onoff_chain.h"
#include "threshold_policy.h"

typedef struct {
	onoff_chain_t chain;	/* this server's estimated chain */
	bool on;		/* ON in this slot */
	bool host;		/* runs one of the job's tasks */
} migrate_or_wait_server_t;

typedef struct {
	size_t from;		/* OFF host whose task moves */
	size_t to;		/* ON server that receives it */
} migrate_or_wait_move_t;

/* policy: threshold index i (threshold_partition_policy on the group's
 * pooled chain, or threshold_myopic_policy).  Returns RUN, WAIT or MIGRATE; on MIGRATE
 * moves[0..*nmoves-1] (room for every host) pair each OFF host, in index
 * order, with a replacement. */
threshold_decision_t migrate_or_wait_decide(const migrate_or_wait_server_t *servers, size_t count,
					    size_t policy, migrate_or_wait_move_t *moves, size_t *nmoves);

/* For heterogeneous servers.  Migrates (to the ranked replacements) when
 * the group's threshold policy `policy` does, as migrate_or_wait_decide;
 * when that policy would wait, it still migrates if a one-step lookahead
 * says it pays: waiting (cost 1 this slot) against migrating (gamma per
 * moved task), each followed by the optimal cost-to-go of n i.i.d. hosts
 * with the mean chain of the resulting host set (threshold_optimal_costs),
 * the next slot's number of ON hosts taken from the hosts' own chains.
 * This catches the large-gamma case where the pooled chain says "wait" but
 * the ON servers available are much stickier than the group's mean.  With
 * identical servers the lookahead is the Bellman choice of the optimal
 * policy, so the decisions are the threshold policy's.  Costs up to two
 * O(n^3) computations per call, only when the policy would wait.
 * 0 with *decision (and moves on MIGRATE), or -1 and err for an invalid
 * beta/gamma. */
int migrate_or_wait_lookahead(const migrate_or_wait_server_t *servers, size_t count, size_t policy,
			      double beta, double gamma, migrate_or_wait_move_t *moves, size_t *nmoves,
			      threshold_decision_t *decision, char *err, size_t errlen);

/* true if server a is a better replacement than b (more likely ON next slot) */
bool migrate_or_wait_better_replacement(const migrate_or_wait_server_t *servers, size_t a, size_t b);

#endif
