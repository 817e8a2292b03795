/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * onoff_chain.c - ON/OFF Markov chain of one server and eq. (3) of He et al.
 * (He et al. 2012): the transition matrix of the number of ON hosts.
 *
 * Eq. (3) sums over k, the hosts that stay ON; written as a convolution:
 * the next number of ON hosts is Binomial(i, p11) + Binomial(n-i, p01).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "onoff_chain.h"

static int probability_ok(double p)
{
	return isfinite(p) && p >= 0.0 && p <= 1.0;
}

int onoff_chain_check(const onoff_chain_t *c, char *err, size_t errlen)
{
	if (!probability_ok(c->p01)) {
		snprintf(err, errlen, "p01=%g: not a probability in [0,1]", c->p01);
		return -1;
	}
	if (!probability_ok(c->p11)) {
		snprintf(err, errlen, "p11=%g: not a probability in [0,1]", c->p11);
		return -1;
	}
	return 0;
}

double onoff_chain_availability(const onoff_chain_t *c)
{
	double p10 = 1.0 - c->p11;

	if (c->p01 + p10 <= 0.0)
		return NAN;
	return c->p01 / (c->p01 + p10);
}

double onoff_chain_mean_on(const onoff_chain_t *c)
{
	double p10 = 1.0 - c->p11;

	return p10 > 0.0 ? 1.0 / p10 : INFINITY;
}

double onoff_chain_mean_off(const onoff_chain_t *c)
{
	return c->p01 > 0.0 ? 1.0 / c->p01 : INFINITY;
}

/* pmf[k] = Pr{Binomial(m, p) = k}, k = 0..m, in log space so that large m
 * neither overflows the binomial coefficient nor underflows p^k early. */
static void binomial_pmf(size_t m, double p, double *pmf)
{
	for (size_t k = 0; k <= m; k++)
		pmf[k] = 0.0;
	if (p <= 0.0) {
		pmf[0] = 1.0;
		return;
	}
	if (p >= 1.0) {
		pmf[m] = 1.0;
		return;
	}
	double lp = log(p), lq = log1p(-p), lm = lgamma((double)m + 1.0);

	for (size_t k = 0; k <= m; k++)
		pmf[k] = exp(lm - lgamma((double)k + 1.0) - lgamma((double)(m - k) + 1.0) +
			     (double)k * lp + (double)(m - k) * lq);
}

double *onoff_hosts_transition(size_t n, const onoff_chain_t *c)
{
	size_t dim = n + 1;
	double *P = calloc(dim * dim, sizeof(*P));
	double *stay_on = malloc(dim * sizeof(*stay_on));
	double *turn_on = malloc(dim * sizeof(*turn_on));

	if (!P || !stay_on || !turn_on) {
		free(P);
		free(stay_on);
		free(turn_on);
		return NULL;
	}
	for (size_t i = 0; i <= n; i++) {
		/* k of the i ON hosts stay ON, l of the n-i OFF hosts turn ON */
		binomial_pmf(i, c->p11, stay_on);
		binomial_pmf(n - i, c->p01, turn_on);
		for (size_t k = 0; k <= i; k++)
			for (size_t l = 0; l <= n - i; l++)
				P[i * dim + k + l] += stay_on[k] * turn_on[l];
	}
	free(stay_on);
	free(turn_on);
	return P;
}
