/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shape_cache.c - per-read answers by job shape (shape_cache.h): linear
 * probing over a power-of-2 table kept at most half full.
 */
#include "shape_cache.h"

#include <stdlib.h>
#include <string.h>

void shape_cache_init(shape_cache_t *c)
{
	memset(c, 0, sizeof(*c));
}

static uint64_t hash(const shape_key_t *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < SHAPE_KEY_WORDS; i++) {
		h ^= k->w[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h;
}

/* The slot holding key, or the empty one where it would go. */
static shape_slot_t *slot_for(shape_slot_t *slots, size_t cap,
			      const shape_key_t *k)
{
	size_t i = (size_t)hash(k) & (cap - 1);

	while (slots[i].used &&
	       memcmp(&slots[i].key, k, sizeof(*k)) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

bool shape_cache_find(shape_cache_t *c, const shape_key_t *key,
		      void **value)
{
	shape_slot_t *s;

	if (!c->cap) {
		c->misses++;
		return false;
	}
	s = slot_for(c->slots, c->cap, key);
	if (!s->used) {
		c->misses++;
		return false;
	}
	c->hits++;
	*value = s->value;
	return true;
}

static int grow(shape_cache_t *c)
{
	size_t cap = c->cap ? 2 * c->cap : 16;
	shape_slot_t *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].used)
			*slot_for(slots, cap, &c->slots[i].key) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
	return 0;
}

int shape_cache_add(shape_cache_t *c, const shape_key_t *key, void *value)
{
	shape_slot_t *s;

	if (2 * (c->n + 1) > c->cap && grow(c))
		return -1;
	s = slot_for(c->slots, c->cap, key);
	if (s->used)
		return -1;
	s->key = *key;
	s->value = value;
	s->used = true;
	c->n++;
	return 0;
}

size_t shape_cache_count(const shape_cache_t *c)
{
	return c->n;
}

void shape_cache_free(shape_cache_t *c, void (*free_value)(void *))
{
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].used && c->slots[i].value && free_value)
			free_value(c->slots[i].value);
	free(c->slots);
	memset(c, 0, sizeof(*c));
}
