/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mdp.h - the exact migrate-or-wait MDP of He et al. (2012),
 * Sec. III-B, eq. (2): N heterogeneous ON/OFF servers, a job of n tasks on a
 * host set x, state (x, a) with a the ON/OFF vector of all servers, cost
 * w(a, x) + gamma m(x_t, x) discounted by beta, solved by value iteration.
 *
 * Exponential in N (C(N,n) 2^N states): it is the REFERENCE the fast
 * policies are tested against, for N up to MDP_MAX_SERVERS, not something a
 * controller runs.  It also evaluates any (randomized) policy on the same
 * model, which is how the heterogeneous policies are compared.
 */
#ifndef DFRS_MDP_H
#define DFRS_MDP_H

#include <stddef.h>

#include "onoff_chain.h"

#define MDP_MAX_SERVERS 12

typedef struct {
	size_t N;			/* servers */
	size_t n;			/* tasks of the job, 1 <= n <= N */
	const onoff_chain_t *servers;	/* N chains */
	double beta;			/* discount, in (0,1) */
	double gamma;			/* cost of one migration, >= 0 */
} mdp_model_t;

/* States: host set index x (0..nsets-1, set = bitmask of servers) times
 * a (0..2^N-1, bit h set = server h ON).  cost[x << N | a] is the expected
 * discounted cost from a slot that starts on hosts x with servers a (the
 * slot's own decision included); action[x << N | a] the host set chosen. */
typedef struct {
	size_t N, n;
	size_t nsets;
	unsigned *sets;
	double *cost;
	size_t *action;
} mdp_solution_t;

/* A policy for mdp_evaluate: for the slot starting on host set `hosts`
 * (bitmask) with servers `on` (bitmask), write the probability of moving to
 * each host set into weights[0..nsets-1] (they must sum to 1). */
typedef void (*mdp_policy_fn)(void *ctx, const mdp_solution_t *space, unsigned hosts,
			      unsigned on, double *weights);

/* The optimal cost and actions, to within tol of the fixed point. */
int mdp_solve(const mdp_model_t *m, double tol, mdp_solution_t *out, char *err, size_t errlen);
/* The cost of the given policy (action[] is left at the most likely set). */
int mdp_evaluate(const mdp_model_t *m, mdp_policy_fn policy, void *ctx, double tol,
		 mdp_solution_t *out, char *err, size_t errlen);
void mdp_solution_free(mdp_solution_t *s);

/* Index of the host set with this bitmask, or nsets if it is not one. */
size_t mdp_set_index(const mdp_solution_t *s, unsigned mask);

#endif
