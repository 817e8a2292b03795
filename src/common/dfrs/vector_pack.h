/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vector_pack.h - multi-dimensional (vector) bin packing of fixed item
 * vectors into bins (Stillwell et al. 2010, "Vector Packing", "Best Fit and First Fit
 * Vector Packing", "Permutation Pack and Choose Pack Vector Packing", and
 * for unequal bins "Heterogeneous ... H. First-Fit, H. Best-Fit, H. Choose
 * Pack").  The DFRS placement fixes a trial yield, which turns every fluid
 * need into a requirement, and calls this (metavp.h).
 *
 * Strategies
 *   FF  First Fit: items in decreasing key order, each into the first bin
 *       (in bin order) where it fits.
 *   BF  Best Fit: items in decreasing key order, each into the bin where it
 *       fits that is left with the smallest residual capacity (the residual
 *       vector compared by the same key: SUM, MAX or LEX).
 *   PP  Permutation Pack: bins are filled one at a time.  Items are grouped
 *       in lists by the ordered tuple of their w largest dimensions; the
 *       next item for the current bin comes from the list whose tuple
 *       matches the bin's w least-loaded dimensions in order (load relative
 *       to capacity), the first of that list that fits; when none fits the
 *       match is relaxed to the longest matching prefix, down to any item.
 *   CP  Choose Pack: as PP, but the w dimensions match as a set, in any
 *       order.
 *   w = min(d, 2).  With d = 2, CP has a single list and packs as FF does.
 * Keys (decreasing): SUM of coordinates, MAX coordinate, LEX (coordinates
 * compared in dimension order), DIF (largest minus smallest coordinate),
 * RATIO (largest over smallest).  Coordinates are divided by the problem's
 * scale (a typical bin capacity) before keys and residuals are compared.
 * Bin orders (the heterogeneous variants): bins as given, or sorted by
 * decreasing or increasing sum of scaled capacity.
 */
#ifndef DFRS_VECTOR_PACK_H
#define DFRS_VECTOR_PACK_H

typedef enum {
	VP_FIRST_FIT,
	VP_BEST_FIT,
	VP_PERMUTATION_PACK,
	VP_CHOOSE_PACK,
} vp_strategy_t;

typedef enum {
	VP_KEY_SUM,
	VP_KEY_MAX,
	VP_KEY_LEX,
	VP_KEY_DIF,
	VP_KEY_RATIO,
} vp_key_t;

typedef enum {
	VP_BINS_AS_GIVEN,
	VP_BINS_LARGEST_FIRST,
	VP_BINS_SMALLEST_FIRST,
} vp_bin_order_t;

typedef struct {
	vp_strategy_t strategy;
	vp_key_t key;
	vp_bin_order_t bins;
} vp_algorithm_t;

typedef struct {
	int ndims;
	int nitems;
	int nbins;
	const double *size;	/* [nitems * ndims] */
	const double *elem_size;	/* [nitems * ndims] what an item uses of
				 * one elementary unit; NULL: size */
	const double *cap;	/* [nbins * ndims] */
	const double *elem;	/* [nbins * ndims] most one item may use; NULL:
				 * cap */
	const int *pinned;	/* [nitems] bin the item must go to, or -1;
				 * NULL: none */
	const double *scale;	/* [ndims] unit of each dimension, > 0 */
	const int *group;	/* [nitems] items of one group have the same
				 * size (a job's tasks), so the packers need
				 * not compare them; NULL: compare every item */
} vp_problem_t;

/*
 * Pack every item; item_bin[i] receives its bin.  Returns -1 when all items
 * are packed, else the index of the first item that could not be packed
 * (or -2 on out of memory).  Pinned items go to their bin first; if they do
 * not fit there, the first of them is returned.
 */
int vector_pack(const vp_problem_t *pb, vp_algorithm_t alg, int *item_bin);

/*
 * Packing the same items into the same bins again and again, with new
 * sizes each time (a search on the yield): a workspace made for pb holds
 * the storage and what does not depend on the sizes (the bins' limits,
 * the groups, the pinned items).  vector_pack_in(ws, pb, ...) is
 * vector_pack(pb, ...) for a pb that differs from the one ws was made for
 * at most in the contents of size and elem_size.  vp_workspace_new
 * returns NULL when out of memory.
 */
typedef struct vp_workspace vp_workspace_t;

vp_workspace_t *vp_workspace_new(const vp_problem_t *pb);
int vector_pack_in(vp_workspace_t *ws, const vp_problem_t *pb,
		   vp_algorithm_t alg, int *item_bin);
void vp_workspace_free(vp_workspace_t *ws);

#endif
