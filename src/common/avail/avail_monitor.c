/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_monitor.c - per-node ON/OFF chains fed once a slot, the
 * wait-or-migrate decision of a job with OFF hosts, the suspended jobs, the
 * state file and the status (He et al. 2012, Sec. III-A, III-C,
 * Theorem III.4).  See avail_monitor.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avail_monitor.h"
#include "avail_policy.h"

int avail_monitor_init(avail_monitor_t *m, int half_life)
{
	memset(m, 0, sizeof(*m));
	avail_monitor_set_half_life(m, half_life);
	/* estimates drift every slot: a quantum of 0.001 lets nearby ones
	 * share a partition (doc/availability.md, threshold_cache.h) */
	return threshold_cache_init(&m->cache, 32, 0.001);
}

void avail_monitor_free(avail_monitor_t *m)
{
	for (size_t i = 0; i < m->nnodes; i++)
		free(m->nodes[i].name);
	free(m->nodes);
	free(m->last_obs);
	free(m->observed);
	free(m->availability);
	free(m->suspended);
	threshold_cache_free(&m->cache);
	memset(m, 0, sizeof(*m));
}

void avail_monitor_set_half_life(avail_monitor_t *m, int half_life)
{
	m->cfg.forgetting = markov_forgetting_for_half_life(half_life);
}

static int grow_nodes(avail_monitor_t *m)
{
	size_t cap = m->cap ? 2 * m->cap : 16;
	markov_node_model_t *nodes = realloc(m->nodes, cap * sizeof(*nodes));
	if (!nodes)
		return -1;
	m->nodes = nodes;
	onoff_obs_t *obs = realloc(m->last_obs, cap * sizeof(*obs));
	if (!obs)
		return -1;
	m->last_obs = obs;
	bool *seen = realloc(m->observed, cap * sizeof(*seen));
	if (!seen)
		return -1;
	m->observed = seen;
	double *avail = realloc(m->availability, cap * sizeof(*avail));
	if (!avail)
		return -1;
	m->availability = avail;
	m->cap = cap;
	return 0;
}

size_t avail_monitor_node(avail_monitor_t *m, const char *name)
{
	for (size_t i = 0; i < m->nnodes; i++)
		if (!strcmp(m->nodes[i].name, name))
			return i;
	if (m->nnodes == m->cap && grow_nodes(m))
		return (size_t)-1;
	char *copy = strdup(name);
	if (!copy)
		return (size_t)-1;
	size_t i = m->nnodes++;
	m->nodes[i].name = copy;
	markov_estimator_init(&m->nodes[i].model);
	m->last_obs[i] = ONOFF_OBS_ON;
	m->observed[i] = false;
	m->availability[i] = NAN;
	return i;
}

onoff_obs_t avail_node_state(bool down, bool drained, double outside_load, double zeta)
{
	if (down)
		return ONOFF_OBS_DOWN;
	if (drained)
		return ONOFF_OBS_OFF;
	if (zeta < 1.0 && outside_load > zeta)
		return ONOFF_OBS_OFF;
	return ONOFF_OBS_ON;
}

void avail_monitor_observe(avail_monitor_t *m, size_t i, onoff_obs_t obs)
{
	if (i >= m->nnodes)
		return;
	markov_estimator_observe(&m->nodes[i].model, &m->cfg, obs);
	m->last_obs[i] = obs;
	m->observed[i] = true;
}

/* The placement figure of every node, from its counts. */
static void refresh_availability(avail_monitor_t *m)
{
	for (size_t i = 0; i < m->nnodes; i++) {
		const markov_estimator_t *e = &m->nodes[i].model;
		markov_estimate_t est;

		if (e->slots[0] + e->slots[1] + e->slots[2] <= 0) {
			m->availability[i] = NAN;
			continue;
		}
		markov_estimate(e, &est);
		m->availability[i] = est.availability;
	}
}

void avail_monitor_slot_done(avail_monitor_t *m)
{
	m->slots++;
	refresh_availability(m);
}

bool avail_monitor_is_on(const avail_monitor_t *m, size_t i)
{
	return i >= m->nnodes || m->last_obs[i] == ONOFF_OBS_ON;
}

void avail_monitor_estimate(const avail_monitor_t *m, size_t i, markov_estimate_t *out)
{
	markov_estimate(&m->nodes[i].model, out);
}

void avail_monitor_pooled(const avail_monitor_t *m, markov_estimate_t *out)
{
	const markov_estimator_t **all = malloc((m->nnodes ? m->nnodes : 1) * sizeof(*all));

	if (!all) {
		markov_estimate_pool(NULL, 0, out);
		return;
	}
	for (size_t i = 0; i < m->nnodes; i++)
		all[i] = &m->nodes[i].model;
	markov_estimate_pool(all, m->nnodes, out);
	free(all);
}

double avail_monitor_availability(const avail_monitor_t *m, size_t i)
{
	return i < m->nnodes ? m->availability[i] : NAN;
}

int avail_monitor_decide(avail_monitor_t *m, const avail_monitor_config_t *cfg,
			 uint32_t job_id,
			 long now, size_t n, size_t on_hosts, size_t spare_on,
			 avail_decision_t *out, char *err, size_t errlen)
{
	markov_estimate_t pool;

	memset(out, 0, sizeof(*out));
	out->job_id = job_id;
	out->when = now;
	out->policy = cfg->name;
	out->n = n;
	out->on_hosts = on_hosts;
	out->spare_on = spare_on;
	out->gamma = cfg->migration_cost / cfg->slot;
	out->beta = cfg->beta;
	avail_monitor_pooled(m, &pool);
	out->p01 = pool.valid ? pool.p01 : NAN;
	out->p11 = pool.valid ? pool.p11 : NAN;

	/* the simulator's policies (avail_policy.c) decide here too: the
	 * chain is estimated online, so threshold is "threshold-est" */
	avail_policy_t policy = { .kind = cfg->kind };
	const threshold_partition_t *part = NULL;

	if (policy.kind == AVAIL_POLICY_THRESHOLD_EST && pool.valid) {
		onoff_chain_t chain = { pool.p01, pool.p11 };
		if (!(part = threshold_cache_get(&m->cache, n, out->beta, chain, err, errlen)))
			return -1;
	}
	out->fallback = policy.kind == AVAIL_POLICY_THRESHOLD_EST && !part;
	out->threshold = avail_policy_index(&policy, n, part, out->gamma);
	out->decision = threshold_decide(out->threshold, n, on_hosts, spare_on);
	if (out->decision != THRESHOLD_RUN) {
		m->recent[m->next_recent] = *out;
		m->next_recent = (m->next_recent + 1) % AVAIL_RECENT;
		if (m->nrecent < AVAIL_RECENT)
			m->nrecent++;
	}
	return 0;
}

void avail_decision_format(const avail_decision_t *d, char *buf, size_t len)
{
	snprintf(buf, len,
		 "JobId=%u n=%zu s'=%zu spare=%zu p01=%.3f p11=%.3f gamma=%g beta=%g policy=%s%s T_%zu: %s",
		 d->job_id, d->n, d->on_hosts, d->spare_on, d->p01, d->p11, d->gamma,
		 d->beta, d->policy,
		 d->fallback ? " (no estimate yet: myopic)" : "", d->threshold,
		 threshold_decision_name(d->decision));
}

static size_t suspended_at(const avail_monitor_t *m, uint32_t id)
{
	size_t lo = 0, hi = m->nsuspended;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->suspended[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool avail_monitor_suspended(const avail_monitor_t *m, uint32_t job_id)
{
	size_t at = suspended_at(m, job_id);
	return at < m->nsuspended && m->suspended[at] == job_id;
}

int avail_monitor_set_suspended(avail_monitor_t *m, uint32_t job_id, bool suspended)
{
	size_t at = suspended_at(m, job_id);
	bool there = at < m->nsuspended && m->suspended[at] == job_id;

	if (suspended == there)
		return 0;
	if (!suspended) {
		memmove(&m->suspended[at], &m->suspended[at + 1],
			(m->nsuspended - at - 1) * sizeof(uint32_t));
		m->nsuspended--;
		return 0;
	}
	if (m->nsuspended == m->suspended_cap) {
		size_t cap = m->suspended_cap ? 2 * m->suspended_cap : 16;
		uint32_t *s = realloc(m->suspended, cap * sizeof(*s));
		if (!s)
			return -1;
		m->suspended = s;
		m->suspended_cap = cap;
	}
	memmove(&m->suspended[at + 1], &m->suspended[at],
		(m->nsuspended - at) * sizeof(uint32_t));
	m->suspended[at] = job_id;
	m->nsuspended++;
	return 0;
}

int avail_monitor_save(const avail_monitor_t *m, const char *path, char *err, size_t errlen)
{
	static const uint32_t none[1];

	return markov_models_save(path, m->nodes, m->nnodes,
				  m->suspended ? m->suspended : none,
				  m->nsuspended, err, errlen);
}

int avail_monitor_load(avail_monitor_t *m, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	json_object *root, *ids = NULL;
	markov_node_model_t *nodes;
	size_t count;
	char why[256];

	if (!f)
		return 1;	/* first start: nothing learned yet */
	fclose(f);
	if (!(root = markov_models_json_load(path, err, errlen)))
		return -1;
	if (markov_models_from_json(root, &nodes, &count, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		json_object_put(root);
		return -1;
	}
	if (json_object_object_get_ex(root, "suspended", &ids)) {
		bool ok = json_object_is_type(ids, json_type_array);
		for (size_t i = 0; ok && i < json_object_array_length(ids); i++) {
			json_object *v = json_object_array_get_idx(ids, i);
			int64_t id = json_object_get_int64(v);
			if (!json_object_is_type(v, json_type_int) || id <= 0 ||
			    id > (int64_t)UINT32_MAX) {
				snprintf(err, errlen, "%s: suspended[%zu]=%s: not a job id", path,
					 i, json_object_to_json_string(v));
				ok = false;
			}
		}
		if (!ok) {
			if (!json_object_is_type(ids, json_type_array))
				snprintf(err, errlen, "%s: suspended: not an array", path);
			markov_models_free(nodes, count);
			json_object_put(root);
			return -1;
		}
	}
	/* replace what was there */
	for (size_t i = 0; i < m->nnodes; i++)
		free(m->nodes[i].name);
	m->nnodes = 0;
	m->nsuspended = 0;
	for (size_t i = 0; i < count; i++) {
		size_t at = avail_monitor_node(m, nodes[i].name);
		if (at == (size_t)-1)
			break;
		m->nodes[at].model = nodes[i].model;
	}
	refresh_availability(m);
	for (size_t i = 0; ids && i < json_object_array_length(ids); i++)
		avail_monitor_set_suspended(m, (uint32_t)json_object_get_int64(
						json_object_array_get_idx(ids, i)), true);
	markov_models_free(nodes, count);
	json_object_put(root);
	return 0;
}

static json_object *number_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *estimate_json(const markov_estimate_t *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "valid", json_object_new_boolean(e->valid));
	json_object_object_add(o, "p01", number_or_null(e->p01));
	json_object_object_add(o, "p11", number_or_null(e->p11));
	json_object_object_add(o, "availability", number_or_null(e->availability));
	json_object_object_add(o, "ks", number_or_null(e->ks));
	json_object_object_add(o, "down_fraction", number_or_null(e->down_fraction));
	json_object_object_add(o, "slots", json_object_new_double(e->slots));
	return o;
}

static const char *obs_name(onoff_obs_t o)
{
	return o == ONOFF_OBS_ON ? "ON" : o == ONOFF_OBS_OFF ? "OFF" : "DOWN";
}

char *avail_monitor_status_json(const avail_monitor_t *m, const avail_monitor_config_t *cfg,
				long now)
{
	json_object *root = json_object_new_object(), *nodes, *recent, *ids;
	markov_estimate_t e;
	char *text;

	if (!root)
		return NULL;
	json_object_object_add(root, "updated", json_object_new_int64(now));
	json_object_object_add(root, "policy",
			       json_object_new_string(cfg->name));
	json_object_object_add(root, "slot", json_object_new_int(cfg->slot));
	json_object_object_add(root, "zeta", json_object_new_double(cfg->zeta));
	json_object_object_add(root, "beta", json_object_new_double(cfg->beta));
	json_object_object_add(root, "gamma",
			       json_object_new_double(cfg->migration_cost / cfg->slot));
	json_object_object_add(root, "slots_observed", json_object_new_int64((int64_t)m->slots));
	avail_monitor_pooled(m, &e);
	json_object_object_add(root, "pooled", estimate_json(&e));
	nodes = json_object_new_array();
	for (size_t i = 0; i < m->nnodes; i++) {
		json_object *o;
		avail_monitor_estimate(m, i, &e);
		o = estimate_json(&e);
		json_object_object_add(o, "name", json_object_new_string(m->nodes[i].name));
		json_object_object_add(o, "state", m->observed[i] ?
				       json_object_new_string(obs_name(m->last_obs[i])) : NULL);
		json_object_array_add(nodes, o);
	}
	json_object_object_add(root, "nodes", nodes);
	ids = json_object_new_array();
	for (size_t i = 0; i < m->nsuspended; i++)
		json_object_array_add(ids, json_object_new_int64(m->suspended[i]));
	json_object_object_add(root, "suspended", ids);
	recent = json_object_new_array();
	for (size_t k = 0; k < m->nrecent; k++) {
		const avail_decision_t *d =
			&m->recent[(m->next_recent + AVAIL_RECENT - 1 - k) % AVAIL_RECENT];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "job_id", json_object_new_int64(d->job_id));
		json_object_object_add(o, "when", json_object_new_int64(d->when));
		json_object_object_add(o, "policy",
				       json_object_new_string(d->policy));
		json_object_object_add(o, "n", json_object_new_int64((int64_t)d->n));
		json_object_object_add(o, "on_hosts", json_object_new_int64((int64_t)d->on_hosts));
		json_object_object_add(o, "spare_on", json_object_new_int64((int64_t)d->spare_on));
		json_object_object_add(o, "p01", number_or_null(d->p01));
		json_object_object_add(o, "p11", number_or_null(d->p11));
		json_object_object_add(o, "gamma", json_object_new_double(d->gamma));
		json_object_object_add(o, "threshold", json_object_new_int64((int64_t)d->threshold));
		json_object_object_add(o, "decision",
				       json_object_new_string(threshold_decision_name(d->decision)));
		json_object_array_add(recent, o);
	}
	json_object_object_add(root, "decisions", recent);
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
	return text;
}
