/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * limit_charge.h - how much time limit sched/amcbf gives back to a running
 * job for the CPU it was denied since the last charge.  Liu et al. 2013
 * (Sec. III) and Stillwell et al. 2010 (Sec. 5) measure a job by the
 * progress it makes: a job that got a fraction f of the CPU it would have
 * used alone made f of the progress, so 1 - f of the wall time is owed.
 *
 * The fraction comes from the node agents' measurements where a fresh one
 * covers every node of the job (need/measured_tag.h): what it used over
 * what it would have used alone, nothing owed where it had its nodes to
 * itself.  Only where no fresh measurement exists does it fall back to
 * what the scheduler believes it allotted: 1 - its DFRS yield, all of the
 * time in the background tier.  Plain C, no Slurm headers.
 */
#ifndef DFRS_LIMIT_CHARGE_H
#define DFRS_LIMIT_CHARGE_H

#include <time.h>

typedef enum {
	LIMIT_CHARGE_BELIEVED,	/* from the tier or yield the plugin gave */
	LIMIT_CHARGE_MEASURED,	/* from the node agents' measurements */
} limit_charge_basis_t;

typedef struct {
	int background;		/* it runs in the background tier */
	double yield;		/* the DFRS yield the plugin gave it; < 0:
				   unknown */
	int measured;		/* a fresh measurement of its CPU use on each
				   of its nodes (its node's agent reported it
				   within dfrs_need_stale) */
	double used;		/* measured: its CPU use over the agent's
				   window, fraction of the CPUs it holds (the
				   smallest over its nodes), 0..1 */
	double alone;		/* measured: what it would use with its CPUs
				   to itself, same unit (its declared need,
				   else dfrs_cpu_need: never a figure learned
				   from measurements, which show what sharing
				   left the jobs) */
	int shared;		/* measured: another job used CPU on one of
				   its nodes */
} limit_charge_in_t;

/*
 * The fraction of the wall time since the last charge that the job was
 * denied, 0..1, and in *basis (may be NULL) what it rests on:
 *   measured, sharing: 1 - used / max(alone, used) (a job that used more
 *     than its need wanted more, and got it);
 *   measured, alone on its nodes: 0;
 *   else believed: 1 in the background tier or with no yield known,
 *     1 - yield for a yield in 0..1, 0 above 1.
 */
double limit_charge_denied(const limit_charge_in_t *in,
			   limit_charge_basis_t *basis);

/* What a job's charges carry from one to the next. */
typedef struct {
	double owed;		/* seconds given back, not yet whole */
	double ahead;		/* seconds paid for the next `horizon` */
} limit_charge_t;

/*
 * Settle `dt` seconds at `denied` (the time since the last charge, less
 * what was paid ahead for it) and pay ahead for the next `horizon`
 * seconds (amcbf_interval: Slurm checks time limits between the
 * plugin's cycles) at the same fraction.  Returns the whole seconds to
 * add to the job's end time now (towards 0), the rest kept in c->owed;
 * an end time is never taken back: when less was denied than was paid
 * ahead, 0, and the balance (below 0) is kept in c->owed against the
 * next charges.
 */
time_t limit_charge_step(limit_charge_t *c, double denied, double dt,
			 double horizon);

#endif
