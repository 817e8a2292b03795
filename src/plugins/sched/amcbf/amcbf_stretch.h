/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_stretch.h - a job's DFRS stretch as sched/amcbf keeps it (Stillwell
 * et al. 2010, "Priority": flow time / virtual time^2): its first submit
 * time, its virtual time charged each cycle with the yield it got (and its
 * time limit moved on by the CPU time it did not get), and its stretch
 * shown in Slurm's priority field.  Call with slurmctld's job write lock
 * held.
 */
#ifndef DFRS_AMCBF_STRETCH_H
#define DFRS_AMCBF_STRETCH_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "amcbf_memory.h"
#include "suite/dfrs_params.h"

/* A DFRS priority (0..inf) as a Slurm priority: monotonic, 1..2^30+1. */
uint32_t amcbf_slurm_priority(double prio);

/* Seconds amcbf_charge added to end times since the plugin started, by
 * basis (LIMIT_CHARGE_MEASURED, LIMIT_CHARGE_BELIEVED). */
void amcbf_charge_totals(unsigned long *measured, unsigned long *believed);

#ifdef DFRS_AMCBF_SLURM_TYPES
/* A job's DFRS priority: flow time / virtual time^2 (Stillwell et al.
 * 2010; new jobs, virtual time 0, come first), both at its last charge
 * (k->tick, the cycle's sub-second clock), or at now if never charged. */
double amcbf_stretch(job_record_t *job_ptr, const amcbf_known_t *k,
		     time_t now);
/* Charge a running job for the time since k->tick: its virtual time grows
 * by its yield, and its time limit by the CPU it was denied
 * (amcbf/limit_charge.h): Slurm's end time moves on, as Slurm moves a
 * suspended job's end time, by the part of the time it did not get the
 * CPU it would have had alone, as its nodes' agents measured it, or where
 * nothing fresh was measured 1 - its DFRS yield (all of it in the
 * background tier); paid ahead for the next amcbf_interval seconds (the
 * time to the next cycle) and settled at the next charge; never past its
 * partition's MaxTime or QOS's MaxWall from its start unless
 * amcbf_extend_past_limits=1, nor past its --deadline.  What was added
 * to the run, and on which basis, is the AMCBF_ADDED_MARK word of its
 * AdminComment, with a debug line at each addition.  now: seconds since
 * the epoch at sub-second resolution (amcbf/vclock.h).  Sets k->tick. */
#define AMCBF_ADDED_MARK "sched/amcbf:time_added="
void amcbf_charge(amcbf_known_t *k, job_record_t *job_ptr, double now,
		  const dfrs_params_t *params);
/* A job's first submit time, remembered in k the first time it is asked
 * (Slurm resets details->submit_time when it requeues a job). */
time_t amcbf_first_submit(amcbf_known_t *k, job_record_t *job_ptr);
/* A pending job seen in a scan: its Slurm priority shows its stretch when
 * show_priority (unless held), the agent wakes at its begin time, and a
 * job sched/amcbf never starts (heterogeneous) is said once (error).
 * Returns its stretch. */
double amcbf_note_pending(amcbf_memory_t *mem, amcbf_known_t *k,
			  job_record_t *job_ptr, bool show_priority,
			  time_t now);
#endif

#endif
