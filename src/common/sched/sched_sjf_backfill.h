/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_sjf_backfill.h - EASY backfilling with the backfill candidates
 * tried shortest estimate first (SJBF, Tsafrir, Etsion & Feitelson 2007):
 * an engine of sched_engine.h, see sched_sjf_backfill.c.
 */
#ifndef DFRS_SCHED_SJF_BACKFILL_H
#define DFRS_SCHED_SJF_BACKFILL_H

#include "sched_engine.h"

int sched_sjf_backfill(sched_state_t *st, const sched_config_t *cfg,
		       unsigned events, sched_decisions_t *out);

#endif
