/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * onoff_chain.h - a server's availability as a two-state ON/OFF Markov chain,
 * and the chain of the number of ON hosts among n i.i.d. hosts.
 *
 * He et al., "To Migrate or to Wait" (2012): Sec. III-A (the ON/OFF
 * model) and eq. (3) (the matrix P of the number of ON hosts without
 * migration).
 */
#ifndef DFRS_ONOFF_CHAIN_H
#define DFRS_ONOFF_CHAIN_H

#include <stddef.h>

/* One server: p01 = Pr{ON next slot | OFF now}, p11 = Pr{ON next | ON now}. */
typedef struct {
	double p01;
	double p11;
} onoff_chain_t;

/* 0 if both probabilities are numbers in [0, 1]; else -1 and a message
 * naming the bad one in err. */
int onoff_chain_check(const onoff_chain_t *c, char *err, size_t errlen);

/* Stationary Pr{ON} = p01 / (p01 + p10).  NaN when the chain has no unique
 * stationary law (p01 = 0 and p11 = 1: both states absorbing). */
double onoff_chain_availability(const onoff_chain_t *c);

/* Mean length in slots of an ON interval (1/p10) and of an OFF interval
 * (1/p01); +infinity when the state is absorbing. */
double onoff_chain_mean_on(const onoff_chain_t *c);
double onoff_chain_mean_off(const onoff_chain_t *c);

/* Eq. (3): P[i*(n+1)+j] = Pr{j of the n hosts ON next slot | i ON now},
 * for n i.i.d. hosts.  Returns a malloc'ed (n+1)x(n+1) row-major matrix,
 * NULL if out of memory. */
double *onoff_hosts_transition(size_t n, const onoff_chain_t *c);

#endif
