/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_fixture.h - small hand-made workloads for the simulator tests: build
 * one from a list of job specs (all arriving at time 0, in order) and
 * replay it under a policy, asserting each job's start, finish, preemptions
 * and migrations exactly.
 */
#ifndef DFRS_TEST_SIM_FIXTURE_H
#define DFRS_TEST_SIM_FIXTURE_H

#include <stddef.h>

#include "sim/sim_engine.h"
#include "sim/sim_workload.h"

typedef struct {
	int nodes;
	double runtime;
	double util[4];		/* per process; 0 means 0.5 */
} job_spec_t;

typedef struct {
	double start, finish;
	int preemptions, migrations;
} expect_t;

typedef struct {
	sim_workload_t w;
	sim_job_t jobs[16];
	double utils[64];
} fixture_t;

/* Liu et al. 2013 Fig. 1: J1(1,20) J2(2,5) J3(6,5) J4(4,5) J5(2,15) J6(1,10) */
extern const job_spec_t fixture_fig1[6];

void fixture_build(fixture_t *f, int nnodes, const job_spec_t *spec,
		   size_t n);

/* The model of Liu et al.'s figures: no overhead, bg at full speed, free
 * migrations. */
void fixture_ideal_model(sim_model_t *m);

/* Assert want[i] (start, finish, preemptions, migrations) of every job. */
void fixture_check(const char *policy, const sim_result_t *r,
		   const expect_t *want, size_t n);

/* Replay and assert want[i] for every job; fills *r (caller frees). */
void fixture_replay(const char *policy, int nnodes, const job_spec_t *spec,
		    size_t n, const sim_model_t *m, const expect_t *want,
		    sim_result_t *r);

#endif
