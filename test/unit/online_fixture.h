/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_fixture.h - a small hand-made cluster for the tests of the online
 * DFRS policies (Stillwell et al. 2010; dfrs/dfrs_online.h): identical
 * hosts of capacity 1 in CPU and memory, jobs added running on given hosts
 * or pending, and one decision at an event, which fails the test on an
 * error.  Shared by test_dfrs_online.c and test_dfrs_greedypmr.c.
 */
#ifndef DFRS_TEST_ONLINE_FIXTURE_H
#define DFRS_TEST_ONLINE_FIXTURE_H

#include "dfrs/dfrs_online.h"

#define ONLINE_FIXTURE_HOSTS 8
#define ONLINE_FIXTURE_JOBS 64
#define ONLINE_FIXTURE_TASKS 16	/* hosts of up to 16 tasks per job */

typedef struct {
	dfrs_host_t hosts[ONLINE_FIXTURE_HOSTS];
	dfrs_online_job_t jobs[ONLINE_FIXTURE_JOBS];
	int storage[ONLINE_FIXTURE_JOBS][ONLINE_FIXTURE_TASKS];
	dfrs_cluster_t cl;
} online_fixture_t;

/* nhosts hosts (2 dimensions, CPU and memory, capacity 1), no job, the
 * clock at now. */
void online_fixture_init(online_fixture_t *f, int nhosts, double now);

/* A job of ntasks tasks, memory mem and CPU need cpu each (1e9 x mem
 * bytes of memory to write out or move), submitted at 0, id 100 + its
 * index, in state with virtual time vt on hosts (NULL: none), yield 0.5
 * when running; returns its index. */
int online_fixture_add(online_fixture_t *f, int ntasks, double mem,
		       double cpu, dfrs_job_state_t state, double vt,
		       const int *hosts);

/* The policy's decision at event ev (job: the arriving one, else -1). */
dfrs_decisions_t online_fixture_decide(const dfrs_online_params_t *par,
				       online_fixture_t *f, dfrs_event_t ev,
				       int job);

#endif
