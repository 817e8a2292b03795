/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lp_bound.h - the closed-form upper bound on the minimum scaled yield from
 * the rational relaxation of the DFRS MILP (Stillwell et al. 2010, "Linear
 * Program-based heuristics: the bound"):
 *
 *   Y = min(1, min_{j in NZ} (C_j - sum_i r_ij (yhat_i (1 - delta_ij) + delta_ij))
 *                             / sum_i (1 - yhat_i) r_ij (1 - delta_ij))
 *
 * generalised to a requirement and a need in the same dimension, k tasks per
 * job and heterogeneous hosts: C_j is the total aggregate capacity of all
 * hosts in dimension j (H for unit hosts), and every task counts:
 *
 *   Y = min(1, min_{j: N_j > 0} (C_j - sum_i k_i (req_ij + yhat_i need_ij)) / N_j)
 *   N_j = sum_i k_i (1 - yhat_i) need_ij
 *
 * No placement can do better, since any integral placement is a solution of
 * the relaxation.
 */
#ifndef DFRS_LP_BOUND_H
#define DFRS_LP_BOUND_H

#include "dfrs_model.h"

/*
 * The bound in [0, 1], or -1 when even the relaxation is infeasible (some
 * dimension's requirements and minimum-yield needs exceed the total
 * capacity).  An instance without jobs has bound 1.
 */
double lp_bound(const dfrs_instance_t *inst);

/*
 * The largest k such that the instance of the first k jobs has a feasible
 * relaxation (lp_bound >= 0): what dropping the last job until lp_bound is
 * feasible finds, in one pass over the jobs instead of one per drop.  The
 * sums are accumulated in the same order as lp_bound's, so the answer is
 * the same to the last bit.
 */
int lp_feasible_prefix(const dfrs_instance_t *inst);

/*
 * The same one job at a time, for a caller whose jobs are not in one array:
 * lp_prefix_start with the hosts (inst's jobs are not read), then
 * lp_prefix_add for each job in order, 1 while the relaxation of the jobs
 * added so far is feasible.  What each job needs at its minimum yield is
 * not negative, so once a job makes it infeasible every longer prefix is:
 * the first 0 ends the prefix.
 */
typedef struct {
	int ndims;
	double capacity[DFRS_MAX_DIMS], fixed[DFRS_MAX_DIMS];
} lp_prefix_t;

void lp_prefix_start(lp_prefix_t *lp, const dfrs_instance_t *inst);
int lp_prefix_add(lp_prefix_t *lp, const dfrs_job_t *job);

#endif
