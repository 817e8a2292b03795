/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_optimal.c - the solved MDP of eq. (2) (He et al. 2012) as a
 * table lookup for the simulation (avail_optimal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avail_optimal.h"

/* value iteration tolerance, in slots of cost */
#define OPTIMAL_TOL 1e-6

void avail_optimal_free(avail_optimal_t *o)
{
	for (size_t g = 0; o->solutions && g < o->ngammas; g++)
		mdp_solution_free(&o->solutions[g]);
	free(o->solutions);
	memset(o, 0, sizeof(*o));
}

int avail_optimal_init(avail_optimal_t *o, const avail_source_t *src, size_t n, double beta,
		       const double *gammas, size_t ngammas, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->solutions = calloc(ngammas, sizeof(*o->solutions));
	if (!o->solutions) {
		snprintf(err, errlen, "policy optimal: out of memory");
		return -1;
	}
	o->ngammas = ngammas;
	for (size_t g = 0; g < ngammas; g++) {
		mdp_model_t m = { .N = src->nodes, .n = n, .servers = src->chains, .beta = beta,
				  .gamma = gammas[g] };
		char why[256];

		if (mdp_solve(&m, OPTIMAL_TOL, &o->solutions[g], why, sizeof(why))) {
			snprintf(err, errlen, "policy optimal: gamma=%g: %s", gammas[g], why);
			avail_optimal_free(o);
			return -1;
		}
	}
	return 0;
}

unsigned avail_optimal_action(const avail_optimal_t *o, size_t g, unsigned hosts, unsigned on)
{
	const mdp_solution_t *s = &o->solutions[g];
	size_t x = mdp_set_index(s, hosts);

	return s->sets[s->action[(x << s->N) | on]];
}
