/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_sim.c - slot-by-slot Monte Carlo of migrate-or-wait policies (He et
 * al. 2012, Sec. IV; the model of avail_sim.h).  The decisions come
 * from threshold_policy (threshold_decide), replacements from
 * migrate_or_wait_decide, estimates from markov_estimator, partitions from
 * threshold_cache: this file only moves the job and adds up the costs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avail_optimal.h"
#include "avail_sim.h"
#include "avail/markov_estimator.h"
#include "avail/migrate_or_wait.h"
#include "avail/threshold_cache.h"

/* One policy at one gamma following the job through a run. */
typedef struct {
	bool *host;		/* nodes hosting a task */
	size_t *hosts;		/* the n hosting nodes */
	double w, m;		/* this run's discounted waiting and migrations */
} agent_t;

/* The online estimate shared by the threshold-est agents of a run. */
typedef struct {
	markov_estimator_t *nodes;	/* per node, this run */
	markov_estimator_t *prefix;	/* trace: the slots before the next start */
	const markov_estimator_t **ptr;
	size_t prefix_slots;		/* slots the prefix has seen */
	onoff_chain_t *chains;		/* per node, for ranking replacements */
	size_t *index;			/* per gamma, for this slot */
	size_t index_slot, chains_slot;	/* slot they were computed for, +1 */
	threshold_cache_t cache;
} estimate_t;

typedef struct {
	const avail_source_t *src;
	const avail_sim_config_t *cfg;
	size_t N, n, nagents;
	agent_t *agents;		/* [g * npolicies + p] */
	size_t *fixed_index;		/* [g * npolicies + p]; threshold-est: unused */
	threshold_partition_t known;
	bool *on;			/* node states in the current slot */
	size_t slot;			/* absolute slot of `on` */
	size_t total_on;
	estimate_t *est;		/* NULL when no policy estimates */
	avail_optimal_t optimal;	/* solved MDPs when a policy is optimal */
	migrate_or_wait_server_t *servers;		/* scratch, N + n */
	migrate_or_wait_move_t *moves;		/* scratch, n */
	double *sum_cost2;		/* per agent, over runs */
} sim_t;

size_t avail_sim_default_slots(double beta)
{
	return (size_t)ceil(log(AVAIL_SIM_TAIL) / log(beta));
}

static avail_policy_kind_t kind_of(const sim_t *s, size_t a)
{
	return s->cfg->policies[a % s->cfg->npolicies].kind;
}

static bool is_est(const sim_t *s, size_t a)
{
	return kind_of(s, a) == AVAIL_POLICY_THRESHOLD_EST;
}

int avail_sim_check(const avail_source_t *src, const avail_sim_config_t *cfg, char *err,
		    size_t errlen)
{
	if (cfg->n < 1 || cfg->n > src->nodes) {
		snprintf(err, errlen, "n=%zu: the job needs 1..%zu tasks (one per node)", cfg->n,
			 src->nodes);
		return -1;
	}
	if (!(cfg->beta > 0.0 && cfg->beta < 1.0)) {
		snprintf(err, errlen, "beta=%g: the discount factor must be in (0,1)", cfg->beta);
		return -1;
	}
	for (size_t g = 0; g < cfg->ngammas; g++)
		if (!isfinite(cfg->gammas[g]) || cfg->gammas[g] < 0.0) {
			snprintf(err, errlen, "gamma=%g: must be a number >= 0", cfg->gammas[g]);
			return -1;
		}
	if (!cfg->ngammas || !cfg->npolicies || !cfg->runs) {
		snprintf(err, errlen, "no %s", !cfg->ngammas ? "gamma" :
			 !cfg->npolicies ? "policy" : "run");
		return -1;
	}
	for (size_t p = 0; p < cfg->npolicies; p++)
		if (cfg->policies[p].kind == AVAIL_POLICY_FIXED && cfg->policies[p].index > cfg->n) {
			snprintf(err, errlen, "policy T%zu: T_i needs 0 <= i <= n=%zu",
				 cfg->policies[p].index, cfg->n);
			return -1;
		}
	for (size_t p = 0; p < cfg->npolicies; p++)
		if (cfg->policies[p].kind == AVAIL_POLICY_OPTIMAL &&
		    (src->kind != AVAIL_SOURCE_MARKOV || src->nodes > MDP_MAX_SERVERS)) {
			snprintf(err, errlen, "policy optimal: needs a markov source of at most %d "
				 "nodes (the exact MDP is exponential in the nodes)", MDP_MAX_SERVERS);
			return -1;
		}
	if (!(cfg->quantum >= 0.0 && cfg->quantum < 1.0)) {
		snprintf(err, errlen, "quantum=%g: must be in [0,1)", cfg->quantum);
		return -1;
	}
	return 0;
}

static void estimate_free(estimate_t *e)
{
	if (!e)
		return;
	free(e->nodes);
	free(e->prefix);
	free(e->ptr);
	free(e->chains);
	free(e->index);
	threshold_cache_free(&e->cache);
	free(e);
}

static estimate_t *estimate_new(size_t N, size_t ngammas, double quantum)
{
	estimate_t *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->nodes = calloc(N, sizeof(*e->nodes));
	e->prefix = calloc(N, sizeof(*e->prefix));
	e->ptr = calloc(N, sizeof(*e->ptr));
	e->chains = calloc(N, sizeof(*e->chains));
	e->index = calloc(ngammas, sizeof(*e->index));
	if (!e->nodes || !e->prefix || !e->ptr || !e->chains || !e->index ||
	    threshold_cache_init(&e->cache, 16, quantum)) {
		estimate_free(e);
		return NULL;
	}
	for (size_t h = 0; h < N; h++) {
		markov_estimator_init(&e->prefix[h]);
		e->ptr[h] = &e->nodes[h];
	}
	return e;
}

static void sim_free(sim_t *s)
{
	for (size_t a = 0; s->agents && a < s->nagents; a++) {
		free(s->agents[a].host);
		free(s->agents[a].hosts);
	}
	free(s->agents);
	free(s->fixed_index);
	threshold_partition_free(&s->known);
	free(s->on);
	estimate_free(s->est);
	avail_optimal_free(&s->optimal);
	free(s->servers);
	free(s->moves);
	free(s->sum_cost2);
}

static int sim_init(sim_t *s, const avail_source_t *src, const avail_sim_config_t *cfg,
		    char *err, size_t errlen)
{
	threshold_model_t model = { .n = cfg->n, .beta = cfg->beta, .chain = src->pooled };
	bool estimates = false, optimal = false;

	memset(s, 0, sizeof(*s));
	s->src = src;
	s->cfg = cfg;
	s->N = src->nodes;
	s->n = cfg->n;
	s->nagents = cfg->ngammas * cfg->npolicies;
	if (threshold_partition_compute(&model, &s->known, err, errlen))
		return -1;
	s->agents = calloc(s->nagents, sizeof(*s->agents));
	s->fixed_index = calloc(s->nagents, sizeof(*s->fixed_index));
	s->on = calloc(s->N, sizeof(*s->on));
	s->servers = calloc(s->N + s->n, sizeof(*s->servers));
	s->moves = calloc(s->N + s->n, sizeof(*s->moves));
	s->sum_cost2 = calloc(s->nagents, sizeof(*s->sum_cost2));
	if (!s->agents || !s->fixed_index || !s->on || !s->servers || !s->moves || !s->sum_cost2)
		goto oom;
	for (size_t a = 0; a < s->nagents; a++) {
		const avail_policy_t *p = &cfg->policies[a % cfg->npolicies];

		s->agents[a].host = calloc(s->N, sizeof(bool));
		s->agents[a].hosts = calloc(s->n, sizeof(size_t));
		if (!s->agents[a].host || !s->agents[a].hosts)
			goto oom;
		s->fixed_index[a] = avail_policy_index(p, s->n, &s->known,
						       cfg->gammas[a / cfg->npolicies]);
		estimates |= p->kind == AVAIL_POLICY_THRESHOLD_EST;
		optimal |= p->kind == AVAIL_POLICY_OPTIMAL;
	}
	if (estimates && !(s->est = estimate_new(s->N, cfg->ngammas, cfg->quantum)))
		goto oom;
	if (optimal && avail_optimal_init(&s->optimal, src, s->n, cfg->beta, cfg->gammas,
					  cfg->ngammas, err, errlen))
		return -1;
	return 0;
oom:
	snprintf(err, errlen, "out of memory for %zu nodes, %zu policies x %zu gammas", s->N,
		 cfg->npolicies, cfg->ngammas);
	return -1;
}

/* The nodes' states in absolute slot `slot`, seen by the estimators. */
static void enter_slot(sim_t *s, size_t slot, sim_random_t *r)
{
	static const markov_estimator_config_t remember_all = { .forgetting = 1.0 };

	avail_source_slot(s->src, slot, r, s->on);
	s->slot = slot;
	s->total_on = 0;
	for (size_t h = 0; h < s->N; h++) {
		s->total_on += s->on[h];
		if (s->est)
			markov_estimator_observe(&s->est->nodes[h], &remember_all,
						s->on[h] ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
	}
}

/* The pooled estimate's threshold index per gamma for this slot (myopic's
 * while the estimate is not valid), computed once per slot. */
static int refresh_est_index(sim_t *s, char *err, size_t errlen)
{
	estimate_t *e = s->est;
	onoff_chain_t pooled;
	const threshold_partition_t *part = NULL;

	if (e->index_slot == s->slot + 1)
		return 0;
	if (markov_estimate_pool_chain(e->ptr, s->N, &pooled)) {
		part = threshold_cache_get(&e->cache, s->n, s->cfg->beta, pooled, err, errlen);
		if (!part)
			return -1;
	}
	avail_policy_t est = { .kind = AVAIL_POLICY_THRESHOLD_EST };

	for (size_t g = 0; g < s->cfg->ngammas; g++)
		e->index[g] = avail_policy_index(&est, s->n, part, s->cfg->gammas[g]);
	e->index_slot = s->slot + 1;
	return 0;
}

/* Each node's estimated chain for ranking replacements; the pooled one for
 * nodes not yet seen leaving both states. */
static void refresh_est_chains(sim_t *s)
{
	estimate_t *e = s->est;
	onoff_chain_t pooled;

	if (e->chains_slot == s->slot + 1)
		return;
	markov_estimate_pool_chain(e->ptr, s->N, &pooled);
	pooled.p01 = isnan(pooled.p01) ? 1.0 : pooled.p01;
	pooled.p11 = isnan(pooled.p11) ? 0.0 : pooled.p11;
	for (size_t h = 0; h < s->N; h++)
		if (!markov_estimate_chain(&e->nodes[h], &e->chains[h]))
			e->chains[h] = pooled;
	e->chains_slot = s->slot + 1;
}

/* Apply the moves of a migration to the agent; the number of tasks moved. */
static size_t apply_moves(sim_t *s, agent_t *ag, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		ag->host[s->moves[i].from] = false;
		ag->host[s->moves[i].to] = true;
		for (size_t j = 0; j < s->n; j++)
			if (ag->hosts[j] == s->moves[i].from)
				ag->hosts[j] = s->moves[i].to;
	}
	return k;
}

static void fill_servers(sim_t *s, const agent_t *ag, const onoff_chain_t *chains)
{
	for (size_t h = 0; h < s->N; h++)
		s->servers[h] = (migrate_or_wait_server_t){ chains[h], s->on[h], ag->host[h] };
}

/* Move the agent's tasks per migrate_or_wait_decide under T_policy, with
 * `chains` ranking the replacements; the number of tasks moved (0: it
 * waits, e.g. too few spare nodes ON). */
static size_t migrate(sim_t *s, agent_t *ag, size_t policy, const onoff_chain_t *chains)
{
	size_t k;

	fill_servers(s, ag, chains);
	if (migrate_or_wait_decide(s->servers, s->N, policy, s->moves, &k) != THRESHOLD_MIGRATE)
		return 0;
	return apply_moves(s, ag, k);
}

/* The lookahead policy where the threshold policy waits: the tasks moved
 * (0: it waits), or -1 and err. */
static int lookahead(sim_t *s, agent_t *ag, size_t policy, double gamma, char *err,
		     size_t errlen)
{
	threshold_decision_t decision;
	size_t k;

	fill_servers(s, ag, s->src->chains);
	if (migrate_or_wait_lookahead(s->servers, s->N, policy, s->cfg->beta, gamma, s->moves,
				      &k, &decision, err, errlen))
		return -1;
	return decision == THRESHOLD_MIGRATE ? (int)apply_moves(s, ag, k) : 0;
}

/* The optimal policy's slot: the host set of the solved MDP. */
static void optimal_slot(sim_t *s, agent_t *ag, size_t g, double d)
{
	unsigned hosts = 0, on = 0;

	for (size_t h = 0; h < s->N; h++) {
		hosts |= (unsigned)ag->host[h] << h;
		on |= (unsigned)s->on[h] << h;
	}
	unsigned next = avail_optimal_action(&s->optimal, g, hosts, on);

	ag->m += d * (double)__builtin_popcount(hosts & ~next);
	if (next & ~on)
		ag->w += d;
	for (size_t h = 0, j = 0; h < s->N; h++) {
		ag->host[h] = next >> h & 1u;
		if (ag->host[h])
			ag->hosts[j++] = h;
	}
}

/* One agent's decision in the current slot, discount d. */
static int agent_slot(sim_t *s, size_t a, double d, char *err, size_t errlen)
{
	agent_t *ag = &s->agents[a];
	size_t on_hosts = 0, policy = s->fixed_index[a];
	const onoff_chain_t *chains = s->src->chains;

	for (size_t j = 0; j < s->n; j++)
		on_hosts += s->on[ag->hosts[j]];
	if (on_hosts == s->n)
		return 0;
	if (kind_of(s, a) == AVAIL_POLICY_OPTIMAL) {
		optimal_slot(s, ag, a / s->cfg->npolicies, d);
		return 0;
	}
	if (is_est(s, a)) {
		if (refresh_est_index(s, err, errlen))
			return -1;
		policy = s->est->index[a / s->cfg->npolicies];
	}
	threshold_decision_t decision = threshold_decide(policy, s->n, on_hosts,
							 s->total_on - on_hosts);
	size_t moved = 0;

	if (decision == THRESHOLD_WAIT && kind_of(s, a) == AVAIL_POLICY_LOOKAHEAD) {
		int k = lookahead(s, ag, policy, s->cfg->gammas[a / s->cfg->npolicies], err,
				  errlen);

		if (k < 0)
			return -1;
		moved = (size_t)k;
	} else if (decision == THRESHOLD_MIGRATE) {
		if (is_est(s, a)) {
			refresh_est_chains(s);
			chains = s->est->chains;
		}
		moved = migrate(s, ag, policy, chains);
	}
	if (moved)
		ag->m += d * (double)moved;
	else
		ag->w += d;
	return 0;
}

/* The job's first hosts: the n best ON nodes by the known chains, chosen
 * by migrate_or_wait_decide itself: n placeholder OFF hosts (indices
 * 0..n-1 of the scratch) moved to the best of the real nodes (n..). */
static void place_job(sim_t *s)
{
	size_t k;

	for (size_t j = 0; j < s->n; j++)
		s->servers[j] = (migrate_or_wait_server_t){ s->src->pooled, false, true };
	for (size_t h = 0; h < s->N; h++)
		s->servers[s->n + h] = (migrate_or_wait_server_t){ s->src->chains[h], s->on[h], false };
	migrate_or_wait_decide(s->servers, s->N + s->n, 0, s->moves, &k);
	for (size_t a = 0; a < s->nagents; a++) {
		agent_t *ag = &s->agents[a];

		memset(ag->host, 0, s->N * sizeof(bool));
		for (size_t j = 0; j < k; j++) {
			ag->hosts[j] = s->moves[j].to - s->n;
			ag->host[ag->hosts[j]] = true;
		}
		ag->w = ag->m = 0.0;
	}
}

/* Trace: the run's estimators start from everything before `start`. */
static void estimate_from_prefix(sim_t *s, size_t start)
{
	estimate_t *e = s->est;
	markov_estimator_config_t cfg = { .forgetting = 1.0 };

	for (; e->prefix_slots < start; e->prefix_slots++)
		for (size_t h = 0; h < s->N; h++)
			markov_estimator_observe(&e->prefix[h], &cfg,
						avail_trace_on(&s->src->trace, e->prefix_slots, h) ?
						ONOFF_OBS_ON : ONOFF_OBS_OFF);
	memcpy(e->nodes, e->prefix, s->N * sizeof(*e->nodes));
	e->index_slot = e->chains_slot = 0;
}

/* Up to the job's first slot, with n nodes ON.  Returns the slot, or
 * SIZE_MAX if a trace ends first. */
static size_t start_job(sim_t *s, size_t run, sim_random_t *r, char *err, size_t errlen)
{
	const avail_sim_config_t *cfg = s->cfg;

	if (s->src->kind == AVAIL_SOURCE_TRACE) {
		size_t T = s->src->trace.slots;
		size_t start = (size_t)((double)run * (double)T / (double)cfg->runs);

		if (s->est)
			estimate_from_prefix(s, start);
		for (size_t t = start; t < T; t++) {
			enter_slot(s, t, r);
			if (s->total_on >= s->n)
				return t;
		}
		return SIZE_MAX;
	}
	if (s->est)
		for (size_t h = 0; h < s->N; h++)
			markov_estimator_init(&s->est->nodes[h]);
	if (s->est)
		s->est->index_slot = s->est->chains_slot = 0;
	for (size_t t = 0;; t++) {
		enter_slot(s, t, r);
		if (t >= cfg->warmup && s->total_on >= s->n)
			return t;
		if (t >= cfg->warmup + AVAIL_SIM_MAX_START_WAIT) {
			snprintf(err, errlen, "run %zu: fewer than n=%zu of the %zu nodes ON for "
				 "%d slots: the job cannot start", run, s->n, s->N,
				 AVAIL_SIM_MAX_START_WAIT);
			return SIZE_MAX - 1;
		}
	}
}

/* One run: 1 if it started and was added to the sums, 0 if the trace
 * ended first, -1 on error. */
static int run_one(sim_t *s, size_t run, sim_random_t *r, avail_sim_result_t *out,
		   char *err, size_t errlen)
{
	size_t first = start_job(s, run, r, err, errlen);
	size_t horizon = s->cfg->slots ? s->cfg->slots : avail_sim_default_slots(s->cfg->beta);

	if (first == SIZE_MAX - 1)
		return -1;
	if (first == SIZE_MAX)
		return 0;
	if (s->src->kind == AVAIL_SOURCE_TRACE && horizon > s->src->trace.slots - first)
		horizon = s->src->trace.slots - first;
	if (!out->runs)
		out->slots = horizon;
	place_job(s);
	double d = 1.0;

	for (size_t t = 0; t < horizon; t++, d *= s->cfg->beta) {
		if (t)
			enter_slot(s, first + t, r);
		for (size_t a = 0; a < s->nagents; a++)
			if (agent_slot(s, a, d, err, errlen))
				return -1;
	}
	for (size_t a = 0; a < s->nagents; a++) {
		const agent_t *ag = &s->agents[a];
		avail_sim_cell_t *c = &out->cells[a];
		double gamma = s->cfg->gammas[a / s->cfg->npolicies];
		double cost = ag->w + gamma * ag->m;

		c->cost += cost;
		c->w += ag->w;
		c->m += ag->m;
		s->sum_cost2[a] += cost * cost;
	}
	return 1;
}

/* eq. (4): cost of T_i under the pooled chain, as threshold_policy gives
 * it; defined for Markov sources with identical nodes only. */
static double analytic_cost(const sim_t *s, size_t a)
{
	double gamma = s->cfg->gammas[a / s->cfg->npolicies];
	size_t i = s->fixed_index[a];

	if (s->src->kind != AVAIL_SOURCE_MARKOV || !s->src->identical || is_est(s, a) ||
	    kind_of(s, a) == AVAIL_POLICY_OPTIMAL || kind_of(s, a) == AVAIL_POLICY_LOOKAHEAD)
		return NAN;
	return 1.0 / (1.0 - s->cfg->beta) - s->known.processing[i] +
	       gamma * s->known.migrations[i];
}

/* Sums over runs into means and standard errors. */
static void finish(sim_t *s, avail_sim_result_t *out)
{
	double R = (double)out->runs;

	for (size_t a = 0; a < s->nagents; a++) {
		avail_sim_cell_t *c = &out->cells[a];
		double mean = c->cost / R;
		double var = R > 1 ? (s->sum_cost2[a] - R * mean * mean) / (R - 1) : 0.0;

		c->cost = mean;
		c->w /= R;
		c->m /= R;
		c->cost_se = sqrt(fmax(var, 0.0) / R);
		c->analytic = analytic_cost(s, a);
		c->index = is_est(s, a) || kind_of(s, a) == AVAIL_POLICY_OPTIMAL ||
			   kind_of(s, a) == AVAIL_POLICY_LOOKAHEAD ? SIZE_MAX : s->fixed_index[a];
	}
	for (size_t g = 0; g < s->cfg->ngammas; g++)
		out->optimal_index[g] = threshold_partition_policy(&s->known, s->cfg->gammas[g]);
}

int avail_sim_run(const avail_source_t *src, const avail_sim_config_t *cfg,
		  avail_sim_result_t *out, char *err, size_t errlen)
{
	sim_t s;
	sim_random_t master, r;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	if (avail_sim_check(src, cfg, err, errlen) || sim_init(&s, src, cfg, err, errlen))
		goto out;
	out->ngammas = cfg->ngammas;
	out->npolicies = cfg->npolicies;
	out->cells = calloc(s.nagents, sizeof(*out->cells));
	out->optimal_index = calloc(cfg->ngammas, sizeof(*out->optimal_index));
	if (!out->cells || !out->optimal_index) {
		snprintf(err, errlen, "out of memory for the results");
		goto out;
	}
	sim_random_seed(&master, cfg->seed);
	for (size_t run = 0; run < cfg->runs; run++) {
		/* each run its own stream: runs do not depend on each other */
		sim_random_seed(&r, sim_random_next(&master));
		int started = run_one(&s, run, &r, out, err, errlen);

		if (started < 0)
			goto out;
		out->runs += (size_t)started;
	}
	if (!out->runs) {
		snprintf(err, errlen, "no run could start: the trace never has n=%zu nodes ON",
			 cfg->n);
		goto out;
	}
	finish(&s, out);
	rc = 0;
out:
	sim_free(&s);
	if (rc)
		avail_sim_result_free(out);
	return rc;
}

void avail_sim_result_free(avail_sim_result_t *r)
{
	free(r->cells);
	free(r->optimal_index);
	memset(r, 0, sizeof(*r));
}
