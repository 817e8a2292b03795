/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_writer.h - a state file (state_file.h) written by a thread of its
 * own, so that a plugin holding slurmctld's locks only hands the text over
 * and never waits for StateSaveLocation (a slow or network file system).
 * Writes are coalesced: the latest text posted wins over one not yet
 * written, and at most one write is in flight.
 */
#ifndef DFRS_STATE_WRITER_H
#define DFRS_STATE_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
	const char *name;	/* file name in StateSaveLocation */
	pthread_t thread;
	pthread_mutex_t lock;	/* guards everything below */
	pthread_cond_t wake;
	bool running;		/* thread started, not yet stopped */
	bool stop;		/* thread: write what is pending, then end */
	char *path;		/* pending write: where (xmalloc'ed) */
	char *text;		/*   and what (malloc'ed), or NULL */
	uint64_t posted;	/* texts handed over */
	uint64_t written;	/* writes done (fewer when coalesced) */
} state_writer_t;

/* Start the thread that writes StateSaveLocation/name. */
void state_writer_start(state_writer_t *w, const char *name);

/*
 * Hand over text (malloc'ed; the writer frees it) for the file: it replaces
 * any text still waiting.  The path is taken from StateSaveLocation now,
 * under the caller's locks.  Returns at once; a writer that is not running
 * writes in the caller's thread instead.
 */
void state_writer_post(state_writer_t *w, char *text);

/* Write whatever is still pending, then end and join the thread. */
void state_writer_stop(state_writer_t *w);

#endif
