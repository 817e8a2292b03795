/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_policy.h - the checks Slurm's main scheduler makes before a start
 * that select_nodes() does not make (amcbf_policy.c).
 */
#ifndef DFRS_AMCBF_POLICY_H
#define DFRS_AMCBF_POLICY_H

#include <stdbool.h>
#include <time.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/*
 * May this pending job start now as far as the site's policy goes:
 * partition state and limits (job_limits_check: DOWN, INACTIVE, MaxTime,
 * node limits, AllowGroups/RootOnly, MaxMemPer*), QOS access when
 * AccountingStorageEnforce has qos (a revoked QOS keeps the job pending
 * with reason InvalidQOS, as the main scheduler does), its association, QOS and
 * association limits before node selection (acct_policy pre/post select,
 * the latter on the job's requested TRES) and licenses (license_job_test).
 * False sets the job's pending reason as Slurm's scheduler sets it.  With
 * slurmctld's job write lock and partition read lock held.
 */
bool amcbf_policy_ok(job_record_t *job_ptr, time_t now);
/*
 * What the main scheduler does for every pending job when it builds its
 * queue: the association and QOS pointers of a job whose were lost are
 * looked up again, and its accrue time (the age factor of
 * priority/multifactor, MaxJobsAccrue) is set.
 */
void amcbf_policy_note_pending(job_record_t *job_ptr);
/* Set a pending job's reason, and clear its description, when it changes
 * (then last_job_update = now).  With the job write lock held. */
void amcbf_set_reason(job_record_t *job_ptr, uint32_t reason, time_t now);
#endif

#endif
