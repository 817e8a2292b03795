/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_dfrs.h - sched/amcbf's amcbf_mode=dfrs: the online, non-clairvoyant
 * DFRS policies of Stillwell et al. 2010 (GreedyP, GreedyPM, MCB; src/common/
 * dfrs_online.h, the code dfrs sim runs) deciding which jobs run where in
 * slurmctld, select/dfrs sharing the nodes by yields.
 */
#ifndef DFRS_AMCBF_DFRS_H
#define DFRS_AMCBF_DFRS_H

#include "amcbf_jobs.h"
#include "suite/dfrs_params.h"

/*
 * Run one cycle with slurmctld's locks taken inside (not held while the
 * policy decides).  Returns the number of
 * actions taken (starts and requeues).
 */
int amcbf_dfrs_cycle(amcbf_memory_t *mem, const dfrs_params_t *params);

#endif
