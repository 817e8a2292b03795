/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_job_cap.c - a Slurm job's end-time caps for sched/amcbf and
 * select/dfrs (dfrs_job_cap.h): its records handed to amcbf/limit_cap.c.
 */
#include "src/common/slurm_xlator.h"

#include "src/common/assoc_mgr.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "dfrs_job_cap.h"
#include "amcbf/limit_cap.h"

/* A limit in minutes as limit_cap_end takes it: 0 when unset. */
static uint32_t minutes(uint32_t m)
{
	return (m == INFINITE || m == NO_VAL) ? 0 : m;
}

time_t dfrs_job_end_cap(job_record_t *job_ptr, time_t start)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	uint32_t part_max = job_ptr->part_ptr ?
			    minutes(job_ptr->part_ptr->max_time) : 0;
	uint32_t qos_max = 0;

	assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr)
		qos_max = minutes(job_ptr->qos_ptr->max_wall_pj);
	assoc_mgr_unlock(&locks);
	return limit_cap_end(start, job_ptr->tot_sus_time, part_max, qos_max);
}

bool dfrs_job_may_slow(job_record_t *job_ptr, const dfrs_params_t *params,
		       double slowdown, time_t now)
{
	bool running = IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr);
	time_t start = running ? job_ptr->start_time : now;
	time_t end, cap, deadline = 0;

	if (!minutes(job_ptr->time_limit))
		return true;
	end = running && job_ptr->end_time ? job_ptr->end_time :
	      now + 60 * (time_t)job_ptr->time_limit;
	cap = params->extend_past_limits ? 0 : dfrs_job_end_cap(job_ptr, start);
	if (job_ptr->deadline && job_ptr->deadline != NO_VAL)
		deadline = job_ptr->deadline;
	return limit_cap_may_slow(difftime(end, now > start ? now : start),
				  limit_cap_room(end, cap, deadline),
				  slowdown);
}
