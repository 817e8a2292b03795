/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu_weight.c - yield/tier to cgroup cpu.shares, and the "dfrs:" tag that
 * carries a job's allocation from slurmctld to its nodes (doc/design.md, node
 * side, §4.1 tiers, §4.2 yields).
 */
#include "cpu_weight.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned clamp_weight(double w)
{
	if (!(w >= CPU_WEIGHT_MIN))	/* also NaN */
		return CPU_WEIGHT_MIN;
	if (w >= CPU_WEIGHT_MAX)
		return CPU_WEIGHT_MAX;
	return (unsigned)lround(w);
}

unsigned cpu_weight_for_yield(double yield, double need)
{
	return clamp_weight(CPU_WEIGHT_SCALE * yield * need);
}

unsigned cpu_weight_of_tag(const cpu_weight_tag_t *tag)
{
	if (tag->weight >= 0)
		return clamp_weight((double)tag->weight);
	if (tag->tier == SCHED_TIER_FG)
		return CPU_WEIGHT_FOREGROUND;
	if (tag->tier == SCHED_TIER_BG)
		return CPU_WEIGHT_BACKGROUND;
	if (tag->yield >= 0)
		return cpu_weight_for_yield(tag->yield,
					    tag->need >= 0 ? tag->need : 1.0);
	return CPU_WEIGHT_DEFAULT;
}

static int parse_fraction(const char *key, const char *val, double *out,
			  char *err, size_t errlen)
{
	char *end;

	errno = 0;
	double v = strtod(val, &end);
	if (errno || *end || end == val || !(v >= 0.0 && v <= 1.0)) {
		snprintf(err, errlen, "dfrs tag: %s=%s is not a number in 0..1",
			 key, val);
		return -1;
	}
	*out = v;
	return 0;
}

int cpu_weight_tag_parse(const char *text, cpu_weight_tag_t *tag, char *err, size_t errlen)
{
	const char *start = text ? strstr(text, "dfrs:") : NULL;
	char buf[256], *save = NULL, *item;
	size_t len;

	tag->yield = tag->need = tag->min_yield = tag->avail = -1;
	tag->tier = SCHED_TIER_NONE;
	tag->weight = -1;
	if (!start)
		return 0;
	start += strlen("dfrs:");
	len = strcspn(start, "; \t\n");
	if (len == 0 || len >= sizeof(buf)) {
		snprintf(err, errlen, "dfrs tag: %s", len ? "too long" : "empty");
		return -1;
	}
	memcpy(buf, start, len);
	buf[len] = '\0';

	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq) {
			snprintf(err, errlen, "dfrs tag: '%s' is not key=value", item);
			return -1;
		}
		*eq = '\0';
		const char *key = item, *val = eq + 1;
		if (!strcmp(key, "yield")) {
			if (parse_fraction(key, val, &tag->yield, err, errlen))
				return -1;
		} else if (!strcmp(key, "need")) {
			if (parse_fraction(key, val, &tag->need, err, errlen))
				return -1;
		} else if (!strcmp(key, "min_yield")) {
			if (parse_fraction(key, val, &tag->min_yield, err, errlen))
				return -1;
		} else if (!strcmp(key, "avail")) {
			if (parse_fraction(key, val, &tag->avail, err, errlen))
				return -1;
		} else if (!strcmp(key, "tier")) {
			if (!strcmp(val, "fg"))
				tag->tier = SCHED_TIER_FG;
			else if (!strcmp(val, "bg"))
				tag->tier = SCHED_TIER_BG;
			else {
				snprintf(err, errlen, "dfrs tag: tier=%s is not fg or bg", val);
				return -1;
			}
		} else if (!strcmp(key, "weight")) {
			char *end;
			errno = 0;
			long w = strtol(val, &end, 10);
			if (errno || *end || end == val || w < (long)CPU_WEIGHT_MIN ||
			    w > (long)CPU_WEIGHT_MAX) {
				snprintf(err, errlen,
					 "dfrs tag: weight=%s is not an integer in %u..%u",
					 val, CPU_WEIGHT_MIN, CPU_WEIGHT_MAX);
				return -1;
			}
			tag->weight = w;
		} else {
			snprintf(err, errlen, "dfrs tag: unknown key '%s'", key);
			return -1;
		}
	}
	return 1;
}

void cpu_weight_tag_format(const cpu_weight_tag_t *tag, char *buf, size_t len)
{
	size_t used;
	const char *sep = "";

	if (!len)
		return;
	used = (size_t)snprintf(buf, len, "dfrs:");
#define APPEND(...) do { \
		if (used < len) \
			used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); \
		sep = ","; \
	} while (0)
	if (tag->yield >= 0)
		APPEND("%syield=%.4g", sep, tag->yield);
	if (tag->need >= 0)
		APPEND("%sneed=%.4g", sep, tag->need);
	if (tag->min_yield >= 0)
		APPEND("%smin_yield=%.4g", sep, tag->min_yield);
	if (tag->tier != SCHED_TIER_NONE)
		APPEND("%stier=%s", sep, tag->tier == SCHED_TIER_FG ? "fg" : "bg");
	if (tag->weight >= 0)
		APPEND("%sweight=%ld", sep, tag->weight);
#undef APPEND
}
