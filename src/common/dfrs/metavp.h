/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metavp.h - DFRS placement by vector packing with a binary search on
 * the yield (Stillwell et al. 2010, "Vector Packing": "fix a tentative yield value, needs
 * become requirements, apply any vector-packing algorithm, binary search on
 * the best achievable minimum yield"), METAVP (best of the 14 homogeneous
 * algorithms) and METAHVP (best of the heterogeneous variants).
 *
 * Algorithm names:
 *   VP_FFSUM VP_FFMAX VP_FFLEX VP_BFSUM VP_BFMAX VP_BFLEX
 *   VP_PPSUM VP_PPDIF VP_PPRATIO VP_PPMAX VP_CPSUM VP_CPDIF VP_CPRATIO VP_CPMAX
 *   HVP_<same suffix>_L (bins largest first) and HVP_<suffix>_S (smallest
 *   first), e.g. HVP_CPSUM_L.
 * A trial scaled yield Y gives job i the yield yhat_i + Y (1 - yhat_i); each
 * task becomes the vector req + yield * need.  After the search, the tasks
 * are packed at the best Y found and the yields allocated max-min
 * (yield_allocation.h), so leftover capacity raises yields above Y.
 */
#ifndef DFRS_METAVP_H
#define DFRS_METAVP_H

#include <stddef.h>

#include "dfrs_model.h"
#include "vector_pack.h"

/* Binary search stops when the interval is this narrow. */
#define METAVP_SEARCH_TOLERANCE 1e-4

/*
 * How metavp_place_first searches the yield (NULL: from the floor and the
 * LP bound down to METAVP_SEARCH_TOLERANCE, as Stillwell et al. do).
 *   tolerance  the search stops when the interval is this narrow (0:
 *              METAVP_SEARCH_TOLERANCE)
 *   start      a warm start, e.g. the yield the last repack reached: when
 *              strictly between the floor and the LP bound (by more than
 *              tolerance), the first trial after the floor is at start,
 *              then steps of tolerance, doubling, up from it (or down from
 *              it if it failed) until the threshold is bracketed, then
 *              the bisection.  Where the yield moved by less than
 *              tolerance since, the search takes 3 trial packs (the floor,
 *              start, start + tolerance) instead of about 15.  The
 *              placement found may differ from the cold search's: the
 *              heuristics are not monotone in the yield.
 *   trials     out: the trial packings run are added to it
 *   hosts_only the caller reads only the placement's task hosts: when a
 *              single algorithm runs (nalgs 1 on identical hosts), the
 *              yields are not allocated (out's yields are left 0 and its
 *              min_scaled_yield -1, as dfrs_placement_init leaves them),
 *              since no other placement is compared with it
 *   reached    out: when 1 is returned (no packing at the floor) and the
 *              one algorithm that ran is First Fit (nalgs 1 on identical
 *              hosts), the number of leading jobs of inst up to the last
 *              one the failed packing reached (a task placed, or the task
 *              that did not fit); else inst->njobs.  First Fit places the
 *              pinned tasks, then the others, one at a time in key order,
 *              and a job's tasks are placed or not whatever the jobs after
 *              it hold: without any of the jobs it did not reach, the
 *              packing takes the same steps and fails at the same task.
 *              So the first `reached` jobs, and every prefix of inst
 *              longer than them, have no packing at the floor either
 *              (MCB drops the lowest priorities to them at once)
 */
typedef struct {
	double tolerance;
	double start;
	long trials;
	int hosts_only;
	int reached;
} metavp_search_t;

/* Number of algorithms METAVP (heterogeneous 0) or METAHVP (1) runs. */
int metavp_algorithm_count(int heterogeneous);
vp_algorithm_t metavp_algorithm_at(int heterogeneous, int index);

/* Name as above; parse returns 0, or -1 for an unknown name. */
void metavp_algorithm_name(vp_algorithm_t alg, char *buf, size_t len);
int metavp_algorithm_parse(const char *name, vp_algorithm_t *out);

/*
 * Place all jobs of inst with one algorithm.  pinned_task_host (NULL: none)
 * fixes some tasks' hosts (-1: free).  Only yields above floor are searched.
 * Returns 0 and fills out (allocated by dfrs_placement_init), 1 when no
 * packing exists at scaled yield floor (*failed_job: the job of the first
 * task that did not fit, if failed_job is not NULL), -1 on out of memory.
 * out is allocated when 0 or 1 is returned (free with dfrs_placement_free),
 * not when -1 is.
 */
int metavp_place(const dfrs_instance_t *inst, vp_algorithm_t alg,
	     const int *pinned_task_host, double floor,
	     dfrs_placement_t *out, int *failed_job);

/*
 * METAVP (heterogeneous 0) or METAHVP (1): the best placement of all the
 * algorithms; *best (if not NULL) receives the winner.  Returns as metavp_place
 * with floor 0.
 */
int metavp_place_meta(const dfrs_instance_t *inst, int heterogeneous,
		  const int *pinned_task_host, dfrs_placement_t *out,
		  vp_algorithm_t *best, int *failed_job);

/*
 * As metavp_place_meta, over only the first nalgs (1..14) of the 14 item
 * orders above (VP_FFSUM first; on unequal hosts each with its bins
 * largest and smallest first): the online repacks' cheaper METAVP
 * (dfrs_online.h, repack_algorithms, repack_tolerance).  nalgs 14 and
 * how NULL is metavp_place_meta.
 */
int metavp_place_first(const dfrs_instance_t *inst, int heterogeneous,
		       int nalgs, metavp_search_t *how,
		       const int *pinned_task_host, dfrs_placement_t *out,
		       vp_algorithm_t *best, int *failed_job);

#endif
