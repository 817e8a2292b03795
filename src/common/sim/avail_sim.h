/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * avail_sim.h - Monte Carlo evaluation of migrate-or-wait policies, slot by
 * slot, as in the evaluation of He et al., "To Migrate or to Wait" (He
 * et al. 2012), Sec. IV (Figs. 4-5).
 *
 * A parallel job of n tasks runs on n of N nodes whose ON/OFF states come
 * from an avail_source_t (Markov chains or a trace).  It progresses in a
 * slot only if all its hosts are ON.  In every slot where some host is OFF
 * the policy waits, or migrates the tasks of the OFF hosts to spare ON
 * nodes (never when fewer spare ON nodes exist than OFF hosts; the
 * replacements are chosen by migrate_or_wait_decide).  Cost:
 *	w + gamma m,  w = sum_t beta^t [not running in slot t],
 *		      m = sum_t beta^t [tasks migrated in slot t],
 * slot 0 being the job's first slot, on n ON nodes (lambda = all ON).
 *
 * Every policy and gamma of a run sees the same node states (common
 * random numbers), so differences between policies are not noise of the
 * availability.  Runs are independent and reproducible from the seed
 * (sim_random.h).
 */
#ifndef DFRS_AVAIL_SIM_H
#define DFRS_AVAIL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "avail/avail_policy.h"
#include "avail_source.h"

typedef struct {
	size_t n;			/* tasks of the job, 1..nodes */
	double beta;			/* discount per slot, in (0,1) */
	const double *gammas;		/* cost of one task migration, >= 0 */
	size_t ngammas;
	const avail_policy_t *policies;
	size_t npolicies;
	size_t runs;			/* >= 1 */
	uint64_t seed;
	size_t slots;			/* horizon of a run; 0: until beta^t <=
					 * AVAIL_SIM_TAIL (trace: or its end) */
	size_t warmup;			/* markov: slots observed before the job
					 * starts (trace: all slots before) */
	double quantum;			/* threshold-est: estimates rounded to
					 * this before the partition (cache) */
} avail_sim_config_t;

#define AVAIL_SIM_TAIL 1e-6
/* markov: a job waits at most this many slots for n nodes ON to start */
#define AVAIL_SIM_MAX_START_WAIT 100000

typedef struct {
	double cost, w, m;		/* means over runs */
	double cost_se;			/* standard error of the mean cost */
	size_t index;			/* the T_i applied; SIZE_MAX when it
					 * varies (threshold-est) */
	double analytic;		/* eq. (4) cost of the policy's T_i under
					 * the pooled chain, unlimited spare
					 * nodes; NaN for threshold-est */
} avail_sim_cell_t;

typedef struct {
	size_t ngammas, npolicies;
	avail_sim_cell_t *cells;	/* [g * npolicies + p] */
	size_t *optimal_index;		/* per gamma: T_i optimal for the pooled chain */
	size_t slots;			/* horizon (trace: of the first run) */
	size_t runs;			/* runs that started (trace: a run whose
					 * start never has n nodes ON is left out) */
} avail_sim_result_t;

/* The default horizon: the least S with beta^S <= AVAIL_SIM_TAIL. */
size_t avail_sim_default_slots(double beta);

/* 0 if the configuration suits the source, else -1 and one message in
 * err (n, beta, gammas, policies; optimal only on small Markov pools). */
int avail_sim_check(const avail_source_t *src, const avail_sim_config_t *cfg, char *err,
		    size_t errlen);

/* Checks as avail_sim_check, then runs.  0, or -1 and one message in err
 * (bad configuration, a job that cannot start, out of memory). */
int avail_sim_run(const avail_source_t *src, const avail_sim_config_t *cfg,
		  avail_sim_result_t *out, char *err, size_t errlen);
void avail_sim_result_free(avail_sim_result_t *r);

#endif
