/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_job_cap.h - the caps on a Slurm job's end time (its partition's
 * MaxTime, its QOS's MaxWall, its --deadline) as sched/amcbf and
 * select/dfrs read them: how far sched/amcbf may move a running job's end
 * time for the CPU it was denied, and whether a job may be slowed at all
 * (amcbf/limit_cap.h; Liu et al. 2013, Sec. III, Stillwell et al. 2010,
 * Sec. 5: a job is measured by its progress).  Call with slurmctld's job
 * lock held; takes the assoc_mgr QOS read lock.
 */
#ifndef DFRS_JOB_CAP_H
#define DFRS_JOB_CAP_H

#include <stdbool.h>
#include <time.h>

#include "suite/dfrs_params.h"

/*
 * The latest end time a job that started (or would start) at `start` may
 * be given (limit_cap_end): start plus its suspended time plus the smaller
 * of its partition's MaxTime and its QOS's MaxWall; 0 when neither is set.
 */
time_t dfrs_job_end_cap(job_record_t *job_ptr, time_t start);

/*
 * May the job be slowed by `slowdown` (the largest part of its run it may
 * be denied: 1 in the background tier, 1 - its minimum yield under DFRS)?
 * False when its caps (MaxTime and MaxWall unless
 * amcbf_extend_past_limits=1; a --deadline always) leave its end time
 * less room than that part of what it has left to run (a pending job: its
 * whole time limit from now): it is to run in the foreground at full
 * yield.  True for a job without a time limit.
 */
bool dfrs_job_may_slow(job_record_t *job_ptr, const dfrs_params_t *params,
		       double slowdown, time_t now);

#endif
