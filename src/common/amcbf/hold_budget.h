/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hold_budget.h - when a stretch of work under slurmctld's locks stops for
 * the locks' sake.  sched/amcbf's long phases (the apply and availability
 * phases, amcbf_yield_interval; the read of the pending jobs,
 * amcbf_max_read_time) work in steps (one job each) and, after each,
 * stop once one more step as long as the estimate of the next would take
 * the hold past its budget of wall time: as sched/backfill yields its
 * locks at bf_yield_interval, but looking one step ahead.  The estimate
 * is the longest of the last HOLD_BUDGET_RECENT steps, in wall time: a
 * step the thread spent waiting for a CPU makes the holds that follow it
 * stop sooner, and once that many steps of the usual length have followed
 * it the estimate is theirs again (the longest step ever would make every
 * later hold stop after one step).  Plain C, no clock of its own: the
 * caller says when each step ended.
 */
#ifndef DFRS_HOLD_BUDGET_H
#define DFRS_HOLD_BUDGET_H

#include <stdbool.h>

/* The steps the estimate of the next one looks back on. */
#define HOLD_BUDGET_RECENT 8

typedef struct {
	double budget_ms;	/* the hold's wall time at most; <= 0: none */
	double last_ms;		/* when the last step ended (or the steps
				   began), ms since the hold began */
	double step_ms;		/* the estimate of the next step: the
				   longest of recent[] */
	double recent[HOLD_BUDGET_RECENT];	/* the last steps, ms, a ring
				   (kept across the locks' release) */
	unsigned next;		/* where the next step goes in recent[] */
	unsigned long steps;	/* steps since the hold began */
} hold_budget_t;

/* Steps of a new stretch of work begin at elapsed_ms since the hold
 * began. */
void hold_budget_begin(hold_budget_t *b, double budget_ms, double elapsed_ms);

/*
 * A step ended at elapsed_ms since the hold began.  True when one more
 * step as long as the estimate (the longest of the last
 * HOLD_BUDGET_RECENT, this one included) ends within the budget (always,
 * with no budget); false: stop (or give the locks up) now.
 */
bool hold_budget_step(hold_budget_t *b, double elapsed_ms);

/* The locks were given up and taken again: the hold begins anew (steps
 * from 0), and the last steps stay the estimate of the next. */
void hold_budget_retaken(hold_budget_t *b);

#endif
