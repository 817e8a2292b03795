/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_dispatch.h - Liu et al.'s dispatch(FG|BG, j): matching processes to
 * nodes by CPU usage.  See sched_dispatch.c.
 */
#ifndef DFRS_SCHED_DISPATCH_H
#define DFRS_SCHED_DISPATCH_H

#include "sched_engine.h"

/*
 * Place job j (queued, or lifted from bg with its previous bg allocation in
 * old[]) on idle fg nodes, leaving the places `hold` holds alone (NULL:
 * none); evicts bg jobs that its processes leave no room for.  0; 1 if it
 * does not fit there (on hosts: sched_fit) and nothing changed; -1 if
 * there are not enough idle fg nodes or memory runs out.
 */
int sched_dispatch_fg(sched_state_t *st, const sched_config_t *cfg,
		      sched_decisions_t *out, size_t j, const int *old,
		      const sched_hold_t *hold);

/* Place queued job j on eligible bg slots: 0; 1 if not admitted (it is
 * fg_only, or its predicted rate there, sched_bg_predicted_rate, is under
 * cfg->bg_min_rate) or, on hosts, it does not fit (sched_fit); -1 if not
 * enough of them or out of memory. */
int sched_dispatch_bg(sched_state_t *st, const sched_config_t *cfg,
		      sched_decisions_t *out, size_t j);

#endif
