/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * singleton_index.c - the per-cycle index of singleton dependencies
 * (singleton_index.h): records sorted by (user, name) and merged, so a
 * query is two binary searches.
 */
#include "singleton_index.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t uid;
	char *name;		/* NULL: a job without a name */
	bool active;
	uint32_t min_pending;	/* 0: none pending */
} key_t_;

struct singleton_index {
	key_t_ *keys;
	size_t n, cap;
	bool sealed;
};

singleton_index_t *singleton_index_new(void)
{
	return calloc(1, sizeof(singleton_index_t));
}

int singleton_index_add(singleton_index_t *idx, uint32_t uid,
			const char *name, singleton_state_t state,
			uint32_t job_id)
{
	key_t_ *k;

	if (!idx || idx->sealed)
		return -1;
	if (idx->n == idx->cap) {
		size_t cap = idx->cap ? 2 * idx->cap : 64;
		key_t_ *keys = realloc(idx->keys, cap * sizeof(*keys));
		if (!keys)
			return -1;
		idx->keys = keys;
		idx->cap = cap;
	}
	k = &idx->keys[idx->n];
	k->name = NULL;
	if (name && !(k->name = strdup(name)))
		return -1;
	k->uid = uid;
	k->active = state == SINGLETON_ACTIVE;
	k->min_pending = state == SINGLETON_PENDING ? job_id : 0;
	idx->n++;
	return 0;
}

/* NULL names sort first within a user. */
static int key_cmp(uint32_t uid_a, const char *a, uint32_t uid_b,
		   const char *b)
{
	if (uid_a != uid_b)
		return uid_a < uid_b ? -1 : 1;
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int by_key(const void *x, const void *y)
{
	const key_t_ *a = x, *b = y;

	return key_cmp(a->uid, a->name, b->uid, b->name);
}

void singleton_index_seal(singleton_index_t *idx)
{
	size_t out = 0;

	if (!idx || idx->sealed)
		return;
	idx->sealed = true;
	if (!idx->n)
		return;
	qsort(idx->keys, idx->n, sizeof(*idx->keys), by_key);
	for (size_t i = 1; i < idx->n; i++) {
		key_t_ *k = &idx->keys[out], *r = &idx->keys[i];
		if (by_key(k, r)) {
			idx->keys[++out] = *r;
			continue;
		}
		k->active = k->active || r->active;
		if (r->min_pending &&
		    (!k->min_pending || r->min_pending < k->min_pending))
			k->min_pending = r->min_pending;
		free(r->name);
	}
	idx->n = out + 1;
}

static const key_t_ *find(const singleton_index_t *idx, uint32_t uid,
			  const char *name)
{
	size_t lo = 0, hi = idx->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(idx->keys[mid].uid, idx->keys[mid].name, uid,
				name);
		if (!c)
			return &idx->keys[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool blocks(const key_t_ *k, uint32_t job_id)
{
	return k && (k->active || (k->min_pending && k->min_pending < job_id));
}

bool singleton_index_blocked(const singleton_index_t *idx, uint32_t uid,
			     const char *name, uint32_t job_id)
{
	if (!idx || !idx->sealed || !name)
		return false;
	return blocks(find(idx, uid, name), job_id) ||
	       blocks(find(idx, uid, NULL), job_id);
}

size_t singleton_index_keys(const singleton_index_t *idx)
{
	return idx && idx->sealed ? idx->n : 0;
}

void singleton_index_free(singleton_index_t *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->n; i++)
		free(idx->keys[i].name);
	free(idx->keys);
	free(idx);
}
