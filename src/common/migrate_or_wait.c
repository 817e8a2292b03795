/*
 * migrate_or_wait.c - one job's slot decision on concrete servers (He et
 * al., seed 000, Sec. III-C, with availability-ranked replacement hosts
 * instead of the random choice their Sec. IV blames for the heterogeneous
 * loss).
 */
#include <math.h>

#include "migrate_or_wait.h"

bool mow_better_replacement(const mow_server_t *servers, size_t a, size_t b)
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

threshold_decision_t migrate_or_wait_decide(const mow_server_t *servers, size_t count,
					    size_t policy, mow_move_t *moves, size_t *nmoves)
{
	size_t n = 0, on_hosts = 0, spare_on = 0;

	*nmoves = 0;
	for (size_t h = 0; h < count; h++) {
		n += servers[h].host;
		on_hosts += servers[h].host && servers[h].on;
		spare_on += !servers[h].host && servers[h].on;
	}
	threshold_decision_t d = threshold_decide(policy, n, on_hosts, spare_on);

	if (d != THRESHOLD_MIGRATE)
		return d;
	/* pair OFF hosts (in index order) with the best unused ON servers:
	 * selection of the best remaining one each time, O(k count) */
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
			if (!taken && (best == count || mow_better_replacement(servers, c, best)))
				best = c;
		}
		moves[*nmoves].from = h;
		moves[*nmoves].to = best;
		(*nmoves)++;
	}
	return d;
}
