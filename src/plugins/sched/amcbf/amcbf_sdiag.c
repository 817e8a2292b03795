/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_sdiag.c - sched/amcbf's cycles into slurmctld_diag_stats'
 * backfill block (amcbf_sdiag.h).  The block is copied out, counted by
 * sched_diag_add_cycle and copied back, so that what sdiag -r reset
 * stays reset and counting goes on from there, as sched/backfill's does.
 */
#include "src/common/slurm_xlator.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_locks.h"
#include "amcbf_sdiag.h"

void amcbf_sdiag_begin(void)
{
	dfrs_bf_active_set(true);
}

void amcbf_sdiag_end(void)
{
	dfrs_bf_active_set(false);
}

/* Slurm's block into the plain one and back (the job write lock held). */
#define BF_FIELDS(X)	\
	X(backfilled_jobs) X(last_backfilled_jobs) X(bf_cycle_counter) \
	X(bf_cycle_last) X(bf_cycle_max) X(bf_cycle_sum) X(bf_depth_sum) \
	X(bf_depth_try_sum) X(bf_last_depth) X(bf_last_depth_try) \
	X(bf_queue_len) X(bf_queue_len_sum) X(bf_when_last_cycle)

void amcbf_sdiag_count(const sched_diag_cycle_t *c)
{
	/* sched/backfill counts with the job write lock held */
	amcbf_hold_t h = { .locks = { .job = WRITE_LOCK },
			   .phase = AMCBF_PHASE_OTHER };
	diag_stats_t *ds = &slurmctld_diag_stats;
	sched_diag_bf_t bf;

	amcbf_hold_lock(&h);
#define OUT(f) bf.f = ds->f;
#define IN(f) ds->f = bf.f;
	BF_FIELDS(OUT)
#if DFRS_HAVE_BF_EXIT
	bf.exit_end = ds->bf_exit[BF_EXIT_END];
	bf.exit_timeout = ds->bf_exit[BF_EXIT_TIMEOUT];
#endif
	sched_diag_add_cycle(&bf, c);
	BF_FIELDS(IN)
#if DFRS_HAVE_BF_EXIT
	ds->bf_exit[BF_EXIT_END] = bf.exit_end;
	ds->bf_exit[BF_EXIT_TIMEOUT] = bf.exit_timeout;
#endif
#undef OUT
#undef IN
	amcbf_hold_unlock(&h);
}
