/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_hosts.h - slurmctld's nodes and jobs as the engines' hosts, slots
 * and requests (doc/design.md, "The resource model: CPUs, memory and
 * GPUs"; sched_host.h), for sched/amcbf's engine decider on a select
 * plugin that allocates CPUs (select/cons_tres, CR_CPU* or CR_Core*): a
 * node of C CPUs (cores under CR_Core*) is C slots, with its RealMemory
 * and its gres/gpu count; a job asks for what its record says.  On
 * whole-node allocation (select/linear, CR_Memory) a node stays one slot
 * and a job's slots are its nodes, as in the papers.  All calls with
 * slurmctld's job and node read locks held.
 */
#ifndef DFRS_AMCBF_HOSTS_H
#define DFRS_AMCBF_HOSTS_H

#include <stdbool.h>

#include "sched/sched_engine.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
/* The hosts of one read: one per node record, slot_host per slot. */
typedef struct {
	bool granular;		/* CPUs are allocated: hosts of their CPUs */
	int nhosts, nslots;
	sched_host_t *hosts;	/* NULL when not granular */
	int *slot_host;
} amcbf_hosts_t;

/* Read the node table into *h (granular or not, by SelectTypeParameters). */
void amcbf_hosts_read(amcbf_hosts_t *h);
void amcbf_hosts_free(amcbf_hosts_t *h);

/* The slots (CPUs) a pending job takes and its request beyond them;
 * not granular: its nodes and no request. */
int amcbf_hosts_request(const amcbf_hosts_t *h, job_record_t *job_ptr,
			job_request_t *req);

/*
 * A running (or holding) job's slots on each of its nodes: counts[k] for
 * the k-th node of `bitmap` (xmalloc'ed, *nodes of them) and its memory
 * and GPUs per node in *req (from its job_resrcs and GPU request).
 * Returns the sum of counts (not granular: one per node).
 */
int amcbf_hosts_held(const amcbf_hosts_t *h, job_record_t *job_ptr,
		     bitstr_t *bitmap, int **counts, int *nodes,
		     job_request_t *req);

/* Did the job ask to share its CPUs where its partition lets it
 * (sched_job_t.shares): --oversubscribe in an OverSubscribe=YES:N
 * partition, N >= 2, which cons_tres honours by placing up to N such jobs
 * on a core.  Under FORCE:N sharing is the site's, not the job's: no. */
bool amcbf_hosts_shares(job_record_t *job_ptr);

/* Does the job's partition share CPUs only between jobs that asked
 * (sched_job_t.asks_only): any partition without OverSubscribe=FORCE,
 * where cons_tres gives a job that did not ask its cores alone (under NO
 * and EXCLUSIVE no job may ask), so the engine pairs its jobs only when
 * both share (amcbf_hosts_shares), never by CPU use. */
bool amcbf_hosts_asks_only(job_record_t *job_ptr);

/* A per-node mask as a per-slot one (xmalloc'ed); NULL for NULL. */
unsigned char *amcbf_hosts_slot_mask(const amcbf_hosts_t *h,
				     const unsigned char *node_mask);
/* A per-node rank as a per-slot one (xmalloc'ed; frees node_rank). */
int *amcbf_hosts_slot_rank(const amcbf_hosts_t *h, int *node_rank);

/* The distinct nodes of `n` slots, in order, into nodes[]; their count. */
int amcbf_hosts_of_slots(const amcbf_hosts_t *h, const int *slots, int n,
			 int *nodes);
#endif

#endif
