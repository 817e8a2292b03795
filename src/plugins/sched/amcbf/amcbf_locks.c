/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_locks.c - timed holds of slurmctld's locks, and yielding them
 * during long work (amcbf_locks.h).  Only the plugin's agent thread takes
 * locks through here, so the statistics need no lock of their own.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "src/common/log.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_locks.h"

static double longest_usec;
static unsigned long yields;
static double longest_read_ms;
static size_t longest_read_jobs;
static double longest_read_cpu_ms;

/* The calling thread's CPU time, ms. */
static double thread_cpu_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0.0;
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double usec_since(const struct timeval *t0)
{
	struct timeval t1;

	gettimeofday(&t1, NULL);
	return (t1.tv_sec - t0->tv_sec) * 1e6 + (t1.tv_usec - t0->tv_usec);
}

void amcbf_hold_lock(amcbf_hold_t *h)
{
	lock_slurmctld(h->locks);
	gettimeofday(&h->taken, NULL);
	h->cpu_taken_ms = thread_cpu_ms();
	h->asked = h->taken;
	h->step_us = 0.0;
	h->part_update = last_part_update;
	h->conf_update = slurm_conf.last_update;
}

double amcbf_hold_unlock(amcbf_hold_t *h)
{
	double held = usec_since(&h->taken);

	h->cpu_ms = thread_cpu_ms() - h->cpu_taken_ms;
	if (held > longest_usec)
		longest_usec = held;
	unlock_slurmctld(h->locks);
	return held / 1000.0;
}

bool amcbf_hold_yield(amcbf_hold_t *h)
{
	double step = usec_since(&h->asked);

	gettimeofday(&h->asked, NULL);
	if (step > h->step_us)
		h->step_us = step;
	if (h->yield_ms <= 0 ||
	    usec_since(&h->taken) + h->step_us < h->yield_ms * 1000.0)
		return true;
	amcbf_hold_unlock(h);
	usleep(AMCBF_YIELD_SLEEP_US);
	lock_slurmctld(h->locks);
	gettimeofday(&h->taken, NULL);
	h->cpu_taken_ms = thread_cpu_ms();
	h->asked = h->taken;
	yields++;
	if (slurmctld_config.shutdown_time ||
	    last_part_update != h->part_update ||
	    slurm_conf.last_update != h->conf_update) {
		debug("locks yielded: partitions or configuration changed meanwhile, the rest of the cycle is dropped");
		return false;
	}
	return true;
}

double amcbf_hold_longest_ms(void)
{
	return longest_usec / 1000.0;
}

unsigned long amcbf_hold_yields(void)
{
	return yields;
}

void amcbf_hold_note_read(double ms, double cpu_ms, size_t njobs)
{
	if (ms > longest_read_ms) {
		longest_read_ms = ms;
		longest_read_jobs = njobs;
		longest_read_cpu_ms = cpu_ms;
	}
}

double amcbf_hold_longest_read_cpu_ms(void)
{
	return longest_read_cpu_ms;
}

double amcbf_hold_longest_read_ms(size_t *njobs)
{
	if (njobs)
		*njobs = longest_read_jobs;
	return longest_read_ms;
}
