/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_diag.h - sched/amcbf's cycles in the backfill block of Slurm's
 * scheduler statistics (slurmctld_diag_stats), which sdiag, sdiag --json
 * and Slurm's own /metrics/scheduler report: each field with the meaning
 * sched/backfill gives it (its _do_diag_stats() and _attempt_backfill()),
 * so that what sites watch for sched/backfill shows sched/amcbf's cycles.
 * Plain C, no Slurm headers: the plugin copies the block out of slurmctld's
 * statistics and back (amcbf_sdiag.c), so that sdiag -r's reset holds.
 */
#ifndef DFRS_SCHED_DIAG_H
#define DFRS_SCHED_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* One cycle as the plugin saw it. */
typedef struct {
	double usec;		/* wall time, locks, yields and the decision
				   with no lock held included */
	uint32_t queue_len;	/* pending job records it found */
	uint32_t depth;		/* of them, read into the decider's view
				   (amcbf_max_read_time may leave some) */
	uint32_t depth_try;	/* of those, managed and startable: what the
				   decider placed or left waiting */
	uint32_t started;	/* jobs it started */
	bool read_cut;		/* the read stopped at amcbf_max_read_time */
	time_t when;		/* when it began */
} sched_diag_cycle_t;

/* The backfill block, named as in Slurm's diag_stats_t.  Sums wrap as
 * Slurm's own do (unsigned).  exit_end, exit_timeout: bf_exit[BF_EXIT_END]
 * and bf_exit[BF_EXIT_TIMEOUT] (Slurm 23.02 and later). */
typedef struct {
	uint32_t backfilled_jobs, last_backfilled_jobs;
	uint32_t bf_cycle_counter, bf_cycle_last, bf_cycle_max;
	uint64_t bf_cycle_sum;
	uint32_t bf_depth_sum, bf_depth_try_sum;
	uint32_t bf_last_depth, bf_last_depth_try;
	uint32_t bf_queue_len, bf_queue_len_sum;
	time_t bf_when_last_cycle;
	uint32_t exit_end, exit_timeout;
} sched_diag_bf_t;

/* Count cycle c into bf as sched/backfill counts one of its cycles: the
 * cycle time in whole microseconds (at most UINT32_MAX). */
void sched_diag_add_cycle(sched_diag_bf_t *bf, const sched_diag_cycle_t *c);

#endif
