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
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "amcbf_drift.h"
#include "amcbf_export.h"
#include "amcbf_locks.h"
#include "amcbf_readbound.h"
#include "state_file.h"
#include "dfrs/dfrs_online.h"
#include "suite/sched_metrics.h"

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
	if (!(text = sched_metrics_text(&st))) {
		error("%s: out of memory", params->metrics_file);
		return;
	}
	/* dfrs_write_file ends the text with its own newline */
	if ((len = strlen(text)) && text[len - 1] == '\n')
		text[len - 1] = '\0';
	(void)dfrs_write_file(params->metrics_file, text);
	free(text);
}
