/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shape_cache.h - one answer per job "shape" within one read of the queue.
 *
 * sched/amcbf computes, for each pending job it reads, the nodes the job
 * may use (a mask of one byte per node, or NULL when every node will do).
 * That costs O(nodes) per job under slurmctld's locks, and a mask per job
 * costs a byte per node per job.  Most jobs of a deep queue have the same
 * inputs to that answer (partition, per-node CPUs/memory/disk, no
 * features, no -w/-x, ...): the caller packs those inputs into a key of
 * SHAPE_KEY_WORDS words, computes the answer once per distinct key and
 * gives every job of that key the same value.  The cache owns the values
 * it holds: shape_cache_free() frees each once, with the caller's
 * function (the jobs only borrow them).
 *
 * An open-addressing hash table: lookups and inserts O(1) on average, so
 * a queue of all-different shapes costs no more than computing each.
 */
#ifndef DFRS_SHAPE_CACHE_H
#define DFRS_SHAPE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHAPE_KEY_WORDS 12

typedef struct {
	uint64_t w[SHAPE_KEY_WORDS];
} shape_key_t;

typedef struct {
	shape_key_t key;
	void *value;		/* may be NULL (a valid answer) */
	bool used;
} shape_slot_t;

typedef struct {
	shape_slot_t *slots;
	size_t cap, n;		/* cap 0 or a power of 2 */
	size_t hits, misses;	/* finds answered / not */
} shape_cache_t;

/* An empty cache (all zero is one too). */
void shape_cache_init(shape_cache_t *c);

/*
 * Is there a value for key?  If so *value is set to it (which may be
 * NULL) and true is returned.  Counts a hit or a miss.
 */
bool shape_cache_find(shape_cache_t *c, const shape_key_t *key,
		      void **value);

/*
 * Remember value (may be NULL) for key; the cache then owns it.  Returns
 * 0, or -1 when out of memory or key is present already (the cache then
 * does not take the value: the caller still owns it).
 */
int shape_cache_add(shape_cache_t *c, const shape_key_t *key, void *value);

/* The number of keys held. */
size_t shape_cache_count(const shape_cache_t *c);

/* Free every non-NULL value with free_value (once each; NULL: leave them)
 * and empty the cache. */
void shape_cache_free(shape_cache_t *c, void (*free_value)(void *));

#endif
