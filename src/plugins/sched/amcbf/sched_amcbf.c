/*
 * sched_amcbf.c - sched/amcbf: consolidation backfill with preemption
 * (seed 004, Liu et al.: CMBF, AMBF, CMCBF, AMCBF) and DFRS max-stretch
 * priorities (seed 001), as a Slurm 22.05 scheduler plugin.
 *
 * This file is the boundary with slurmctld: the plugin symbols, the agent
 * thread (started from init(), which slurmctld calls with its locks held, so
 * the thread takes locks itself, as sched/backfill does) and reconfiguration.
 * Decisions are made by src/common; this skeleton only loads its parameters,
 * logs them and wakes up every amcbf_interval seconds.
 */
/* Must be first: maps internal names to the ones libslurm exports, so the
 * plugin also loads into programs linked with the public libslurm. */
#include "src/common/slurm_xlator.h"

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/plugin.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "sched_params.h"

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

/*
 * (Re)load SchedulerParameters.  A bad value leaves the settings in force
 * (the defaults, the first time) and says so in one line.
 */
static void load_params(bool first)
{
	dfrs_params_t fresh;
	char err[256], line[512];

	if (first)
		dfrs_params_defaults(&params);
	if (dfrs_params_parse(slurm_conf.sched_params, &fresh, err,
			       sizeof(err))) {
		error("%s; keeping %s settings", err,
		      first ? "default" : "previous");
	} else {
		params = fresh;
	}
	dfrs_params_format(&params, line, sizeof(line));
	info("%s parameters: %s",
	     first ? "loaded," : "reconfigured,", line);
}

/* Count jobs by state under the job read lock, held only for the walk. */
static void cycle(void)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	ListIterator it;
	job_record_t *job_ptr;
	int pending = 0, running = 0, suspended = 0;

	lock_slurmctld(job_read_lock);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (IS_JOB_PENDING(job_ptr))
			pending++;
		else if (IS_JOB_RUNNING(job_ptr))
			running++;
		else if (IS_JOB_SUSPENDED(job_ptr))
			suspended++;
	}
	list_iterator_destroy(it);
	unlock_slurmctld(job_read_lock);

	debug("cycle (mode %s): %d pending, %d running, %d suspended",
	      amcbf_mode_name(params.mode), pending, running,
	      suspended);
}

static void *agent(void *arg)
{
	bool first = true;

	while (true) {
		struct timespec until;
		bool reload;

		slurm_mutex_lock(&agent_lock);
		if (!first && !stop_agent && !reconfig_pending) {
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += params.interval;
			pthread_cond_timedwait(&agent_cond, &agent_lock, &until);
		}
		if (stop_agent) {
			slurm_mutex_unlock(&agent_lock);
			break;
		}
		reload = reconfig_pending;
		reconfig_pending = false;
		slurm_mutex_unlock(&agent_lock);

		if (first || reload)
			load_params(first);
		first = false;
		if (!slurmctld_config.scheduling_disabled)
			cycle();
	}
	return NULL;
}

extern int init(void)
{
	if (slurmctld_config.scheduling_disabled)
		return SLURM_SUCCESS;

	slurm_mutex_lock(&agent_lock);
	if (agent_running) {
		slurm_mutex_unlock(&agent_lock);
		return SLURM_SUCCESS;
	}
	stop_agent = false;
	reconfig_pending = false;
	slurm_thread_create(&agent_thread, agent, NULL);
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
	pthread_join(agent_thread, NULL);
	agent_running = false;
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
