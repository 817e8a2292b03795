/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_needs.c - sched/amcbf's CPU needs, their history across
 * restarts, and the record of what each job had before its first
 * measurement (amcbf_needs.h; Liu et al. 2013, section 4.1).
 */
#include "src/common/slurm_xlator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_locks.h"
#include "amcbf_needs.h"
#include "dfrs_measured.h"
#include "need_history.h"
#include "state_file.h"
#include "need/need_predictor.h"

typedef struct {
	uint32_t job_id, uid;
	char name[NEED_NAME_MAX];
	double need;		/* last measured */
} noted_t;

static need_predictor_t hist;
static bool ready, dirty;
static noted_t *noted;
static size_t nnoted, cap;

/* The need each running job had the first time sched/amcbf decided on it
 * with no measurement of its own (predicted or dfrs_cpu_need), for
 * DFRS_NEED_FIRST_FILE: the last FIRST_MAX jobs, oldest first. */
#define FIRST_MAX 1024
typedef struct {
	uint32_t job_id;
	need_chosen_t from;
	double need;
} first_t;
static first_t first[FIRST_MAX];
static size_t nfirst, first_next;
static bool first_dirty;

static void note_first(uint32_t job_id, need_chosen_t from, double need)
{
	for (size_t i = 0; i < nfirst; i++)
		if (first[i].job_id == job_id)
			return;
	first[first_next] = (first_t){ job_id, from, need };
	first_next = (first_next + 1) % FIRST_MAX;
	if (nfirst < FIRST_MAX)
		nfirst++;
	first_dirty = true;
}

/* The records of the jobs before a restart, so that none is recorded
 * again (a corrupt line ends the reading). */
static void read_first(void)
{
	char *path = dfrs_state_file_path(DFRS_NEED_FIRST_FILE), line[128];
	char from[16];
	uint32_t job_id;
	double need;
	FILE *f = path ? fopen(path, "r") : NULL;

	while (f && fgets(line, sizeof(line), f) &&
	       sscanf(line, "%u %15s %lf", &job_id, from, &need) == 3)
		note_first(job_id, strcmp(from, "predicted") ?
			   NEED_CHOSEN_DEFAULT : NEED_CHOSEN_PREDICTED, need);
	if (f)
		fclose(f);
	xfree(path);
	first_dirty = false;
}

/* Outside locks: one line per job, "JOBID predicted|default NEED". */
static void write_first(void)
{
	char *text = NULL;
	size_t oldest = nfirst < FIRST_MAX ? 0 : first_next;

	if (!first_dirty)
		return;
	for (size_t i = 0; i < nfirst; i++) {
		const first_t *f = &first[(oldest + i) % FIRST_MAX];
		xstrfmtcat(text, "%s%u %s %g", i ? "\n" : "", f->job_id,
			   need_chosen_name(f->from), f->need);
	}
	if (dfrs_write_state_file(DFRS_NEED_FIRST_FILE, text ? text : "") == 0)
		first_dirty = false;
	xfree(text);
}

void amcbf_needs_load(void)
{
	char err[512];
	int rc;

	if (!ready && need_predictor_init(&hist, 0)) {
		error("need history: out of memory; pending jobs get dfrs_cpu_need");
		return;
	}
	ready = true;
	read_first();
	rc = dfrs_need_history_read(&hist, NULL, err, sizeof(err));
	if (rc < 0)
		error("%s; starting with an empty CPU-need history", err);
	else if (rc == 1)
		info("CPU-need history: %zu keys from %s", hist.used,
		     DFRS_NEED_HISTORY_FILE);
}

static noted_t *find_noted(uint32_t job_id);

static noted_t *note(job_record_t *job_ptr)
{
	noted_t *found = find_noted(job_ptr->job_id);

	if (found)
		return found;
	if (nnoted == cap) {
		cap = cap ? 2 * cap : 64;
		xrecalloc(noted, cap, sizeof(*noted));
	}
	noted_t *e = &noted[nnoted++];
	e->job_id = job_ptr->job_id;
	e->uid = job_ptr->user_id;
	snprintf(e->name, sizeof(e->name), "%s",
		 job_ptr->name ? job_ptr->name : "");
	return e;
}

static noted_t *find_noted(uint32_t job_id)
{
	for (size_t i = 0; i < nnoted; i++)
		if (noted[i].job_id == job_id)
			return &noted[i];
	return NULL;
}

double amcbf_needs_of(job_record_t *job_ptr, const dfrs_params_t *params,
		      bool bg)
{
	need_chosen_t from;
	/* in amcbf_mode=dfrs select/dfrs follows running jobs' needs (and
	 * says what it cannot use) */
	bool quiet = params->mode == AMCBF_MODE_DFRS;
	double need = dfrs_job_need(job_ptr, params, ready ? &hist : NULL,
				    time(NULL), quiet, &from);

	if ((from == NEED_CHOSEN_PREDICTED || from == NEED_CHOSEN_DEFAULT) &&
	    params->need_stale > 0 && IS_JOB_RUNNING(job_ptr))
		note_first(job_ptr->job_id, from, need);
	if (from != NEED_CHOSEN_MEASURED)
		return need;
	if (!bg) {
		note(job_ptr)->need = need;
		return need;
	}
	/* a lower bound: what it had without this measurement */
	noted_t *e = find_noted(job_ptr->job_id);
	dfrs_params_t unmeasured = *params;
	unmeasured.need_stale = 0;
	double had = e ? e->need : dfrs_job_need(job_ptr, &unmeasured,
				ready ? &hist : NULL, time(NULL), true, NULL);
	return need > had ? need : had;
}

double amcbf_needs_alone(job_record_t *job_ptr, const dfrs_params_t *params)
{
	dfrs_params_t unmeasured = *params;

	/* neither measured nor predicted: the history learns measured
	 * needs, which are what sharing left the jobs */
	unmeasured.need_stale = 0;
	return dfrs_job_need(job_ptr, &unmeasured, NULL, time(NULL), true,
			     NULL);
}

void amcbf_needs_sweep(void)
{
	amcbf_hold_t h = { .locks = { .job = READ_LOCK },
			   .phase = AMCBF_PHASE_OTHER };
	size_t kept = 0;
	char *text;

	write_first();
	if (!ready || !nnoted)
		return;
	amcbf_hold_lock(&h);
	for (size_t i = 0; i < nnoted; i++) {
		job_record_t *job_ptr = find_job_record(noted[i].job_id);
		if (job_ptr && IS_JOB_RUNNING(job_ptr)) {
			noted[kept++] = noted[i];
			continue;
		}
		(void)need_predictor_observe(&hist, noted[i].uid,
					     noted[i].name, noted[i].need);
		dirty = true;
	}
	nnoted = kept;
	amcbf_hold_unlock(&h);
	if (!dirty || !(text = need_predictor_to_text(&hist)))
		return;
	if (dfrs_write_state_file(DFRS_NEED_HISTORY_FILE, text) == 0)
		dirty = false;
	free(text);
}

void amcbf_needs_fini(void)
{
	amcbf_needs_sweep();
	need_predictor_free(&hist);
	xfree(noted);
	nnoted = cap = 0;
	nfirst = first_next = 0;
	ready = false;
}
