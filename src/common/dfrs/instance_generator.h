/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * instance_generator.h - random DFRS placement instances like those of the
 * seed's experiments (Stillwell et al. 2010, "Small Problem Set", "Experiments": 64
 * hosts, 100..500 tasks, memory slack 0.1..0.9, host capacity coefficient
 * of variation 0 (homogeneous) .. 1).  For tests and benchmarks: the same
 * seed gives the same instance on every machine.
 *
 * Dimension 0 is CPU: a fluid need uniform in [0.05, 1] per task.
 * Dimension 1 is memory: a rigid requirement, uniform then scaled so that
 * the free memory fraction (slack) is 1 - sum(req) / sum(capacity), each
 * task kept within [0.01, the smallest host's memory].  Every job has one
 * task and minimum yield 0 unless the options say otherwise.
 */
#ifndef DFRS_INSTANCE_GENERATOR_H
#define DFRS_INSTANCE_GENERATOR_H

#include <stdint.h>

#include "dfrs_instance_json.h"

typedef struct {
	int nhosts;
	int njobs;
	int tasks_per_job;	/* every job has this many tasks (>= 1) */
	double memory_slack;	/* 0 < slack < 1 */
	double cov;		/* host capacity coefficient of variation; 0:
				 * all hosts (1, 1) */
	double min_yield;	/* every job's minimum yield */
	uint64_t seed;		/* != 0 */
} instance_gen_opts_t;

/* Fill *out (free with dfrs_instance_store_free); -1 on out of memory. */
int instance_generate(const instance_gen_opts_t *o, dfrs_instance_store_t *out);

/* The generator's random numbers (xorshift64*), uniform in [0, 1). */
double instance_gen_uniform(uint64_t *state);

#endif
