/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement_algorithm.h - every static DFRS placement algorithm by name
 * (Stillwell et al. 2010, "Algorithms"): the one entry point dfrs pack and select/dfrs
 * use to run vector packing (metavp.h) or the greedy heuristics
 * (metagreedy.h).
 *
 *   METAVP       best of the 14 VP_* algorithms (default, equal hosts)
 *   METAHVP      best of the 28 HVP_* algorithms (default, unequal hosts)
 *   METAGREEDY   best of the 49 GREEDY_S<1..7>_P<1..7>
 *   VP_FFSUM ... VP_CPMAX, HVP_FFSUM_L ... HVP_CPMAX_S, GREEDY_Sx_Py
 */
#ifndef DFRS_PLACEMENT_ALGORITHM_H
#define DFRS_PLACEMENT_ALGORITHM_H

#include <stddef.h>

#include "dfrs_model.h"

/* The default for an instance: METAVP, or METAHVP when hosts differ. */
const char *placement_algorithm_default(const dfrs_instance_t *inst);

/* 1 if name is a known algorithm. */
int placement_algorithm_known(const char *name);

/* Write every algorithm name, one per line. */
void placement_algorithm_list(void (*emit)(const char *name, void *arg), void *arg);

/*
 * Run algorithm name (NULL: the default) on inst.  winner (if not NULL)
 * receives the name of the algorithm that produced the placement (the
 * chosen one inside a META algorithm).  Returns 0 with out filled, 1 when
 * the instance could not be placed (*failed_job: a job that could not be
 * placed at its minimum yield; out is allocated, nothing placed), -1 with a
 * message in err (unknown algorithm, out of memory; out not allocated).
 */
int placement_algorithm_run(const dfrs_instance_t *inst, const char *name,
	       dfrs_placement_t *out, char *winner, size_t winner_len,
	       int *failed_job, char *err, size_t errlen);

#endif
