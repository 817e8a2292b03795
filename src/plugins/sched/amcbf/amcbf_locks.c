/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_locks.c - timed holds of slurmctld's locks, per phase, and
 * yielding them during long work (amcbf_locks.h).  Only the plugin's agent
 * thread takes locks through here, so the statistics need no lock of
 * their own.
 */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <sys/resource.h>
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
static amcbf_hold_stat_t longest[AMCBF_PHASES];

static const char *const phase_names[AMCBF_PHASES] = {
	[AMCBF_PHASE_READ] = "read",
	[AMCBF_PHASE_APPLY] = "apply",
	[AMCBF_PHASE_AVAIL] = "availability",
	[AMCBF_PHASE_OTHER] = "bookkeeping",
};

const char *amcbf_phase_name(amcbf_phase_t phase)
{
	return phase < AMCBF_PHASES ? phase_names[phase] : "?";
}

const amcbf_hold_stat_t *amcbf_hold_longest_of(amcbf_phase_t phase)
{
	return &longest[phase < AMCBF_PHASES ? phase : AMCBF_PHASE_READ];
}

/* The calling thread's CPU time, ms. */
static double thread_cpu_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0.0;
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The calling thread's involuntary and voluntary context switches. */
static void thread_switches(long *involuntary, long *voluntary)
{
	struct rusage ru;

	*involuntary = *voluntary = 0;
	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	*involuntary = ru.ru_nivcsw;
	*voluntary = ru.ru_nvcsw;
}

static double usec_since(const struct timeval *t0)
{
	struct timeval t1;

	gettimeofday(&t1, NULL);
	return (t1.tv_sec - t0->tv_sec) * 1e6 + (t1.tv_usec - t0->tv_usec);
}

/* Start counting a hold (the locks just taken). */
static void hold_begin(amcbf_hold_t *h)
{
	gettimeofday(&h->taken, NULL);
	h->cpu_taken_ms = thread_cpu_ms();
	thread_switches(&h->nivcsw_taken, &h->nvcsw_taken);
}

void amcbf_hold_lock(amcbf_hold_t *h)
{
	lock_slurmctld(h->locks);
	hold_begin(h);
	hold_budget_begin(&h->budget, h->yield_ms, 0.0);
	h->part_update = last_part_update;
	h->conf_update = slurm_conf.last_update;
}

double amcbf_hold_unlock(amcbf_hold_t *h)
{
	double held = usec_since(&h->taken);
	amcbf_hold_stat_t *l = &longest[h->phase < AMCBF_PHASES ? h->phase : 0];
	long nivcsw, nvcsw;

	thread_switches(&nivcsw, &nvcsw);
	h->last = (amcbf_hold_stat_t){
		.ms = held / 1000.0,
		.cpu_ms = thread_cpu_ms() - h->cpu_taken_ms,
		.preempted = nivcsw - h->nivcsw_taken,
		.slept = nvcsw - h->nvcsw_taken,
		.steps = h->budget.steps, .step_ms = h->budget.step_ms,
		.njobs = h->njobs };
	unlock_slurmctld(h->locks);
	if (held > longest_usec)
		longest_usec = held;
	if (h->last.ms > l->ms)
		*l = h->last;
	/* after the locks: the log has a lock of its own */
	if (h->phase == AMCBF_PHASE_READ)
		debug("lock hold: read %.2f ms, %.2f ms of it on a CPU, preempted %ld times, slept %ld times, %zu job records",
		      h->last.ms, h->last.cpu_ms, h->last.preempted,
		      h->last.slept, h->last.njobs);
	else
		debug("lock hold: %s %.2f ms, %.2f ms of it on a CPU, preempted %ld times, slept %ld times, %lu steps (next estimated %.2f ms)",
		      amcbf_phase_name(h->phase), h->last.ms, h->last.cpu_ms,
		      h->last.preempted, h->last.slept, h->last.steps,
		      h->last.step_ms);
	return h->last.ms;
}

bool amcbf_hold_yield(amcbf_hold_t *h)
{
	if (hold_budget_step(&h->budget, usec_since(&h->taken) / 1000.0))
		return true;
	amcbf_hold_unlock(h);
	usleep(AMCBF_YIELD_SLEEP_US);
	lock_slurmctld(h->locks);
	hold_begin(h);
	/* the last steps stay the estimate of the next one */
	hold_budget_retaken(&h->budget);
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
