/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_drift.c - sched/amcbf's drift guard (amcbf_drift.h: a guard
 * against the pathology of Stillwell et al. 2010's sharing policies
 * as deployed).  The plugin's memory knows each job's virtual time (the
 * CPU time it got: amcbf_charge) and whether it runs, but not when it
 * first started (Slurm's start_time is that of the current run): the
 * guard keeps that itself, the cycle's time when it first sees a job
 * running, in a table sorted by job id beside the memory's, and forgets a
 * job when the memory does.  After a slurmctld restart the jobs then
 * running count from the restart.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"

#include "amcbf/stretch_drift.h"
#include "dfrs/dfrs_online.h"
#include "amcbf_drift.h"

typedef struct {
	uint32_t id;
	time_t first_run;	/* when the guard first saw it running */
} seen_t;

static stretch_drift_t det;
static bool configured;
static seen_t *seen, *fresh;	/* sorted by id; fresh: scratch */
static size_t nseen, cap;

void amcbf_drift_configure(const dfrs_params_t *params)
{
	stretch_drift_config_t c;
	char err[128];

	stretch_drift_defaults(&c);
	c.window = params->drift_window;
	c.factor = params->drift_factor;
	c.min_work = params->drift_min_work;
	if (configured && det.cfg.window == c.window &&
	    det.cfg.factor == c.factor && det.cfg.min_work == c.min_work)
		return;
	if (stretch_drift_check(&c, err, sizeof(err))) {
		/* dfrs_params' ranges keep this from happening */
		error("%s: drift guard off", err);
		c.window = 0;
	}
	if (configured && det.drifting)
		info("drift guard restarted by new settings (amcbf_drift_window=%d, amcbf_drift_factor=%g, amcbf_drift_min_work=%d): the drift under way is no longer followed",
		     params->drift_window, params->drift_factor,
		     params->drift_min_work);
	stretch_drift_init(&det, &c);
	configured = true;
}

/* The table for this cycle: each job of mem the guard saw running before
 * (its first start kept), or running now (first start now). */
static void update_seen(const amcbf_memory_t *mem, time_t now)
{
	size_t j = 0, n = 0;

	if (mem->njobs > cap) {
		cap = mem->njobs;
		xrecalloc(seen, cap, sizeof(*seen));
		xrecalloc(fresh, cap, sizeof(*fresh));
	}
	for (size_t i = 0; i < mem->njobs; i++) {
		const amcbf_known_t *k = &mem->jobs[i];

		while (j < nseen && seen[j].id < k->id)
			j++;
		if (j < nseen && seen[j].id == k->id)
			fresh[n++] = seen[j];
		else if (k->running)
			fresh[n++] = (seen_t){ .id = k->id, .first_run = now };
	}
	memcpy(seen, fresh, n * sizeof(*seen));
	nseen = n;
}

/* The running jobs' sum of run stretch (mem and seen both by id). */
static void running_sum(const amcbf_memory_t *mem, time_t now,
			stretch_drift_sum_t *s)
{
	size_t j = 0;

	for (size_t i = 0; i < mem->njobs; i++) {
		const amcbf_known_t *k = &mem->jobs[i];

		if (!k->running)
			continue;
		while (j < nseen && seen[j].id < k->id)
			j++;
		if (j < nseen && seen[j].id == k->id)
			(void)stretch_drift_add(s, difftime(now,
							    seen[j].first_run),
						k->vt, det.cfg.min_work);
	}
}

static void mode_name(const dfrs_params_t *params, char *buf, size_t len)
{
	if (params->mode == AMCBF_MODE_DFRS)
		snprintf(buf, len, "dfrs (amcbf_dfrs_policy=%s)",
			 dfrs_online_policy_name(params->dfrs_policy));
	else
		snprintf(buf, len, "%s", dfrs_params_mode_name(params->mode));
}

void amcbf_drift_cycle(const amcbf_memory_t *mem,
		       const dfrs_params_t *params, time_t now)
{
	stretch_drift_sum_t s = { 0 };
	char mode[64];

	if (!configured)
		amcbf_drift_configure(params);
	if (!(det.cfg.window > 0))
		return;
	update_seen(mem, now);
	running_sum(mem, now, &s);
	switch (stretch_drift_feed(&det, (double)now, &s)) {
	case STRETCH_DRIFT_ENTER:
		mode_name(params, mode, sizeof(mode));
		info("drift: the %zu running jobs' mean run stretch (time since first start / CPU time got) is %.2f, over %g x %.2f, its mean over the last %d s (amcbf_drift_factor, amcbf_drift_window): amcbf_mode=%s is sharing, requeueing or starving the jobs it started; if this lasts, it may cost several times EASY's response time: compare the modes on this site's accounting with `dfrs advise`, and consider another amcbf_mode",
		     s.n, det.current, det.cfg.factor, det.baseline,
		     params->drift_window, mode);
		break;
	case STRETCH_DRIFT_LEAVE:
		info("drift over: the %zu running jobs' mean run stretch is back to %.2f (under %.2f, halfway back to %.2f); %lu drifts so far",
		     s.n, det.current,
		     (1 + det.cfg.factor) / 2 * det.baseline, det.baseline,
		     det.entries);
		break;
	case STRETCH_DRIFT_NONE:
		break;
	}
}

unsigned long amcbf_drift_entries(void)
{
	return det.entries;
}

bool amcbf_drift_active(void)
{
	return det.drifting;
}

void amcbf_drift_fini(void)
{
	xfree(seen);
	xfree(fresh);
	nseen = cap = 0;
	configured = false;
}
