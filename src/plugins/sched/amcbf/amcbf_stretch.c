/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_stretch.c - a job's DFRS stretch, virtual time and time limit as
 * sched/amcbf keeps them (amcbf_stretch.h; Stillwell et al. 2010).
 */
#include "src/common/slurm_xlator.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_stretch.h"
#include "amcbf_policy.h"
#include "amcbf_unsupported.h"
#include "dfrs/dfrs_priority.h"
#include "amcbf/limit_cap.h"
#include "amcbf/vclock.h"
#include "amcbf/limit_charge.h"
#include "amcbf/text_mark.h"
#include "amcbf_needs.h"
#include "dfrs_job_cap.h"
#include "amcbf_received.h"

/* A DFRS priority (0..inf) as a Slurm priority: monotonic, 1..2^30+1. */
uint32_t amcbf_slurm_priority(double prio)
{
	if (isinf(prio))
		return (1u << 30) + 1;
	return 1 + (uint32_t)((double)(1u << 30) * prio / (1.0 + prio));
}

time_t amcbf_first_submit(amcbf_known_t *k, job_record_t *job_ptr)
{
	if (!k->submit || job_ptr->details->submit_time < k->submit)
		k->submit = job_ptr->details->submit_time;
	return k->submit;
}

/* "sched/amcbf:time_added=<total>s,measured=<s>s,believed=<s>s": what
 * amcbf_charge added to this run's end time, and on which basis. */
#define ADDED_FORMAT "%lds,measured=%lds,believed=%lds"

static void set_comment(job_record_t *job_ptr, const char *old,
			const char *word)
{
	char *gone = NULL, *text = NULL;

	if (text_mark_remove(job_ptr->admin_comment, old, &gone) ||
	    (word && text_mark_add(gone, word, &text))) {
		free(gone);
		return;	/* out of memory: the comment stays */
	}
	xfree(job_ptr->admin_comment);
	job_ptr->admin_comment = word ? (text ? xstrdup(text) : NULL) :
				 (gone ? xstrdup(gone) : NULL);
	free(gone);
	free(text);
	last_job_update = time(NULL);
}

/* The mark of what was added, rewritten (clear: removed). */
static void show_added(amcbf_known_t *k, job_record_t *job_ptr, bool clear)
{
	char old[128], word[128];
	size_t pl = strlen(AMCBF_ADDED_MARK);
	bool had = text_mark_word(job_ptr->admin_comment, AMCBF_ADDED_MARK,
				  old, sizeof(old));

	if (!k->added_read && had && !clear) {
		/* what an earlier controller (or this one before a restart)
		 * added to this run */
		long t, m, b;
		if (sscanf(old + pl, ADDED_FORMAT, &t, &m, &b) == 3) {
			k->added[LIMIT_CHARGE_MEASURED] += m;
			k->added[LIMIT_CHARGE_BELIEVED] += b;
		}
	}
	k->added_read = 1;
	if (clear) {
		if (had)
			set_comment(job_ptr, old, NULL);
		return;
	}
	snprintf(word, sizeof(word), AMCBF_ADDED_MARK ADDED_FORMAT,
		 k->added[LIMIT_CHARGE_MEASURED] +
		 k->added[LIMIT_CHARGE_BELIEVED],
		 k->added[LIMIT_CHARGE_MEASURED],
		 k->added[LIMIT_CHARGE_BELIEVED]);
	if (!had || strcmp(old, word))
		set_comment(job_ptr, had ? old : "", word);
}

/* seconds added since start, by basis (the agent thread's only) */
static unsigned long added_total[2];

void amcbf_charge_totals(unsigned long *measured, unsigned long *believed)
{
	*measured = added_total[LIMIT_CHARGE_MEASURED];
	*believed = added_total[LIMIT_CHARGE_BELIEVED];
}

void amcbf_charge(amcbf_known_t *k, job_record_t *job_ptr, double now,
		  const dfrs_params_t *params)
{
	double dt = vclock_charge(&k->vt, &k->tick, now, k->yield, k->running);
	limit_charge_in_t in = { .background = k->tier == SCHED_TIER_BG,
				 .yield = k->yield };
	limit_charge_basis_t basis;
	double denied;
	time_t whole;

	if (!k->running || !IS_JOB_RUNNING(job_ptr) ||
	    job_ptr->time_limit == INFINITE || job_ptr->time_limit == NO_VAL ||
	    !job_ptr->end_time || dt < 0 || job_ptr->preempt_time) {
		/* what was paid ahead was for a run that is over (a requeue
		 * starts the next with a fresh limit); a job in its
		 * GraceTime keeps the end Slurm's preemption gave it */
		k->limit = (limit_charge_t){ 0 };
		if (IS_JOB_PENDING(job_ptr)) {
			k->added[0] = k->added[1] = 0;
			show_added(k, job_ptr, true);
		}
		return;
	}
	/* the CPU it received, by its nodes' agents, against what it would
	 * have had alone; the tier or yield it was given where nothing
	 * fresh was measured */
	amcbf_received(job_ptr, params, (time_t)now, &in);
	if (in.measured)
		in.alone = amcbf_needs_alone(job_ptr, params);
	denied = limit_charge_denied(&in, &basis);
	whole = limit_charge_step(&k->limit, denied, dt,
				  params->interval > 0 ? params->interval : 0);
	if (!whole)
		return;
	{
		time_t cap = params->extend_past_limits ? 0 :
			     dfrs_job_end_cap(job_ptr, job_ptr->start_time);
		time_t moved = limit_cap_move(job_ptr->end_time, whole, cap);

		if (moved < job_ptr->end_time + whole)
			debug("%pJ: end time held at %ld by its partition's MaxTime / QOS MaxWall (amcbf_extend_past_limits=0)",
			      job_ptr, (long)moved);
		whole = moved - job_ptr->end_time;
		job_ptr->end_time = moved;
	}
	/* a --deadline stays: the limit was cut to it at start */
	if (job_ptr->deadline && job_ptr->deadline != NO_VAL &&
	    job_ptr->end_time > job_ptr->deadline) {
		time_t end = MAX(job_ptr->deadline, job_ptr->end_time - whole);
		whole -= job_ptr->end_time - end;
		job_ptr->end_time = end;
	}
	if (whole <= 0)
		return;
	k->added[basis] += whole;
	added_total[basis] += (unsigned long)whole;
	show_added(k, job_ptr, false);
	if (basis == LIMIT_CHARGE_MEASURED)
		debug("%pJ: %ld s added to its time limit (end time now %ld): it used %.2f of its CPUs, %.2f alone, %s, over the last %.0f s (paid %d s ahead)",
		      job_ptr, (long)whole, (long)job_ptr->end_time, in.used,
		      in.alone, in.shared ? "beside other jobs" :
		      "alone on its nodes", dt, params->interval);
	else
		debug("%pJ: %ld s added to its time limit (end time now %ld): no fresh measurement of its nodes, %s, over the last %.0f s (paid %d s ahead)",
		      job_ptr, (long)whole, (long)job_ptr->end_time,
		      in.background ? "background tier" :
		      in.yield < 0 ? "no yield known" : "at its DFRS yield",
		      dt, params->interval);
}

double amcbf_stretch(job_record_t *job_ptr, const amcbf_known_t *k,
		     time_t now)
{
	return dfrs_priority_value(DFRS_PRIO_FT_VT2,
				   (double)(k->submit ? k->submit :
					    job_ptr->details->submit_time),
				   k->vt, k->tick ? k->tick : (double)now);
}

double amcbf_note_pending(amcbf_memory_t *mem, amcbf_known_t *k,
			  job_record_t *job_ptr, bool show_priority,
			  time_t now)
{
	double stretch = amcbf_stretch(job_ptr, k, now);

	amcbf_policy_note_pending(job_ptr);

	/* said for the whole job, at its leader (component 0) */
	if (job_ptr->het_job_id && job_ptr->het_job_offset == 0 &&
	    !k->said_unsupported) {
		error("%pJ is part of heterogeneous job %u: sched/amcbf does not start heterogeneous jobs, it stays pending (cancel it and submit its components as separate jobs)",
		      job_ptr, job_ptr->het_job_id);
		k->said_unsupported = 1;
	}
	amcbf_unsupported_show(job_ptr, now);

	/* kept current even while it may not start yet (held jobs keep
	 * priority 0) */
	if (show_priority && job_ptr->priority != 0)
		job_ptr->priority = amcbf_slurm_priority(stretch);
	/* a requeued job may start again at its begin time: wake up then,
	 * not at the next periodic cycle */
	if (job_ptr->details->begin_time > now &&
	    (!mem->next_wake || job_ptr->details->begin_time < mem->next_wake))
		mem->next_wake = job_ptr->details->begin_time;
	return stretch;
}
