/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hold_budget.c - when a stretch of work under slurmctld's locks stops
 * (hold_budget.h).
 */
#include "hold_budget.h"

void hold_budget_begin(hold_budget_t *b, double budget_ms, double elapsed_ms)
{
	*b = (hold_budget_t){ .budget_ms = budget_ms, .last_ms = elapsed_ms };
}

bool hold_budget_step(hold_budget_t *b, double elapsed_ms)
{
	double step = elapsed_ms - b->last_ms;

	b->last_ms = elapsed_ms;
	b->steps++;
	b->recent[b->next] = step;
	b->next = (b->next + 1) % HOLD_BUDGET_RECENT;
	b->step_ms = 0;
	for (unsigned i = 0; i < HOLD_BUDGET_RECENT; i++)
		if (b->recent[i] > b->step_ms)
			b->step_ms = b->recent[i];
	return b->budget_ms <= 0 || elapsed_ms + b->step_ms < b->budget_ms;
}

void hold_budget_retaken(hold_budget_t *b)
{
	b->last_ms = 0;
	b->steps = 0;
}
