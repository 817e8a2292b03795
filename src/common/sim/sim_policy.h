/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_policy.h - the policies dfrs sim replays a workload through, by name.
 * Most are decision engines of sched_engine.h (sched_policy.c: the same
 * table the sched/amcbf plugin runs), replayed by sim_run(); a policy whose
 * model is not the engines' (gang scheduling's time slices, DFRS's fluid
 * yields) brings its own driver with the same inputs and results.
 */
#ifndef DFRS_SIM_POLICY_H
#define DFRS_SIM_POLICY_H

#include <stddef.h>

#include "sched/sched_engine.h"
#include "sim_engine.h"
#include "sim_workload.h"

/* A whole replay: as sim_run(), for a policy that is not an engine. */
typedef int (*sim_driver_fn)(const sim_workload_t *w, const sim_model_t *m,
			     sim_result_t *r, char *err, size_t errlen);

typedef struct {
	const char *name;
	const char *summary;
	sched_engine_fn engine;	/* replayed by sim_run(), or NULL */
	sim_driver_fn driver;	/* used when engine is NULL */
	int on_request;		/* only when named: too slow for the default
				   list on loaded traces */
} sim_policy_t;

/* Policies in the table at most (engines and drivers). */
#define SIM_POLICY_MAX 64

/* The policy called name (case ignored: EASY is easy) into *out: 0, or -1
 * if none. */
int sim_policy_find(const char *name, sim_policy_t *out);

/* For a name sim_policy_find() did not know: the policy name it is
 * likely a typo of ("amcfb": "amcbf"), or NULL. */
const char *sim_policy_suggest(const char *name);

/* How many there are, and the i-th in the order dfrs sim lists them. */
size_t sim_policy_count(void);
sim_policy_t sim_policy_at(size_t i);

/* For an online DFRS policy (greedyp, greedypm, mcb), the model of
 * suspensions and moves its replay under m uses (sim_dfrs_model_name);
 * NULL for every other policy. */
const char *sim_policy_dfrs_model(const sim_policy_t *p,
				  const sim_model_t *m);

/* Replay w under policy p (engine or driver). */
int sim_policy_run(const sim_policy_t *p, const sim_workload_t *w,
		   const sim_model_t *m, sim_result_t *r, char *err,
		   size_t errlen);

#endif
