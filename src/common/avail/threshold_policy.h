/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threshold_policy.h - the migrate-or-wait policies for a synchronized
 * parallel job of n tasks on n i.i.d. ON/OFF hosts, cost w + gamma*m.
 *
 * He et al., "To Migrate or to Wait" (2012), Sec. III-C:
 *  - threshold_stationary_evaluate: eq. (4), processing pi_n and migrations
 *    (lambda^T + beta pi^T P) diag(MQ) of ANY stationary wait/migrate policy
 *    (M_ii = p_i, M_in = 1 - p_i), computed literally from
 *    pi^T = lambda^T M (I - beta P M)^-1.  O(n^3) per policy.
 *  - threshold_partition_compute: the threshold policies T_0..T_n (T_i waits
 *    iff s' < i), their processing P_i and migrations M_i, and the gamma
 *    partition of Theorem III.4, gamma_i = (P_i - P_{i-1}) / (M_i - M_{i-1}).
 *    All n+1 policies in O(n^3) together (one LU of I - beta P).
 *  - threshold_partition_policy: the optimal threshold index for a gamma.
 *  - threshold_optimal_costs: the optimal cost-to-go from each state s'.
 *  - myopic thresholds 1/(n-i+1) (Sec. III-B remark and III-C).
 *  - threshold_decide: the decision in a slot, including "not enough ON
 *    servers, then wait" (remark after Fig. 2).
 */
#ifndef DFRS_THRESHOLD_POLICY_H
#define DFRS_THRESHOLD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "onoff_chain.h"

/* The homogeneous model: n hosts, one chain, discount beta in (0,1), and
 * lambda[s] = Pr{s of the n hosts ON in the first slot} (n+1 entries), or
 * NULL for "all hosts ON" (lambda = e_n), the case of a job just started. */
typedef struct {
	size_t n;
	double beta;
	onoff_chain_t chain;
	const double *lambda;
} threshold_model_t;

/* 0 if the model is valid (n >= 1, beta in (0,1), probabilities in [0,1],
 * lambda entries in [0,1] summing to 1 within 1e-9); else -1 and one
 * message in err. */
int threshold_model_check(const threshold_model_t *m, char *err, size_t errlen);

/* The partition of Theorem III.4.  Arrays have n+1 entries:
 * processing[i] = P_i, migrations[i] = M_i of T_i, thresholds[i] = gamma_i
 * (thresholds[0] = gamma_0 = 0).  When T_{i-1} and T_i cannot be told apart
 * from lambda (state i-1 never reached: degenerate chains), gamma_i is set
 * to gamma_{i-1}.  monotone says gamma_1 <= ... <= gamma_n (Theorem III.4
 * says it always holds; computed, not assumed). */
typedef struct {
	size_t n;
	double *processing;
	double *migrations;
	double *thresholds;
	bool monotone;
} threshold_partition_t;

int threshold_partition_compute(const threshold_model_t *m, threshold_partition_t *out,
				char *err, size_t errlen);
void threshold_partition_free(threshold_partition_t *p);

/* The optimal threshold index for gamma >= 0: argmax_i P_i - gamma M_i;
 * among ties (a boundary gamma_i) the larger i, i.e. fewer migrations. */
size_t threshold_partition_policy(const threshold_partition_t *p, double gamma);

/* The optimal expected discounted cost w + gamma m from a slot that starts
 * with s of the n hosts ON, before its decision, s = 0..n, into cost[]
 * (n+1 entries): min over the threshold policies, which contain the optimal
 * one (Lemma III.2).  m->lambda is not used.  0, or -1 and err. */
int threshold_optimal_costs(const threshold_model_t *m, double gamma, double *cost, char *err,
			    size_t errlen);

/* The myopic partition: out[i-1] = gamma_i^MY = 1/(n-i+1), i = 1..n. */
void threshold_myopic_thresholds(size_t n, double *out);
/* The threshold index the myopic policy reduces to for gamma: migrate the
 * tasks of the n-s' OFF hosts iff n-s' < 1/gamma. */
size_t threshold_myopic_policy(size_t n, double gamma);

/* A slot's decision under threshold policy T_i: on_hosts = s' (hosts of
 * the job that are ON), spare_on = ON servers not hosting the job.
 * Migrate iff s' >= i, s' < n and s' + spare_on >= n; else wait (or, when
 * s' = n, run). */
typedef enum {
	THRESHOLD_RUN,		/* all hosts ON: nothing to decide */
	THRESHOLD_WAIT,		/* suspend until the hosts are back */
	THRESHOLD_MIGRATE,	/* move the n - s' tasks of OFF hosts to ON servers */
} threshold_decision_t;

threshold_decision_t threshold_decide(size_t policy, size_t n, size_t on_hosts, size_t spare_on);
const char *threshold_decision_name(threshold_decision_t d);

/* Eq. (4) for the stationary policy wait[s] (true: wait in state s' = s,
 * false: migrate to all ON), s = 0..n-1, on the (n+1)x(n+1) matrix P of
 * eq. (3).  Writes pi_n to *processing and the discounted migrations to
 * *migrations.  0 on success, -1 if out of memory. */
int threshold_stationary_evaluate(size_t n, const double *P, double beta, const double *lambda,
			       const bool *wait, double *processing, double *migrations);

#endif
