/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_sdiag.h - sched/amcbf's cycles in slurmctld's scheduler statistics
 * (the backfill block of slurmctld_diag_stats that sdiag, sdiag --json and
 * Slurm's /metrics/scheduler report), taken as sched/backfill takes them:
 * the running flag under check_bf_running_lock around the cycle, the
 * counters under the job write lock after it.  What goes into which
 * counter is suite/sched_diag.h's.
 */
#ifndef DFRS_AMCBF_SDIAG_H
#define DFRS_AMCBF_SDIAG_H

#include <stdbool.h>

#include "suite/sched_diag.h"

/* Around a cycle, with no slurmctld lock held. */
void amcbf_sdiag_begin(void);
void amcbf_sdiag_end(void);

/* Count the cycle c in; takes the job write lock (none may be held). */
void amcbf_sdiag_count(const sched_diag_cycle_t *c);

#endif
