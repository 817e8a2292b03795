/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_export.h - what sched/amcbf shows of itself outside slurmctld:
 * StateSaveLocation/amcbf-stats.json for `dfrs status`, and the metrics
 * file for node_exporter's textfile collector (amcbf_metrics_file, every
 * amcbf_metrics_interval seconds at most), both from one sched_stats_t
 * (suite/sched_stats.h, suite/sched_metrics.h).  Called by the agent
 * thread only, with no slurmctld lock held.
 */
#ifndef DFRS_AMCBF_EXPORT_H
#define DFRS_AMCBF_EXPORT_H

#include <stdbool.h>

#include "amcbf_avail.h"
#include "amcbf_memory.h"
#include "suite/dfrs_params.h"
#include "suite/sched_stats.h"

/* How often, seconds, the node agents' reports are looked at. */
#define AMCBF_AGENTS_LOOK 10

/* Count the nodes by their agent's last report (measured_tag.h: fresh,
 * stale, malformed, none) and the oldest report's age, for the next
 * statistics and metrics: at most every AMCBF_AGENTS_LOOK seconds, each
 * node's Extra read under slurmctld's node read lock (a bookkeeping
 * hold). */
void amcbf_export_agents(const dfrs_params_t *params);

/* The statistics now (the agents' as amcbf_export_agents last saw them). */
void amcbf_export_fill(sched_stats_t *st, const amcbf_memory_t *mem,
		       const amcbf_avail_t *avail, const dfrs_params_t *params);

/* Write amcbf-stats.json. */
void amcbf_export_stats(const sched_stats_t *st);

/* Write amcbf_metrics_file if it is set and, unless force, at least
 * amcbf_metrics_interval seconds (monotonic clock) have passed since the
 * last write. */
void amcbf_export_metrics(const amcbf_memory_t *mem, const amcbf_avail_t *avail,
			  const dfrs_params_t *params, bool force);

#endif
