/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_source.c - node ON/OFF states for the migrate-or-wait simulation
 * from Markov chains or a trace (avail_source.h), and the chains the
 * informed policies are told.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avail_source.h"
#include "avail/markov_estimator.h"

#define MARKOV_PREFIX "markov:"
#define TRACE_PREFIX "trace:"
#define MAX_SPEC 4096

void avail_source_free(avail_source_t *s)
{
	free(s->chains);
	avail_trace_free(&s->trace);
	memset(s, 0, sizeof(*s));
}

/* "X1/X2/..." into node h's field (h mod K); K into *count.  0 or -1. */
static int parse_values(const char *key, char *list, size_t nodes, onoff_chain_t *chains,
			bool is_p01, char *err, size_t errlen)
{
	double values[MAX_SPEC / 2];
	size_t k = 0;

	for (char *save, *v = strtok_r(list, "/", &save); v; v = strtok_r(NULL, "/", &save)) {
		char *end;

		errno = 0;
		double x = strtod(v, &end);

		if (end == v || *end || errno || !isfinite(x)) {
			snprintf(err, errlen, "%s=%s: not a number", key, v);
			return -1;
		}
		onoff_chain_t probe = { is_p01 ? x : 0.0, is_p01 ? 0.0 : x };

		if (onoff_chain_check(&probe, err, errlen))
			return -1;
		if (k == nodes) {
			snprintf(err, errlen, "%s: more values than the %zu nodes", key, nodes);
			return -1;
		}
		values[k++] = x;
	}
	if (!k) {
		snprintf(err, errlen, "%s: no value", key);
		return -1;
	}
	for (size_t h = 0; h < nodes; h++) {
		if (is_p01)
			chains[h].p01 = values[h % k];
		else
			chains[h].p11 = values[h % k];
	}
	return 0;
}

/* The chain fitted to counts pooled like markov_estimator's would be:
 * p01 weighted by each node's OFF share, p11 by its ON share. */
static void pool_known_chains(avail_source_t *s)
{
	double off_w = 0.0, on_w = 0.0, p01 = 0.0, p11 = 0.0;

	s->identical = true;
	for (size_t h = 0; h < s->nodes; h++) {
		const onoff_chain_t *c = &s->chains[h];
		double a = onoff_chain_availability(c);

		if (isnan(a))
			a = 1.0; /* p01 = 0, p11 = 1: starts, and stays, ON */
		s->identical &= c->p01 == s->chains[0].p01 && c->p11 == s->chains[0].p11;
		off_w += 1.0 - a;
		on_w += a;
		p01 += (1.0 - a) * c->p01;
		p11 += a * c->p11;
	}
	if (s->identical) {
		s->pooled = s->chains[0];
		return;
	}
	s->pooled.p01 = off_w > 0.0 ? fmin(1.0, p01 / off_w) : 1.0;
	s->pooled.p11 = on_w > 0.0 ? fmin(1.0, p11 / on_w) : 0.0;
}

static int open_markov(const char *spec, size_t nodes, avail_source_t *out, char *err,
		       size_t errlen)
{
	char buf[MAX_SPEC], why[256];
	bool seen[2] = { false, false };

	if (!nodes) {
		snprintf(err, errlen, "%s: needs at least 1 node", spec);
		return -1;
	}
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "markov: spec longer than %d characters", MAX_SPEC - 1);
		return -1;
	}
	out->kind = AVAIL_SOURCE_MARKOV;
	out->nodes = nodes;
	out->chains = calloc(nodes, sizeof(*out->chains));
	if (!out->chains) {
		snprintf(err, errlen, "%s: out of memory for %zu nodes", spec, nodes);
		return -1;
	}
	strcpy(buf, spec + strlen(MARKOV_PREFIX));
	for (char *save, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		int which = -1;

		if (eq) {
			*eq = '\0';
			which = !strcmp(kv, "p01") ? 0 : !strcmp(kv, "p11") ? 1 : -1;
		}
		if (which < 0) {
			snprintf(err, errlen, "%s: '%s' is not p01=X or p11=Y", spec, kv);
			return -1;
		}
		if (seen[which]) {
			snprintf(err, errlen, "%s: %s given twice", spec, kv);
			return -1;
		}
		seen[which] = true;
		if (parse_values(kv, eq + 1, nodes, out->chains, which == 0, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", spec, why);
			return -1;
		}
	}
	if (!seen[0] || !seen[1]) {
		snprintf(err, errlen, "%s: missing %s (markov:p01=X,p11=Y)", spec,
			 seen[0] ? "p11" : "p01");
		return -1;
	}
	pool_known_chains(out);
	return 0;
}

/* Known chains of a trace: each node's fit over the whole trace, the
 * pooled fit for nodes that never left a state (and for the group). */
static int fit_trace(avail_source_t *s, char *err, size_t errlen)
{
	markov_estimator_t *est = calloc(s->nodes, sizeof(*est));
	const markov_estimator_t **ptr = calloc(s->nodes, sizeof(*ptr));
	markov_estimator_config_t cfg = { .forgetting = 1.0 };

	s->chains = calloc(s->nodes, sizeof(*s->chains));
	if (!est || !ptr || !s->chains) {
		free(est);
		free(ptr);
		snprintf(err, errlen, "out of memory for %zu nodes", s->nodes);
		return -1;
	}
	for (size_t h = 0; h < s->nodes; h++) {
		markov_estimator_init(&est[h]);
		ptr[h] = &est[h];
		for (size_t t = 0; t < s->trace.slots; t++)
			markov_estimator_observe(&est[h], &cfg, avail_trace_on(&s->trace, t, h) ?
					       ONOFF_OBS_ON : ONOFF_OBS_OFF);
	}
	markov_estimate_pool_chain(ptr, s->nodes, &s->pooled);
	/* a state the group was never seen leaving: never OFF gives p01 = 1,
	 * never ON p11 = 0 (either value only matters in that state) */
	s->pooled.p01 = isnan(s->pooled.p01) ? 1.0 : s->pooled.p01;
	s->pooled.p11 = isnan(s->pooled.p11) ? 0.0 : s->pooled.p11;
	s->identical = true;
	for (size_t h = 0; h < s->nodes; h++) {
		if (!markov_estimate_chain(&est[h], &s->chains[h]))
			s->chains[h] = s->pooled;
		s->identical &= s->chains[h].p01 == s->chains[0].p01 &&
				s->chains[h].p11 == s->chains[0].p11;
	}
	free(est);
	free(ptr);
	return 0;
}

static int open_trace(const char *spec, size_t nodes, avail_source_t *out, char *err,
		      size_t errlen)
{
	const char *path = spec + strlen(TRACE_PREFIX);

	out->kind = AVAIL_SOURCE_TRACE;
	if (!*path) {
		snprintf(err, errlen, "%s: needs a file name (trace:FILE)", spec);
		return -1;
	}
	if (avail_trace_read(path, &out->trace, err, errlen))
		return AVAIL_SOURCE_BAD_FILE;
	if (nodes > out->trace.nodes) {
		snprintf(err, errlen, "%s: %zu nodes asked, the trace has %zu", spec, nodes,
			 out->trace.nodes);
		return AVAIL_SOURCE_BAD_SPEC;
	}
	out->nodes = nodes ? nodes : out->trace.nodes;
	return fit_trace(out, err, errlen) ? AVAIL_SOURCE_BAD_FILE : 0;
}

int avail_source_open(const char *spec, size_t nodes, avail_source_t *out, char *err,
		      size_t errlen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!strncmp(spec, MARKOV_PREFIX, strlen(MARKOV_PREFIX)))
		rc = open_markov(spec, nodes, out, err, errlen);
	else if (!strncmp(spec, TRACE_PREFIX, strlen(TRACE_PREFIX)))
		rc = open_trace(spec, nodes, out, err, errlen);
	else {
		snprintf(err, errlen, "'%s': expected markov:p01=X,p11=Y or trace:FILE", spec);
		rc = -1;
	}
	if (rc)
		avail_source_free(out);
	return rc;
}

void avail_source_slot(const avail_source_t *s, size_t slot, sim_random_t *r, bool *on)
{
	for (size_t h = 0; h < s->nodes; h++) {
		if (s->kind == AVAIL_SOURCE_TRACE) {
			on[h] = avail_trace_on(&s->trace, slot, h);
			continue;
		}
		const onoff_chain_t *c = &s->chains[h];
		double p_on;

		if (slot == 0) {
			p_on = onoff_chain_availability(c);
			p_on = isnan(p_on) ? 1.0 : p_on;
		} else
			p_on = on[h] ? c->p11 : c->p01;
		on[h] = sim_random_unit(r) < p_on;
	}
}
