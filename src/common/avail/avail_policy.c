/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_policy.c - names and threshold indices of the migrate-or-wait
 * policies compared by avail_sim (He et al. 2012); names in any case, as
 * dfrs sim's other policies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "avail_policy.h"

static const struct {
	const char *name;
	avail_policy_kind_t kind;
} named[] = {
	{ "threshold", AVAIL_POLICY_THRESHOLD },
	{ "threshold-est", AVAIL_POLICY_THRESHOLD_EST },
	{ "myopic", AVAIL_POLICY_MYOPIC },
	{ "wait", AVAIL_POLICY_WAIT },
	{ "migrate", AVAIL_POLICY_MIGRATE },
	{ "optimal", AVAIL_POLICY_OPTIMAL },
	{ "lookahead", AVAIL_POLICY_LOOKAHEAD },
};
#define NNAMED (sizeof(named) / sizeof(named[0]))

int avail_policy_parse(const char *name, size_t n, avail_policy_t *out, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < NNAMED; i++)
		if (!strcasecmp(name, named[i].name)) {
			*out = (avail_policy_t){ .kind = named[i].kind };
			return 0;
		}
	if ((name[0] == 'T' || name[0] == 't') && name[1] >= '0' && name[1] <= '9') {
		char *end;

		errno = 0;
		unsigned long i = strtoul(name + 1, &end, 10);

		if (!*end && !errno && i <= n) {
			*out = (avail_policy_t){ .kind = AVAIL_POLICY_FIXED, .index = i };
			return 0;
		}
		snprintf(err, errlen, "policy '%s': T_i needs 0 <= i <= n=%zu", name, n);
		return -1;
	}
	snprintf(err, errlen, "unknown policy '%s' (threshold, threshold-est, myopic, wait, "
		 "migrate, optimal, lookahead or T0..T%zu)", name, n);
	return -1;
}

void avail_policy_name(const avail_policy_t *p, char *buf, size_t len)
{
	if (p->kind == AVAIL_POLICY_FIXED) {
		snprintf(buf, len, "T%zu", p->index);
		return;
	}
	for (size_t i = 0; i < NNAMED; i++)
		if (named[i].kind == p->kind) {
			snprintf(buf, len, "%s", named[i].name);
			return;
		}
	snprintf(buf, len, "?");
}

size_t avail_policy_index(const avail_policy_t *p, size_t n,
			  const threshold_partition_t *partition, double gamma)
{
	switch (p->kind) {
	case AVAIL_POLICY_THRESHOLD:
	case AVAIL_POLICY_THRESHOLD_EST:
	case AVAIL_POLICY_LOOKAHEAD:
		if (partition)
			return threshold_partition_policy(partition, gamma);
		return threshold_myopic_policy(n, gamma);
	case AVAIL_POLICY_MYOPIC:
		return threshold_myopic_policy(n, gamma);
	case AVAIL_POLICY_WAIT:
		return n;
	case AVAIL_POLICY_MIGRATE:
		return 0;
	case AVAIL_POLICY_FIXED:
		return p->index;
	case AVAIL_POLICY_OPTIMAL:
		break;
	}
	return n;
}
