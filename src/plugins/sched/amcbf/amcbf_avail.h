/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_avail.h - sched/amcbf's availability slot (He et al.,
 * He et al. 2012; SSAC, Xie and Qin 2006): once every amcbf_avail_slot seconds, observe
 * each node ON/OFF, feed its chain (src/common/avail/avail_monitor.c), and for a
 * running job with OFF hosts decide wait (suspend; resumed when its hosts
 * are back) or migrate (requeue, so it restarts on ON nodes); rank nodes by
 * availability for jobs that ask for it (--comment=dfrs:avail=A).
 */
#ifndef DFRS_AMCBF_AVAIL_H
#define DFRS_AMCBF_AVAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "amcbf_memory.h"
#include "avail/avail_monitor.h"
#include "suite/dfrs_params.h"

typedef struct {
	avail_monitor_t mon;
	bool ready;		/* monitor set up, state file read */
	size_t *index;		/* slurm node index -> monitor index */
	int nindex;
	long last_slot;		/* the slot last observed (time / slot) */
	time_t migrate_due;	/* a migration's checkpoint wait ends, or 0 */
	unsigned long suspended, resumed, migrated;	/* actions taken */
	uint32_t *waited_out;	/* jobs resumed after waiting their
				   wait_bound: left running (not suspended
				   again) until their hosts are all calm
				   again; in memory only */
	size_t nwaited_out;
} amcbf_avail_t;

/* First call: set up and read StateSaveLocation/dfrs-availability.json
 * (a corrupt file: one error line, learning starts afresh; the jobs it
 * listed as waiting are found again by their AdminComment mark,
 * amcbf_suspend.h).  Later calls (reconfiguration): apply the half-life.
 * Every call resumes the jobs left waiting when the policy no longer acts
 * (observe, off) or the plugin is not active (passive).  Takes slurmctld's
 * locks itself. */
void amcbf_avail_configure(amcbf_avail_t *a, const dfrs_params_t *params,
			   bool active);

/* The time the next slot starts (0 with amcbf_avail_policy=off). */
time_t amcbf_avail_next_slot(const amcbf_avail_t *a, const dfrs_params_t *params);

/*
 * If a new slot began (or a migration's checkpoint wait is over): observe
 * and act with slurmctld's locks taken inside, decide between the two
 * without them; then save the state and the status for `dfrs status`
 * outside them.  Returns the number of jobs suspended, resumed or requeued.
 */
int amcbf_avail_slot(amcbf_avail_t *a, const dfrs_params_t *params, amcbf_memory_t *mem,
		     time_t now);

/* Save the state (slurmctld is stopping or the plugin unloads) and free. */
void amcbf_avail_fini(amcbf_avail_t *a);

#ifdef DFRS_AMCBF_SLURM_TYPES
/* With the locks held: should the engine keep off node i (an acting
 * policy, and the node OFF at the last slot)? */
bool amcbf_avail_node_off(const amcbf_avail_t *a, const dfrs_params_t *params, int i);
/* With the locks held: the job's node preference for the engine
 * (sched_job_t.rank, xmalloc'ed), or NULL when it asks for no
 * availability (no dfrs:avail= in its comment). */
int *amcbf_avail_rank(const amcbf_avail_t *a, job_record_t *job_ptr);
#endif

#endif
