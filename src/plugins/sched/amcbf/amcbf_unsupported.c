/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_unsupported.c - the pending reason of jobs sched/amcbf does not
 * start (amcbf_unsupported.h).
 */
#include "src/common/slurm_xlator.h"

#include <time.h>

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_unsupported.h"

#define HET_DESC "sched/amcbf does not start heterogeneous jobs: submit the components as separate jobs"

void amcbf_unsupported_show(job_record_t *job_ptr, time_t now)
{
	if (!job_ptr->het_job_id || !xstrcmp(job_ptr->state_desc, HET_DESC))
		return;
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup(HET_DESC);
	last_job_update = now;
}
