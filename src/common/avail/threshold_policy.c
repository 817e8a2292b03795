/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threshold_policy.c - He et al. (2012), Sec. III-C: the closed-form
 * optimal migrate-or-wait policy for i.i.d. hosts (threshold policies
 * T_0..T_n, Lemma III.2, and the gamma partition of Theorem III.4), the
 * myopic thresholds, and eq. (4) for any stationary wait/migrate policy.
 *
 * How the partition is computed fast.  Under T_i let V(s) be the expected
 * discounted processing and U(s) the expected discounted migrations from a
 * slot that starts with s hosts ON (before migration).  With A = {0..i-1}
 * (wait) and B = {i..n} (migrate to all ON, or run if s = n):
 *   V_B = 1 + beta c,        c = sum_j P_nj V(j)
 *   V_A = beta P_AA V_A + beta P_AB V_B
 *   U_B(s) = (n - s) + beta d,  d = sum_j P_nj U(j)
 *   U_A = beta P_AA U_A + beta P_AB U_B
 * so with g = (I - beta P_AA)^-1 beta P_AB 1 and
 *         r = (I - beta P_AA)^-1 beta P_AB (n - j)_j:
 *   h = P_nA g + P_nB 1,   c = h / (1 - beta h),   V_A = g (1 + beta c)
 *   d = (P_nA r + P_nB (n-j)_j) / (1 - beta h),     U_A = r + g beta d
 * and P_i = lambda.V, M_i = lambda.U (which equal pi_n and
 * (lambda^T + beta pi^T P) diag(MQ) of eq. (4)).  I - beta P_AA is the
 * leading i x i block of I - beta P, which is strictly diagonally dominant
 * by rows (beta < 1), so ONE LU factorization without pivoting serves every
 * i: O(n^3) for all n+1 policies instead of O(n^4).
 * The same per-state V, U give threshold_optimal_costs: the optimal cost
 * from each state s is min_i 1/(1-beta) - V_i(s) + gamma U_i(s).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threshold_policy.h"

int threshold_model_check(const threshold_model_t *m, char *err, size_t errlen)
{
	if (m->n < 1) {
		snprintf(err, errlen, "n=%zu: the job needs at least 1 task", m->n);
		return -1;
	}
	if (!isfinite(m->beta) || m->beta <= 0.0 || m->beta >= 1.0) {
		snprintf(err, errlen, "beta=%g: the discount factor must be in (0,1)", m->beta);
		return -1;
	}
	if (onoff_chain_check(&m->chain, err, errlen))
		return -1;
	if (m->lambda) {
		double sum = 0.0;

		for (size_t s = 0; s <= m->n; s++) {
			if (!isfinite(m->lambda[s]) || m->lambda[s] < 0.0 || m->lambda[s] > 1.0) {
				snprintf(err, errlen, "lambda[%zu]=%g: not a probability in [0,1]",
					 s, m->lambda[s]);
				return -1;
			}
			sum += m->lambda[s];
		}
		if (fabs(sum - 1.0) > 1e-9) {
			snprintf(err, errlen, "lambda sums to %.12g, not 1", sum);
			return -1;
		}
	}
	return 0;
}

void threshold_partition_free(threshold_partition_t *p)
{
	free(p->processing);
	free(p->migrations);
	free(p->thresholds);
	memset(p, 0, sizeof(*p));
}

/* In-place LU of the dim x dim matrix B without pivoting: B = L U with unit
 * lower L stored below the diagonal. */
static void lu_no_pivot(double *B, size_t dim)
{
	for (size_t k = 0; k < dim; k++)
		for (size_t r = k + 1; r < dim; r++) {
			double f = B[r * dim + k] / B[k * dim + k];

			B[r * dim + k] = f;
			if (f != 0.0)
				for (size_t c = k + 1; c < dim; c++)
					B[r * dim + c] -= f * B[k * dim + c];
		}
}

/* Solve (leading i x i block of L U) x = b in place. */
static void lu_solve_leading(const double *LU, size_t dim, size_t i, double *x)
{
	for (size_t r = 0; r < i; r++)
		for (size_t c = 0; c < r; c++)
			x[r] -= LU[r * dim + c] * x[c];
	for (size_t r = i; r-- > 0;) {
		for (size_t c = r + 1; c < i; c++)
			x[r] -= LU[r * dim + c] * x[c];
		x[r] /= LU[r * dim + r];
	}
}

/* Called for each threshold policy T_i with its per-state values:
 * V[s] = discounted processing, U[s] = discounted migrations, from a slot
 * starting with s hosts ON (before the decision). */
typedef void (*policy_visit_fn)(size_t i, const double *V, const double *U, size_t n, void *ctx);

/* V and U of every T_i, i = 0..n, in O(n^3) (see the top of this file).
 * P is eq. (3).  0, or -1 if out of memory. */
static int for_each_threshold_policy(size_t n, double beta, const double *P,
				     policy_visit_fn visit, void *ctx)
{
	size_t dim = n + 1;
	double *LU = malloc(dim * dim * sizeof(*LU));
	double *tail = malloc(dim * dim * sizeof(*tail));     /* sum_{j>=i} P_sj */
	double *tail_q = malloc(dim * dim * sizeof(*tail_q)); /* sum_{j>=i} P_sj (n-j) */
	double *g = malloc(dim * sizeof(*g));
	double *r = malloc(dim * sizeof(*r));
	double *V = malloc(dim * sizeof(*V));
	double *U = malloc(dim * sizeof(*U));
	int rc = -1;

	if (!LU || !tail || !tail_q || !g || !r || !V || !U)
		goto out;
	for (size_t s = 0; s < dim; s++) {
		double acc = 0.0, acc_q = 0.0;

		for (size_t j = dim; j-- > 0;) {
			acc += P[s * dim + j];
			acc_q += P[s * dim + j] * (double)(n - j);
			tail[s * dim + j] = acc;
			tail_q[s * dim + j] = acc_q;
		}
		for (size_t j = 0; j < dim; j++)
			LU[s * dim + j] = (s == j ? 1.0 : 0.0) - beta * P[s * dim + j];
	}
	lu_no_pivot(LU, dim);

	for (size_t i = 0; i <= n; i++) {
		for (size_t s = 0; s < i; s++) {
			g[s] = beta * tail[s * dim + i];
			r[s] = beta * tail_q[s * dim + i];
		}
		lu_solve_leading(LU, dim, i, g);
		lu_solve_leading(LU, dim, i, r);

		double h = tail[n * dim + i], dnum = tail_q[n * dim + i];

		for (size_t s = 0; s < i; s++) {
			h += P[n * dim + s] * g[s];
			dnum += P[n * dim + s] * r[s];
		}
		double c = h / (1.0 - beta * h);
		double d = dnum / (1.0 - beta * h);
		double run = 1.0 + beta * c;

		for (size_t s = 0; s <= n; s++) {
			if (s < i) {
				V[s] = g[s] * run;
				U[s] = r[s] + g[s] * beta * d;
			} else {
				V[s] = run;
				U[s] = (double)(n - s) + beta * d;
			}
		}
		visit(i, V, U, n, ctx);
	}
	rc = 0;
out:
	free(LU);
	free(tail);
	free(tail_q);
	free(g);
	free(r);
	free(V);
	free(U);
	return rc;
}

typedef struct {
	const double *lambda;
	threshold_partition_t *part;
} partition_visit_t;

/* P_i = lambda.V, M_i = lambda.U */
static void partition_visit(size_t i, const double *V, const double *U, size_t n, void *arg)
{
	partition_visit_t *pv = arg;
	double proc = 0.0, migr = 0.0;

	for (size_t s = 0; s <= n; s++) {
		double lam = pv->lambda ? pv->lambda[s] : (s == n ? 1.0 : 0.0);

		proc += lam * V[s];
		migr += lam * U[s];
	}
	pv->part->processing[i] = proc;
	pv->part->migrations[i] = migr;
}

int threshold_partition_compute(const threshold_model_t *m, threshold_partition_t *out,
				char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (threshold_model_check(m, err, errlen))
		return -1;

	size_t n = m->n;
	double *P = onoff_hosts_transition(n, &m->chain);

	out->n = n;
	out->processing = malloc((n + 1) * sizeof(double));
	out->migrations = malloc((n + 1) * sizeof(double));
	out->thresholds = malloc((n + 1) * sizeof(double));
	partition_visit_t pv = { m->lambda, out };

	if (!P || !out->processing || !out->migrations || !out->thresholds ||
	    for_each_threshold_policy(n, m->beta, P, partition_visit, &pv)) {
		free(P);
		threshold_partition_free(out);
		snprintf(err, errlen, "out of memory for n=%zu", n);
		return -1;
	}
	free(P);

	/* differences below these are rounding: the two policies are the same
	 * as seen from lambda */
	double eps_p = 1e-12 / (1.0 - m->beta);
	double eps_m = eps_p * (double)n;

	out->thresholds[0] = 0.0;
	out->monotone = true;
	for (size_t i = 1; i <= n; i++) {
		double dp = out->processing[i] - out->processing[i - 1];
		double dm = out->migrations[i] - out->migrations[i - 1];
		double gi;

		if (fabs(dm) <= eps_m)
			gi = fabs(dp) <= eps_p || dp > 0.0 ? out->thresholds[i - 1] : INFINITY;
		else
			gi = dp / dm;
		out->thresholds[i] = gi;
		if (gi < out->thresholds[i - 1])
			out->monotone = false;
	}
	return 0;
}

size_t threshold_partition_policy(const threshold_partition_t *p, double gamma)
{
	size_t best = 0;
	double best_reward = p->processing[0] - gamma * p->migrations[0];
	double tol = 1e-12 * (fabs(best_reward) + 1.0);

	for (size_t i = 1; i <= p->n; i++) {
		double reward = p->processing[i] - gamma * p->migrations[i];

		if (reward >= best_reward - tol) {
			best = i;
			if (reward > best_reward)
				best_reward = reward;
		}
	}
	return best;
}

typedef struct {
	double beta, gamma;
	double *cost;
} cost_visit_t;

/* cost of T_i from state s: waiting 1/(1-beta) - V[s] plus gamma U[s] */
static void cost_visit(size_t i, const double *V, const double *U, size_t n, void *arg)
{
	cost_visit_t *cv = arg;

	for (size_t s = 0; s <= n; s++) {
		double c = 1.0 / (1.0 - cv->beta) - V[s] + cv->gamma * U[s];

		if (i == 0 || c < cv->cost[s])
			cv->cost[s] = c;
	}
}

int threshold_optimal_costs(const threshold_model_t *m, double gamma, double *cost, char *err,
			    size_t errlen)
{
	if (threshold_model_check(m, err, errlen))
		return -1;
	if (!isfinite(gamma) || gamma < 0.0) {
		snprintf(err, errlen, "gamma=%g: must be a number >= 0", gamma);
		return -1;
	}

	double *P = onoff_hosts_transition(m->n, &m->chain);
	cost_visit_t cv = { m->beta, gamma, cost };

	if (!P || for_each_threshold_policy(m->n, m->beta, P, cost_visit, &cv)) {
		free(P);
		snprintf(err, errlen, "out of memory for n=%zu", m->n);
		return -1;
	}
	free(P);
	return 0;
}

void threshold_myopic_thresholds(size_t n, double *out)
{
	for (size_t i = 1; i <= n; i++)
		out[i - 1] = 1.0 / (double)(n - i + 1);
}

size_t threshold_myopic_policy(size_t n, double gamma)
{
	/* smallest s' that migrates: n - s' < 1/gamma */
	for (size_t s = 0; s <= n; s++)
		if ((double)(n - s) * gamma < 1.0)
			return s;
	return n;
}

threshold_decision_t threshold_decide(size_t policy, size_t n, size_t on_hosts, size_t spare_on)
{
	if (on_hosts >= n)
		return THRESHOLD_RUN;
	if (on_hosts >= policy && on_hosts + spare_on >= n)
		return THRESHOLD_MIGRATE;
	return THRESHOLD_WAIT;
}

const char *threshold_decision_name(threshold_decision_t d)
{
	switch (d) {
	case THRESHOLD_RUN:
		return "run";
	case THRESHOLD_WAIT:
		return "wait";
	case THRESHOLD_MIGRATE:
		return "migrate";
	}
	return "?";
}

/* Solve A x = b (dim x dim, row-major, destroyed) by Gaussian elimination
 * with partial pivoting. */
static void gauss_solve(double *A, double *b, size_t dim)
{
	for (size_t k = 0; k < dim; k++) {
		size_t piv = k;

		for (size_t r = k + 1; r < dim; r++)
			if (fabs(A[r * dim + k]) > fabs(A[piv * dim + k]))
				piv = r;
		if (piv != k) {
			for (size_t c = 0; c < dim; c++) {
				double t = A[k * dim + c];

				A[k * dim + c] = A[piv * dim + c];
				A[piv * dim + c] = t;
			}
			double t = b[k];

			b[k] = b[piv];
			b[piv] = t;
		}
		for (size_t r = k + 1; r < dim; r++) {
			double f = A[r * dim + k] / A[k * dim + k];

			for (size_t c = k; c < dim; c++)
				A[r * dim + c] -= f * A[k * dim + c];
			b[r] -= f * b[k];
		}
	}
	for (size_t r = dim; r-- > 0;) {
		for (size_t c = r + 1; c < dim; c++)
			b[r] -= A[r * dim + c] * b[c];
		b[r] /= A[r * dim + r];
	}
}

int threshold_stationary_evaluate(size_t n, const double *P, double beta, const double *lambda,
			       const bool *wait, double *processing, double *migrations)
{
	size_t dim = n + 1;
	double *M = calloc(dim * dim, sizeof(*M));
	double *PM = calloc(dim * dim, sizeof(*PM));
	double *At = malloc(dim * dim * sizeof(*At));
	double *pi = calloc(dim, sizeof(*pi));

	if (!M || !PM || !At || !pi) {
		free(M);
		free(PM);
		free(At);
		free(pi);
		return -1;
	}
	for (size_t s = 0; s < n; s++) {
		M[s * dim + s] = wait[s] ? 1.0 : 0.0;
		M[s * dim + n] = wait[s] ? 0.0 : 1.0;
	}
	M[n * dim + n] = 1.0;
	for (size_t r = 0; r < dim; r++)
		for (size_t k = 0; k < dim; k++)
			for (size_t c = 0; c < dim; c++)
				PM[r * dim + c] += P[r * dim + k] * M[k * dim + c];
	/* pi^T (I - beta P M) = lambda^T M, i.e. (I - beta P M)^T pi = M^T lambda */
	for (size_t r = 0; r < dim; r++)
		for (size_t c = 0; c < dim; c++)
			At[c * dim + r] = (r == c ? 1.0 : 0.0) - beta * PM[r * dim + c];
	for (size_t c = 0; c < dim; c++)
		for (size_t r = 0; r < dim; r++)
			pi[c] += lambda[r] * M[r * dim + c];
	gauss_solve(At, pi, dim);

	/* (lambda^T + beta pi^T P) diag(M Q), diag(MQ)_s = sum_j M_sj |j - s| */
	double m = 0.0;

	for (size_t s = 0; s < dim; s++) {
		double visit = lambda[s], mq = 0.0;

		for (size_t k = 0; k < dim; k++)
			visit += beta * pi[k] * P[k * dim + s];
		for (size_t j = 0; j < dim; j++)
			mq += M[s * dim + j] * (double)(j > s ? j - s : s - j);
		m += visit * mq;
	}
	*processing = pi[n];
	*migrations = m;
	free(M);
	free(PM);
	free(At);
	free(pi);
	return 0;
}
