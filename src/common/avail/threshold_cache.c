/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threshold_cache.c - least-recently-used table of gamma partitions
 * (threshold_policy.h; He et al. 2012, Theorem III.4).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threshold_cache.h"

int threshold_cache_init(threshold_cache_t *c, size_t capacity, double quantum)
{
	memset(c, 0, sizeof(*c));
	if (capacity < 1 || !(quantum >= 0.0) || !isfinite(quantum))
		return -1;
	c->entries = calloc(capacity, sizeof(*c->entries));
	if (!c->entries)
		return -1;
	c->capacity = capacity;
	c->quantum = quantum;
	return 0;
}

void threshold_cache_free(threshold_cache_t *c)
{
	for (size_t i = 0; i < c->capacity; i++)
		if (c->entries[i].used)
			threshold_partition_free(&c->entries[i].partition);
	free(c->entries);
	memset(c, 0, sizeof(*c));
}

static double quantize(double p, double q)
{
	if (!(q > 0.0) || !isfinite(p))
		return p;
	/* k / (1/q) rather than k * q: for q = 10^-d this gives the double
	 * nearest the decimal k 10^-d, e.g. exactly 0.7, not 0.7000000000000001 */
	double inv = 1.0 / q;

	p = round(p * inv) / inv;
	return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

const threshold_partition_t *threshold_cache_get(threshold_cache_t *c, size_t n, double beta,
						 onoff_chain_t chain, char *err, size_t errlen)
{
	threshold_cache_entry_t *victim = &c->entries[0];

	chain.p01 = quantize(chain.p01, c->quantum);
	chain.p11 = quantize(chain.p11, c->quantum);
	c->clock++;
	for (size_t i = 0; i < c->capacity; i++) {
		threshold_cache_entry_t *e = &c->entries[i];

		if (e->used && e->n == n && e->beta == beta && e->p01 == chain.p01 &&
		    e->p11 == chain.p11) {
			e->last_use = c->clock;
			c->hits++;
			return &e->partition;
		}
		if (!e->used || (victim->used && e->last_use < victim->last_use))
			victim = e;
	}
	c->misses++;

	threshold_model_t m = { .n = n, .beta = beta, .chain = chain, .lambda = NULL };
	threshold_partition_t fresh;

	if (threshold_partition_compute(&m, &fresh, err, errlen))
		return NULL;
	if (victim->used)
		threshold_partition_free(&victim->partition);
	*victim = (threshold_cache_entry_t){ .used = true, .n = n, .beta = beta,
					     .p01 = chain.p01, .p11 = chain.p11,
					     .last_use = c->clock, .partition = fresh };
	return &victim->partition;
}
