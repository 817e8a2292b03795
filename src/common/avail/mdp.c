/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mdp.c - value iteration for eq. (2) of He et al. (2012),
 * Sec. III-B: C(x_t, a_t) = min_x [w(a_t,x) + gamma m(x_t,x)
 *                                  + beta E C(x, a_{t+1})],
 * w(a, x) = 1 unless every host of x is ON, m(x_t, x) = |x_t \ x|.
 *
 * The expectation over a_{t+1} factorizes over servers (independent
 * chains), so it is applied one server (one bit of a) at a time:
 * N 2^N work per host set instead of 4^N.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp.h"

void mdp_solution_free(mdp_solution_t *s)
{
	free(s->sets);
	free(s->cost);
	free(s->action);
	memset(s, 0, sizeof(*s));
}

size_t mdp_set_index(const mdp_solution_t *s, unsigned mask)
{
	for (size_t i = 0; i < s->nsets; i++)
		if (s->sets[i] == mask)
			return i;
	return s->nsets;
}

static int model_check(const mdp_model_t *m, char *err, size_t errlen)
{
	if (m->N < 1 || m->N > MDP_MAX_SERVERS) {
		snprintf(err, errlen, "N=%zu servers: the exact MDP handles 1..%d", m->N,
			 MDP_MAX_SERVERS);
		return -1;
	}
	if (m->n < 1 || m->n > m->N) {
		snprintf(err, errlen, "n=%zu tasks on N=%zu servers: need 1 <= n <= N", m->n, m->N);
		return -1;
	}
	if (!isfinite(m->beta) || m->beta <= 0.0 || m->beta >= 1.0) {
		snprintf(err, errlen, "beta=%g: the discount factor must be in (0,1)", m->beta);
		return -1;
	}
	if (!isfinite(m->gamma) || m->gamma < 0.0) {
		snprintf(err, errlen, "gamma=%g: must be a number >= 0", m->gamma);
		return -1;
	}
	for (size_t h = 0; h < m->N; h++) {
		char why[128];

		if (onoff_chain_check(&m->servers[h], why, sizeof(why))) {
			snprintf(err, errlen, "server %zu: %s", h, why);
			return -1;
		}
	}
	return 0;
}

static int space_init(const mdp_model_t *m, mdp_solution_t *s, char *err, size_t errlen)
{
	size_t nstates;

	memset(s, 0, sizeof(*s));
	if (model_check(m, err, errlen))
		return -1;
	s->N = m->N;
	s->n = m->n;
	for (unsigned mask = 0; mask < (1u << m->N); mask++)
		if ((size_t)__builtin_popcount(mask) == m->n)
			s->nsets++;
	nstates = s->nsets << m->N;
	s->sets = malloc(s->nsets * sizeof(*s->sets));
	s->cost = calloc(nstates, sizeof(*s->cost));
	s->action = calloc(nstates, sizeof(*s->action));
	if (!s->sets || !s->cost || !s->action) {
		mdp_solution_free(s);
		snprintf(err, errlen, "out of memory for %zu states", nstates);
		return -1;
	}
	size_t k = 0;

	for (unsigned mask = 0; mask < (1u << m->N); mask++)
		if ((size_t)__builtin_popcount(mask) == m->n)
			s->sets[k++] = mask;
	return 0;
}

/* v[a] <- E[v(a') | a] for independent server chains, in place. */
static void expect_next(const mdp_model_t *m, double *v)
{
	size_t states = (size_t)1 << m->N;

	for (size_t h = 0; h < m->N; h++) {
		double p01 = m->servers[h].p01, p11 = m->servers[h].p11;
		size_t bit = (size_t)1 << h;

		for (size_t a = 0; a < states; a++) {
			if (a & bit)
				continue;
			double off = v[a], on = v[a | bit];

			v[a] = (1.0 - p01) * off + p01 * on;
			v[a | bit] = (1.0 - p11) * off + p11 * on;
		}
	}
}

/* Value iteration; policy NULL means optimal (min over actions). */
static int iterate(const mdp_model_t *m, mdp_policy_fn policy, void *ctx, double tol,
		   mdp_solution_t *s, char *err, size_t errlen)
{
	size_t states = (size_t)1 << m->N, nsets = s->nsets;
	double *future = malloc(nsets * states * sizeof(*future));
	double *weights = policy ? malloc(nsets * sizeof(*weights)) : NULL;

	if (!future || (policy && !weights)) {
		free(future);
		free(weights);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int round = 0; round < 100000; round++) {
		double change = 0.0;

		memcpy(future, s->cost, nsets * states * sizeof(*future));
		for (size_t x = 0; x < nsets; x++)
			expect_next(m, future + (x << m->N));
		for (size_t xt = 0; xt < nsets; xt++)
			for (size_t a = 0; a < states; a++) {
				double value = policy ? 0.0 : INFINITY;
				size_t chosen = 0;

				if (policy)
					policy(ctx, s, s->sets[xt], (unsigned)a, weights);
				for (size_t x = 0; x < nsets; x++) {
					if (policy && weights[x] == 0.0)
						continue;
					/* w(a, x) + gamma m(x_t, x) + beta E C(x, a') */
					double c = ((s->sets[x] & ~a) ? 1.0 : 0.0) +
						   m->gamma * __builtin_popcount(s->sets[xt] & ~s->sets[x]) +
						   m->beta * future[(x << m->N) | a];

					if (policy) {
						value += weights[x] * c;
						if (weights[x] > weights[chosen])
							chosen = x;
					} else if (c < value) {
						value = c;
						chosen = x;
					}
				}
				size_t st = (xt << m->N) | a;

				change = fmax(change, fabs(value - s->cost[st]));
				s->cost[st] = value;
				s->action[st] = chosen;
			}
		if (change * m->beta <= tol * (1.0 - m->beta)) {
			free(future);
			free(weights);
			return 0;
		}
	}
	free(future);
	free(weights);
	snprintf(err, errlen, "value iteration did not converge to %g", tol);
	return -1;
}

int mdp_solve(const mdp_model_t *m, double tol, mdp_solution_t *out, char *err, size_t errlen)
{
	if (space_init(m, out, err, errlen))
		return -1;
	if (iterate(m, NULL, NULL, tol, out, err, errlen)) {
		mdp_solution_free(out);
		return -1;
	}
	return 0;
}

int mdp_evaluate(const mdp_model_t *m, mdp_policy_fn policy, void *ctx, double tol,
		 mdp_solution_t *out, char *err, size_t errlen)
{
	if (space_init(m, out, err, errlen))
		return -1;
	if (iterate(m, policy, ctx, tol, out, err, errlen)) {
		mdp_solution_free(out);
		return -1;
	}
	return 0;
}
