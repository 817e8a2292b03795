/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_memory.c - sched/amcbf's memory of jobs between cycles
 * (amcbf_memory.h): a table sorted by job id.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <string.h>

#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_memory.h"

/* mem->jobs is kept in increasing id order: lookups are binary searches,
 * and new jobs (increasing ids) are mostly appended. */
amcbf_known_t *amcbf_known(amcbf_memory_t *mem, uint32_t id, bool add)
{
	size_t lo = 0, hi = mem->njobs;
	amcbf_known_t *k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mem->jobs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < mem->njobs && mem->jobs[lo].id == id)
		return &mem->jobs[lo];
	if (!add)
		return NULL;
	if (mem->njobs == mem->cap)
		amcbf_memory_reserve(mem, mem->njobs + 1);
	k = &mem->jobs[lo];
	memmove(k + 1, k, (mem->njobs - lo) * sizeof(*k));
	mem->njobs++;
	memset(k, 0, sizeof(*k));
	k->id = id;
	k->tier = SCHED_TIER_FG;
	return k;
}

amcbf_known_t *amcbf_known_started(amcbf_memory_t *mem, uint32_t seen_id,
				   job_record_t *job_ptr)
{
	amcbf_known_t *rest, *task;
	time_t submit;
	double tick;

	if (job_ptr->job_id == seen_id)
		return amcbf_known(mem, seen_id, false);
	/* an array task split off: the tasks left are new arrivals again */
	rest = amcbf_known(mem, seen_id, false);
	submit = rest ? rest->submit : 0;
	tick = rest ? rest->tick : 0;
	if (rest)
		rest->seen = 0;
	task = amcbf_known(mem, job_ptr->job_id, true);
	task->seen = 1;
	task->submit = submit;
	/* charged from this cycle's read on, as the record it was split
	 * from: at the next cycle it has run (virtual time above 0) */
	task->tick = tick;
	return task;
}

void amcbf_memory_reserve(amcbf_memory_t *mem, size_t n)
{
	if (n <= mem->cap)
		return;
	mem->cap = n + n / 16 + 64;
	xrecalloc(mem->jobs, mem->cap, sizeof(*mem->jobs));
}

void amcbf_forget(amcbf_memory_t *mem, size_t i)
{
	xfree(mem->jobs[i].hosts);
	memmove(&mem->jobs[i], &mem->jobs[i + 1],
		(mem->njobs - i - 1) * sizeof(mem->jobs[0]));
	mem->njobs--;
}

void amcbf_memory_free(amcbf_memory_t *mem)
{
	for (size_t i = 0; i < mem->njobs; i++)
		xfree(mem->jobs[i].hosts);
	xfree(mem->jobs);
	memset(mem, 0, sizeof(*mem));
}
