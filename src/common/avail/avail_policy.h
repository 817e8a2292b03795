/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_policy.h - the migrate-or-wait policies the simulation of
 * avail_sim.h compares (He et al. 2012, Sec. III-B, III-C and IV):
 * the optimal threshold policy (model known or estimated online), the
 * myopic policy, always wait, always migrate, and any fixed T_i.
 */
#ifndef DFRS_AVAIL_POLICY_H
#define DFRS_AVAIL_POLICY_H

#include <stddef.h>

#include "threshold_policy.h"

typedef enum {
	AVAIL_POLICY_THRESHOLD,		/* optimal T_i for the known pooled chain */
	AVAIL_POLICY_THRESHOLD_EST,	/* optimal T_i for the chain estimated
					 * online from the slots seen so far */
	AVAIL_POLICY_MYOPIC,		/* migrate iff #OFF hosts < 1/gamma */
	AVAIL_POLICY_WAIT,		/* always wait: T_n */
	AVAIL_POLICY_MIGRATE,		/* always migrate: T_0 */
	AVAIL_POLICY_FIXED,		/* T_index whatever gamma */
	AVAIL_POLICY_OPTIMAL,		/* the exact MDP optimum (avail_optimal.h) */
	AVAIL_POLICY_LOOKAHEAD,		/* threshold, and migrate_or_wait_lookahead
					 * where it would wait (heterogeneous) */
} avail_policy_kind_t;

typedef struct {
	avail_policy_kind_t kind;
	size_t index;			/* AVAIL_POLICY_FIXED only */
} avail_policy_t;

/* "threshold", "threshold-est", "myopic", "wait", "migrate", "optimal",
 * "lookahead" or "T<i>",
 * 0 <= i <= n.  0, or -1 and a message in err. */
int avail_policy_parse(const char *name, size_t n, avail_policy_t *out, char *err,
		       size_t errlen);
/* The policy's name as avail_policy_parse takes it. */
void avail_policy_name(const avail_policy_t *p, char *buf, size_t len);

/* The threshold index i of T_i the policy applies for gamma.  partition:
 * for THRESHOLD and LOOKAHEAD the known pooled chain's, for THRESHOLD_EST the estimated
 * chain's (NULL: no valid estimate yet, then the myopic index); unused by
 * the others; not a threshold policy: optimal (returns n). */
size_t avail_policy_index(const avail_policy_t *p, size_t n,
			  const threshold_partition_t *partition, double gamma);

#endif
