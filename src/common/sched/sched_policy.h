/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_policy.h - the scheduling policies by name (dfrs sim --policy, the
 * plugin's mode): each name and the engine that decides for it.
 */
#ifndef DFRS_SCHED_POLICY_H
#define DFRS_SCHED_POLICY_H

#include <stddef.h>

#include "sched_engine.h"

typedef struct {
	const char *name;
	sched_engine_fn engine;
	const char *summary;
} sched_policy_t;

/* The policy called name (exact, lower case), or NULL. */
const sched_policy_t *sched_policy_find(const char *name);

/* All of them, in the order dfrs sim lists them. */
const sched_policy_t *sched_policy_all(size_t *count);

#endif
