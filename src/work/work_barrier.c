/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * work_barrier.c - a barrier per work quantum through small files
 * (work_barrier.h); each file is replaced whole by rename, so a reader
 * sees either the old count or the new one.
 */
#include "work_barrier.h"

#include <stdio.h>
#include <unistd.h>

#include "work_burn.h"

/* Write `value` into path, through path.tmp and a rename. */
static int write_count(const char *path, long value)
{
	char tmp[PATH_MAX + 8];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		return -1;
	fprintf(f, "%ld\n", value);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

static long read_count(const char *path)
{
	long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static void rank_path(const work_barrier_t *b, int rank, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.%d", b->dir, b->tag, rank);
}

int work_barrier_post(const work_barrier_t *b, long done)
{
	char path[PATH_MAX];

	rank_path(b, b->rank, path, sizeof(path));
	return write_count(path, done);
}

long work_barrier_min(const work_barrier_t *b)
{
	char path[PATH_MAX];
	long least = -1;

	for (int r = 0; r < b->ranks; r++) {
		long v;
		rank_path(b, r, path, sizeof(path));
		v = read_count(path);
		if (least < 0 || v < least)
			least = v;
	}
	return least < 0 ? 0 : least;
}

int work_barrier_wait(const work_barrier_t *b, long done, double poll_s)
{
	if (work_barrier_post(b, done))
		return -1;
	while (work_barrier_min(b) < done)
		work_burn_sleep_until(work_burn_wall_now() + poll_s);
	return 0;
}

long work_barrier_ckpt_read(const char *dir, const char *job)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.ckpt", dir, job);
	return read_count(path);
}

int work_barrier_ckpt_write(const char *dir, const char *job, long done)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.ckpt", dir, job);
	return write_count(path, done);
}
