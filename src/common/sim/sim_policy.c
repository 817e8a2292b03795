/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_policy.c - dfrs sim's policy table (sim_policy.h): the engines of
 * sched_policy.c first, then the policies with their own drivers; names
 * found whatever their case, the closest suggested on a typo.
 */
#include <string.h>
#include <strings.h>

#include "sched/sched_policy.h"
#include "sim_dfrs.h"
#include "sim_easy_pp.h"
#include "sim_gang.h"
#include "sim_policy.h"
#include "suite/name_suggest.h"

/* Policies with their own simulation driver: name, summary, NULL, driver,
 * on request only.  The online DFRS policies decide at every event over
 * every job in the system: minutes on a loaded trace (Lublin, 10,000 jobs:
 * greedyp 20 s, greedypm 7 min, mcb 18 min), so they run when named. */
static const sim_policy_t drivers[] = {
	{ "easy++", "sjf-backfill on per-user run-time predictions, raised "
	  "when a job outlives them (Tsafrir et al. 2007)", NULL,
	  sim_easy_pp, 0 },
	{ "greedyp", "online DFRS GreedyP: fractional yields, suspend "
	  "lower priority (Stillwell et al. 2010)", NULL, sim_dfrs_greedyp, 1 },
	{ "greedypm", "online DFRS GreedyPM: as greedyp, also migrate "
	  "(Stillwell et al. 2010)", NULL, sim_dfrs_greedypm, 1 },
	{ "mcb", "online DFRS MCB: repack all jobs with METAVP at each event "
	  "(Stillwell et al. 2010)", NULL, sim_dfrs_mcb, 1 },
	{ "greedypmr", "greedypm that bounds the stretch of long jobs, never "
	  "requeues a wide one and reserves room for a starving one, as EASY "
	  "does", NULL, sim_dfrs_greedypmr, 1 },
	{ "gang", "gang scheduling (Slurm PreemptMode=GANG): Ousterhout "
	  "matrix, first fit, time slices (Zhang et al. 2000)", NULL, sim_gang_plain, 0 },
	{ "gang-backfill", "gang with EASY backfilling in each row (Zhang "
	  "et al. 2000 BGS)", NULL, sim_gang_backfill, 0 },
	{ "gang-migrate", "gang-backfill with migration, option 2 (Zhang "
	  "et al. 2000 BGS+M)", NULL, sim_gang_migrate, 0 },
	{ NULL, NULL, NULL, NULL, 0 },	/* keeps the array non-empty */
};
#define NDRIVERS (sizeof(drivers) / sizeof(drivers[0]) - 1)

size_t sim_policy_count(void)
{
	size_t n;

	sched_policy_all(&n);
	return n + NDRIVERS;
}

sim_policy_t sim_policy_at(size_t i)
{
	size_t n;
	const sched_policy_t *engines = sched_policy_all(&n);

	if (i < n)
		return (sim_policy_t){ engines[i].name, engines[i].summary,
				       engines[i].engine, NULL, 0 };
	return drivers[i - n];
}

int sim_policy_find(const char *name, sim_policy_t *out)
{
	for (size_t i = 0; i < sim_policy_count(); i++) {
		sim_policy_t p = sim_policy_at(i);
		if (!strcasecmp(p.name, name)) {
			*out = p;
			return 0;
		}
	}
	return -1;
}

const char *sim_policy_suggest(const char *name)
{
	const char *names[SIM_POLICY_MAX];
	size_t n = 0;

	for (size_t i = 0; i < sim_policy_count() && n < SIM_POLICY_MAX; i++)
		names[n++] = sim_policy_at(i).name;
	return name_suggest(name, names, n);
}

const char *sim_policy_dfrs_model(const sim_policy_t *p,
				  const sim_model_t *m)
{
	if (p->driver == sim_dfrs_greedyp || p->driver == sim_dfrs_greedypm ||
	    p->driver == sim_dfrs_mcb || p->driver == sim_dfrs_greedypmr)
		return sim_dfrs_model_name(m);
	return NULL;
}

int sim_policy_run(const sim_policy_t *p, const sim_workload_t *w,
		   const sim_model_t *m, sim_result_t *r, char *err,
		   size_t errlen)
{
	if (p->engine)
		return sim_run(w, p->engine, m, r, err, errlen);
	return p->driver(w, m, r, err, errlen);
}
