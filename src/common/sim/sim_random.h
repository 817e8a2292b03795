/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_random.h - the simulator's pseudo-random numbers: a splitmix64
 * generator held in a plain struct (no global state), so that a run is
 * reproducible from its --seed and two runs never share a stream.
 * Distributions used by Liu et al.'s models: uniform and clipped normal.
 */
#ifndef DFRS_SIM_RANDOM_H
#define DFRS_SIM_RANDOM_H

#include <math.h>
#include <stdint.h>

typedef struct {
	uint64_t state;
} sim_random_t;

static inline void sim_random_seed(sim_random_t *r, uint64_t seed)
{
	r->state = seed;
}

static inline uint64_t sim_random_next(sim_random_t *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static inline double sim_random_unit(sim_random_t *r)
{
	return (double)(sim_random_next(r) >> 11) * 0x1.0p-53;
}

static inline double sim_random_uniform(sim_random_t *r, double lo, double hi)
{
	return lo + (hi - lo) * sim_random_unit(r);
}

/* normal(mu, sigma) by Box-Muller, clipped to [lo, hi] */
static inline double sim_random_normal_clipped(sim_random_t *r, double mu,
					       double sigma, double lo,
					       double hi)
{
	double u1 = 1.0 - sim_random_unit(r);	/* (0, 1] */
	double u2 = sim_random_unit(r);
	double x = mu + sigma * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	return x < lo ? lo : x > hi ? hi : x;
}

#endif
