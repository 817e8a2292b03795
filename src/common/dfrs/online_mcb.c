/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_mcb.c - MCB: repack all jobs with METAVP at an event, dropping the
 * lowest priority until feasible; on identical hosts, map packed hosts
 * onto the hosts already holding their tasks (Stillwell et al. 2010, "Use of
 * Priority", "When to apply Heuristics").  See online_mcb.h.
 */
#include <stdlib.h>
#include <string.h>

#include "lp_bound.h"
#include "online_mcb.h"
#include "online_rules.h"
#include "metavp.h"

typedef struct {
	int overlap, bin, host;
} overlap_t;

enum { BY_HOST, BY_BIN, BY_OVERLAP_DESCENDING };

/* A pair's key for sort_pairs: host, bin, or range - 1 - overlap. */
static inline int pair_key(const overlap_t *p, int by, int range)
{
	return by == BY_HOST ? p->host : by == BY_BIN ? p->bin :
	       range - 1 - p->overlap;
}

/*
 * Stable counting sort of n pairs by a key in 0..range-1, through tmp.
 * By host, then bin, then overlap descending gives the order (overlap
 * descending, bin, host) in time linear in the pairs and the hosts.
 */
static int sort_pairs(overlap_t *pairs, overlap_t *tmp, int n, int by,
		      int range)
{
	int *start = calloc(range + 1, sizeof(int));

	if (!start)
		return -1;
	for (int i = 0; i < n; i++)
		start[pair_key(&pairs[i], by, range) + 1]++;
	for (int k = 0; k < range; k++)
		start[k + 1] += start[k];
	for (int i = 0; i < n; i++)
		tmp[start[pair_key(&pairs[i], by, range)]++] = pairs[i];
	memcpy(pairs, tmp, sizeof(*pairs) * n);
	free(start);
	return 0;
}

/*
 * On identical hosts a packing's bins can be given to any hosts: the yields
 * do not change.  Give each bin the host where most of its tasks already
 * are (greedily, largest overlap first) so that a repack migrates as few
 * tasks as it can; bins holding pinned tasks keep their host.
 */
static int relabel_hosts(const online_state_t *w, const int *member, const int *pins,
			 dfrs_placement_t *pl)
{
	int nh = w->nh, npairs = 0, rc = -1;
	int *bin_host = malloc(sizeof(int) * (nh + 1));
	char *host_used = calloc(nh + 1, 1);
	overlap_t *pairs = malloc(sizeof(*pairs) * (pl->ntasks + 1));
	overlap_t *tmp = malloc(sizeof(*tmp) * (pl->ntasks + 1));

	if (!bin_host || !host_used || !pairs || !tmp)
		goto out;
	for (int b = 0; b < nh; b++)
		bin_host[b] = -1;
	for (int t = 0; t < pl->ntasks; t++)
		if (pins[t] >= 0) {
			bin_host[pl->task_host[t]] = pl->task_host[t];
			host_used[pl->task_host[t]] = 1;
		}
	/* one pair per task that has a current host: (bin, that host) */
	for (int s = 0; s < pl->njobs; s++) {
		const dfrs_online_job_t *job = &w->cl->jobs[member[s]];

		if (job->state == DFRS_JOB_PENDING)
			continue;
		for (int t = 0; t < job->shape.ntasks; t++)
			pairs[npairs++] = (overlap_t){ 1,
				pl->task_host[pl->first_task[s] + t], job->hosts[t] };
	}
	/* merge equal (bin, host) pairs, counting them; then the largest
	 * overlap first, ties by bin then host */
	if (sort_pairs(pairs, tmp, npairs, BY_HOST, nh) ||
	    sort_pairs(pairs, tmp, npairs, BY_BIN, nh))
		goto out;
	{
		int m = 0, most = 0;

		for (int i = 0; i < npairs; i++) {
			if (m > 0 && pairs[m - 1].bin == pairs[i].bin &&
			    pairs[m - 1].host == pairs[i].host)
				pairs[m - 1].overlap++;
			else
				pairs[m++] = pairs[i];
			if (pairs[m - 1].overlap > most)
				most = pairs[m - 1].overlap;
		}
		npairs = m;
		if (sort_pairs(pairs, tmp, npairs, BY_OVERLAP_DESCENDING,
			       most + 1))
			goto out;
	}
	for (int i = 0; i < npairs; i++)
		if (bin_host[pairs[i].bin] < 0 && !host_used[pairs[i].host]) {
			bin_host[pairs[i].bin] = pairs[i].host;
			host_used[pairs[i].host] = 1;
		}
	for (int b = 0, h = 0; b < nh; b++) {
		if (bin_host[b] >= 0)
			continue;
		while (host_used[h])
			h++;
		bin_host[b] = h;
		host_used[h] = 1;
	}
	for (int t = 0; t < pl->ntasks; t++)
		pl->task_host[t] = bin_host[pl->task_host[t]];
	rc = 0;
out:
	free(bin_host);
	free(host_used);
	free(pairs);
	free(tmp);
	return rc;
}

/*
 * The jobs in priority order, those whose licenses do not fit last: each
 * waiting job takes its licenses in turn if they fit what the jobs before
 * it left, else goes after every job that could run (they are never kept).
 * Returns how many could run: the kept jobs are a prefix of them.  With no
 * license asked for, by_prio as it is.
 */
static int licensed_order(online_state_t *w, int *ord)
{
	int n = 0, nskip = 0;

	for (int r = 0; r < w->nj; r++) {
		int j = w->by_prio[r];

		if (online_licenses_fit(w, j)) {
			online_licenses_take(w, j);
			ord[n++] = j;
		} else {
			ord[w->nj - 1 - nskip++] = j;
		}
	}
	/* the skipped ones were written from the end: back to their order */
	for (int a = n, b = w->nj - 1; a < b; a++, b--) {
		int t = ord[a];

		ord[a] = ord[b];
		ord[b] = t;
	}
	return n;
}

/*
 * How many of the jobs ord[0..nfit) pass the LP relaxation together, a
 * cheap necessary condition (a packing is the real one): their shapes
 * into jobs[], their tasks added to *ntasks.  Only the jobs of that
 * feasible prefix are copied: on a saturated cluster most jobs in the
 * system wait beyond it.
 */
static int feasible_prefix(online_state_t *w, const int *ord, int nfit,
			   dfrs_job_t *jobs, int *ntasks)
{
	lp_prefix_t lp;
	int kept;

	lp_prefix_start(&lp, &(dfrs_instance_t){ w->nd, w->nh, w->cl->hosts,
						 0, NULL });
	for (kept = 0; kept < nfit; kept++) {
		const dfrs_job_t *shape = online_shape(w, ord[kept]);

		if (!lp_prefix_add(&lp, shape))
			break;
		jobs[kept] = *shape;
		*ntasks += shape->ntasks;
	}
	return kept;
}

/*
 * Whether job j, if kept, stays on its hosts: with the requeue model a
 * running job that does not checkpoint would restart if moved, and one
 * requeued max_requeues times may not be: it stays or is dropped; one the
 * site's rules keep (no_preempt, the pairwise pin: online_rules.h) stays,
 * ranked first.
 */
static int must_stay(online_state_t *w, int j)
{
	const dfrs_online_job_t *job = &w->cl->jobs[j];

	return job->state != DFRS_JOB_PENDING &&
	       (!online_may_migrate(w, j) ||
		(job->state == DFRS_JOB_RUNNING &&
		 ((w->par->requeue && !job->checkpointable) ||
		  online_requeue_capped(w->par, job) || w->kept[j])));
}

int online_mcb_repack(online_state_t *w)
{
	/* the jobs' shapes and pins in priority order (ord: by_prio with the
	 * jobs whose licenses do not fit last): the jobs kept are always the
	 * first `kept` of them */
	dfrs_job_t *jobs = malloc(sizeof(*jobs) * (w->nj + 1));
	int *ord = malloc(sizeof(int) * (w->nj + 1));
	int *pins = NULL, ntasks = 0, rc = -1, kept = w->nj, nfit;
	dfrs_placement_t pl;
	int het = !dfrs_hosts_homogeneous(&(dfrs_instance_t){
		w->nd, w->nh, w->cl->hosts, 0, NULL });
	/* 0 (params not from dfrs_online_params_default): all */
	int nalgs = w->par->repack_algorithms > 0 ? w->par->repack_algorithms :
		    metavp_algorithm_count(0);
	/* a warm start only with a tolerance; the yields of the packing are
	 * allocated once, over the running jobs, after the decision */
	metavp_search_t how = {
		.tolerance = w->par->repack_tolerance,
		.start = w->par->repack_tolerance > 0.0 ? w->cl->repack_yield : 0.0,
		.hosts_only = 1,
	};

	if (!jobs || !ord)
		goto out;
	nfit = licensed_order(w, ord);
	/* drop the lowest priority first */
	kept = feasible_prefix(w, ord, nfit, jobs, &ntasks);
	pins = malloc(sizeof(int) * (ntasks + 1));
	if (!pins)
		goto out;
	for (int i = 0, nt = 0; i < kept; i++) {
		const dfrs_online_job_t *job = &w->cl->jobs[ord[i]];
		int pinned = must_stay(w, ord[i]);

		for (int t = 0; t < job->shape.ntasks; t++)
			pins[nt++] = pinned ? job->hosts[t] : -1;
	}
	while (kept > 0) {
		dfrs_instance_t sub = { w->nd, w->nh, w->cl->hosts, kept, jobs };
		int r = metavp_place_first(&sub, het, nalgs, &how, pins, &pl,
					   NULL, NULL);

		if (r < 0)
			goto out;
		if (r == 0) {
			if (!het && relabel_hosts(w, ord, pins, &pl) != 0) {
				dfrs_placement_free(&pl);
				goto out;
			}
			for (int i = 0; i < kept; i++) {
				int j = ord[i];

				memcpy(online_hosts_to_write(w, j),
				       &pl.task_host[pl.first_task[i]],
				       sizeof(int) * jobs[i].ntasks);
				w->state[j] = DFRS_JOB_RUNNING;
			}
			dfrs_placement_free(&pl);
			break;
		}
		dfrs_placement_free(&pl);
		/* the prefixes down to the jobs the failed packing reached
		 * fail the same way (metavp_search_t): drop to them, and the
		 * last of them */
		kept = (how.reached < kept ? how.reached : kept) - 1;
	}
	/* the others are off: running ones are suspended in place */
	for (int i = kept; i < w->nj; i++)
		if (w->state[ord[i]] == DFRS_JOB_RUNNING)
			w->state[ord[i]] = DFRS_JOB_SUSPENDED;
	rc = 0;
out:
	free(jobs);
	free(ord);
	free(pins);
	return rc;
}
