/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threshold_cache.h - memoized gamma partitions (He et al. 2012,
 * Theorem III.4) keyed by (n, beta, p01, p11), so that a controller deciding
 * migrate-or-wait for many jobs every slot computes each partition once:
 * a hit costs a short scan, not the O(n^3) computation.
 *
 * Estimated p01/p11 drift continuously; with quantum q > 0 they are rounded
 * to multiples of q before the lookup (and the computation), so nearby
 * estimates share an entry.  Entries are for lambda = all hosts ON; the
 * partition does not depend on lambda for states reachable from it.
 */
#ifndef DFRS_THRESHOLD_CACHE_H
#define DFRS_THRESHOLD_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "threshold_policy.h"

typedef struct {
	bool used;
	size_t n;
	double beta, p01, p11;
	unsigned long last_use;
	threshold_partition_t partition;
} threshold_cache_entry_t;

typedef struct {
	size_t capacity;
	double quantum;
	threshold_cache_entry_t *entries;
	unsigned long clock;
	unsigned long hits, misses;
} threshold_cache_t;

/* capacity >= 1 entries (least recently used evicted), quantum >= 0. */
int threshold_cache_init(threshold_cache_t *c, size_t capacity, double quantum);
void threshold_cache_free(threshold_cache_t *c);

/* The partition for this model (computed on a miss), or NULL with a
 * message in err for an invalid model.  The pointer is valid until the
 * next threshold_cache_get or threshold_cache_free. */
const threshold_partition_t *threshold_cache_get(threshold_cache_t *c, size_t n, double beta,
						 onoff_chain_t chain, char *err, size_t errlen);

#endif
