/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_writer.c - a state file written by a thread of its own, coalesced
 * (state_writer.h).
 */
#include "src/common/slurm_xlator.h"

#include <inttypes.h>
#include <stdlib.h>

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/xmalloc.h"
#include "slurm_compat.h"

#include "state_file.h"
#include "state_writer.h"

/* Take the pending write, if any; called with w->lock held. */
static bool take_pending(state_writer_t *w, char **path, char **text)
{
	if (!w->text)
		return false;
	*path = w->path;
	*text = w->text;
	w->path = NULL;
	w->text = NULL;
	return true;
}

/* The thread: wait for a text, write it without the lock, repeat; on stop
 * write the last one pending and end. */
static void *writer_main(void *arg)
{
	state_writer_t *w = arg;
	char *path, *text;

	slurm_mutex_lock(&w->lock);
	for (;;) {
		while (!w->text && !w->stop)
			slurm_cond_wait(&w->wake, &w->lock);
		if (!take_pending(w, &path, &text))
			break;
		slurm_mutex_unlock(&w->lock);
		(void)dfrs_write_file(path, text);
		xfree(path);
		free(text);
		slurm_mutex_lock(&w->lock);
		w->written++;
	}
	slurm_mutex_unlock(&w->lock);
	return NULL;
}

void state_writer_start(state_writer_t *w, const char *name)
{
	w->name = name;
	w->running = true;
	w->stop = false;
	w->path = NULL;
	w->text = NULL;
	w->posted = w->written = 0;
	slurm_mutex_init(&w->lock);
	slurm_cond_init(&w->wake, NULL);
	dfrs_thread_create(&w->thread, "dfrs-state", writer_main, w);
}

void state_writer_post(state_writer_t *w, char *text)
{
	char *path = dfrs_state_file_path(w->name);

	if (!path || !text) {
		xfree(path);
		free(text);
		return;
	}
	if (!w->running) {
		(void)dfrs_write_file(path, text);
		xfree(path);
		free(text);
		return;
	}
	slurm_mutex_lock(&w->lock);
	xfree(w->path);
	free(w->text);
	w->path = path;
	w->text = text;
	w->posted++;
	slurm_cond_signal(&w->wake);
	slurm_mutex_unlock(&w->lock);
}

void state_writer_stop(state_writer_t *w)
{
	if (!w->running)
		return;
	slurm_mutex_lock(&w->lock);
	w->stop = true;
	slurm_cond_signal(&w->wake);
	slurm_mutex_unlock(&w->lock);
	dfrs_thread_join(w->thread);
	w->running = false;
	debug("%s: %" PRIu64 " states posted, %" PRIu64 " written",
	      w->name, w->posted, w->written);
	slurm_mutex_destroy(&w->lock);
	slurm_cond_destroy(&w->wake);
}
