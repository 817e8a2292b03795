/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_index.c - an index of hosts by position, least key and most room
 * (Stillwell et al. 2010, "Task Placement Heuristics" and "Resource
 * Allocation").  See host_index.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_model.h"
#include "host_index.h"

#define NL HOST_INDEX_LEVELS

int host_index_init(host_index_t *ix, int n, int nd, const double *level)
{
	size_t cells;

	*ix = (host_index_t){ .n = n, .size = 1, .nd = nd };
	while (ix->size < n)
		ix->size *= 2;
	cells = (size_t)2 * ix->size * nd;
	ix->key = malloc(sizeof(double) * 2 * ix->size);
	ix->room = malloc(sizeof(double) * (cells + 1));
	ix->total = malloc(sizeof(double) * (cells + 1));
	ix->level = malloc(sizeof(double) * ((size_t)nd * NL + 1));
	ix->key_at = malloc(sizeof(double) * (cells * NL + 1));
	if (!ix->key || !ix->room || !ix->total || !ix->level || !ix->key_at) {
		host_index_free(ix);
		return -1;
	}
	if (nd > 0)
		memcpy(ix->level, level, sizeof(double) * nd * NL);
	for (int i = 0; i < 2 * ix->size; i++)
		ix->key[i] = INFINITY;
	for (size_t c = 0; c < cells; c++) {
		ix->room[c] = -INFINITY;
		ix->total[c] = 0.0;
	}
	for (size_t c = 0; c < cells * NL; c++)
		ix->key_at[c] = INFINITY;
	return 0;
}

void host_index_free(host_index_t *ix)
{
	free(ix->key);
	free(ix->room);
	free(ix->total);
	free(ix->level);
	free(ix->key_at);
	ix->key = ix->room = ix->total = ix->level = ix->key_at = NULL;
}

void host_index_set_leaf(host_index_t *ix, int h, double key,
			 const double *room)
{
	size_t i = (size_t)ix->size + h;

	ix->key[i] = key;
	for (int d = 0; d < ix->nd; d++) {
		size_t c = i * ix->nd + d;

		ix->room[c] = room[d];
		ix->total[c] = room[d] > 0.0 ? room[d] : 0.0;
		for (int l = 0; l < NL; l++)
			ix->key_at[c * NL + l] =
				room[d] >= ix->level[d * NL + l] ? key : INFINITY;
	}
}

/* Node i's sums of the positive rooms from its children's. */
static void pull_total(host_index_t *ix, size_t i)
{
	for (int d = 0; d < ix->nd; d++)
		ix->total[i * ix->nd + d] = ix->total[2 * i * ix->nd + d] +
					    ix->total[(2 * i + 1) * ix->nd + d];
}

static inline void set_if(double *at, double v, int *changed)
{
	if (memcmp(at, &v, sizeof(v))) {
		*at = v;
		*changed = 1;
	}
}

/* Node i's least key, most rooms and least keys per level from its
 * children's; whether any changed (to the bit). */
static int pull_bounds(host_index_t *ix, size_t i)
{
	size_t l = 2 * i, r = 2 * i + 1;
	int nd = ix->nd, changed = 0;

	set_if(&ix->key[i], ix->key[r] < ix->key[l] ? ix->key[r] : ix->key[l],
	       &changed);
	for (int d = 0; d < nd; d++) {
		double a = ix->room[l * nd + d], b = ix->room[r * nd + d];
		const double *ka = &ix->key_at[(l * nd + d) * NL];
		const double *kb = &ix->key_at[(r * nd + d) * NL];
		double *k = &ix->key_at[(i * nd + d) * NL];

		set_if(&ix->room[i * nd + d], b > a ? b : a, &changed);
		for (int v = 0; v < NL; v++)
			set_if(&k[v], kb[v] < ka[v] ? kb[v] : ka[v], &changed);
	}
	return changed;
}

void host_index_build(host_index_t *ix)
{
	for (size_t i = ix->size - 1; i >= 1; i--) {
		pull_total(ix, i);
		(void)pull_bounds(ix, i);
	}
}

/* Above a node whose bounds did not change, none does (each is a minimum
 * or maximum over the children): only the sums go on up. */
void host_index_set(host_index_t *ix, int h, double key, const double *room)
{
	int changed = 1;

	host_index_set_leaf(ix, h, key, room);
	for (size_t i = ((size_t)ix->size + h) / 2; i >= 1; i /= 2) {
		pull_total(ix, i);
		if (changed)
			changed = pull_bounds(ix, i);
	}
}

/* One search's bounds: below, least, and per dimension the highest level
 * not above least (-1: none). */
typedef struct {
	double below;
	const double *least;
	int at[DFRS_MAX_DIMS];
	host_index_accept_fn accept;
	const void *ctx;
} search_t;

/* Whether some host below node i may pass: key and room tests.  A host
 * that passes has room[d] >= least[d] >= level[d][at[d]], so the node's
 * least key at that level is at most its key, below `below`. */
static inline int may_hold(const host_index_t *ix, size_t i,
			   const search_t *s)
{
	if (!(ix->key[i] < s->below))
		return 0;
	for (int d = 0; d < ix->nd; d++) {
		size_t c = i * ix->nd + d;

		if (!(ix->room[c] >= s->least[d]) ||
		    (s->at[d] >= 0 && !(ix->key_at[c * NL + s->at[d]] < s->below)))
			return 0;
	}
	return 1;
}

/* The first host below node i that passes, or -1. */
static int descend(const host_index_t *ix, size_t i, const search_t *s)
{
	int h;

	if (!may_hold(ix, i, s))
		return -1;
	if (i >= (size_t)ix->size) {
		h = (int)(i - ix->size);
		return !s->accept || s->accept(s->ctx, h) ? h : -1;
	}
	h = descend(ix, 2 * i, s);
	return h >= 0 ? h : descend(ix, 2 * i + 1, s);
}

/*
 * From the leaf of `from` up: the subtree at i holds the hosts from its
 * leftmost on; when it has none that passes, the next subtree to the
 * right is the right sibling of i's first ancestor (or i itself) that is
 * a left child.  Each level is visited once, so apart from the descents
 * that find nothing (the bounds of a node hold for no single host below
 * it) this is O(log n).
 */
int host_index_first(const host_index_t *ix, int from, double below,
		     const double *least, host_index_accept_fn accept,
		     const void *ctx)
{
	search_t s = { .below = below, .least = least, .accept = accept,
		       .ctx = ctx };
	size_t i;

	if (from < 0)
		from = 0;
	if (from >= ix->n)
		return -1;
	for (int d = 0; d < ix->nd; d++) {
		s.at[d] = -1;
		while (s.at[d] + 1 < NL &&
		       ix->level[d * NL + s.at[d] + 1] <= least[d])
			s.at[d]++;
	}
	i = (size_t)ix->size + from;
	for (;;) {
		int h = descend(ix, i, &s);

		if (h >= 0)
			return h;
		while (i & 1)	/* a right child: its parent is done */
			i /= 2;
		if (i == 0)
			return -1;
		i++;
	}
}
