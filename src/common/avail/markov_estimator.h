/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markov_estimator.h - per-node estimation of the ON/OFF Markov availability
 * model from slot-by-slot observations.
 *
 * He et al., "To Migrate or to Wait" (2012), Sec. III-A: a node is ON
 * in a slot iff it is up and the utilization by others is <= zeta; p01 and
 * p11 are estimated from counted transitions; the fit of the geometric
 * interval lengths the chain implies is measured by the Kolmogorov-Smirnov
 * distance (their Fig. 1(b)).  Exponential forgetting lets the estimate
 * follow drifting behaviour; pooling several nodes' counts gives the
 * estimate for a homogeneous group (the case of Sec. III-C).
 */
#ifndef DFRS_MARKOV_ESTIMATOR_H
#define DFRS_MARKOV_ESTIMATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "onoff_chain.h"

/* completed interval lengths 1..ONOFF_LENGTH_BINS-1 are counted exactly;
 * the last bin holds every longer one */
#define ONOFF_LENGTH_BINS 64

typedef enum {
	ONOFF_OBS_OFF = 0,	/* up, but too busy to host a task */
	ONOFF_OBS_ON = 1,	/* up and free enough */
	ONOFF_OBS_DOWN = 2,	/* down: OFF for the chain, also counted apart */
} onoff_obs_t;

/* forgetting: weight an observation keeps per later slot, in (0,1];
 * 1 remembers everything, 1 - 1/W gives an effective window of ~W slots
 * (use markov_forgetting_for_half_life) */
typedef struct {
	double forgetting;
} markov_estimator_config_t;

typedef struct {
	double transitions[2][2];	/* weighted counts [from][to], 0 OFF 1 ON */
	double slots[3];		/* weighted OFF, ON, DOWN slots */
	double on_lengths[ONOFF_LENGTH_BINS];	/* completed ON intervals */
	double off_lengths[ONOFF_LENGTH_BINS];	/* completed OFF intervals */
	int last;			/* -1 none yet (or after a gap), 0 OFF, 1 ON */
	unsigned long run;		/* length of the current interval so far */
	bool run_censored;		/* it began before observation did */
} markov_estimator_t;

typedef struct {
	bool valid;		/* both p01 and p11 estimated (both states seen left) */
	double p01, p11;	/* NaN when their state was never left or entered */
	double availability;	/* stationary Pr{ON}; the ON fraction of slots when
				 * the chain gives none */
	double mean_on, mean_off; /* slots, from the chain (1/p10, 1/p01) */
	double ks_on, ks_off;	/* KS distance of completed interval lengths to
				 * the geometric law of the chain; NaN if none */
	double ks;		/* the larger of the two defined ones */
	double on_intervals, off_intervals; /* weighted completed intervals */
	double down_fraction;	/* weighted share of DOWN slots */
	double slots;		/* weighted slots observed */
} markov_estimate_t;

void markov_estimator_init(markov_estimator_t *e);
/* forgetting factor whose weight halves after half_life slots (> 0);
 * 1 for half_life = 0 (no forgetting) */
double markov_forgetting_for_half_life(double half_life);

/* ON iff up and util_by_others <= zeta (utilization in [0,1]). */
onoff_obs_t markov_from_utilization(double util_by_others, double zeta, bool up);

void markov_estimator_observe(markov_estimator_t *e, const markov_estimator_config_t *cfg,
			     onoff_obs_t obs);
/* A missing slot (no data): the next observation does not count a
 * transition and the interval in progress is discarded. */
void markov_estimator_gap(markov_estimator_t *e);

void markov_estimate(const markov_estimator_t *e, markov_estimate_t *out);
/* Only p01 and p11 of markov_estimate (NaN for a state never left), without
 * its interval statistics: cheap enough for every slot.  true if both are
 * defined (the estimate is valid). */
bool markov_estimate_chain(const markov_estimator_t *e, onoff_chain_t *out);
/* The same for the group: transition counts of all nodes summed. */
bool markov_estimate_pool_chain(const markov_estimator_t *const *nodes, size_t count,
			       onoff_chain_t *out);

/* The homogeneous-group estimate: counts of all nodes summed. */
void markov_estimate_pool(const markov_estimator_t *const *nodes, size_t count,
			 markov_estimate_t *out);

#endif
