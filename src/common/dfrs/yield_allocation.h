/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yield_allocation.h - yields for a fixed placement (Stillwell et al. 2010, "Resource
 * Allocation": "once tasks are placed on nodes we iteratively maximize the
 * minimum yield").
 *
 * Progressive filling over scaled yields: all placed jobs rise together
 * from their minimum yield; when a host dimension (aggregate capacity) or a
 * task's elementary capacity becomes full, the jobs using it there stop at
 * that level; the others keep rising with the capacity left over, up to
 * yield 1.  The first level reached is the largest possible minimum scaled
 * yield for this placement; the later levels give leftover capacity to the
 * jobs that can use it.
 */
#ifndef DFRS_YIELD_ALLOCATION_H
#define DFRS_YIELD_ALLOCATION_H

#include "dfrs_model.h"

/*
 * Fill p->yield for every placed job (a job is placed when its first task
 * has a host) and p->min_scaled_yield; unplaced jobs get yield 0.  Returns
 * 0, or -1 when the placed jobs do not fit even at their minimum yields.
 */
int yield_allocation_compute(const dfrs_instance_t *inst, dfrs_placement_t *p);

#endif
