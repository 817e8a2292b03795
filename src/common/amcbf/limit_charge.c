/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * limit_charge.c - the time limit a running job is owed for the CPU it
 * was denied (limit_charge.h; Liu et al. 2013, Sec. III; Stillwell et al.
 * 2010, Sec. 5).
 */
#include "limit_charge.h"

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

double limit_charge_denied(const limit_charge_in_t *in,
			   limit_charge_basis_t *basis)
{
	limit_charge_basis_t b = in->measured ? LIMIT_CHARGE_MEASURED :
				 LIMIT_CHARGE_BELIEVED;
	double denied;

	if (in->measured) {
		double used = clamp01(in->used);
		double alone = in->alone > used ? in->alone : used;

		denied = !in->shared || !(alone > 0) ? 0 :
			 clamp01(1 - used / alone);
	} else if (in->background || in->yield < 0) {
		denied = 1;
	} else {
		denied = in->yield > 1 ? 0 : 1 - in->yield;
	}
	if (basis)
		*basis = b;
	return denied;
}

time_t limit_charge_step(limit_charge_t *c, double denied, double dt,
			 double horizon)
{
	time_t whole;

	c->owed += denied * dt - c->ahead;
	c->ahead = denied * (horizon > 0 ? horizon : 0);
	c->owed += c->ahead;
	if (c->owed < 1)	/* a balance below 0 is kept, not taken back */
		return 0;
	whole = (time_t)c->owed;	/* towards 0 */
	c->owed -= (double)whole;
	return whole;
}
