/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_tier.h - the two CPU tiers of a node in consolidation backfill
 * (Liu et al. 2013, Sec. 4): the foreground tier, which runs at full
 * priority, and the background tier, which takes only the CPU the
 * foreground leaves idle.  One enum for the engines, the CPU weights the
 * node agent writes and the tags that carry a job's tier to its nodes.
 */
#ifndef DFRS_SCHED_TIER_H
#define DFRS_SCHED_TIER_H

typedef enum {
	SCHED_TIER_NONE = -1,	/* no tier: a tag without one, a DFRS job */
	SCHED_TIER_FG = 0,
	SCHED_TIER_BG = 1,
} sched_tier_t;

#endif
