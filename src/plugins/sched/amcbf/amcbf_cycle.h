/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_cycle.h - one scheduling cycle of sched/amcbf inside slurmctld:
 * slurmctld's jobs and nodes into the view of the configured mode's
 * decider (the consolidation engine's state, src/common/sched/
 * sched_engine.h, or the online DFRS policy's cluster, dfrs_online.h), its
 * decisions back into job starts, requeues and tier changes.
 */
#ifndef DFRS_AMCBF_CYCLE_H
#define DFRS_AMCBF_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "amcbf_avail.h"
#include "amcbf_memory.h"
#include "suite/dfrs_params.h"
#include "suite/sched_diag.h"

/*
 * Run one cycle of the configured mode (amcbf_mode: the engine's, or
 * DFRS's) with slurmctld's locks taken inside (held only while the state
 * is read and the decisions applied, not while the decider decides).
 * Returns the number of actions taken; diag gets the cycle's start, the
 * pending jobs it found, read and decided on (its time and starts are the
 * caller's to fill).  In the engine modes, nodes the
 * availability policy finds OFF are kept free, and jobs asking for
 * availability (dfrs:avail=) prefer nodes by it.
 */
int amcbf_cycle(amcbf_memory_t *mem, const dfrs_params_t *params,
		const amcbf_avail_t *avail, sched_diag_cycle_t *diag);

/*
 * Can jobs be tiered (a fg and a bg job on one CPU)?  Needs select/cons_tres
 * or select/dfrs and a partition with OverSubscribe=FORCE:N or YES:N,
 * N >= 2 (under YES:N only jobs that asked pair).  Call with the part
 * lock.
 */
bool amcbf_tiers_possible(void);

#endif
