/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_stats.c - sched/amcbf's statistics in JSON and as `dfrs status`
 * prints them (sched_stats.h).
 */
#include "sched_stats.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The counters, in the JSON text's order. */
static const struct {
	const char *key;
	size_t offset;
} counters[] = {
	{ "cycles", offsetof(sched_stats_t, cycles) },
	{ "started", offsetof(sched_stats_t, started) },
	{ "preempted", offsetof(sched_stats_t, preempted) },
	{ "promoted", offsetof(sched_stats_t, promoted) },
	{ "demoted", offsetof(sched_stats_t, demoted) },
	{ "refused", offsetof(sched_stats_t, refused) },
	{ "pending", offsetof(sched_stats_t, pending) },
	{ "running", offsetof(sched_stats_t, running) },
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

#define COUNTER(s, i) ((unsigned long *)((char *)(s) + counters[i].offset))

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
	json_object_object_add(o, "mean_ms", json_object_new_double(s->mean_ms));
	json_object_object_add(o, "max_ms", json_object_new_double(s->max_ms));
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
		if (number(o, counters[i].key, MAX_COUNT, &v, err, errlen))
			goto out;
		*COUNTER(s, i) = (unsigned long)v;
	}
	if (number(o, "mean_ms", HUGE_VAL, &s->mean_ms, err, errlen) ||
	    number(o, "max_ms", HUGE_VAL, &s->max_ms, err, errlen))
		goto out;
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
}
