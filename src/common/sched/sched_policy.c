/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_policy.c - the table of policy names and engines (sched_policy.h).
 */
#include <string.h>

#include "sched_policy.h"
#include "sched_sjf_backfill.h"

static const sched_policy_t policies[] = {
	{ "fcfs", sched_fcfs, "first come first served" },
	{ "easy", sched_easy_backfill,
	  "EASY backfilling, reservation for the head job" },
	{ "sjf-backfill", sched_sjf_backfill,
	  "EASY, backfill candidates tried shortest estimate first (SJBF, "
	  "Tsafrir et al. 2007)" },
	{ "conservative", sched_conservative_backfill,
	  "conservative backfilling, a reservation for every queued job "
	  "(as Slurm's sched/backfill plans)" },
	{ "cmbf", sched_cmbf,
	  "conservative migration supported backfilling (Liu et al. 2013 Alg. 1)" },
	{ "ambf", sched_ambf, "CMBF, only the head job preempts" },
	{ "cmcbf", sched_cmcbf,
	  "CMBF with fg/bg consolidation (Liu et al. 2013 Algs. 2-4)" },
	{ "amcbf", sched_amcbf, "CMCBF, only the head job preempts" },
};
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

const sched_policy_t *sched_policy_find(const char *name)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (!strcmp(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const sched_policy_t *sched_policy_all(size_t *count)
{
	*count = NPOLICIES;
	return policies;
}
