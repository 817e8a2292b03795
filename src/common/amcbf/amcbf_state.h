/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_state.h - what sched/amcbf keeps across slurmctld restarts (and
 * the re-exec of `scontrol reconfigure` in later Slurm releases), in
 * StateSaveLocation/amcbf-state.json: the last good SchedulerParameters,
 * each job's virtual time (its stretch priority, the amcbf_dfrs_minvt
 * clock), whether its arrival was decided already, its first submit time
 * (a requeue resets Slurm's; the queue order keeps the first), the nodes a job
 * amcbf_mode=dfrs suspended should resume on, and the time of the last
 * periodic DFRS event.  Slurm itself keeps the jobs, their restart
 * (preemption) counts and their tier tags.  Serialise, parse and validate
 * here; plain C (json-c), no Slurm headers.
 *
 *   {"version": 1, "params": "amcbf_mode=dfrs,...", "last_periodic": 1700000000,
 *    "jobs": [{"id": 12, "vt": 301.5, "seen": true, "submit": 1700000000,
 *              "hosts": ["n1", "n2"]}]}
 *
 * "submit" is optional (0: not known).
 */
#ifndef DFRS_AMCBF_STATE_H
#define DFRS_AMCBF_STATE_H

#include <stddef.h>
#include <stdint.h>

#define AMCBF_STATE_VERSION 1

typedef struct {
	uint32_t id;		/* Slurm job id, > 0 */
	double vt;		/* virtual time, s, >= 0 */
	int seen;		/* its arrival was decided */
	long submit;		/* first submit time, 0: not known */
	char **hosts;		/* dfrs: node names to resume on (may be 0) */
	size_t nhosts;
} amcbf_state_job_t;

typedef struct {
	char *params;		/* last good SchedulerParameters, or NULL */
	long last_periodic;	/* 0: none yet */
	amcbf_state_job_t *jobs;	/* increasing ids, no duplicates */
	size_t njobs;
} amcbf_state_t;

/* The state as JSON text (malloc'ed), NULL when out of memory. */
char *amcbf_state_to_json(const amcbf_state_t *s);

/*
 * Parse and validate JSON text into *s (zeroed first; amcbf_state_free it
 * either way).  0, or -1 with err saying what is wrong and where (e.g.
 * "jobs[3].vt: not a number >= 0").
 */
int amcbf_state_parse(const char *text, amcbf_state_t *s, char *err,
		      size_t errlen);

void amcbf_state_free(amcbf_state_t *s);

#endif
