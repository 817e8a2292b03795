/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_gen.h - synthetic workloads after the two models Liu et al. 2013
 * evaluate AMCBF on (section 5.2): Feitelson's 1996 model (FWorkload,
 * 20,000 jobs) and Jann et al.'s 1997 model of the CTC SP2 (JWorkload,
 * 10,000 jobs), on 320 nodes, as SWF traces for dfrs sim.  What each
 * generator takes from its model and what it calibrates is in sim_gen.c
 * and doc/simulator.md.
 */
#ifndef DFRS_SIM_GEN_H
#define DFRS_SIM_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

typedef enum { SIM_GEN_FEITELSON96, SIM_GEN_JANN97 } sim_gen_model_t;

typedef struct {
	sim_gen_model_t model;
	size_t jobs;		/* 0: the model's count in Liu et al. */
	int nodes;		/* machine size (default 320) */
	double load;		/* offered load: sum(procs x run time) over
				   nodes x (last - first submit) */
	uint64_t seed;
} sim_gen_opts_t;

/* Model by name ("feitelson96", "jann97"): 0, or -1. */
int sim_gen_model(const char *name, sim_gen_model_t *out);
void sim_gen_opts_defaults(sim_gen_opts_t *o);

/* Generate into *t (trace_free it): jobs in submit order, ids from 1,
 * header MaxProcs = nodes, no requested times.  0, or -1 with a line in
 * err (bad options, out of memory). */
int sim_gen(const sim_gen_opts_t *o, trace_t *t, char *err, size_t errlen);

#endif
