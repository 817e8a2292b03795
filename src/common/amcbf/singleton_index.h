/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * singleton_index.h - who blocks a `--dependency=singleton` job, computed
 * once for a whole scheduling cycle.
 *
 * Slurm 22.05 tests a singleton dependency by scanning every job record
 * for one of the same user and job name that is running or suspended, or
 * pending with a smaller job id (a job of that user without a name counts
 * as every name).  Done for each pending job of a long queue that is
 * O(n^2) under slurmctld's locks.  The index holds, per (user, name), one
 * "active" flag and the smallest pending id, built in one pass over the
 * records; a query then costs O(log n) and gives the same answer as the
 * scan over the same records.
 */
#ifndef DFRS_SINGLETON_INDEX_H
#define DFRS_SINGLETON_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	SINGLETON_ACTIVE,	/* running or suspended */
	SINGLETON_PENDING,
} singleton_state_t;

typedef struct singleton_index singleton_index_t;

/* An empty index; NULL when out of memory. */
singleton_index_t *singleton_index_new(void);

/*
 * One job record: user uid, job name (NULL: none; copied), its state and
 * id.  Returns 0, or -1 when out of memory or the index is sealed already
 * (the record is then not counted: callers fall back to Slurm's scan).
 */
int singleton_index_add(singleton_index_t *idx, uint32_t uid,
			const char *name, singleton_state_t state,
			uint32_t job_id);

/* Done adding: sorts and merges (O(n log n)).  Queries need it. */
void singleton_index_seal(singleton_index_t *idx);

/*
 * Does a record added block job `job_id` of user uid named `name` (not
 * NULL): a job of that user and name (or of no name) that is active, or
 * pending with a smaller id?  False for an unsealed or NULL index.
 */
bool singleton_index_blocked(const singleton_index_t *idx, uint32_t uid,
			     const char *name, uint32_t job_id);

/* The number of distinct (user, name) keys (after seal). */
size_t singleton_index_keys(const singleton_index_t *idx);

void singleton_index_free(singleton_index_t *idx);

#endif
