/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_deps.c - singleton dependencies without a scan of every job record
 * per pending job (amcbf_deps.h).  Slurm 22.05's test_job_dependency()
 * looks for a blocking job with list_find_first() over job_list for each
 * singleton test, so a read phase over n pending singleton jobs costs
 * O(n^2) under slurmctld's write locks; with the index it is O(n log n).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <time.h>

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_deps.h"
#include "amcbf/singleton_index.h"

static singleton_index_t *index_now;
static unsigned long spared;

/* Does any job depend on a singleton at all?  If not, no index. */
static bool has_singleton(job_record_t *job_ptr)
{
	depend_spec_t *dep;
	ListIterator it;
	bool found = false;

	if (!job_ptr->details || !job_ptr->details->depend_list)
		return false;
	it = list_iterator_create(job_ptr->details->depend_list);
	while ((dep = list_next(it)) && !found)
		found = dep->depend_type == SLURM_DEPEND_SINGLETON;
	list_iterator_destroy(it);
	return found;
}

void amcbf_deps_begin(void)
{
	ListIterator it;
	job_record_t *job_ptr;
	bool any = false;

	amcbf_deps_end();
	it = list_iterator_create(job_list);
	while (!any && (job_ptr = list_next(it)))
		any = IS_JOB_PENDING(job_ptr) && has_singleton(job_ptr);
	list_iterator_destroy(it);
	if (!any || !(index_now = singleton_index_new()))
		return;
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		singleton_state_t state;
		if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr))
			state = SINGLETON_ACTIVE;
		else if (IS_JOB_PENDING(job_ptr))
			state = SINGLETON_PENDING;
		else
			continue;
		if (singleton_index_add(index_now, job_ptr->user_id,
					job_ptr->name, state,
					job_ptr->job_id)) {
			/* out of memory: Slurm's own test, job by job */
			singleton_index_free(index_now);
			index_now = NULL;
			break;
		}
	}
	list_iterator_destroy(it);
	if (index_now)
		singleton_index_seal(index_now);
}

void amcbf_deps_end(void)
{
	singleton_index_free(index_now);
	index_now = NULL;
}

/* Every dependency a local singleton not fulfilled yet (so AND and OR
 * give the same answer). */
static bool only_open_singletons(job_record_t *job_ptr)
{
	depend_spec_t *dep;
	ListIterator it;
	bool only = true;
	int n = 0;

	if (!job_ptr->details || !job_ptr->details->depend_list)
		return false;
	it = list_iterator_create(job_ptr->details->depend_list);
	while (only && (dep = list_next(it))) {
		only = dep->depend_type == SLURM_DEPEND_SINGLETON &&
		       !(dep->depend_flags & SLURM_FLAGS_REMOTE) &&
		       dep->depend_state == DEPEND_NOT_FULFILLED;
		n++;
	}
	list_iterator_destroy(it);
	return only && n > 0;
}

bool amcbf_deps_waiting(job_record_t *job_ptr)
{
	if (!index_now || job_ptr->state_reason != WAIT_DEPENDENCY ||
	    !job_ptr->name || !IS_JOB_PENDING(job_ptr) ||
	    !only_open_singletons(job_ptr) ||
	    !singleton_index_blocked(index_now, job_ptr->user_id,
				     job_ptr->name, job_ptr->job_id))
		return false;
	/* as job_independent() does to a job still dependent */
	if (job_ptr->details->begin_time < time(NULL))
		job_ptr->details->begin_time = 0;
	spared++;
	return true;
}

unsigned long amcbf_deps_spared(void)
{
	return spared;
}
