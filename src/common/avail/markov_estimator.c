/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markov_estimator.c - ON/OFF Markov chain estimation per node (He et al.,
 * He et al. 2012, Sec. III-A): transition counts -> p01, p11; completed interval
 * lengths -> Kolmogorov-Smirnov distance to the geometric fit.
 *
 * With forgetting factor rho every weight is multiplied by rho before each
 * new slot is added, so a slot observed k slots ago weighs rho^k.
 */
#include <math.h>
#include <string.h>

#include "markov_estimator.h"
#include "onoff_chain.h"

void markov_estimator_init(markov_estimator_t *e)
{
	memset(e, 0, sizeof(*e));
	e->last = -1;
}

double markov_forgetting_for_half_life(double half_life)
{
	if (!(half_life > 0.0))
		return 1.0;
	return exp2(-1.0 / half_life);
}

onoff_obs_t markov_from_utilization(double util_by_others, double zeta, bool up)
{
	if (!up)
		return ONOFF_OBS_DOWN;
	return util_by_others <= zeta ? ONOFF_OBS_ON : ONOFF_OBS_OFF;
}

static void decay(markov_estimator_t *e, double rho)
{
	if (rho >= 1.0)
		return;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			e->transitions[i][j] *= rho;
	for (int k = 0; k < 3; k++)
		e->slots[k] *= rho;
	for (int b = 0; b < ONOFF_LENGTH_BINS; b++) {
		e->on_lengths[b] *= rho;
		e->off_lengths[b] *= rho;
	}
}

static void record_interval(markov_estimator_t *e)
{
	if (e->run_censored || e->run == 0)
		return;

	size_t bin = e->run < ONOFF_LENGTH_BINS ? e->run - 1 : ONOFF_LENGTH_BINS - 1;

	if (e->last == 1)
		e->on_lengths[bin] += 1.0;
	else
		e->off_lengths[bin] += 1.0;
}

void markov_estimator_observe(markov_estimator_t *e, const markov_estimator_config_t *cfg,
			     onoff_obs_t obs)
{
	int now = obs == ONOFF_OBS_ON ? 1 : 0;

	decay(e, cfg->forgetting);
	e->slots[obs == ONOFF_OBS_DOWN ? 2 : now] += 1.0;
	if (e->last < 0) {
		e->run = 1;
		e->run_censored = true;
	} else {
		e->transitions[e->last][now] += 1.0;
		if (now == e->last) {
			e->run++;
		} else {
			record_interval(e);
			e->run = 1;
			e->run_censored = false;
		}
	}
	e->last = now;
}

void markov_estimator_gap(markov_estimator_t *e)
{
	e->last = -1;
	e->run = 0;
	e->run_censored = true;
}

/* KS distance between the completed interval lengths (weights per length)
 * and the geometric law Pr{L <= k} = 1 - stay^k of the chain. */
static double ks_distance(const double *lengths, double stay)
{
	double total = 0.0, cum = 0.0, d = 0.0;

	for (int b = 0; b < ONOFF_LENGTH_BINS; b++)
		total += lengths[b];
	if (!(total > 0.0) || isnan(stay))
		return NAN;
	for (int k = 1; k < ONOFF_LENGTH_BINS; k++) {
		cum += lengths[k - 1];
		d = fmax(d, fabs(cum / total - (1.0 - pow(stay, (double)k))));
	}
	return d;
}

/* p01 and p11 from transition counts [from][to]; NaN for a state never
 * left.  true if both are defined. */
static bool chain_from_transitions(const double t[2][2], onoff_chain_t *c)
{
	double from_off = t[0][0] + t[0][1], from_on = t[1][0] + t[1][1];

	c->p01 = from_off > 0.0 ? t[0][1] / from_off : NAN;
	c->p11 = from_on > 0.0 ? t[1][1] / from_on : NAN;
	return !isnan(c->p01) && !isnan(c->p11);
}

bool markov_estimate_chain(const markov_estimator_t *e, onoff_chain_t *out)
{
	return chain_from_transitions(e->transitions, out);
}

bool markov_estimate_pool_chain(const markov_estimator_t *const *nodes, size_t count,
			       onoff_chain_t *out)
{
	double sum[2][2] = { { 0.0, 0.0 }, { 0.0, 0.0 } };

	for (size_t i = 0; i < count; i++)
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2; b++)
				sum[a][b] += nodes[i]->transitions[a][b];
	return chain_from_transitions(sum, out);
}

void markov_estimate(const markov_estimator_t *e, markov_estimate_t *out)
{
	double slots = e->slots[0] + e->slots[1] + e->slots[2];
	onoff_chain_t fit;

	memset(out, 0, sizeof(*out));
	out->valid = chain_from_transitions(e->transitions, &fit);
	out->p01 = fit.p01;
	out->p11 = fit.p11;
	out->slots = slots;
	out->down_fraction = slots > 0.0 ? e->slots[2] / slots : NAN;
	out->availability = out->valid ? onoff_chain_availability(&fit) : NAN;
	if (isnan(out->availability))
		out->availability = slots > 0.0 ? e->slots[1] / slots : NAN;
	out->mean_on = isnan(out->p11) ? NAN : onoff_chain_mean_on(&fit);
	out->mean_off = isnan(out->p01) ? NAN : onoff_chain_mean_off(&fit);
	out->ks_on = ks_distance(e->on_lengths, out->p11);
	out->ks_off = ks_distance(e->off_lengths, isnan(out->p01) ? NAN : 1.0 - out->p01);
	out->ks = isnan(out->ks_on) ? out->ks_off :
		  isnan(out->ks_off) ? out->ks_on : fmax(out->ks_on, out->ks_off);
	for (int b = 0; b < ONOFF_LENGTH_BINS; b++) {
		out->on_intervals += e->on_lengths[b];
		out->off_intervals += e->off_lengths[b];
	}
}

void markov_estimate_pool(const markov_estimator_t *const *nodes, size_t count,
			 markov_estimate_t *out)
{
	markov_estimator_t sum;

	markov_estimator_init(&sum);
	for (size_t i = 0; i < count; i++) {
		const markov_estimator_t *e = nodes[i];

		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2; b++)
				sum.transitions[a][b] += e->transitions[a][b];
		for (int k = 0; k < 3; k++)
			sum.slots[k] += e->slots[k];
		for (int b = 0; b < ONOFF_LENGTH_BINS; b++) {
			sum.on_lengths[b] += e->on_lengths[b];
			sum.off_lengths[b] += e->off_lengths[b];
		}
	}
	markov_estimate(&sum, out);
}
