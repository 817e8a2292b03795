/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_bb.c - burst-buffer stage-ins begun each cycle, as sched/backfill
 * does (amcbf_bb.h).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <time.h>

#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"
#if DFRS_SLURM_SINCE(24, 11)
#include "src/interfaces/burst_buffer.h"
#else
#include "src/slurmctld/burst_buffer.h"
#endif

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_bb.h"
#include "amcbf_policy.h"

static bool staging;	/* a stage-in under way, seen in this read */

void amcbf_bb_cycle(void)
{
	staging = false;
	if (!slurm_conf.bb_type || !slurm_conf.bb_type[0])
		return;
	(void)bb_g_load_state(false);
	(void)bb_g_job_try_stage_in();
}

/* The job's reason while it waits for its burst buffer: resources, then
 * staging once the stage-in has begun, as Slurm's main scheduler sets it;
 * a reason of anything else (a hold, a dependency) is left alone. */
static void set_bb_reason(job_record_t *job_ptr, enum job_state_reason want)
{
	enum job_state_reason now = job_ptr->state_reason;

	if (now == WAIT_NO_REASON || now == WAIT_BURST_BUFFER_RESOURCE ||
	    now == WAIT_BURST_BUFFER_STAGING)
		amcbf_set_reason(job_ptr, want, time(NULL));
}

bool amcbf_bb_ready(job_record_t *job_ptr)
{
	int bb;

	if (!slurm_conf.bb_type || !slurm_conf.bb_type[0] ||
	    !job_ptr->burst_buffer)
		return true;
	bb = bb_g_job_test_stage_in(job_ptr, false);
	if (bb == 0)
		staging = true;
	if (bb != 1)
		set_bb_reason(job_ptr, bb == 0 ? WAIT_BURST_BUFFER_STAGING :
				       WAIT_BURST_BUFFER_RESOURCE);
	return bb == 1;
}

void amcbf_bb_wake(time_t *next_wake, time_t now)
{
	if (staging && (!*next_wake || *next_wake > now + 1))
		*next_wake = now + 1;
}
