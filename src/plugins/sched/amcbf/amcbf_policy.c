/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_policy.c - the policy checks of Slurm's main scheduler
 * (job_scheduler.c _schedule() and _job_runnable_test2() in 22.05) that
 * select_nodes() does not repeat.  sched/amcbf owns job starts
 * (sched_interval=-1), so it makes them itself, in the read phase (a job
 * that fails one is not given to the engine: it is neither started nor
 * preempted for) and again just before its start (amcbf_startable).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_policy.h"
#include "amcbf_resv.h"

void amcbf_set_reason(job_record_t *job_ptr, uint32_t reason, time_t now)
{
	if (job_ptr->state_reason == reason)
		return;
	job_ptr->state_reason = reason;
	xfree(job_ptr->state_desc);
	last_job_update = now;
}

/* Partition state and limits, as _job_runnable_test2() applies them. */
static bool partition_ok(job_record_t *job_ptr, time_t now)
{
	uint32_t reason = job_limits_check(&job_ptr, false);

	if (reason != WAIT_NO_REASON) {
		amcbf_set_reason(job_ptr, reason, now);
		return false;
	}
	/* AllowGroups: 22.05's job_limits_check tests it (PartitionConfig);
	 * 24.11's only with EnforcePartLimits, and select_nodes() then
	 * refuses the job with reason InvalidAccount: test it here too, so
	 * that the engine never preempts for a job Slurm will not start */
	if (job_ptr->part_ptr &&
	    !validate_group(job_ptr->part_ptr, job_ptr->user_id)) {
		if (job_ptr->state_reason != WAIT_ACCOUNT) {
			amcbf_set_reason(job_ptr, WAIT_ACCOUNT, now);
			xstrfmtcat(job_ptr->state_desc,
				   "uid %u not in group permitted to use this partition (%s). groups allowed: %s",
				   job_ptr->user_id, job_ptr->part_ptr->name,
				   job_ptr->part_ptr->allow_groups);
		}
		return false;
	}
	/* a reason this check gave earlier is over (the reasons 22.05's
	 * part_policy_job_runnable_state() and 24.11's JSR_PART name) */
	switch (job_ptr->state_reason) {
	case WAIT_PART_DOWN:
	case WAIT_PART_INACTIVE:
	case WAIT_PART_NODE_LIMIT:
	case WAIT_PART_TIME_LIMIT:
	case WAIT_QOS_THRES:
		amcbf_set_reason(job_ptr, WAIT_NO_REASON, now);
		break;
	default:
		break;
	}
	return true;
}

/* The QOS is still one the association may use (AccountingStorageEnforce
 * with qos); if not, the job pends with reason InvalidQOS (job_fail_qos),
 * as after the main scheduler's "valid QOS on each pass" test. */
static bool qos_ok(job_record_t *job_ptr, time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	bool bad;

	if (!job_ptr->qos_id || !(accounting_enforce & ACCOUNTING_ENFORCE_QOS))
		return true;
	assoc_mgr_lock(&locks);
	bad = job_ptr->assoc_ptr && !job_ptr->limit_set.qos &&
	      (job_ptr->qos_id >= g_qos_count || !job_ptr->assoc_ptr->usage ||
	       !job_ptr->assoc_ptr->usage->valid_qos ||
	       !bit_test(job_ptr->assoc_ptr->usage->valid_qos, job_ptr->qos_id));
	assoc_mgr_unlock(&locks);
	if (bad) {
		if (job_ptr->state_reason != FAIL_QOS) {
			info("%pJ: its QOS is no longer allowed for its association: pending with reason InvalidQOS",
			     job_ptr);
			job_fail_qos(job_ptr, __func__, false);
			last_job_update = now;
		}
		return false;
	}
	if (job_ptr->state_reason == FAIL_QOS)
		amcbf_set_reason(job_ptr, WAIT_NO_REASON, now);
	return true;
}

bool amcbf_policy_ok(job_record_t *job_ptr, time_t now)
{
	if (!partition_ok(job_ptr, now) || !qos_ok(job_ptr, now) ||
	    !IS_JOB_PENDING(job_ptr))
		return false;
	/* its reservation: access, window (reason Reservation) */
	if (!amcbf_resv_ok(job_ptr, now))
		return false;
	/* QOS and association limits (MaxJobs, GrpJobs, MaxWall, ...), and
	 * the TRES ones (GrpTRES, MaxTRESPerUser, ...) on what the job asked
	 * for: before a victim is chosen for it, not only at its start */
	if (!acct_policy_job_runnable_pre_select(job_ptr, false))
		return false;
	if (job_ptr->tres_req_cnt &&
	    !acct_policy_job_runnable_post_select(job_ptr, job_ptr->tres_req_cnt,
						  false))
		return false;
	if (license_job_test(job_ptr, now, true) != SLURM_SUCCESS) {
		amcbf_set_reason(job_ptr, WAIT_LICENSES, now);
		return false;
	}
	/* without associations enforced the call always succeeds (after
	 * refreshing the lists when there are none: not worth a cycle) */
	if ((accounting_enforce & ACCOUNTING_ENFORCE_ASSOCS) &&
	    assoc_mgr_validate_assoc_id(acct_db_conn, job_ptr->assoc_id,
					accounting_enforce)) {
		amcbf_set_reason(job_ptr, FAIL_ACCOUNT, now);
		return false;
	}
	return true;
}

void amcbf_policy_note_pending(job_record_t *job_ptr)
{
	set_job_failed_assoc_qos_ptr(job_ptr);
	acct_policy_handle_accrue_time(job_ptr, false);
}
