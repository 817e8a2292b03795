/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_cycle.c - sched/amcbf's cycle, whatever decides in it: the
 * consolidation engines of Liu et al. 2013 (amcbf_mode=cmbf, ambf, cmcbf,
 * amcbf: amcbf_decide_engine.c) or the online DFRS policies of Stillwell
 * et al. 2010 (amcbf_mode=dfrs: amcbf_decide_dfrs.c); amcbf_decide.h is
 * what it asks of them.
 *
 * Each cycle takes slurmctld's locks, does what needs no decision (jobs
 * split after a corrected run, jobs past their deadline, jobs of the
 * partitions the plugin does not manage, burst buffers), gives the locks
 * up for a moment if that took long (amcbf_hold_yield), reads every job
 * record into the decider's view and the plugin's memory (the pending jobs
 * time-bounded by amcbf_max_read_time, amcbf_readbound.h; the jobs gone
 * since the last cycle forgotten), and lets the locks go.  The decider
 * decides with no lock held; then the locks are taken again for it to
 * apply its decisions, each to a job still as it was read (looked up again
 * by id: amcbf_still_as_seen; the locks are yielded every
 * amcbf_yield_interval ms).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <time.h>

#include "src/common/list.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_stretch.h"
#include "amcbf_deadline.h"
#include "amcbf_start.h"
#include "amcbf_cycle.h"
#include "amcbf_decide.h"
#include "amcbf_aftercorr.h"
#include "amcbf_arrays.h"
#include "amcbf_locks.h"
#include "amcbf_deps.h"
#include "amcbf_readbound.h"
#include "amcbf_bb.h"
#include "amcbf/vclock.h"

amcbf_job_class_t amcbf_job_class(job_record_t *job_ptr)
{
	/* a requeued job is pending while still completing on its nodes:
	 * those nodes are not free yet */
	bool holding = IS_JOB_SUSPENDED(job_ptr) ||
		       (IS_JOB_COMPLETING(job_ptr) && job_ptr->node_bitmap_cg);

	if (holding)
		return AMCBF_JOB_HOLDING;
	if (IS_JOB_RUNNING(job_ptr))
		return AMCBF_JOB_RUNNING;
	if (IS_JOB_PENDING(job_ptr))
		return AMCBF_JOB_PENDING;
	return AMCBF_JOB_SKIP;
}

job_record_t *amcbf_still_as_seen(uint32_t id, amcbf_seen_t seen,
				  time_t start)
{
	job_record_t *jp = id ? find_job_record(id) : NULL;

	if (!jp || !jp->details || IS_JOB_COMPLETING(jp))
		return NULL;
	if (seen == AMCBF_SEEN_PENDING)
		return IS_JOB_PENDING(jp) && amcbf_startable(jp) ? jp : NULL;
	return IS_JOB_RUNNING(jp) && (seen == AMCBF_SEEN_STARTED ||
				      jp->start_time == start) ? jp : NULL;
}

/* One job record into the plugin's memory: alive, its virtual time and
 * time limit charged with the yield since the last cycle; *k NULL for
 * AMCBF_JOB_SKIP. */
static amcbf_job_class_t read_one(amcbf_pass_t *p, job_record_t *job_ptr,
				  amcbf_known_t **k)
{
	amcbf_job_class_t c = amcbf_job_class(job_ptr);

	*k = NULL;
	if (!job_ptr->details)
		return AMCBF_JOB_SKIP;
	*k = amcbf_known(p->mem, job_ptr->job_id, c != AMCBF_JOB_SKIP);
	if (*k && c == AMCBF_JOB_SKIP) {
		/* ended since the last cycle (a completing job still holds
		 * its nodes: later) */
		c = (*k)->running ? AMCBF_JOB_DEPARTED : AMCBF_JOB_SKIP;
		if (c == AMCBF_JOB_SKIP)
			*k = NULL;
		return c;
	}
	if (*k) {
		(*k)->alive = 1;
		amcbf_charge(*k, job_ptr, p->clock, p->params);
	}
	return c;
}

/* Read slurmctld's jobs (locks held) for the decider; forget the jobs
 * gone.  True when there is something to decide. */
static bool read_jobs(const amcbf_decider_t *d, amcbf_pass_t *p,
		      amcbf_read_t *rd)
{
	amcbf_memory_t *mem = p->mem;
	ListIterator it;
	job_record_t *job_ptr;
	amcbf_known_t *k;

	for (size_t i = 0; i < mem->njobs; i++)
		mem->jobs[i].alive = 0;
	mem->next_wake = 0;
	/* each job record is remembered at most once */
	amcbf_memory_reserve(mem, list_count(job_list));
	d->read_begin(p);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		amcbf_job_class_t c = read_one(p, job_ptr, &k);

		if (c == AMCBF_JOB_SKIP)
			continue;
		if (c == AMCBF_JOB_DEPARTED) {
			d->departed(p, k);
			k->running = 0;
			continue;
		}
		d->read_job(p, c, k, job_ptr);
		if (c == AMCBF_JOB_PENDING)	/* read last, time-bounded */
			amcbf_read_defer(rd, job_ptr);
	}
	list_iterator_destroy(it);
	while ((job_ptr = amcbf_read_next(rd)))
		d->read_pending(p, amcbf_known(mem, job_ptr->job_id, false),
				job_ptr);

	/* jobs gone from slurmctld since the last cycle (ended, cancelled) */
	for (size_t i = 0; i < mem->njobs;) {
		if (mem->jobs[i].alive) {
			i++;
			continue;
		}
		if (mem->jobs[i].running)
			d->departed(p, &mem->jobs[i]);
		amcbf_forget(mem, i);
	}
	return d->read_end(p);
}

/* Under the locks: what needs no decision, then the read (the pending
 * jobs found and read into diag).  The first is done when its part ends:
 * the locks are given up between the two when one more stretch as long
 * would take the hold past amcbf_yield_interval (amcbf_hold_yield), and
 * the read's bound counts from when they were taken again.  False: nothing
 * to decide (or the partitions changed meanwhile). */
static bool read_phase(const amcbf_decider_t *d, amcbf_pass_t *p,
		       size_t *records, sched_diag_cycle_t *diag)
{
	amcbf_read_t rd;
	bool to_decide;

	p->actions += amcbf_split_aftercorr();
	p->actions += amcbf_split_arrays();
	p->actions += amcbf_end_past_deadlines();
	p->actions += amcbf_start_unmanaged(p->params, p->mem);
	amcbf_bb_cycle();
	if (!amcbf_hold_yield(&p->hold))
		return false;
	amcbf_read_begin(&rd, p->params->max_read_time, &p->hold.taken);
	*records = list_count(job_list);
	amcbf_deps_begin();
	to_decide = read_jobs(d, p, &rd);
	amcbf_deps_end();
	diag->queue_len = rd.n;
	diag->depth = rd.done;
	diag->read_cut = amcbf_read_end(&rd, &p->mem->next_wake, p->now) > 0;
	amcbf_bb_wake(&p->mem->next_wake, p->now);
	return to_decide;
}

int amcbf_cycle(amcbf_memory_t *mem, const dfrs_params_t *params,
		const amcbf_avail_t *avail, sched_diag_cycle_t *diag)
{
	const amcbf_decider_t *d = params->mode == AMCBF_MODE_DFRS ?
		&amcbf_decide_dfrs : &amcbf_decide_engine;
	amcbf_pass_t p = { .mem = mem, .params = params, .avail = avail,
			   .clock = vclock_now(),
			   .hold = { .locks = { .conf = READ_LOCK,
						.job = WRITE_LOCK,
						.node = WRITE_LOCK,
						.part = READ_LOCK,
						.fed = READ_LOCK },
				     .phase = AMCBF_PHASE_READ,
				     .yield_ms = params->yield_interval } };
	bool to_decide = false;
	size_t records = 0;	/* job records read */

	p.now = (time_t)p.clock;
	*diag = (sched_diag_cycle_t){ .when = p.now };
	p.own = xcalloc(1, d->size);
	amcbf_hold_lock(&p.hold);
	/* shutdown_time: began while we waited */
	if (!slurmctld_config.shutdown_time && d->prepare(&p))
		to_decide = read_phase(d, &p, &records, diag);
	p.hold.njobs = records;
	amcbf_hold_unlock(&p.hold);
	/* the decider decides with no lock held */
	if (to_decide && d->decide(&p)) {
		/* the pending jobs the decider placed or left waiting */
		diag->depth_try = mem->npending;
		p.hold.phase = AMCBF_PHASE_APPLY;
		amcbf_hold_lock(&p.hold);
		if (!slurmctld_config.shutdown_time)
			d->apply(&p);
		amcbf_hold_unlock(&p.hold);
	}
	d->release(&p);
	xfree(p.own);
	return p.actions;
}
