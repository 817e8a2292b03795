/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vector_pack.c - First Fit, Best Fit, Permutation Pack and Choose Pack
 * vector packing, homogeneous and heterogeneous bins (Stillwell et al. 2010, "Vector
 * Packing" and "Heterogeneous").  See vector_pack.h.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_model.h"
#include "vector_pack.h"

#define PACK_WINDOW 2

typedef struct {
	int item;
	int nk;
	double k[DFRS_MAX_DIMS];
} keyed_item_t;

/* Decreasing key order; equal keys keep index order (deterministic). */
static int cmp_keyed(const void *a, const void *b)
{
	const keyed_item_t *x = a, *y = b;

	for (int i = 0; i < x->nk; i++) {
		if (x->k[i] > y->k[i])
			return -1;
		if (x->k[i] < y->k[i])
			return 1;
	}
	return (x->item > y->item) - (x->item < y->item);
}

/* Fill k with the key of vector v (already scaled); returns its length. */
static int vector_key(vp_key_t key, const double *v, int nd, double *k)
{
	double lo = DBL_MAX, hi = 0.0, sum = 0.0;

	for (int d = 0; d < nd; d++) {
		sum += v[d];
		if (v[d] > hi)
			hi = v[d];
		if (v[d] < lo)
			lo = v[d];
	}
	switch (key) {
	case VP_KEY_LEX:
		memcpy(k, v, sizeof(double) * nd);
		return nd;
	case VP_KEY_MAX:
		k[0] = hi;
		break;
	case VP_KEY_DIF:
		k[0] = hi - lo;
		break;
	case VP_KEY_RATIO:
		k[0] = lo > 0.0 ? hi / lo : (hi > 0.0 ? DBL_MAX : 0.0);
		break;
	case VP_KEY_SUM:
	default:
		k[0] = sum;
		break;
	}
	return 1;
}

typedef struct {
	const vp_problem_t *pb;
	double *load;		/* [nbins * ndims] */
	/* the fit tests' limits, dfrs_fit_limit of each bin's aggregate and
	 * elementary capacities [nbins * ndims], and the items' elementary
	 * sizes (pb->elem_size, or their sizes when not given) */
	double *cap_limit, *elem_limit;
	const double *elem_size;
	int *order;		/* items in decreasing key order */
	int *rank;		/* rank[item] = position in order */
	int *bins;		/* bins in the chosen bin order */
	char *placed;		/* [nitems] */
	int bins_as_given;	/* bins[b] == b for every b */
	int uniform;		/* every bin has the same limits (bin 0's) */
} pack_state_t;

static double elem_of(const vp_problem_t *pb, int b, int d)
{
	return pb->elem ? pb->elem[(size_t)b * pb->ndims + d]
			: pb->cap[(size_t)b * pb->ndims + d];
}

/* dfrs_amount_fits, with the bins' limits computed once per packing */
static inline int fits(const pack_state_t *st, int item, int b)
{
	int nd = st->pb->ndims;
	const double *s = &st->pb->size[(size_t)item * nd];
	const double *se = &st->elem_size[(size_t)item * nd];
	const double *load = &st->load[(size_t)b * nd];
	const double *cap = &st->cap_limit[(size_t)b * nd];
	const double *elem = &st->elem_limit[(size_t)b * nd];

	for (int d = 0; d < nd; d++)
		if (!(se[d] <= elem[d] && load[d] + s[d] <= cap[d]))
			return 0;
	return 1;
}

static inline void put(pack_state_t *st, int item, int b, int *item_bin)
{
	int nd = st->pb->ndims;

	if (nd == 2) {	/* CPU and memory: no loop (a put per task placed) */
		st->load[2 * (size_t)b] += st->pb->size[2 * (size_t)item];
		st->load[2 * (size_t)b + 1] += st->pb->size[2 * (size_t)item + 1];
	} else {
		for (int d = 0; d < nd; d++)
			st->load[(size_t)b * nd + d] +=
				st->pb->size[(size_t)item * nd + d];
	}
	st->placed[item] = 1;
	item_bin[item] = b;
}

/*
 * Whether item a and item b have the same size (aggregate and elementary):
 * the tasks of one job, consecutive in the key order.  A bin that could not
 * hold a cannot hold b after it either, as bin loads only grow.  Items of
 * one group are the same by the caller's word; others are compared.
 */
static inline int same_item(const vp_problem_t *pb, int a, int b)
{
	size_t n = sizeof(double) * pb->ndims;

	if (a >= 0 && pb->group && pb->group[a] == pb->group[b])
		return 1;
	return a >= 0 &&
	       !memcmp(&pb->size[(size_t)a * pb->ndims],
		       &pb->size[(size_t)b * pb->ndims], n) &&
	       (!pb->elem_size ||
		!memcmp(&pb->elem_size[(size_t)a * pb->ndims],
			&pb->elem_size[(size_t)b * pb->ndims], n));
}

/*
 * Items in decreasing key order, equal keys in index order.  The tasks of a
 * job are consecutive indices with the same size, so the items are sorted
 * as runs of identical consecutive items: the same order as sorting every
 * item, with one key per run.
 */
static void sort_items(pack_state_t *st, vp_key_t key, keyed_item_t *tmp,
		       int *run_len)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims, nruns = 0;

	for (int i = 0; i < pb->nitems; i++) {
		double v[DFRS_MAX_DIMS];

		if (i > 0 && same_item(pb, i - 1, i)) {
			run_len[tmp[nruns - 1].item]++;
			continue;
		}
		for (int d = 0; d < nd; d++)
			v[d] = pb->size[(size_t)i * nd + d] / pb->scale[d];
		tmp[nruns].item = i;
		tmp[nruns].nk = vector_key(key, v, nd, tmp[nruns].k);
		run_len[i] = 1;
		nruns++;
	}
	qsort(tmp, nruns, sizeof(*tmp), cmp_keyed);
	for (int g = 0, r = 0; g < nruns; g++)
		for (int i = tmp[g].item; i < tmp[g].item + run_len[tmp[g].item]; i++) {
			st->order[r] = i;
			st->rank[i] = r++;
		}
}

static void sort_bins(pack_state_t *st, vp_bin_order_t how, keyed_item_t *tmp)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims;

	st->bins_as_given = how == VP_BINS_AS_GIVEN;
	if (how == VP_BINS_AS_GIVEN) {	/* every key equal: index order */
		for (int b = 0; b < pb->nbins; b++)
			st->bins[b] = b;
		return;
	}
	for (int b = 0; b < pb->nbins; b++) {
		double sum = 0.0;

		for (int d = 0; d < nd; d++)
			sum += pb->cap[(size_t)b * nd + d] / pb->scale[d];
		tmp[b].item = b;
		tmp[b].nk = 1;
		tmp[b].k[0] = how == VP_BINS_LARGEST_FIRST ? sum :
			      how == VP_BINS_SMALLEST_FIRST ? -sum : 0.0;
	}
	qsort(tmp, pb->nbins, sizeof(*tmp), cmp_keyed);
	for (int b = 0; b < pb->nbins; b++)
		st->bins[b] = tmp[b].item;
}

/*
 * The first position from b on, in the bin order, whose bin holds item
 * (fits), or nbins.  Two dimensions (CPU and memory, the online
 * policies' case) get their own loop, with fits's test written out and the
 * item's sizes read once: First Fit spends most of its time here, scanning
 * full bins.  A change to fits must be made here too.
 */
static int first_fit_from(const pack_state_t *st, int item, int b)
{
	const vp_problem_t *pb = st->pb;

	if (pb->ndims != 2) {
		while (b < pb->nbins && !fits(st, item, st->bins[b]))
			b++;
		return b;
	}
	const double s0 = pb->size[2 * (size_t)item];
	const double s1 = pb->size[2 * (size_t)item + 1];
	const double e0 = st->elem_size[2 * (size_t)item];
	const double e1 = st->elem_size[2 * (size_t)item + 1];

	const double *load = st->load, *cap = st->cap_limit, *elem = st->elem_limit;

	if (st->uniform) {	/* the same tests, the limits read once */
		const double c0 = cap[0], c1 = cap[1];

		if (!(e0 <= elem[0] && e1 <= elem[1]))
			return pb->nbins;
		if (st->bins_as_given) {
			for (; b < pb->nbins; b++)
				if (load[2 * b] + s0 <= c0 && load[2 * b + 1] + s1 <= c1)
					break;
			return b;
		}
		for (; b < pb->nbins; b++) {
			size_t c = 2 * (size_t)st->bins[b];

			if (load[c] + s0 <= c0 && load[c + 1] + s1 <= c1)
				break;
		}
		return b;
	}
	if (st->bins_as_given) {	/* bins[b] == b */
		for (; b < pb->nbins; b++)
			if (e0 <= elem[2 * b] && load[2 * b] + s0 <= cap[2 * b] &&
			    e1 <= elem[2 * b + 1] && load[2 * b + 1] + s1 <= cap[2 * b + 1])
				break;
		return b;
	}
	for (; b < pb->nbins; b++) {
		size_t c = 2 * (size_t)st->bins[b];

		if (e0 <= elem[c] && load[c] + s0 <= cap[c] &&
		    e1 <= elem[c + 1] && load[c + 1] + s1 <= cap[c + 1])
			break;
	}
	return b;
}

/* First Fit; an item the same as the one placed before it starts looking
 * at that one's bin (the bins before it are still too full). */
static int pack_first_fit(pack_state_t *st, int *item_bin)
{
	const vp_problem_t *pb = st->pb;
	int prev = -1, prev_b = 0;

	for (int r = 0; r < pb->nitems; r++) {
		int item = st->order[r], b;

		if (st->placed[item])
			continue;
		b = first_fit_from(st, item, same_item(pb, prev, item) ? prev_b : 0);
		if (b == pb->nbins)
			return item;
		put(st, item, st->bins[b], item_bin);
		prev = item;
		prev_b = b;
	}
	return -1;
}

/*
 * Best Fit: each item into the bin that holds it with the smallest residual
 * key after it (ties to the bin order).  A run of the same item (a job's
 * tasks) needs the bins in that order once: the bins are keyed for its
 * first item (cand, keys negated so that cmp_keyed puts the best first),
 * and the next item goes where the last one went while it fits.  That is
 * Best Fit's own choice: only that bin's load grew, so its residual is no
 * larger in any dimension than for the last item (a SUM, MAX or LEX key no
 * larger), and every other bin is unchanged.  When it no longer fits, the
 * next bin in the order is the best of the unchanged ones (cand is sorted
 * then, only for runs that need a second bin).
 */
static int pack_best_fit(pack_state_t *st, vp_key_t key, int *item_bin)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims, nb = pb->nbins, prev = -1, ncand = 0, next = 0;
	int sorted = 0;
	keyed_item_t *cand = malloc(sizeof(*cand) * (nb + 1));

	if (!cand)
		return -2;
	for (int r = 0; r < pb->nitems; r++) {
		int item = st->order[r];

		if (st->placed[item])
			continue;
		if (same_item(pb, prev, item)) {
			if (fits(st, item, st->bins[cand[next].item])) {
				put(st, item, st->bins[cand[next].item], item_bin);
				continue;
			}
			if (!sorted) {	/* the best so far comes first */
				qsort(cand, ncand, sizeof(*cand), cmp_keyed);
				sorted = 1;
				next = 0;
			}
			next++;
		} else {
			ncand = next = sorted = 0;
			for (int bi = 0; bi < nb; bi++) {
				int b = st->bins[bi];
				double res[DFRS_MAX_DIMS];
				keyed_item_t *c = &cand[ncand];

				if (!fits(st, item, b))
					continue;
				for (int d = 0; d < nd; d++)
					res[d] = (pb->cap[(size_t)b * nd + d] -
						  st->load[(size_t)b * nd + d] -
						  pb->size[(size_t)item * nd + d]) /
						 pb->scale[d];
				c->item = bi;
				c->nk = vector_key(key, res, nd, c->k);
				for (int i = 0; i < c->nk; i++)
					c->k[i] = -c->k[i];
				if (ncand > 0 && cmp_keyed(c, &cand[next]) < 0)
					next = ncand;
				ncand++;
			}
		}
		if (next >= ncand) {
			free(cand);
			return item;
		}
		put(st, item, st->bins[cand[next].item], item_bin);
		prev = item;
	}
	free(cand);
	return -1;
}

/*
 * The w largest (item) or least-loaded (bin) dimensions of a scaled vector:
 * dims[0] is the most extreme; ties go to the lower dimension.
 */
static void extreme_dims(const double *v, int nd, int w, int largest,
			 int *dims)
{
	char used[DFRS_MAX_DIMS] = { 0 };

	for (int i = 0; i < w; i++) {
		int pick = -1;

		for (int d = 0; d < nd; d++) {
			if (used[d])
				continue;
			if (pick < 0 || (largest ? v[d] > v[pick] : v[d] < v[pick]))
				pick = d;
		}
		used[pick] = 1;
		dims[i] = pick;
	}
}

/* How well an item's dims match a bin's (PP: ordered prefix, CP: set). */
static int match_score(const int *item_dims, const int *bin_dims, int w,
		       int ordered)
{
	int score = 0;

	for (int k = 1; k <= w; k++) {
		int ok = 1;

		if (ordered) {
			ok = item_dims[k - 1] == bin_dims[k - 1];
		} else {
			for (int i = 0; i < k && ok; i++) {
				int found = 0;

				for (int j = 0; j < k; j++)
					found |= item_dims[i] == bin_dims[j];
				ok = found;
			}
		}
		if (!ok)
			break;
		score = k;
	}
	return score;
}

#define PP_MAX_LISTS (DFRS_MAX_DIMS * DFRS_MAX_DIMS)

/*
 * Permutation Pack's lists: the unplaced items by signature, each list
 * in key order and cut in runs of identical items (a job's tasks).
 * List l's items are list_items[list_start[l] .. list_start[l + 1]),
 * its runs list_run[l] .. list_run[l + 1]; run r's items not placed yet
 * are list_items[run_next[r] .. run_end[r]).
 */
typedef struct {
	int w;			/* signature width: min(ndims, PACK_WINDOW) */
	int ordered;		/* PP (ordered signature), else CP (a set) */
	int *list_of;		/* [nitems]: each item's list */
	int *list_items, *run_end, *run_next;
	int nlists, nruns;
	int list_dims[PP_MAX_LISTS][PACK_WINDOW];
	int list_start[PP_MAX_LISTS + 1];
	int list_run[PP_MAX_LISTS + 1];	/* first run not used up */
	int pos[PP_MAX_LISTS];		/* scan position (a run) per list */
} pp_lists_t;

/* Each item's signature -> list number, in first-seen order; returns
 * how many items are not placed yet. */
static int pp_signatures(const pack_state_t *st, pp_lists_t *L)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims, w = L->w, left = 0;
	int code_list[PP_MAX_LISTS];

	for (int c = 0; c < nd * nd; c++)
		code_list[c] = -1;
	for (int i = 0; i < pb->nitems; i++) {
		double v[DFRS_MAX_DIMS];
		int dims[PACK_WINDOW], code = 0;

		for (int d = 0; d < nd; d++)
			v[d] = pb->size[(size_t)i * nd + d] / pb->scale[d];
		extreme_dims(v, nd, w, 1, dims);
		if (!L->ordered && w == 2 && dims[0] > dims[1]) {
			int t = dims[0];
			dims[0] = dims[1], dims[1] = t;
		}
		for (int k = 0; k < w; k++)
			code = code * nd + dims[k];
		if (code_list[code] < 0) {
			code_list[code] = L->nlists;
			memcpy(L->list_dims[L->nlists], dims, sizeof(int) * w);
			L->nlists++;
		}
		L->list_of[i] = code_list[code];
		if (!st->placed[i])
			left++;
	}
	return left;
}

/* The unplaced items bucketed by list, keeping key order, and the runs
 * of identical items within each list. */
static void pp_bucket(const pack_state_t *st, pp_lists_t *L)
{
	int n = st->pb->nitems;

	memset(L->list_start, 0, sizeof(L->list_start));
	for (int r = 0; r < n; r++)
		if (!st->placed[st->order[r]])
			L->list_start[L->list_of[st->order[r]] + 1]++;
	for (int l = 0; l < L->nlists; l++)
		L->list_start[l + 1] += L->list_start[l];
	for (int l = 0; l < L->nlists; l++)
		L->pos[l] = L->list_start[l];
	for (int r = 0; r < n; r++) {
		int item = st->order[r];

		if (!st->placed[item])
			L->list_items[L->pos[L->list_of[item]]++] = item;
	}
	for (int l = 0; l < L->nlists; l++) {
		L->list_run[l] = L->nruns;
		for (int p = L->list_start[l]; p < L->list_start[l + 1]; p++) {
			if (p > L->list_start[l] &&
			    same_item(st->pb, L->list_items[p - 1], L->list_items[p])) {
				L->run_end[L->nruns - 1] = p + 1;
				continue;
			}
			L->run_next[L->nruns] = p;
			L->run_end[L->nruns++] = p + 1;
		}
	}
	L->list_run[L->nlists] = L->nruns;
}

/*
 * The item to put in bin b next: of the lists whose signature best
 * matches b's least-loaded dimensions, the first item in key order that
 * fits (its run in *pick_run); -1 if none fits.  Each list's scan moves
 * forward only (pos): what it passes does not fit b now, nor ever while
 * b is filled.
 */
static int pp_pick(const pack_state_t *st, pp_lists_t *L, int b,
		   int *pick_run)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims, pick = -1, pick_score = -1;
	double rel[DFRS_MAX_DIMS];
	int bin_dims[PACK_WINDOW];

	for (int d = 0; d < nd; d++)
		rel[d] = st->load[(size_t)b * nd + d] / pb->cap[(size_t)b * nd + d];
	extreme_dims(rel, nd, L->w, 0, bin_dims);
	for (int l = 0; l < L->nlists; l++) {
		int score = match_score(L->list_dims[l], bin_dims, L->w, L->ordered);
		int *g = &L->pos[l];

		if (score < pick_score)
			continue;
		while (*g < L->list_run[l + 1] &&
		       (L->run_next[*g] == L->run_end[*g] ||
			!fits(st, L->list_items[L->run_next[*g]], b)))
			(*g)++;
		if (*g == L->list_run[l + 1])
			continue;
		if (score > pick_score ||
		    st->rank[L->list_items[L->run_next[*g]]] < st->rank[pick]) {
			pick = L->list_items[L->run_next[*g]];
			*pick_run = *g;
			pick_score = score;
		}
	}
	return pick;
}

/* Fill bin b until nothing left fits; *left counts the unplaced items. */
static void pp_fill_bin(pack_state_t *st, pp_lists_t *L, int b,
			int *item_bin, int *left)
{
	int pick, pick_run = -1;

	/* runs used up stay so: start past them */
	for (int l = 0; l < L->nlists; l++) {
		while (L->list_run[l] < L->list_run[l + 1] &&
		       L->run_next[L->list_run[l]] == L->run_end[L->list_run[l]])
			L->list_run[l]++;
		L->pos[l] = L->list_run[l];
	}
	while (*left > 0 && (pick = pp_pick(st, L, b, &pick_run)) >= 0) {
		put(st, pick, b, item_bin);
		L->run_next[pick_run]++;
		(*left)--;
	}
}

/*
 * Permutation Pack / Choose Pack (Stillwell et al. 2010, "Vector
 * Packing", after Leinberger et al. 1999's multi-capacity bin packing): the
 * bins are filled one at a time, each with the items whose largest
 * dimensions (their signature: the w largest, ordered for PP, as a set
 * for CP) best match the bin's least-loaded ones, in key order among
 * equals.
 *
 * On entry: st's order, rank, bins, load and placed describe the items
 * (some possibly pinned and placed already) and the bins' order.
 *
 * Invariants while bin bins[bi] is filled:
 *  - every item placed so far fits its bin (fits() before every put),
 *    so no bin is loaded over its fit limits;
 *  - left is the number of items not placed yet;
 *  - each list's scan position only moves forward: an item passed over
 *    did not fit this bin, and never will while it is filled, since its
 *    load only grows; nor will the rest of that item's run (identical
 *    items), so a run's unplaced items are always its tail from run_next;
 *  - a bin left behind is never revisited: it took every item that fit
 *    when it was closed (pp_pick found none).
 * Termination: each step of pp_fill_bin places one item (left decreases)
 * or closes the bin; each scan position moves forward within its list;
 * the outer loop visits each bin once: at most nruns scan steps per bin
 * besides the items placed.
 *
 * Returns -1 when every item is placed (item_bin set for each), the
 * first unplaced item in key order when some do not fit in any bin, -2
 * when out of memory.
 */
static int pack_permutation(pack_state_t *st, int ordered, int *item_bin)
{
	const vp_problem_t *pb = st->pb;
	int nd = pb->ndims, n = pb->nitems, rc = -2, left;
	pp_lists_t L = { .w = nd < PACK_WINDOW ? nd : PACK_WINDOW,
			 .ordered = ordered };

	L.list_of = malloc(sizeof(int) * (n + 1));
	L.list_items = malloc(sizeof(int) * (n + 1));
	L.run_end = malloc(sizeof(int) * (n + 1));	/* per run */
	L.run_next = malloc(sizeof(int) * (n + 1));	/* per run */
	if (!L.list_of || !L.list_items || !L.run_end || !L.run_next)
		goto out;
	left = pp_signatures(st, &L);
	pp_bucket(st, &L);
	for (int bi = 0; bi < pb->nbins && left > 0; bi++)
		pp_fill_bin(st, &L, st->bins[bi], item_bin, &left);
	rc = -1;
	if (left > 0)
		for (int r = 0; r < n; r++)
			if (!st->placed[st->order[r]]) {
				rc = st->order[r];
				break;
			}
out:
	free(L.list_of);
	free(L.list_items);
	free(L.run_end);
	free(L.run_next);
	return rc;
}

/*
 * What every packing of one problem needs, whatever its sizes: the
 * storage, the bins' fit limits and order, the runs of each group's items,
 * the pinned items.  A search on the yield packs the same items into the
 * same bins some 7 times per MCB repack, changing only the sizes.
 */
struct vp_workspace {
	keyed_item_t *tmp;	/* [max(nitems, nbins)] */
	int *run_len;		/* [nitems] */
	int *group_run;		/* [2 nitems] with group: each run's first
				 * item, then its length, ngroup_runs of them */
	int ngroup_runs;
	int npinned;
	/* st.bins holds the bin order `bins_for` (depends on the
	 * capacities only), once sorted (bins_sorted) */
	vp_bin_order_t bins_for;
	int bins_sorted;
	pack_state_t st;
};

void vp_workspace_free(vp_workspace_t *ws)
{
	if (!ws)
		return;
	free(ws->tmp);
	free(ws->run_len);
	free(ws->group_run);
	free(ws->st.load);
	free(ws->st.order);
	free(ws->st.rank);
	free(ws->st.bins);
	free(ws->st.placed);
	free(ws->st.cap_limit);
	free(ws->st.elem_limit);
	free(ws);
}

vp_workspace_t *vp_workspace_new(const vp_problem_t *pb)
{
	vp_workspace_t *ws = calloc(1, sizeof(*ws));
	int n = pb->nitems, nb = pb->nbins;

	if (!ws)
		return NULL;
	ws->tmp = malloc(sizeof(*ws->tmp) * ((n > nb ? n : nb) + 1));
	ws->run_len = malloc(sizeof(int) * (n + 1));
	ws->group_run = malloc(sizeof(int) * (2 * (size_t)n + 1));
	ws->st.load = malloc(sizeof(double) * ((size_t)nb * pb->ndims + 1));
	ws->st.order = malloc(sizeof(int) * (n + 1));
	ws->st.rank = malloc(sizeof(int) * (n + 1));
	ws->st.bins = malloc(sizeof(int) * (nb + 1));
	ws->st.placed = malloc(n + 1);
	ws->st.cap_limit = malloc(sizeof(double) * ((size_t)nb * pb->ndims + 1));
	ws->st.elem_limit = malloc(sizeof(double) * ((size_t)nb * pb->ndims + 1));
	if (!ws->tmp || !ws->run_len || !ws->group_run || !ws->st.load ||
	    !ws->st.order || !ws->st.rank || !ws->st.bins || !ws->st.placed ||
	    !ws->st.cap_limit || !ws->st.elem_limit) {
		vp_workspace_free(ws);
		return NULL;
	}
	for (int b = 0; b < nb; b++)
		for (int d = 0; d < pb->ndims; d++) {
			size_t c = (size_t)b * pb->ndims + d;

			ws->st.cap_limit[c] = dfrs_fit_limit(pb->cap[c]);
			ws->st.elem_limit[c] = dfrs_fit_limit(elem_of(pb, b, d));
		}
	ws->st.uniform = 1;
	for (size_t c = pb->ndims; c < (size_t)nb * pb->ndims; c++)
		if (ws->st.cap_limit[c] != ws->st.cap_limit[c % pb->ndims] ||
		    ws->st.elem_limit[c] != ws->st.elem_limit[c % pb->ndims])
			ws->st.uniform = 0;
	for (int i = 0, e; pb->group && i < n; i = e) {
		for (e = i + 1; e < n && pb->group[e] == pb->group[i]; e++)
			;
		ws->group_run[2 * ws->ngroup_runs] = i;
		ws->group_run[2 * ws->ngroup_runs + 1] = e - i;
		ws->ngroup_runs++;
	}
	for (int i = 0; pb->pinned && i < n; i++)
		ws->npinned += pb->pinned[i] >= 0;
	return ws;
}

/*
 * sort_items with the runs of the groups: each group's items are the
 * same, so this is the order sort_items gives (it also joins
 * consecutive groups of the same size, which have equal keys and so come
 * out in index order either way), with one key per group.
 */
static void sort_group_runs(vp_workspace_t *ws, const vp_problem_t *pb,
			    vp_key_t key)
{
	pack_state_t *st = &ws->st;
	keyed_item_t *tmp = ws->tmp;
	int nd = pb->ndims, nruns = ws->ngroup_runs;

	for (int g = 0; g < nruns; g++) {
		int i = ws->group_run[2 * g];
		double v[DFRS_MAX_DIMS];

		for (int d = 0; d < nd; d++)
			v[d] = pb->size[(size_t)i * nd + d] / pb->scale[d];
		tmp[g].item = g;
		tmp[g].nk = vector_key(key, v, nd, tmp[g].k);
	}
	/* run g's first item is the smallest index among its items: ties
	 * between keys go to the index, as in cmp_keyed over the items */
	qsort(tmp, nruns, sizeof(*tmp), cmp_keyed);
	for (int g = 0, r = 0; g < nruns; g++) {
		int first = ws->group_run[2 * tmp[g].item];
		int end = first + ws->group_run[2 * tmp[g].item + 1];

		for (int i = first; i < end; i++) {
			st->order[r] = i;
			st->rank[i] = r++;
		}
	}
}

int vector_pack_in(vp_workspace_t *ws, const vp_problem_t *pb,
		   vp_algorithm_t alg, int *item_bin)
{
	pack_state_t *st = &ws->st;
	int n = pb->nitems, nb = pb->nbins;

	st->pb = pb;
	st->elem_size = pb->elem_size ? pb->elem_size : pb->size;
	memset(st->load, 0, sizeof(double) * (size_t)nb * pb->ndims);
	memset(st->placed, 0, n);
	for (int i = 0; i < n; i++)
		item_bin[i] = -1;
	if (pb->group)
		sort_group_runs(ws, pb, alg.key);
	else
		sort_items(st, alg.key, ws->tmp, ws->run_len);
	if (!ws->bins_sorted || ws->bins_for != alg.bins) {
		sort_bins(st, alg.bins, ws->tmp);
		ws->bins_for = alg.bins;
		ws->bins_sorted = 1;
	}
	for (int r = 0; ws->npinned > 0 && r < n; r++) {
		int item = st->order[r], b = pb->pinned[item];

		if (b < 0)
			continue;
		if (b >= nb || !fits(st, item, b))
			return item;
		put(st, item, b, item_bin);
	}
	switch (alg.strategy) {
	case VP_FIRST_FIT:
		return pack_first_fit(st, item_bin);
	case VP_BEST_FIT:
		return pack_best_fit(st, alg.key, item_bin);
	case VP_PERMUTATION_PACK:
		return pack_permutation(st, 1, item_bin);
	case VP_CHOOSE_PACK:
		return pack_permutation(st, 0, item_bin);
	}
	return -2;
}

int vector_pack(const vp_problem_t *pb, vp_algorithm_t alg, int *item_bin)
{
	vp_workspace_t *ws = vp_workspace_new(pb);
	int rc = ws ? vector_pack_in(ws, pb, alg, item_bin) : -2;

	vp_workspace_free(ws);
	return rc;
}
