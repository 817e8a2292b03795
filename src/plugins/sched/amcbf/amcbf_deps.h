/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_deps.h - singleton dependencies tested once per read phase.
 *
 * Between amcbf_deps_begin() and amcbf_deps_end() (slurmctld's job lock
 * held throughout) amcbf_deps_waiting() tells, from an index built in one
 * pass over the job records (amcbf/singleton_index.h), that a job whose
 * dependencies are all singleton ones still waits for them: what
 * job_independent() would conclude after scanning every record.  Outside
 * that window it answers false, and callers ask job_independent().
 */
#ifndef DFRS_AMCBF_DEPS_H
#define DFRS_AMCBF_DEPS_H

#include <stdbool.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/* Build the index (job lock held). */
void amcbf_deps_begin(void);
void amcbf_deps_end(void);
/*
 * True when job_ptr waits for a singleton dependency, as job_independent()
 * already found (its reason is Dependency) and still would: every one of
 * its dependencies is a local singleton not yet fulfilled, and a job of
 * the same user and name runs, is suspended or pends with a smaller id.
 * Does what job_independent() does to such a job (its begin time, once
 * past, is cleared).  A job that ended during the read phase may leave
 * its successor waiting one cycle more.
 */
bool amcbf_deps_waiting(job_record_t *job_ptr);
#endif

/* Index lookups that spared a scan of the job records, since load. */
unsigned long amcbf_deps_spared(void);

#endif
