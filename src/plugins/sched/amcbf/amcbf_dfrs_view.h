/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_dfrs_view.h - the cluster the online DFRS policies of
 * amcbf_mode=dfrs decide on (Stillwell et al. 2010; dfrs/dfrs_online.h),
 * read from slurmctld's records with its locks held: the hosts, the jobs
 * the policy may move with their DFRS shape, state and virtual time, the
 * memory of the others taken off their nodes, the arrivals in submit
 * order, and the site's rules (amcbf_dfrs_rules.h).  The decider
 * (amcbf_decide_dfrs.c) decides on it with no lock held and applies the
 * decisions.
 */
#ifndef DFRS_AMCBF_DFRS_VIEW_H
#define DFRS_AMCBF_DFRS_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "amcbf_memory.h"
#include "dfrs/dfrs_online.h"
#include "suite/dfrs_params.h"

#ifdef DFRS_AMCBF_SLURM_TYPES
#include "amcbf_dfrs_rules.h"

/* The policy's cluster and where each of its jobs came from. */
typedef struct {
	dfrs_host_t *hosts;
	dfrs_online_job_t *jobs;
	uint32_t *ids;		/* each job's Slurm id (looked up again after
				   the locks were let go) */
	time_t *starts;		/* a running job's start time, when seen */
	int nnodes;		/* slurmctld's node table when read */
	dfrs_job_state_t *was;	/* state before the decisions */
	int **was_hosts;	/* hosts before (xmalloc'ed copies) */
	int *arrivals;		/* indices of new jobs, submit order */
	int njobs, narrivals, cap;
	amcbf_dfrs_rules_t rules;	/* licenses, who may preempt whom */
} amcbf_dfrs_view_t;

/* What a scan of slurmctld's jobs found besides the view. */
typedef struct {
	unsigned events;
	bool settling;	/* a job we requeued is still leaving its nodes */
} amcbf_dfrs_scan_t;

/* The job arrays sized once for a read of `records` job records (at most
 * one view job each), before the first job is added: not a chain of
 * doublings, each copying the one before and zeroing its new half. */
void amcbf_dfrs_view_size(amcbf_dfrs_view_t *v, int records);

/* One host per node, capacity 1 (almost nothing on a node the policy may
 * not use).  Returns how many nodes it may use. */
int amcbf_dfrs_view_hosts(amcbf_dfrs_view_t *v);

/* A job holding nodes (running, or completing: !running): the policy's
 * when it may be preempted, else its memory is taken off its nodes. */
void amcbf_dfrs_view_holding(amcbf_dfrs_view_t *v, amcbf_dfrs_scan_t *sc,
			     amcbf_known_t *k, job_record_t *job_ptr,
			     bool running, const dfrs_params_t *params,
			     uint64_t ref_mb, time_t now);

/* A pending job: PENDING, or SUSPENDED where it ran if we preempted it. */
void amcbf_dfrs_view_pending(amcbf_dfrs_view_t *v, amcbf_dfrs_scan_t *sc,
			     amcbf_memory_t *mem, amcbf_known_t *k,
			     job_record_t *job_ptr,
			     const dfrs_params_t *params, uint64_t ref_mb,
			     time_t now);

/* Pending jobs too big for any node now wait outside the view: one pass
 * that keeps the others in order and renumbers the arrivals. */
void amcbf_dfrs_view_drop_unfit(amcbf_dfrs_view_t *v, amcbf_memory_t *mem);

/* The arrivals in submit order (then job id: arrival_order). */
void amcbf_dfrs_view_sort_arrivals(amcbf_dfrs_view_t *v);

void amcbf_dfrs_view_free(amcbf_dfrs_view_t *v);

/* Remember in k the hosts a job runs on, or will resume on. */
void amcbf_dfrs_remember_hosts(amcbf_known_t *k, const int *hosts, int n);
#endif

#endif
