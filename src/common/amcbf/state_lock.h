/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_lock.h - one controller's sched/amcbf at a time on the files it
 * keeps in StateSaveLocation.
 *
 * With a backup controller, two slurmctld processes share StateSaveLocation.
 * Slurm 24.11.5 can let a returning primary read the state while the
 * backup it took control from still stops (doc/admin-guide.md, "Deploying
 * with a backup controller"): the primary's sched/amcbf would then read
 * its files before the backup's sched/amcbf wrote them last.  So the
 * sched/amcbf in control holds an exclusive lock on a file of its own in
 * StateSaveLocation from before it reads its state until after its last
 * save, and a starting one waits for it, for a bounded time.
 *
 * The lock is a POSIX record lock (fcntl F_SETLK) on the whole file: held
 * by the process, released by the kernel when the process ends however it
 * ends (kill -9 included), not inherited across fork, and carried by NFS
 * (lockd, NFSv4).  Being the process's, it is also released when the
 * process closes any descriptor of that file: nothing else may open it.
 * Two descriptors of one process never conflict.
 */
#ifndef DFRS_STATE_LOCK_H
#define DFRS_STATE_LOCK_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	STATE_LOCK_TAKEN,		/* free at the first try */
	STATE_LOCK_TAKEN_AFTER_WAIT,	/* another process held it */
	STATE_LOCK_TIMED_OUT,		/* still held when the bound passed */
	STATE_LOCK_STOPPED,		/* the caller asked to stop waiting */
	STATE_LOCK_FAILED,		/* the lock cannot be taken: err says */
} state_lock_result_t;

/* How state_lock_wait() waits; the functions receive ctx. */
typedef struct {
	double bound;			/* seconds: give up after */
	double poll;			/* seconds between tries */
	double (*now)(void *ctx);	/* a clock, in seconds */
	void (*sleep)(double seconds, void *ctx);
	bool (*stop)(void *ctx);	/* NULL: never */
	void (*waiting)(void *ctx);	/* NULL, or called once, at the
					 * first refusal (to say so) */
	void *ctx;
} state_lock_wait_t;

/*
 * Open (creating it, mode 0600) the lock file at path, close-on-exec: the
 * descriptor, or -1 with one line naming path in err.
 */
int state_lock_open(const char *path, char *err, size_t errlen);

/*
 * Try once to take the exclusive lock on fd, without waiting: 1 taken, 0
 * another process holds it, -1 an error (locks unsupported on that file
 * system, ...) with one line in err.
 */
int state_lock_try(int fd, char *err, size_t errlen);

/*
 * Take the lock on fd, trying every w->poll seconds while another process
 * holds it, for at most w->bound seconds, or until w->stop says so.
 * *waited (if not NULL): the seconds waited, by w->now.  Never sleeps
 * when the lock is free.
 */
state_lock_result_t state_lock_wait(int fd, const state_lock_wait_t *w,
				    double *waited, char *err, size_t errlen);

/* Close fd (a -1 is ignored): the lock, if held, is released. */
void state_lock_close(int fd);

#endif
