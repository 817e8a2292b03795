/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_optimal.h - the exact optimum of the migrate-or-wait MDP (He et
 * al. 2012, Sec. III-B, eq. (2); mdp.h) as a policy of the
 * simulation (avail_sim.h): the reference curve "optimal" of their Fig. 4.
 * Exponential in the pool size: Markov sources of at most MDP_MAX_SERVERS
 * nodes only.
 */
#ifndef DFRS_AVAIL_OPTIMAL_H
#define DFRS_AVAIL_OPTIMAL_H

#include <stddef.h>

#include "avail_source.h"
#include "avail/mdp.h"

typedef struct {
	size_t ngammas;
	mdp_solution_t *solutions;	/* one per gamma */
} avail_optimal_t;

/* Solves the MDP of the source's chains for each gamma: a Markov source
 * of at most MDP_MAX_SERVERS nodes (avail_sim_check checks it).  0, or -1
 * and one message in err (out of memory, no convergence). */
int avail_optimal_init(avail_optimal_t *o, const avail_source_t *src, size_t n, double beta,
		       const double *gammas, size_t ngammas, char *err, size_t errlen);
void avail_optimal_free(avail_optimal_t *o);

/* The host set (bitmask over nodes) the optimal policy moves to at gamma
 * number g from host set `hosts` with nodes `on` ON (bitmasks). */
unsigned avail_optimal_action(const avail_optimal_t *o, size_t g, unsigned hosts, unsigned on);

#endif
