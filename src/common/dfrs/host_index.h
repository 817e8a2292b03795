/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_index.h - an index of hosts by position, for the least-loaded task
 * placement of the online DFRS policies (Stillwell et al. 2010, "Task
 * Placement Heuristics": each task goes "on the node with the lowest
 * computational load on which it can fit without violating memory
 * constraints") and the rounds of the max-min yield allocation (same
 * paper, "Resource Allocation").
 *
 * A complete binary tree whose leaves are the hosts in index order; each
 * node keeps, over the hosts below it, the least key (a host's load, or
 * the level at which it fills), and per dimension the most room, the sum
 * of the positive rooms and, for each of a few room levels, the least key
 * of the hosts with at least that room.  host_index_first finds the first
 * host at or after a position whose key is below a bound and whose room
 * is at least some amount in every dimension, skipping every subtree
 * whose least key, most room, or least key at the highest level not above
 * the amount rules it out: O(log hosts) per host found when the bounds
 * prune, where a scan costs O(hosts), and the same host as a scan in
 * index order (ties go to the lowest index), since the bounds only skip
 * subtrees where the scan would find nothing.  The levels matter where
 * the hosts with a low key are not those with room (a host's load counts
 * its tasks' CPU needs, its room what is left of its memory): the least
 * key and the most room of a subtree then come from different hosts and
 * rule out nothing.  Setting a host's key and room costs O(dims levels
 * log hosts).  Keys and rooms are stored as given and compared exactly; a
 * minimum or maximum of doubles is exact, so each bound of a node is a
 * value of one of its hosts, to the bit.
 */
#ifndef DFRS_HOST_INDEX_H
#define DFRS_HOST_INDEX_H

/* room levels per dimension */
#define HOST_INDEX_LEVELS 8

typedef struct {
	int n;		/* hosts: leaves 0..n-1 */
	int size;	/* leaves in the tree: a power of two >= n */
	int nd;		/* room dimensions, 0..DFRS_MAX_DIMS */
	double *key;	/* [2 size]: node i's least key; the leaves at
			 * size + h; a missing host's +INFINITY */
	double *room;	/* [2 size * nd]: node i's most room per
			 * dimension; a missing host's -INFINITY */
	double *total;	/* [2 size * nd]: node i's sum of the rooms > 0 */
	/* level: [nd * HOST_INDEX_LEVELS], ascending in each row d;
	 * key_at: [2 size * nd * HOST_INDEX_LEVELS], node i's least key over
	 * its hosts with room[d] >= level[d][l] (+INFINITY if none) */
	double *level, *key_at;
} host_index_t;

/* n >= 0 hosts, nd room dimensions, every host missing (key +INFINITY,
 * room -INFINITY: host_index_first finds none).  With nd > 0, level (nd
 * rows of HOST_INDEX_LEVELS values, each row ascending) are the room
 * levels: any values are right, those that split the amounts the
 * searches ask for prune best.  0, or -1 out of memory (ix is then
 * freed). */
int host_index_init(host_index_t *ix, int n, int nd, const double *level);
void host_index_free(host_index_t *ix);

/* Host h's key and room (nd values; NULL when nd is 0), its ancestors
 * updated: O(nd levels log n). */
void host_index_set(host_index_t *ix, int h, double key, const double *room);

/* Host h's key and room without updating its ancestors: after setting
 * many, host_index_build updates them all at once, O(nd levels n). */
void host_index_set_leaf(host_index_t *ix, int h, double key,
			 const double *room);
void host_index_build(host_index_t *ix);

/* The least key, the most room and the sum of the positive rooms in
 * dimension d over every host (the tree's root). */
static inline double host_index_min_key(const host_index_t *ix)
{
	return ix->key[1];
}

static inline double host_index_max_room(const host_index_t *ix, int d)
{
	return ix->room[ix->nd + d];
}

static inline double host_index_total_room(const host_index_t *ix, int d)
{
	return ix->total[ix->nd + d];
}

/* A caller's exact test of host h; nonzero: take it. */
typedef int (*host_index_accept_fn)(const void *ctx, int h);

/*
 * The first host h >= from (in index order) with key < below, room[d] >=
 * least[d] for every dimension (least may be NULL when nd is 0), and,
 * when accept is not NULL, accept(ctx, h) nonzero; -1 if none.  accept
 * is called only on hosts that pass the key and room tests, in index
 * order, and may reject any of them (the search then goes on).
 */
int host_index_first(const host_index_t *ix, int from, double below,
		     const double *least, host_index_accept_fn accept,
		     const void *ctx);

#endif
