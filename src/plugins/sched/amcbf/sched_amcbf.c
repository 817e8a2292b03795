/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_amcbf.c - sched/amcbf: consolidation backfill with preemption
 * (Liu et al. 2013: CMBF, AMBF, CMCBF, AMCBF) and DFRS max-stretch
 * priorities (Stillwell et al. 2010), as a Slurm 22.05 scheduler plugin.
 *
 * This file is the boundary with slurmctld: the plugin symbols, the agent
 * thread (started from init(), which slurmctld calls with its locks held, so
 * the thread takes locks itself, as sched/backfill does) and reconfiguration.
 * sched/amcbf owns job starts: slurmctld's own main scheduler must be off
 * (SchedulerParameters=defer,sched_interval=-1), or the plugin stays passive
 * and says so.  The agent runs a cycle (amcbf_cycle.c, deciding with
 * amcbf_decide_engine.c in the consolidation modes, amcbf_decide_dfrs.c
 * for amcbf_mode=dfrs) whenever slurmctld's
 * job records changed (last_job_update, checked every second: arrivals and
 * completions), or partitions, nodes or reservations did, when a pending
 * job's begin time comes (a requeued job may start again), and every
 * amcbf_interval seconds; and, between those checks, within
 * AMCBF_TRIGGER_POLL_MS of a job's submission or end (slurmctld's job
 * counters, amcbf/cycle_trigger.h), so that a short job's node does not
 * wait up to a second for its next job.  At the start of every
 * amcbf_avail_slot it observes the nodes' availability (amcbf_avail.c).
 * Before it reads its files in StateSaveLocation the agent takes their lock
 * (amcbf-state.lock, amcbf/state_lock.h), which fini() releases after the
 * last save: with a backup controller, the sched/amcbf taking control waits
 * (at most 60 s) for the other one to have saved (Slurm 24.11.5 lets a
 * returning primary start while the backup still stops).
 */
/* Must be first: maps internal names to the ones libslurm exports, so the
 * plugin also loads into programs linked with the public libslurm. */
#include "src/common/slurm_xlator.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* after a libc header, which defines __GLIBC__ (slurm_xlator.h includes
 * none in every release) */
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/time.h>
#include <stdbool.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/plugin.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "amcbf_avail.h"
#include "amcbf_cycle.h"
#include "amcbf_locks.h"
#include "amcbf_preempt.h"
#include "amcbf_restart.h"
#include "amcbf_needs.h"
#include "amcbf_deps.h"
#include "amcbf_drift.h"
#include "amcbf_export.h"
#include "amcbf_readbound.h"
#include "amcbf_resv.h"
#include "amcbf_sdiag.h"
#include "dfrs/dfrs_online.h"
#include "suite/dfrs_params.h"
#include "suite/dfrs_params_check.h"
#include "suite/sched_stats.h"
#include "suite/tier_premise.h"
#include "amcbf/cycle_trigger.h"
#include "amcbf/state_lock.h"
#include "amcbf/vclock.h"
#include "state_file.h"

const char plugin_name[] = "slurm-dfrs consolidation backfill scheduler";
const char plugin_type[] = "sched/amcbf";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static pthread_t agent_thread;
static bool agent_running;
static pthread_mutex_t agent_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t agent_cond = PTHREAD_COND_INITIALIZER;
static bool stop_agent;
static bool reconfig_pending;

/* Settings in force; only the agent thread reads or changes them. */
static dfrs_params_t params;
static amcbf_memory_t memory;
static amcbf_avail_t avail;	/* nodes' ON/OFF chains, suspended jobs */
static bool owns_starts;	/* slurmctld's main scheduler is off */
static char *good_params;	/* the SchedulerParameters in force (xmalloc) */

/* The lock on StateSaveLocation/amcbf-state.lock (amcbf/state_lock.h):
 * held from before the state is read until after its last save, so that
 * with a backup controller the sched/amcbf taking control reads what the
 * other one saved last.  Only the agent and fini() touch these. */
#define STATE_LOCK_FILE "amcbf-state.lock"
#define STATE_LOCK_WAIT 60	/* seconds, at most */
static int state_lock_fd = -1;
static bool state_loaded;	/* the state was read: save it at the end */

/* Is slurmctld's main scheduler off, so that only this plugin starts jobs?
 * sp: SchedulerParameters.  The same test as dfrs params --check's. */
static bool main_scheduler_off(const char *sp)
{
	return dfrs_params_owns_starts(sp);
}

/*
 * Take SchedulerParameters text as the settings in force, if good; else
 * say why in one line ending in "keeping <kept> settings".
 */
static bool take_params(const char *text, const char *kept)
{
	dfrs_params_t fresh;
	char err[256];

	if (dfrs_params_parse(text, &fresh, err, sizeof(err))) {
		error("%s; keeping %s settings", err, kept);
		return false;
	}
	params = fresh;
	xfree(good_params);
	good_params = xstrdup(text);
	return true;
}

/*
 * (Re)load SchedulerParameters.  A bad value leaves the settings in force
 * and says so in one line: the previous ones on a reconfiguration; at
 * start the last good ones of the state file (they survive restarts), or
 * the defaults.
 */
static void load_params(bool first)
{
	slurmctld_lock_t conf_read = { .conf = READ_LOCK };
	char line[2048], *saved = NULL, *sp, *select_type;

	/* a reconfiguration rewrites slurm_conf under the conf write lock */
	lock_slurmctld(conf_read);
	sp = xstrdup(slurm_conf.sched_params);
	select_type = xstrdup(slurm_conf.select_type);
	amcbf_preempt_say_site();
	unlock_slurmctld(conf_read);
	if (first) {
		dfrs_params_defaults(&params);
		saved = amcbf_restart_load(&memory);
		amcbf_needs_load();
	}
	if (!take_params(sp,
			 !first ? "previous" :
			 saved ? "the last good (" AMCBF_RESTART_FILE ")" : "default") &&
	    saved)
		(void)take_params(saved, "default");
	xfree(saved);
	amcbf_drift_configure(&params);
	dfrs_params_format(&params, line, sizeof(line));
	info("%s parameters: %s",
	     first ? "loaded," : "reconfigured,", line);
	/* the settings in force survive a restart with a bad value */
	(void)amcbf_restart_save(&memory, good_params);
	owns_starts = main_scheduler_off(sp);
	if (!owns_starts)
		error("SchedulerParameters lack defer,sched_interval=-1: slurmctld's main scheduler starts jobs FIFO on its own, so sched/amcbf stays passive (starts and preempts nothing)");
	if (owns_starts && params.mode == AMCBF_MODE_DFRS &&
	    xstrcmp(select_type, "select/dfrs")) {
		error("amcbf_mode=dfrs needs SelectType=select/dfrs (jobs share nodes by yields), not %s: staying passive",
		      select_type);
		owns_starts = false;
	}
	if (owns_starts && (params.mode == AMCBF_MODE_AMCBF ||
			    params.mode == AMCBF_MODE_CMCBF)) {
		slurmctld_lock_t part_read = { .conf = READ_LOCK,
					       .part = READ_LOCK };
		tier_premise_t premise = {
			.mode = dfrs_params_mode_name(params.mode), .tiered = 1 };
		char why[512];

		lock_slurmctld(part_read);
		premise.tiers_possible = amcbf_tiers_possible();
		premise.memory = (slurm_conf.select_type_param & DFRS_SELECT_MEMORY) != 0;
		unlock_slurmctld(part_read);
		if (!premise.tiers_possible)
			info("amcbf_mode=%s without shared nodes (SelectType=select/cons_tres or select/dfrs and a partition with OverSubscribe=FORCE:N or YES:N, N >= 2): no background tier, running as %s",
			     dfrs_params_mode_name(params.mode),
			     params.mode == AMCBF_MODE_AMCBF ? "ambf" : "cmbf");
		if (tier_premise_check(&premise, why, sizeof(why))) {
			error("%s; staying passive", why);
			owns_starts = false;
		}
	}
	/* a passive plugin leaves no job it suspended waiting */
	amcbf_avail_configure(&avail, &params, owns_starts);
	xfree(sp);
	xfree(select_type);
}

static void log_stats(void)
{
	const amcbf_hold_stat_t *rd = amcbf_hold_longest_of(AMCBF_PHASE_READ);
	char line[1024];
	size_t len = 0;

	info("stats: %lu cycles (mean %.2f ms, max %.2f ms), %lu started, %lu preempted, %lu promoted, %lu demoted, %lu starts refused by Slurm; longest lock hold %.2f ms, %lu yields; longest read %.2f ms (%zu jobs); %lu drifts%s",
	     memory.cycles,
	     memory.cycles ? memory.usec_total / memory.cycles / 1000.0 : 0.0,
	     memory.usec_max / 1000.0, memory.started, memory.requeued,
	     memory.promoted, memory.demoted, memory.failed,
	     amcbf_hold_longest_ms(), amcbf_hold_yields(), rd->ms, rd->njobs,
	     amcbf_drift_entries(),
	     amcbf_drift_active() ? " (one under way)" : "");
	info("read phase: the longest read held the locks %.2f ms for %zu job records, %.2f ms of it on a CPU (the rest off a CPU: the next line says why)",
	     rd->ms, rd->njobs, rd->cpu_ms);
	/* each phase's longest hold: wall, CPU, and why the rest passed off
	 * a CPU (preempted: waiting for one; slept: a mutex, I/O) */
	for (int ph = 0; ph < AMCBF_PHASES; ph++) {
		const amcbf_hold_stat_t *l = amcbf_hold_longest_of(ph);

		len += snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
				"%s%s %.2f ms (%.2f ms on a CPU, preempted %ld, slept %ld)",
				ph ? ", " : "", amcbf_phase_name(ph), l->ms,
				l->cpu_ms, l->preempted, l->slept);
	}
	info("lock holds, the longest of each phase: %s", line);
	amcbf_read_log_stats(amcbf_deps_spared());
}

/* Statistics for `dfrs status` (amcbf-stats.json). */
static void write_stats(void)
{
	sched_stats_t st;

	amcbf_export_fill(&st, &memory, &avail, &params);
	amcbf_export_stats(&st);
}

/* Does the plugin act now (start jobs, observe availability slots)? */
static bool acting(void)
{
	return owns_starts && !slurmctld_config.scheduling_disabled &&
	       !slurmctld_config.shutdown_time;
}

/* Jobs submitted, completed, cancelled or failed so far: slurmctld's own
 * counters (sdiag's).  Read without a lock: a stale value only moves a
 * cycle by one poll. */
static uint64_t job_events(void)
{
	return (uint64_t)slurmctld_diag_stats.jobs_submitted +
	       slurmctld_diag_stats.jobs_completed +
	       slurmctld_diag_stats.jobs_canceled +
	       slurmctld_diag_stats.jobs_failed;
}

/* CLOCK_MONOTONIC, s */
static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return vclock_of(&ts);
}

/*
 * With agent_lock held: wait up to AMCBF_TRIGGER_POLL_MS, or until a
 * reconfiguration or stop.  When the plugin acts, wake when the next
 * availability slot starts, so that slots are observed at their start.  A
 * passive plugin observes no slot, and the next slot only moves on when
 * one is observed: its start, long past, must not cut the wait short, or
 * the agent would spin.
 */
static void agent_wait(bool act)
{
	struct timespec until;
	time_t slot = act ? amcbf_avail_next_slot(&avail, &params) : 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += AMCBF_TRIGGER_POLL_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (slot && slot < until.tv_sec) {
		until.tv_sec = slot;
		until.tv_nsec = 0;
	}
	pthread_cond_timedwait(&agent_cond, &agent_lock, &until);
}

/* One cycle of the configured mode, timed for the statistics: the
 * plugin's own and slurmctld's (sdiag's backfill block, amcbf_sdiag.h). */
static int timed_cycle(void)
{
	struct timeval t0, t1;
	double usec;
	int acted;
	unsigned long started = memory.started;
	sched_diag_cycle_t diag;

	amcbf_sdiag_begin();
	gettimeofday(&t0, NULL);
	acted = amcbf_cycle(&memory, &params, &avail, &diag);
	gettimeofday(&t1, NULL);
	amcbf_sdiag_end();
	usec = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_usec - t0.tv_usec);
	memory.cycles++;
	memory.usec_total += usec;
	if (usec > memory.usec_max)
		memory.usec_max = usec;
	diag.usec = usec;
	diag.started = (uint32_t)(memory.started - started);
	amcbf_sdiag_count(&diag);
	debug("cycle: %.2f ms, %d actions", usec / 1000.0, acted);
	return acted;
}

/* The latest change to the partitions, nodes or reservations (scontrol
 * update, a node back up): like a job change, it may let a job held back
 * by the policy checks start (sched/backfill's _more_work() looks at the
 * same times; slurmctld's own wake-up, schedule(), is off here). */
static time_t layout_update(void)
{
	time_t t = last_part_update;

	if (last_node_update > t)
		t = last_node_update;
	if (last_resv_update > t)
		t = last_resv_update;
	return t;
}

/* What the agent saw at its last cycle and its last one-second look. */
typedef struct {
	time_t seen_update, last_cycle, seen_layout;
	double last_look;	/* mono_now() */
	cycle_trigger_t trigger;
} agent_seen_t;

/*
 * Is a cycle due: at the one-second look (job records, layout, the
 * interval, a begin time, an availability slot, a reconfiguration) or,
 * between looks, for a job's submission or end?  Updates *st when one is.
 */
static bool cycle_due(agent_seen_t *st, bool reload)
{
	time_t now = time(NULL), layout = layout_update();
	uint64_t events = job_events();
	double mono = mono_now();
	bool due = false;
	bool slot = amcbf_avail_slot(&avail, &params, &memory, now) != 0;

	if (slot)
		st->seen_update = 0;	/* suspended, resumed or requeued */
	if (reload || slot || mono - st->last_look >= 1.0) {
		st->last_look = mono;
		/* last_job_update has a one-second resolution: a change in
		 * the second our last cycle started may have come after it
		 * read the records, so that second is looked at again */
		due = last_job_update != st->seen_update ||
		      last_job_update >= st->last_cycle ||
		      difftime(now, st->last_cycle) >= params.interval ||
		      reload ||
		      (memory.next_wake && now >= memory.next_wake) ||
		      layout != st->seen_layout || layout >= st->last_cycle;
	}
	if (!due && !cycle_trigger_due(&st->trigger, events, mono))
		return false;
	st->seen_update = last_job_update;
	st->seen_layout = layout;
	st->last_cycle = now;
	cycle_trigger_began(&st->trigger, events);
	return true;
}

static double lock_clock(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep, woken at once by fini() (or a reconfiguration: one try more). */
static void lock_sleep(double seconds, void *ctx)
{
	struct timespec until;

	(void)ctx;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)(seconds * 1e9);
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	slurm_mutex_lock(&agent_lock);
	if (!stop_agent)
		pthread_cond_timedwait(&agent_cond, &agent_lock, &until);
	slurm_mutex_unlock(&agent_lock);
}

static bool lock_stop(void *ctx)
{
	bool stop;

	(void)ctx;
	slurm_mutex_lock(&agent_lock);
	stop = stop_agent;
	slurm_mutex_unlock(&agent_lock);
	return stop;
}

static void lock_waiting(void *ctx)
{
	info("waiting up to %d s for the other controller's sched/amcbf to save its state (%s is locked by another slurmctld)",
	     STATE_LOCK_WAIT, (const char *)ctx);
}

/*
 * Before the state is read, with no slurmctld lock held: take the state
 * lock, waiting (at most STATE_LOCK_WAIT s) while the other controller's
 * sched/amcbf holds it.  A single controller, or one whose other
 * controller is in standby or dead, finds it free and never waits.
 * false: fini() stopped the wait; read nothing.
 */
static bool take_state_lock(void)
{
	char *path = dfrs_state_file_path(STATE_LOCK_FILE), err[256] = "";
	state_lock_wait_t w = {
		.bound = STATE_LOCK_WAIT, .poll = 0.1, .now = lock_clock,
		.sleep = lock_sleep, .stop = lock_stop,
		.waiting = lock_waiting, .ctx = path,
	};
	state_lock_result_t r = STATE_LOCK_FAILED;
	double waited = 0;

	if ((state_lock_fd = state_lock_open(path, err, sizeof(err))) >= 0)
		r = state_lock_wait(state_lock_fd, &w, &waited, err,
				    sizeof(err));
	switch (r) {
	case STATE_LOCK_TAKEN:
		debug("%s taken", path);
		break;
	case STATE_LOCK_TAKEN_AFTER_WAIT:
		info("%s taken after %.1f s: the other controller's sched/amcbf has saved its state",
		     path, waited);
		break;
	case STATE_LOCK_TIMED_OUT:
		error("%s still locked by another slurmctld after %d s: reading the state without it (the other controller's last save may come after this read and be lost)",
		      path, STATE_LOCK_WAIT);
		break;
	case STATE_LOCK_STOPPED:
		verbose("stopped while waiting for %s", path);
		break;
	case STATE_LOCK_FAILED:
		/* err names the file when it could not be opened */
		error("%s%s%s; reading the state without the lock (the other controller's sched/amcbf is not waited for)",
		      state_lock_fd >= 0 ? path : "",
		      state_lock_fd >= 0 ? ": " : "", err);
		break;
	}
	xfree(path);
	return r != STATE_LOCK_STOPPED;
}

/*
 * After the state's first read: the restart state's text and the
 * availability models' json-c tree (12 MB for 1,024 nodes) were freed, but
 * stay resident in the agent's malloc arena, where the cycles use part of
 * them; the rest of slurmctld's growth (its RPC threads after a restart)
 * then comes on top.  Giving the free pages back (glibc) keeps slurmctld's
 * resident memory at what it holds.
 */
static void release_startup_heap(void)
{
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
}

static void *agent(void *arg)
{
	bool first = true, act = false;
	time_t last_stats = time(NULL), last_written = 0;
	agent_seen_t st = { 0 };

	while (true) {
		bool reload;
		int acted;
		time_t now;
		double began, ended;

		slurm_mutex_lock(&agent_lock);
		if (!first && !stop_agent && !reconfig_pending)
			agent_wait(act);
		if (stop_agent) {
			slurm_mutex_unlock(&agent_lock);
			break;
		}
		reload = reconfig_pending;
		reconfig_pending = false;
		slurm_mutex_unlock(&agent_lock);

		if (first && !take_state_lock())
			break;
		if (first)
			state_loaded = true;
		if (first || reload)
			load_params(first);
		if (first)
			release_startup_heap();
		first = false;
		/* nothing starts once slurmctld is shutting down: a launch
		 * it has no time to send leaves the job RUNNING on nothing */
		if (!(act = acting()))
			continue;
		amcbf_export_agents(&params);
		amcbf_export_metrics(&memory, &avail, &params, false);
		/* job records changed (a submission, an end, our own
		 * actions), or the periodic cycle is due */
		if (!cycle_due(&st, reload))
			continue;
		now = st.last_cycle;
		began = mono_now();
		acted = timed_cycle();
		ended = mono_now();
		cycle_trigger_ended(&st.trigger, ended, ended - began);
		/* no lock held: from the memory the cycle left */
		amcbf_drift_cycle(&memory, &params, time(NULL));
		amcbf_needs_sweep();
		if (acted)
			st.seen_update = 0;	/* look again after our own changes */
		if (acted || difftime(now, last_written) >= 10) {
			write_stats();
			(void)amcbf_restart_save(&memory, good_params);
			last_written = now;
		}
		if (difftime(now, last_stats) >= 300) {
			log_stats();
			last_stats = now;
		}
	}
	return NULL;
}

extern int init(void)
{
	info("slurm-dfrs %s built for Slurm %s", DFRS_PACKAGE_VERSION,
	     SLURM_VERSION_STRING);
	if (slurmctld_config.scheduling_disabled)
		return SLURM_SUCCESS;

	slurm_mutex_lock(&agent_lock);
	if (agent_running) {
		slurm_mutex_unlock(&agent_lock);
		return SLURM_SUCCESS;
	}
	stop_agent = false;
	reconfig_pending = false;
	dfrs_thread_create(&agent_thread, "amcbf", agent, NULL);
	agent_running = true;
	slurm_mutex_unlock(&agent_lock);
	info("plugin loaded, agent thread started");
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	slurm_mutex_lock(&agent_lock);
	if (!agent_running) {
		slurm_mutex_unlock(&agent_lock);
		return;
	}
	stop_agent = true;
	slurm_cond_signal(&agent_cond);
	slurm_mutex_unlock(&agent_lock);
	dfrs_thread_join(agent_thread);
	agent_running = false;
	/* stopped before it read the state: nothing of it to save */
	if (state_loaded) {
		log_stats();
		write_stats();
		amcbf_export_metrics(&memory, &avail, &params, true);
		(void)amcbf_restart_save(&memory, good_params);
	}
	amcbf_avail_fini(&avail);
	amcbf_needs_fini();
	amcbf_resv_fini();
	amcbf_drift_fini();
	amcbf_memory_free(&memory);
	xfree(good_params);
	/* after the last save: the other controller may read now */
	state_lock_close(state_lock_fd);
	state_lock_fd = -1;
	if (state_loaded)
		info("state saved, %s released", STATE_LOCK_FILE);
	state_loaded = false;
	verbose("agent thread stopped");
}

extern int sched_p_reconfig(void)
{
	slurm_mutex_lock(&agent_lock);
	reconfig_pending = true;
	slurm_cond_signal(&agent_cond);
	slurm_mutex_unlock(&agent_lock);
	return SLURM_SUCCESS;
}
