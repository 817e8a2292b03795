/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_stats.c - sched/amcbf's statistics in JSON and as `dfrs status`
 * prints them (sched_stats.h).
 */
#include "sched_stats.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const double sched_stats_yield_le[SCHED_STATS_YIELD_BUCKETS] = {
	0.25, 0.5, 0.75, 0.9, 1
};

/* The counters, in the JSON text's order; optional: 0 when missing (the
 * metrics' fields). */
static const struct {
	const char *key;
	size_t offset;
	bool optional;
} counters[] = {
	{ "cycles", offsetof(sched_stats_t, cycles), false },
	{ "started", offsetof(sched_stats_t, started), false },
	{ "preempted", offsetof(sched_stats_t, preempted), false },
	{ "promoted", offsetof(sched_stats_t, promoted), false },
	{ "demoted", offsetof(sched_stats_t, demoted), false },
	{ "refused", offsetof(sched_stats_t, refused), false },
	{ "pending", offsetof(sched_stats_t, pending), false },
	{ "running", offsetof(sched_stats_t, running), false },
	{ "running_fg", offsetof(sched_stats_t, running_fg), true },
	{ "running_bg", offsetof(sched_stats_t, running_bg), true },
	{ "yields_le_0.25", offsetof(sched_stats_t, yields[0]), true },
	{ "yields_le_0.5", offsetof(sched_stats_t, yields[1]), true },
	{ "yields_le_0.75", offsetof(sched_stats_t, yields[2]), true },
	{ "yields_le_0.9", offsetof(sched_stats_t, yields[3]), true },
	{ "yields_le_1", offsetof(sched_stats_t, yields[4]), true },
	{ "migrated", offsetof(sched_stats_t, migrated), true },
	{ "avail_suspended", offsetof(sched_stats_t, avail_suspended), true },
	{ "avail_resumed", offsetof(sched_stats_t, avail_resumed), true },
	{ "suspended_now", offsetof(sched_stats_t, suspended_now), true },
	{ "lock_yields", offsetof(sched_stats_t, lock_yields), true },
	{ "read_hold_max_jobs", offsetof(sched_stats_t, read_hold_max_jobs), true },
	{ "read_cuts", offsetof(sched_stats_t, read_cuts), true },
	{ "read_left", offsetof(sched_stats_t, read_left), true },
	{ "drifts", offsetof(sched_stats_t, drifts), true },
	{ "drift_active", offsetof(sched_stats_t, drift_active), true },
	{ "limit_added_measured", offsetof(sched_stats_t, limit_added_measured), true },
	{ "limit_added_believed", offsetof(sched_stats_t, limit_added_believed), true },
	{ "agents_fresh", offsetof(sched_stats_t, agents_fresh), true },
	{ "agents_stale", offsetof(sched_stats_t, agents_stale), true },
	{ "agents_bad", offsetof(sched_stats_t, agents_bad), true },
	{ "agents_none", offsetof(sched_stats_t, agents_none), true },
	{ "agent_oldest_age", offsetof(sched_stats_t, agent_oldest_age), true },
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

#define COUNTER(s, i) ((unsigned long *)((char *)(s) + counters[i].offset))

/* The times and sums, in the JSON text's order after the counters. */
static const struct {
	const char *key;
	size_t offset;
	bool optional;
} reals[] = {
	{ "mean_ms", offsetof(sched_stats_t, mean_ms), false },
	{ "max_ms", offsetof(sched_stats_t, max_ms), false },
	{ "yield_sum", offsetof(sched_stats_t, yield_sum), true },
	{ "lock_hold_max_ms", offsetof(sched_stats_t, lock_hold_max_ms), true },
	{ "read_hold_max_ms", offsetof(sched_stats_t, read_hold_max_ms), true },
	{ "read_hold_max_cpu_ms", offsetof(sched_stats_t, read_hold_max_cpu_ms), true },
	{ "apply_hold_max_ms", offsetof(sched_stats_t, apply_hold_max_ms), true },
	{ "apply_hold_max_cpu_ms", offsetof(sched_stats_t, apply_hold_max_cpu_ms), true },
	{ "avail_hold_max_ms", offsetof(sched_stats_t, avail_hold_max_ms), true },
	{ "avail_hold_max_cpu_ms", offsetof(sched_stats_t, avail_hold_max_cpu_ms), true },
	{ "other_hold_max_ms", offsetof(sched_stats_t, other_hold_max_ms), true },
	{ "other_hold_max_cpu_ms", offsetof(sched_stats_t, other_hold_max_cpu_ms), true },
};
#define NREALS (sizeof(reals) / sizeof(reals[0]))

#define REAL(s, i) ((double *)((char *)(s) + reals[i].offset))

void sched_stats_add_yield(sched_stats_t *s, double yield)
{
	for (int i = 0; i < SCHED_STATS_YIELD_BUCKETS; i++)
		if (yield <= sched_stats_yield_le[i])
			s->yields[i]++;
	s->yield_sum += yield;
}

char *sched_stats_to_json(const sched_stats_t *s)
{
	json_object *o = json_object_new_object();
	char *text = NULL;

	if (!o)
		return NULL;
	json_object_object_add(o, "mode", json_object_new_string(s->mode));
	json_object_object_add(o, "updated", json_object_new_int64(s->updated));
	for (size_t i = 0; i < NCOUNTERS; i++)
		json_object_object_add(o, counters[i].key,
				       json_object_new_int64((int64_t)*COUNTER(s, i)));
	for (size_t i = 0; i < NREALS; i++)
		json_object_object_add(o, reals[i].key,
				       json_object_new_double(*REAL(s, i)));
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (t)
		text = strdup(t);
	json_object_put(o);
	return text;
}

/* Counters and times are stored as integers: at most 2^53, which a long
 * holds and a double counts exactly. */
#define MAX_COUNT 9007199254740992.0

/* o's key as a number in [0, max]: 0, or -1 with err. */
static int number(json_object *o, const char *key, double max, double *v,
		  char *err, size_t errlen)
{
	json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !(json_object_is_type(f, json_type_int) ||
	      json_object_is_type(f, json_type_double)) ||
	    !isfinite(*v = json_object_get_double(f)) || *v < 0 || *v > max) {
		snprintf(err, errlen, "\"%s\" missing or not a number in [0, %.0f]",
			 key, max);
		return -1;
	}
	return 0;
}

int sched_stats_from_json(const char *json, sched_stats_t *s, char *err,
			  size_t errlen)
{
	json_object *o = json_tokener_parse(json), *f;
	double v;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (!o || !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "not a JSON object");
		goto out;
	}
	if (!json_object_object_get_ex(o, "mode", &f) ||
	    !json_object_is_type(f, json_type_string)) {
		snprintf(err, errlen, "\"mode\" missing or not a string");
		goto out;
	}
	snprintf(s->mode, sizeof(s->mode), "%s", json_object_get_string(f));
	if (number(o, "updated", MAX_COUNT, &v, err, errlen))
		goto out;
	s->updated = (time_t)v;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		if (counters[i].optional &&
		    !json_object_object_get_ex(o, counters[i].key, NULL))
			continue;
		if (number(o, counters[i].key, MAX_COUNT, &v, err, errlen))
			goto out;
		*COUNTER(s, i) = (unsigned long)v;
	}
	for (size_t i = 0; i < NREALS; i++) {
		if (reals[i].optional &&
		    !json_object_object_get_ex(o, reals[i].key, NULL))
			continue;
		if (number(o, reals[i].key, HUGE_VAL, REAL(s, i), err, errlen))
			goto out;
	}
	rc = 0;
out:
	if (o)
		json_object_put(o);
	return rc;
}

void sched_stats_print(const sched_stats_t *s, FILE *out)
{
	char when[32] = "?";
	struct tm tm;

	if (gmtime_r(&s->updated, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(out, "sched/amcbf: %s, %lu pending, %lu running (at %s)\n",
		s->mode, s->pending, s->running, when);
	fprintf(out, "  %lu cycles, mean %.2f ms, max %.2f ms\n", s->cycles,
		s->mean_ms, s->max_ms);
	fprintf(out, "  %lu started, %lu preempted, %lu promoted, %lu demoted, %lu starts refused by Slurm\n",
		s->started, s->preempted, s->promoted, s->demoted, s->refused);
	fprintf(out, "  longest lock hold %.2f ms; by phase (wall / on a CPU): read %.2f / %.2f ms, apply %.2f / %.2f ms, availability %.2f / %.2f ms, bookkeeping %.2f / %.2f ms\n",
		s->lock_hold_max_ms, s->read_hold_max_ms,
		s->read_hold_max_cpu_ms, s->apply_hold_max_ms,
		s->apply_hold_max_cpu_ms, s->avail_hold_max_ms,
		s->avail_hold_max_cpu_ms, s->other_hold_max_ms,
		s->other_hold_max_cpu_ms);
	fprintf(out, "  %lu s added to end times (%lu measured, %lu believed); node agents' reports: %lu fresh, %lu stale, %lu malformed, %lu nodes without one\n",
		s->limit_added_measured + s->limit_added_believed,
		s->limit_added_measured, s->limit_added_believed,
		s->agents_fresh, s->agents_stale, s->agents_bad,
		s->agents_none);
}
