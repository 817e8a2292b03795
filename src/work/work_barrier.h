/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * work_barrier.h - the processes of one job advance together, one work
 * quantum at a time, through files in a directory all of them see (the
 * emulated nodes share one host): each process writes how many quanta it
 * has done to <dir>/<tag>.<rank> and waits until every rank's file says at
 * least as many.  A job then moves at the pace of its slowest process, as
 * Liu et al. 2013 (section 3) model a parallel job.
 */
#ifndef DFRS_WORK_BARRIER_H
#define DFRS_WORK_BARRIER_H

#include <limits.h>

typedef struct {
	char dir[PATH_MAX / 2];
	char tag[128];		/* job id and restart count: "123.0" */
	int rank, ranks;
} work_barrier_t;

/* Record that this rank has done `done` quanta; 0 or -1 (errno set). */
int work_barrier_post(const work_barrier_t *b, long done);

/* The fewest quanta any rank has posted (0 for a rank not yet posted). */
long work_barrier_min(const work_barrier_t *b);

/*
 * Post `done` and wait until every rank has posted at least `done`, polling
 * every poll_s seconds.  Returns 0, or -1 if posting failed.
 */
int work_barrier_wait(const work_barrier_t *b, long done, double poll_s);

/* The checkpoint: quanta every rank had passed, from <dir>/<job>.ckpt, or 0. */
long work_barrier_ckpt_read(const char *dir, const char *job);

/* Write it (atomically: a file beside it, then rename); 0 or -1. */
int work_barrier_ckpt_write(const char *dir, const char *job, long done);

#endif
