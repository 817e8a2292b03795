/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ssac.h - availability-aware ordering of candidate nodes for
 * a job that states an availability requirement.
 *
 * Xie & Qin, SSAC (2006), Sec. 3.2 and Fig. 3 step 8: availability
 * deficiency d_ij = max(0, a_i - xi_j); prefer the node with the smallest
 * deficiency, then the smallest expected response time; eq. (3), the M/G/1
 * response time of a node, is provided for the latter.
 */
#ifndef DFRS_SSAC_H
#define DFRS_SSAC_H

#include <stddef.h>

typedef struct {
	double availability;	/* xi_j in [0,1]; NaN = unknown, ranked as 0 */
	double response;	/* expected response time of the job there */
} ssac_candidate_t;

/* d = max(0, requirement - availability); unknown availability counts 0 */
double ssac_deficiency(double requirement, double availability);

/* Eq. (3): TN = ES + Lambda ES2 / (2 (1 - Lambda ES)), M/G/1 with arrival
 * rate Lambda, mean service time ES and mean-square service time ES2.
 * +infinity when the node is saturated (Lambda ES >= 1). */
double ssac_mg1_response_time(double arrival_rate, double mean_service, double mean_square_service);

/* order[0..count-1] = candidate indices, by deficiency, then response time,
 * then index (stable, deterministic). */
void ssac_rank(const ssac_candidate_t *c, size_t count, double requirement,
		       size_t *order);

#endif
