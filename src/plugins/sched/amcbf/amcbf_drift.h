/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_drift.h - sched/amcbf's drift guard against the pathology of
 * the sharing policies (stretch_drift.h): after each cycle, with no lock held, the running jobs
 * the plugin remembers (amcbf_memory_t: virtual time, running) are fed to
 * the detector of src/common/amcbf/stretch_drift.h, which compares their
 * mean run stretch (Stillwell et al. 2010's stretch, Section 2, counted
 * from each job's first start) with the last amcbf_drift_window seconds'.
 * One info line when the workload drifts (mode, both means, the factor,
 * what the administrator can do), one when it comes back.  Only the
 * agent thread calls these.
 */
#ifndef DFRS_AMCBF_DRIFT_H
#define DFRS_AMCBF_DRIFT_H

#include <stdbool.h>
#include <time.h>

#include "amcbf_memory.h"
#include "suite/dfrs_params.h"

/* The settings in force (at start and at each reconfiguration): a new
 * amcbf_drift_window, _factor or _min_work starts the guard afresh. */
void amcbf_drift_configure(const dfrs_params_t *params);

/* After a cycle (no lock held): the running jobs of mem at time now. */
void amcbf_drift_cycle(const amcbf_memory_t *mem,
		       const dfrs_params_t *params, time_t now);

/* For the stats line: drifts entered since the plugin started, and
 * whether one is under way. */
unsigned long amcbf_drift_entries(void);
bool amcbf_drift_active(void);

void amcbf_drift_fini(void);

#endif
