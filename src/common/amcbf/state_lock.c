/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_lock.c - the lock that lets one controller's sched/amcbf at a time
 * read and write its files in StateSaveLocation (state_lock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "state_lock.h"

int state_lock_open(const char *path, char *err, size_t errlen)
{
	int fd;

	if (!path) {
		snprintf(err, errlen, "no lock file (StateSaveLocation unset)");
		return -1;
	}
	do {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
	return fd;
}

int state_lock_try(int fd, char *err, size_t errlen)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;	/* l_start 0, l_len 0: the whole file */
	while (fcntl(fd, F_SETLK, &fl) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EACCES || errno == EAGAIN)
			return 0;
		snprintf(err, errlen, "cannot lock: %s", strerror(errno));
		return -1;
	}
	return 1;
}

state_lock_result_t state_lock_wait(int fd, const state_lock_wait_t *w,
				    double *waited, char *err, size_t errlen)
{
	double start = w->now(w->ctx), elapsed = 0;
	state_lock_result_t r;
	bool said = false;

	for (;;) {
		int got = state_lock_try(fd, err, errlen);

		elapsed = w->now(w->ctx) - start;
		if (got > 0) {
			r = said ? STATE_LOCK_TAKEN_AFTER_WAIT : STATE_LOCK_TAKEN;
			break;
		}
		if (got < 0) {
			r = STATE_LOCK_FAILED;
			break;
		}
		if (!said) {
			said = true;
			if (w->waiting)
				w->waiting(w->ctx);
		}
		if (elapsed >= w->bound) {
			r = STATE_LOCK_TIMED_OUT;
			break;
		}
		if (w->stop && w->stop(w->ctx)) {
			r = STATE_LOCK_STOPPED;
			break;
		}
		w->sleep(w->poll, w->ctx);
	}
	if (waited)
		*waited = elapsed;
	return r;
}

void state_lock_close(int fd)
{
	if (fd >= 0)
		(void)close(fd);
}
