/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_reservation.h - the head job's reservation of EASY backfilling
 * (Lifka 1995; Mu'alem and Feitelson 2001, section 2): the "shadow time"
 * at which enough running jobs will have ended, by their estimates, for the
 * first waiting job to start, and the "extra" nodes it will not need then.
 * A later job may start now without delaying the head if it ends by the
 * shadow time or uses extra nodes only.  EASY (sched_easy_backfill.c) and
 * the consolidation engines with cfg->reserve (sched_cmbf_amcbf.c) share
 * it.  See sched_reservation.c.
 */
#ifndef DFRS_SCHED_RESERVATION_H
#define DFRS_SCHED_RESERVATION_H

#include <stddef.h>

#include "sched_engine.h"

typedef struct {
	int active;		/* 0: no reservation, every job may start */
	double shadow;		/* when the head may start (INFINITY: never,
				   by the estimates) */
	int extra;		/* nodes the head leaves free at the shadow
				   time; a backfill beyond it uses them up */
	size_t head;		/* the head job */
	/* with a host table (sched_state_t.hosts): the places the head
	 * takes at the shadow time, which a later job ending after it may
	 * not take (sched_reservation_hold); `extra` is then unused */
	sched_hold_t hold;
	unsigned char *held_slot;	/* per slot */
	long *held_mem;			/* per host, MB */
	int *held_gpus;			/* per host */
} sched_reservation_t;

/* Which running jobs' ends the head waits for: nonzero if job k's nodes
 * become the head's only when k ends. */
typedef int (*sched_holds_fn)(const sched_state_t *st, size_t k,
			      size_t head, const void *ctx);

/*
 * The reservation of job `head` (nodes it needs: its b_i), given `avail`
 * nodes it could have now: the running fg jobs for which holds(.., ctx) is
 * nonzero free their nodes at their expected ends (started + estimate, now
 * if past it, never without an estimate).  0, or -1 out of memory.
 *
 * With a host table the nodes are slots and not counted but placed: the
 * fg jobs for which holds() is zero count as free now, the others are
 * released in the order of their expected ends until sched_fit places the
 * head (the shadow time), and the slots, memory and GPUs it would take
 * then are held (r->hold).  sched_reservation_free releases them.
 */
int sched_reserve(const sched_state_t *st, size_t head, int avail,
		  sched_holds_fn holds, const void *ctx,
		  sched_reservation_t *r);

/* Any running fg job: EASY's reading, where no job is preempted. */
int sched_holds_any_fg(const sched_state_t *st, size_t k, size_t head,
		       const void *ctx);

/*
 * May job j start now on idle nodes without delaying the head: it ends by
 * the shadow time by its estimate, may use no node the head may use (e.g.
 * the head is kept off an advanced reservation's nodes and j may run on
 * those only), or uses extra nodes only (which it then takes from
 * r->extra).  Always 1 when no reservation is active.
 */
int sched_reservation_admits(const sched_state_t *st,
			     sched_reservation_t *r, size_t j);

/* With a host table: the places job j, admitted, must leave alone
 * (sched_fit's hold): the head's when j ends after the shadow time and
 * may use a place the head may use; else NULL. */
const sched_hold_t *sched_reservation_hold(const sched_state_t *st,
					   const sched_reservation_t *r,
					   size_t j);

/* Free what a reservation allocated (it is then inactive). */
void sched_reservation_free(sched_reservation_t *r);

#endif
