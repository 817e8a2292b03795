/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state_lock.c - sched/amcbf's lock on StateSaveLocation: taken at
 * once when free (no wait, nothing said), waited for while another
 * process holds it (said once), given up at the bound or on a stop,
 * taken as soon as the holder lets go, released by a close and by the
 * holder's end.  The other controller is a child process; the clock is
 * the test's, advanced by the wait's sleeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "amcbf/state_lock.h"

typedef struct {
	double clock;
	int sleeps, said, stop_after, release_after;
	pid_t holder;
	int to_holder, from_holder;
} fake_t;

static double fake_now(void *ctx) { return ((fake_t *)ctx)->clock; }

/* The holder lets go when asked; its answer says it has. */
static void release_holder(fake_t *f)
{
	char c = 'r';

	assert_int_equal(write(f->to_holder, &c, 1), 1);
	assert_int_equal(read(f->from_holder, &c, 1), 1);
	assert_int_equal(c, 'd');
}

static void fake_sleep(double s, void *ctx)
{
	fake_t *f = ctx;

	f->clock += s;
	f->sleeps++;
	if (f->release_after && f->sleeps == f->release_after)
		release_holder(f);
}

static bool fake_stop(void *ctx)
{
	fake_t *f = ctx;

	return f->stop_after && f->sleeps >= f->stop_after;
}

static void fake_waiting(void *ctx) { ((fake_t *)ctx)->said++; }

static char dir[] = "/tmp/test_state_lock.XXXXXX";
static char path[64];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/amcbf-state.lock", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	(void)unlink(path);
	return rmdir(dir);
}

/* A child process that takes the lock (the other controller), says so,
 * holds it until asked, then closes the file and says so, and waits to
 * be told to end. */
static void start_holder(fake_t *f)
{
	int down[2], up[2];
	char c;

	assert_int_equal(pipe(down), 0);
	assert_int_equal(pipe(up), 0);
	f->holder = fork();
	assert_true(f->holder >= 0);
	if (f->holder == 0) {
		char err[256];
		int fd;

		close(down[1]);	/* so that the parent's close ends it */
		close(up[0]);
		fd = state_lock_open(path, err, sizeof(err));

		c = (fd >= 0 && state_lock_try(fd, err, sizeof(err)) == 1) ?
			'h' : 'x';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(2);
		state_lock_close(fd);
		c = 'd';
		if (write(up[1], &c, 1) != 1)
			_exit(2);
		(void)read(down[0], &c, 1);
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	f->to_holder = down[1];
	f->from_holder = up[0];
	assert_int_equal(read(f->from_holder, &c, 1), 1);
	assert_int_equal(c, 'h');
}

static void end_holder(fake_t *f)
{
	int status;

	close(f->to_holder);	/* read() gets 0: the child ends */
	close(f->from_holder);
	assert_int_equal(waitpid(f->holder, &status, 0), f->holder);
}

static state_lock_wait_t waiter(fake_t *f)
{
	state_lock_wait_t w = {
		.bound = 5, .poll = 1, .now = fake_now, .sleep = fake_sleep,
		.stop = fake_stop, .waiting = fake_waiting, .ctx = f,
	};
	return w;
}

/* A single controller (or the first): no wait, nothing said. */
static void test_lock_free(void **state)
{
	fake_t f = { 0 };
	state_lock_wait_t w = waiter(&f);
	char err[256] = "";
	double waited = -1;
	struct stat st;
	int fd;

	(void)state;
	fd = state_lock_open(path, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(state_lock_wait(fd, &w, &waited, err, sizeof(err)),
			 STATE_LOCK_TAKEN);
	assert_true(waited == 0);
	assert_int_equal(f.sleeps, 0);
	assert_int_equal(f.said, 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* a second try of the same process: not a conflict */
	assert_int_equal(state_lock_try(fd, err, sizeof(err)), 1);
	state_lock_close(fd);
}

/*
 * Against a holder (the other controller) acting as f says: the wait ends
 * with want after want_sleeps polls of 1 s, having said once that it
 * waits.  timed_out: the try before the wait is refused too.
 */
static void wait_against_holder(fake_t f, state_lock_result_t want,
				int want_sleeps, bool timed_out)
{
	state_lock_wait_t w = waiter(&f);
	char err[256] = "";
	double waited = -1;
	int fd;

	start_holder(&f);
	fd = state_lock_open(path, err, sizeof(err));
	assert_true(fd >= 0);
	if (timed_out)
		assert_int_equal(state_lock_try(fd, err, sizeof(err)), 0);
	assert_int_equal(state_lock_wait(fd, &w, &waited, err, sizeof(err)),
			 want);
	assert_true(waited == want_sleeps);
	assert_int_equal(f.sleeps, want_sleeps);
	assert_int_equal(f.said, 1);
	state_lock_close(fd);
	end_holder(&f);
}

/* The other controller never lets go: the bound, said once. */
static void test_timed_out(void **state)
{
	(void)state;
	wait_against_holder((fake_t){ 0 }, STATE_LOCK_TIMED_OUT, 5, true);
}

/* The other controller lets go after its last save: taken at the next
 * try. */
static void test_taken_after_wait(void **state)
{
	(void)state;
	wait_against_holder((fake_t){ .release_after = 3 },
			    STATE_LOCK_TAKEN_AFTER_WAIT, 3, false);
}

/* slurmctld stops the plugin while it waits: it stops at once. */
static void test_stopped(void **state)
{
	(void)state;
	wait_against_holder((fake_t){ .stop_after = 2 }, STATE_LOCK_STOPPED, 2,
			    false);
}

/* The holder killed (kill -9 of a controller): the kernel releases its
 * lock. */
static void test_holder_killed(void **state)
{
	fake_t f = { 0 };
	char err[256] = "";
	int fd, status;

	(void)state;
	start_holder(&f);
	fd = state_lock_open(path, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(state_lock_try(fd, err, sizeof(err)), 0);
	assert_int_equal(kill(f.holder, SIGKILL), 0);
	assert_int_equal(waitpid(f.holder, &status, 0), f.holder);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(state_lock_try(fd, err, sizeof(err)), 1);
	state_lock_close(fd);
	close(f.to_holder);
	close(f.from_holder);
}

/* A lock taken and closed is free for the other process. */
static void test_close_releases(void **state)
{
	fake_t f = { 0 };
	char err[256] = "";
	pid_t child;
	int fd, status;

	(void)state;
	(void)f;
	fd = state_lock_open(path, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(state_lock_try(fd, err, sizeof(err)), 1);
	state_lock_close(fd);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int cfd = state_lock_open(path, err, sizeof(err));

		_exit(cfd >= 0 && state_lock_try(cfd, err, sizeof(err)) == 1 ?
		      0 : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A lock file that cannot be made: one line naming it. */
static void test_open_fails(void **state)
{
	char err[256] = "", bad[96];

	(void)state;
	snprintf(bad, sizeof(bad), "%s/no-such-dir/amcbf-state.lock", dir);
	assert_int_equal(state_lock_open(bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, bad));
	assert_non_null(strstr(err, "No such file or directory"));
	assert_int_equal(state_lock_open(NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "no lock file (StateSaveLocation unset)");
}

/* A descriptor that cannot be locked (not open for writing): failed,
 * with no wait. */
static void test_lock_fails(void **state)
{
	fake_t f = { 0 };
	state_lock_wait_t w = waiter(&f);
	char err[256] = "";
	int fd;

	(void)state;
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(state_lock_wait(fd, &w, NULL, err, sizeof(err)),
			 STATE_LOCK_FAILED);
	assert_string_equal(err, "cannot lock: Bad file descriptor");
	assert_int_equal(f.sleeps, 0);
	assert_int_equal(f.said, 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_free),
		cmocka_unit_test(test_timed_out),
		cmocka_unit_test(test_taken_after_wait),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_holder_killed),
		cmocka_unit_test(test_close_releases),
		cmocka_unit_test(test_open_fails),
		cmocka_unit_test(test_lock_fails),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
