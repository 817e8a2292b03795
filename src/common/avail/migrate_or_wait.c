/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * migrate_or_wait.c - one job's slot decision on concrete servers (He et
 * al. 2012, Sec. III-C, with availability-ranked replacement hosts
 * instead of the random choice their Sec. IV blames for the heterogeneous
 * loss).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "migrate_or_wait.h"

bool migrate_or_wait_better_replacement(const migrate_or_wait_server_t *servers, size_t a, size_t b)
{
	double pa = servers[a].chain.p11, pb = servers[b].chain.p11;

	if (pa != pb)
		return pa > pb;
	double xa = onoff_chain_availability(&servers[a].chain);
	double xb = onoff_chain_availability(&servers[b].chain);

	if (isnan(xa))
		xa = 1.0; /* p01 = 0, p11 = 1: ON forever once ON */
	if (isnan(xb))
		xb = 1.0;
	if (xa != xb)
		return xa > xb;
	return a < b;
}

/* Pair each OFF host (in index order) with the best unused ON non-host:
 * selection of the best remaining one each time, O(k count). */
static void choose_replacements(const migrate_or_wait_server_t *servers, size_t count, migrate_or_wait_move_t *moves,
				size_t *nmoves)
{
	*nmoves = 0;
	for (size_t h = 0; h < count; h++) {
		if (!servers[h].host || servers[h].on)
			continue;
		size_t best = count;

		for (size_t c = 0; c < count; c++) {
			if (servers[c].host || !servers[c].on)
				continue;
			bool taken = false;

			for (size_t k = 0; k < *nmoves; k++)
				taken |= moves[k].to == c;
			if (!taken && (best == count || migrate_or_wait_better_replacement(servers, c, best)))
				best = c;
		}
		moves[*nmoves].from = h;
		moves[*nmoves].to = best;
		(*nmoves)++;
	}
}

static void count_hosts(const migrate_or_wait_server_t *servers, size_t count, size_t *n, size_t *on_hosts,
			size_t *spare_on)
{
	*n = *on_hosts = *spare_on = 0;
	for (size_t h = 0; h < count; h++) {
		*n += servers[h].host;
		*on_hosts += servers[h].host && servers[h].on;
		*spare_on += !servers[h].host && servers[h].on;
	}
}

threshold_decision_t migrate_or_wait_decide(const migrate_or_wait_server_t *servers, size_t count,
					    size_t policy, migrate_or_wait_move_t *moves, size_t *nmoves)
{
	size_t n, on_hosts, spare_on;

	*nmoves = 0;
	count_hosts(servers, count, &n, &on_hosts, &spare_on);
	threshold_decision_t d = threshold_decide(policy, n, on_hosts, spare_on);

	if (d == THRESHOLD_MIGRATE)
		choose_replacements(servers, count, moves, nmoves);
	return d;
}

/* Expected cost of the slot's choice for host set `in_set` (servers with
 * in_set[h]), `now_cost` paid this slot: now_cost + beta E[C(j)], j = hosts
 * ON next slot (Poisson-binomial over the hosts' own chains), C the optimal
 * cost-to-go of n i.i.d. hosts with the set's mean chain. */
static int lookahead_cost(const migrate_or_wait_server_t *servers, size_t count, const bool *in_set,
			  const bool *on_after, size_t n, double beta, double gamma,
			  double now_cost, double *out, char *err, size_t errlen)
{
	double *dist = calloc(n + 1, sizeof(*dist));
	double *cost = malloc((n + 1) * sizeof(*cost));
	threshold_model_t m = { .n = n, .beta = beta };
	size_t seen = 0;

	if (!dist || !cost) {
		free(dist);
		free(cost);
		snprintf(err, errlen, "out of memory for n=%zu", n);
		return -1;
	}
	dist[0] = 1.0;
	for (size_t h = 0; h < count; h++) {
		if (!in_set[h])
			continue;
		const onoff_chain_t *c = &servers[h].chain;
		double on_next = on_after[h] ? c->p11 : c->p01;

		m.chain.p01 += c->p01 / (double)n;
		m.chain.p11 += c->p11 / (double)n;
		seen++;
		for (size_t j = seen; j-- > 0;) {
			dist[j + 1] += dist[j] * on_next;
			dist[j] *= 1.0 - on_next;
		}
	}
	/* the mean of probabilities may exceed 1 by a rounding error */
	m.chain.p01 = m.chain.p01 > 1.0 ? 1.0 : m.chain.p01;
	m.chain.p11 = m.chain.p11 > 1.0 ? 1.0 : m.chain.p11;
	if (threshold_optimal_costs(&m, gamma, cost, err, errlen)) {
		free(dist);
		free(cost);
		return -1;
	}
	double e = 0.0;

	for (size_t j = 0; j <= n; j++)
		e += dist[j] * cost[j];
	*out = now_cost + beta * e;
	free(dist);
	free(cost);
	return 0;
}

int migrate_or_wait_lookahead(const migrate_or_wait_server_t *servers, size_t count, size_t policy,
			      double beta, double gamma, migrate_or_wait_move_t *moves, size_t *nmoves,
			      threshold_decision_t *decision, char *err, size_t errlen)
{
	size_t n, on_hosts, spare_on;

	*decision = migrate_or_wait_decide(servers, count, policy, moves, nmoves);
	if (*decision != THRESHOLD_WAIT)
		return 0; /* run, or the group's policy already migrates */
	count_hosts(servers, count, &n, &on_hosts, &spare_on);
	if (on_hosts + spare_on < n)
		return 0; /* too few ON servers: wait */

	bool *wait_set = malloc(count * sizeof(bool)), *wait_on = malloc(count * sizeof(bool));
	bool *mig_set = malloc(count * sizeof(bool)), *mig_on = malloc(count * sizeof(bool));
	double q_wait, q_migrate;
	int rc = -1;

	if (!wait_set || !wait_on || !mig_set || !mig_on) {
		snprintf(err, errlen, "out of memory for %zu servers", count);
		goto out;
	}
	choose_replacements(servers, count, moves, nmoves);
	for (size_t h = 0; h < count; h++) {
		wait_set[h] = mig_set[h] = servers[h].host;
		wait_on[h] = servers[h].on;
		mig_on[h] = true;
	}
	for (size_t k = 0; k < *nmoves; k++) {
		mig_set[moves[k].from] = false;
		mig_set[moves[k].to] = true;
	}
	if (lookahead_cost(servers, count, wait_set, wait_on, n, beta, gamma, 1.0, &q_wait, err,
			   errlen) ||
	    lookahead_cost(servers, count, mig_set, mig_on, n, beta, gamma,
			   gamma * (double)*nmoves, &q_migrate, err, errlen))
		goto out;
	if (q_migrate < q_wait)
		*decision = THRESHOLD_MIGRATE;
	else
		*nmoves = 0;
	rc = 0;
out:
	if (rc)
		*nmoves = 0;
	free(wait_set);
	free(wait_on);
	free(mig_set);
	free(mig_on);
	return rc;
}
