/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_mcb.h - the MCB decision and the periodic repack (Stillwell et al. 2010, "Use
 * of Priority": "if no valid solution can be found for any yield value,
 * remove the lowest priority task and try again"; "When to apply
 * Heuristics": periodically).  Internal to dfrs_online.c; the policy is
 * described in dfrs_online.h.
 */
#ifndef DFRS_ONLINE_MCB_H
#define DFRS_ONLINE_MCB_H

#include "online_state.h"

/*
 * Repack every job of w with METAVP (METAHVP on unequal hosts), pinning the
 * jobs that may not migrate, dropping the lowest priority until a packing
 * exists.  Updates w->state and w->hosts; 0, or -1 on out of memory.
 */
int online_mcb_repack(online_state_t *w);

#endif
