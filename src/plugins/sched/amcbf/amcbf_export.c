/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_export.c - sched/amcbf's statistics file and metrics file
 * (amcbf_export.h).  Each is written to a temporary file renamed over it,
 * so that a reader (dfrs status, a scrape) never sees half of one.
 */
#include "src/common/slurm_xlator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_drift.h"
#include "amcbf_export.h"
#include "amcbf_locks.h"
#include "amcbf_readbound.h"
#include "amcbf_stretch.h"
#include "state_file.h"
#include "dfrs/dfrs_online.h"
#include "need/measured_tag.h"
#include "suite/sched_metrics.h"

/* The node agents' reports at the last look (agents_* of sched_stats_t). */
static sched_stats_t agents;
static time_t agents_seen;

void amcbf_export_agents(const dfrs_params_t *params)
{
	amcbf_hold_t h = { .locks = { .node = READ_LOCK },
			   .phase = AMCBF_PHASE_OTHER };
	time_t now = time(NULL);

	if (agents_seen && now >= agents_seen &&
	    now - agents_seen < AMCBF_AGENTS_LOOK)
		return;
	memset(&agents, 0, sizeof(agents));
	amcbf_hold_lock(&h);
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		long age;

		if (!node_ptr)
			continue;
		switch (measured_tag_report(node_ptr->extra, (long)now,
					    params->need_stale, &age)) {
		case MEASURED_REPORT_FRESH:
			agents.agents_fresh++;
			break;
		case MEASURED_REPORT_STALE:
			agents.agents_stale++;
			break;
		case MEASURED_REPORT_BAD:
			agents.agents_bad++;
			break;
		default:
			agents.agents_none++;
			break;
		}
		if ((unsigned long)age > agents.agent_oldest_age)
			agents.agent_oldest_age = (unsigned long)age;
	}
	amcbf_hold_unlock(&h);
	agents_seen = now;
}

void amcbf_export_fill(sched_stats_t *st, const amcbf_memory_t *mem,
		       const amcbf_avail_t *avail, const dfrs_params_t *params)
{
	const amcbf_hold_stat_t *rd = amcbf_hold_longest_of(AMCBF_PHASE_READ);
	const amcbf_hold_stat_t *ap = amcbf_hold_longest_of(AMCBF_PHASE_APPLY);
	const amcbf_hold_stat_t *av = amcbf_hold_longest_of(AMCBF_PHASE_AVAIL);
	const amcbf_hold_stat_t *ot = amcbf_hold_longest_of(AMCBF_PHASE_OTHER);

	memset(st, 0, sizeof(*st));
	st->cycles = mem->cycles;
	st->started = mem->started;
	st->preempted = mem->requeued;
	st->promoted = mem->promoted;
	st->demoted = mem->demoted;
	st->refused = mem->failed;
	st->pending = mem->npending;
	st->running = mem->nrunning;
	st->mean_ms = mem->cycles ? mem->usec_total / mem->cycles / 1000.0 : 0.0;
	st->max_ms = mem->usec_max / 1000.0;
	st->updated = time(NULL);
	if (params->mode == AMCBF_MODE_DFRS)
		snprintf(st->mode, sizeof(st->mode), "dfrs(%s)",
			 dfrs_online_policy_name(params->dfrs_policy));
	else
		snprintf(st->mode, sizeof(st->mode), "%s%s",
			 dfrs_params_mode_name(params->mode),
			 params->priority == AMCBF_PRIO_STRETCH ? ", stretch" : "");
	for (size_t i = 0; i < mem->njobs; i++) {
		const amcbf_known_t *k = &mem->jobs[i];

		if (!k->running)
			continue;
		if (k->tier == SCHED_TIER_FG)
			st->running_fg++;
		else if (k->tier == SCHED_TIER_BG)
			st->running_bg++;
		sched_stats_add_yield(st, k->yield);
	}
	st->migrated = avail->migrated;
	st->avail_suspended = avail->suspended;
	st->avail_resumed = avail->resumed;
	st->suspended_now = avail->mon.nsuspended;
	st->lock_hold_max_ms = amcbf_hold_longest_ms();
	st->lock_yields = amcbf_hold_yields();
	st->read_hold_max_ms = rd->ms;
	st->read_hold_max_jobs = rd->njobs;
	st->read_hold_max_cpu_ms = rd->cpu_ms;
	st->apply_hold_max_ms = ap->ms;
	st->apply_hold_max_cpu_ms = ap->cpu_ms;
	st->avail_hold_max_ms = av->ms;
	st->avail_hold_max_cpu_ms = av->cpu_ms;
	st->other_hold_max_ms = ot->ms;
	st->other_hold_max_cpu_ms = ot->cpu_ms;
	amcbf_read_counts(&st->read_cuts, &st->read_left);
	st->drifts = amcbf_drift_entries();
	st->drift_active = amcbf_drift_active();
	amcbf_charge_totals(&st->limit_added_measured,
			    &st->limit_added_believed);
	st->agents_fresh = agents.agents_fresh;
	st->agents_stale = agents.agents_stale;
	st->agents_bad = agents.agents_bad;
	st->agents_none = agents.agents_none;
	st->agent_oldest_age = agents.agent_oldest_age;
}

/* The availability model's nodes for the metrics (xmalloc'ed; names
 * point into a->mon), or NULL when it has none. */
static sched_metrics_node_t *avail_nodes(const amcbf_avail_t *a)
{
	const avail_monitor_t *m = &a->mon;
	sched_metrics_node_t *nodes;

	if (!m->nnodes)
		return NULL;
	nodes = xcalloc(m->nnodes, sizeof(*nodes));
	for (size_t i = 0; i < m->nnodes; i++) {
		markov_estimate_t e;

		avail_monitor_estimate(m, i, &e);
		nodes[i].name = m->nodes[i].name;
		nodes[i].availability = e.availability;
		nodes[i].on = !m->observed[i] ? -1 :
			      avail_monitor_is_on(m, i) ? 1 : 0;
	}
	return nodes;
}

void amcbf_export_stats(const sched_stats_t *st)
{
	char *json = sched_stats_to_json(st);

	if (json)
		(void)dfrs_write_state_file("amcbf-stats.json", json);
	free(json);
}

void amcbf_export_metrics(const amcbf_memory_t *mem, const amcbf_avail_t *avail,
			  const dfrs_params_t *params, bool force)
{
	static double last;	/* monotonic seconds; 0: never written */
	struct timespec ts;
	double now;
	sched_stats_t st;
	sched_metrics_node_t *nodes;
	char *text;
	size_t len;

	if (!strcmp(params->metrics_file, "none"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec + ts.tv_nsec / 1e9;
	if (!force && last && now - last < params->metrics_interval)
		return;
	last = now;
	amcbf_export_fill(&st, mem, avail, params);
	nodes = avail_nodes(avail);
	text = sched_metrics_text(&st, nodes, nodes ? avail->mon.nnodes : 0);
	xfree(nodes);
	if (!text) {
		error("%s: out of memory", params->metrics_file);
		return;
	}
	/* dfrs_write_file ends the text with its own newline */
	if ((len = strlen(text)) && text[len - 1] == '\n')
		text[len - 1] = '\0';
	(void)dfrs_write_file(params->metrics_file, text);
	free(text);
}
