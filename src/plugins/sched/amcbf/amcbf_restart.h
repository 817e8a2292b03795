/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_restart.h - sched/amcbf's state across slurmctld restarts, in
 * StateSaveLocation/amcbf-state.json (format: src/common/suite/
 * amcbf_state.h): the last good SchedulerParameters, each job's virtual
 * time and whether its arrival was decided, the nodes a job amcbf_mode=dfrs
 * suspended resumes on, the last periodic DFRS event.  Written through a
 * temporary file renamed over it, with no slurmctld lock held but the node
 * read lock while node indices become names.
 */
#ifndef DFRS_AMCBF_RESTART_H
#define DFRS_AMCBF_RESTART_H

#include <stdbool.h>

#include "amcbf_memory.h"

#define AMCBF_RESTART_FILE "amcbf-state.json"

/*
 * Read the file into mem (jobs, last periodic event) and return the last
 * good SchedulerParameters it holds (xmalloc'ed), or NULL.  A missing file
 * is a first start; a corrupt one is one error line saying what and where,
 * and nothing is restored.  Takes the node read lock itself.
 */
char *amcbf_restart_load(amcbf_memory_t *mem);

/* Write the file: params (the last good SchedulerParameters, or NULL) and
 * mem.  0, or -1 (logged). */
int amcbf_restart_save(const amcbf_memory_t *mem, const char *params);

#endif
