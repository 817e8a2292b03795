/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ssac.c - SSAC node preference (Xie & Qin 2006, Fig. 3
 * step 8: minimal availability deficiency, then minimal expected response
 * time) as a total order of the candidates, and the M/G/1 response time of
 * their eq. (3).
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>

#include "ssac.h"

double ssac_deficiency(double requirement, double availability)
{
	if (isnan(availability))
		availability = 0.0;
	return requirement > availability ? requirement - availability : 0.0;
}

double ssac_mg1_response_time(double arrival_rate, double mean_service, double mean_square_service)
{
	double load = arrival_rate * mean_service;

	if (load >= 1.0)
		return INFINITY;
	return mean_service + arrival_rate * mean_square_service / (2.0 * (1.0 - load));
}

typedef struct {
	const ssac_candidate_t *c;
	double requirement;
} rank_context_t;

/* qsort_r comparison: deficiency, then response time, then index, so the
 * order is total and the result deterministic */
static int compare_candidates(const void *pa, const void *pb, void *arg)
{
	const rank_context_t *ctx = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double da = ssac_deficiency(ctx->requirement, ctx->c[a].availability);
	double db = ssac_deficiency(ctx->requirement, ctx->c[b].availability);

	if (da != db)
		return da < db ? -1 : 1;
	double ra = isnan(ctx->c[a].response) ? INFINITY : ctx->c[a].response;
	double rb = isnan(ctx->c[b].response) ? INFINITY : ctx->c[b].response;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a < b ? -1 : a > b;
}

void ssac_rank(const ssac_candidate_t *c, size_t count, double requirement,
		       size_t *order)
{
	rank_context_t ctx = { c, requirement };

	for (size_t i = 0; i < count; i++)
		order[i] = i;
	qsort_r(order, count, sizeof(*order), compare_candidates, &ctx);
}
