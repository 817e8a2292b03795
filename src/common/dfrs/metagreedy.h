/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metagreedy.h - the 49 greedy DFRS placement heuristics (7 job
 * orders x 7 host choices) and METAGREEDY, the best of them (Stillwell et al. 2010,
 * "Greedy heuristics 1/4 .. 3/4").  Jobs are taken in order; each task
 * goes to a host where its requirement and constrained need
 * (req + min_yield * need) fit; yields are then allocated max-min.
 *
 * Job orders GREEDY_S<n> (all decreasing, on coordinates scaled by the mean
 * host capacity):
 *   S1 random (fixed seed: reproducible)
 *   S2 maximum need            S3 sum of needs
 *   S4 maximum of req + min_yield * need (requirement and constrained need)
 *   S5 sum of the same         S6 maximum of req + need   S7 sum of req + need
 * Host choices _P<n>, among hosts where the task fits; j_n is the task's
 * dimension of largest need, j_r its dimension of largest req + min_yield *
 * need; loads are relative to the host's capacity:
 *   P1 smallest max need in j_n of the tasks already there
 *   P2 smallest sum of needs in j_n
 *   P3 best fit: largest max of (req + min_yield * need) in j_r
 *   P4 best fit: largest sum of the same in j_r
 *   P5 worst fit of P3 (smallest)     P6 worst fit of P4 (smallest)
 *   P7 first fit (lowest host index)
 * Ties go to the lowest host index.
 */
#ifndef DFRS_METAGREEDY_H
#define DFRS_METAGREEDY_H

#include <stddef.h>

#include "dfrs_model.h"

#define METAGREEDY_JOB_ORDERS 7
#define METAGREEDY_HOST_CHOICES 7

/* Seed of the random job order S1. */
#define METAGREEDY_RANDOM_SEED 12345u

/* "GREEDY_S<order>_P<choice>", 1-based; parse returns 0 or -1. */
void metagreedy_name(int order, int choice, char *buf, size_t len);
int metagreedy_parse(const char *name, int *order, int *choice);

/*
 * Place with one heuristic (order, choice 1-based).  Returns 0 and fills
 * out (allocated by dfrs_placement_init), 1 when some task fits nowhere
 * (*failed_job, if not NULL, is its job; out is still allocated), -1 on out
 * of memory (out not allocated).
 */
int metagreedy_place(const dfrs_instance_t *inst, int order, int choice,
		 dfrs_placement_t *out, int *failed_job);

/* METAGREEDY: the best of the 49; best_order, best_choice get the winner. */
int metagreedy_place_meta(const dfrs_instance_t *inst, dfrs_placement_t *out,
		      int *best_order, int *best_choice, int *failed_job);

#endif
