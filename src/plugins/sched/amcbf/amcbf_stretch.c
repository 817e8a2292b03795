/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_stretch.c - a job's DFRS stretch, virtual time and time limit as
 * sched/amcbf keeps them (amcbf_stretch.h; Stillwell et al. 2010).
 */
#include "src/common/slurm_xlator.h"

#include <math.h>
#include <stdbool.h>
#include <time.h>

#include "src/common/log.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_stretch.h"
#include "amcbf_policy.h"
#include "amcbf_unsupported.h"
#include "dfrs/dfrs_priority.h"
#include "amcbf/limit_cap.h"
#include "amcbf/vclock.h"

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

void amcbf_charge(amcbf_known_t *k, job_record_t *job_ptr, double now,
		  const dfrs_params_t *params)
{
	int horizon = params->interval;
	double dt = vclock_charge(&k->vt, &k->tick, now, k->yield, k->running);
	/* the background is charged nothing: what a job gets there depends
	 * on what its foreground neighbours leave and on how well it runs
	 * beside them, which is not measured here (k->yield is the most it
	 * may get); a DFRS yield is a CPU share the node agents enforce */
	double denied = k->tier == SCHED_TIER_BG || k->yield < 0 ? 1 :
			k->yield > 1 ? 0 : 1 - k->yield;
	time_t whole;

	if (!k->running || !IS_JOB_RUNNING(job_ptr) ||
	    job_ptr->time_limit == INFINITE || job_ptr->time_limit == NO_VAL ||
	    !job_ptr->end_time || dt < 0 || job_ptr->preempt_time) {
		/* what was paid ahead was for a run that is over (a requeue
		 * starts the next with a fresh limit); a job in its
		 * GraceTime keeps the end Slurm's preemption gave it */
		k->limit_owed = k->limit_ahead = 0;
		return;
	}
	/* the time since the last charge, less what was paid ahead for it,
	 * plus the time until the next cycle at today's yield: Slurm checks
	 * time limits between the plugin's cycles */
	k->limit_owed += denied * dt - k->limit_ahead;
	k->limit_ahead = denied * (horizon > 0 ? horizon : 0);
	k->limit_owed += k->limit_ahead;
	whole = (time_t)k->limit_owed;	/* towards 0 */
	if (!whole)
		return;
	k->limit_owed -= (double)whole;
	{
		time_t cap = params->extend_past_limits ? 0 :
			     amcbf_policy_end_cap(job_ptr);
		time_t moved = limit_cap_move(job_ptr->end_time, whole, cap);

		if (moved < job_ptr->end_time + whole)
			debug("%pJ: end time held at %ld by its partition's MaxTime / QOS MaxWall (amcbf_extend_past_limits=0)",
			      job_ptr, (long)moved);
		whole = moved - job_ptr->end_time;
		job_ptr->end_time = moved;
	}
	/* a --deadline stays: the limit was cut to it at start */
	if (job_ptr->deadline && job_ptr->deadline != NO_VAL &&
	    job_ptr->end_time > job_ptr->deadline)
		job_ptr->end_time = MAX(job_ptr->deadline,
					job_ptr->end_time - whole);
	debug2("%pJ: yield %.2f: time limit moved by %ld s, end time now %ld",
	       job_ptr, k->yield, (long)whole, (long)job_ptr->end_time);
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
