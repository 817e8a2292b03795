/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_suspend.c - suspend and resume jobs for the availability policy,
 * with the AdminComment mark that finds them again (amcbf_suspend.h; the
 * text handling is src/common/amcbf/text_mark.c).  A job is suspended as
 * gang scheduling suspends (indf_susp false): it keeps its nodes, so
 * nothing else starts there and its resume never finds them taken; a
 * resumed job gets back the time it had left, extension included
 * (limit_cap_resume).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_locks.h"
#include "amcbf_suspend.h"
#include "amcbf/limit_cap.h"
#include "amcbf/text_mark.h"

/* Set or clear the mark; false when out of memory (logged). */
static bool set_mark(job_record_t *job_ptr, bool on)
{
	char *text = NULL;
	int rc = on ? text_mark_add(job_ptr->admin_comment, AMCBF_SUSPEND_MARK, &text) :
		text_mark_remove(job_ptr->admin_comment, AMCBF_SUSPEND_MARK, &text);

	if (rc) {
		error("%pJ: out of memory marking its AdminComment", job_ptr);
		return false;
	}
	xfree(job_ptr->admin_comment);
	job_ptr->admin_comment = text ? xstrdup(text) : NULL;
	free(text);
	last_job_update = time(NULL);	/* saved with the job's state */
	return true;
}

static int suspend_op(job_record_t *job_ptr, uint16_t op)
{
	suspend_msg_t msg = DFRS_SUSPEND_MSG(op, job_ptr);

	return job_suspend(&msg, slurm_conf.slurm_user_id, -1, false,
			   SLURM_PROTOCOL_VERSION);
}

int amcbf_suspend_job(job_record_t *job_ptr)
{
	int rc;

	/* marked first: the mark must never be missing on a suspended job */
	if (!set_mark(job_ptr, true))
		return ESLURM_INTERNAL;
	if ((rc = suspend_op(job_ptr, SUSPEND_JOB)))
		set_mark(job_ptr, false);
	return rc;
}

int amcbf_resume_job(job_record_t *job_ptr)
{
	time_t end_before = job_ptr->end_time;
	time_t suspended_at = job_ptr->suspend_time;
	int rc = suspend_op(job_ptr, RESUME_JOB);

	if (rc)
		return rc;
	set_mark(job_ptr, false);
	/* Slurm's resume set now + time limit - run so far: the time
	 * amcbf_charge had added for CPU the job was denied comes back */
	if (job_ptr->time_limit != INFINITE && job_ptr->time_limit != NO_VAL &&
	    !job_ptr->preempt_time && suspended_at && end_before) {
		time_t deadline = job_ptr->deadline != NO_VAL ? job_ptr->deadline : 0;
		time_t end = limit_cap_resume(time(NULL), job_ptr->end_time, end_before,
					      suspended_at, deadline);

		if (end != job_ptr->end_time) {
			info("%pJ: resumed with end time %ld, %ld s after Slurm's resume's: the time added to its limit for CPU it was denied before its suspension",
			     job_ptr, (long)end, (long)(end - job_ptr->end_time));
			job_ptr->end_time = end;
		}
	}
	return 0;
}

bool amcbf_suspend_marked(job_record_t *job_ptr)
{
	return text_mark_has(job_ptr->admin_comment, AMCBF_SUSPEND_MARK);
}

void amcbf_suspend_mark(job_record_t *job_ptr)
{
	if (!amcbf_suspend_marked(job_ptr))
		set_mark(job_ptr, true);
}

void amcbf_suspend_unmark(job_record_t *job_ptr)
{
	if (amcbf_suspend_marked(job_ptr))
		set_mark(job_ptr, false);
}

int amcbf_resume_marked(const char *why)
{
	amcbf_hold_t h = { .locks = { .job = WRITE_LOCK, .node = WRITE_LOCK,
				      .fed = READ_LOCK },
			   .phase = AMCBF_PHASE_AVAIL };
	ListIterator it;
	job_record_t *job_ptr;
	int resumed = 0, rc;

	amcbf_hold_lock(&h);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (!amcbf_suspend_marked(job_ptr))
			continue;
		if (!IS_JOB_SUSPENDED(job_ptr)) {
			amcbf_suspend_unmark(job_ptr);
			continue;
		}
		if ((rc = amcbf_resume_job(job_ptr))) {
			error("availability: could not resume %pJ: %s", job_ptr,
			      slurm_strerror(rc));
			continue;
		}
		info("availability: resumed %pJ: %s", job_ptr, why);
		resumed++;
	}
	list_iterator_destroy(it);
	amcbf_hold_unlock(&h);
	return resumed;
}
