/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_nodeagent.c - the node side of slurm-dfrs: runs beside slurmd on each
 * node and enforces the CPU share the controller decided for each job.
 *
 * Every --interval seconds it asks slurmctld for jobs that changed (public
 * libslurm API, cheap when nothing changed), finds the processes of jobs on
 * its node and cluster, puts each job in its own cpu cgroup and sets
 * cpu.shares from the job's "dfrs:" tag: an administrator's AdminComment tag
 * first, else the SystemComment tag the plugins write in slurmctld, else the
 * kernel's default (an equal share); a job Slurm is ending gets the foreground
 * weight while its processes exit (CPU_WEIGHT_ENDING).  On cgroup v2 (cgroup_v2.c) it writes
 * cpu.weight and cpu.idle instead, into Slurm's own group of the job when
 * there is one.  Groups of jobs with no process left are removed.  When the
 * cpu controller is missing or not writable it says so once and goes on
 * without enforcing: the jobs run as they would without it.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

/* libslurm 26.05 renamed slurm_free_ctl_conf() */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define slurm_free_ctl_conf slurm_free_conf
#endif

#include "cgroup_cpu.h"
#include "cgroup_detect.h"
#include "cgroup_v2.h"
#include "suite/cpu_weight.h"
#include "suite/dfrs_params.h"
#include "job_procs.h"
#include "job_measure.h"

typedef struct {
	uint32_t job_id;
	unsigned weight;	/* last written */
	char source[96];	/* what the weight came from, for the log */
	char bad[160];		/* last malformed tag reported, said once */
	char failed[512];	/* last cgroup v2 failure reported, said once */
} applied_t;

typedef struct {
	const char *node;
	char cluster[128];	/* ClusterName; empty until slurmctld says it */
	const char *controller;
	char parent[256];	/* the node's group, relative to the mount */
	int interval;
	bool once;
	FILE *log;
	cgroup_cpu_t cg;
	const char *hier;	/* --cgroup: auto, v1 or v2 */
	cgroup_v2_bg_t bg;	/* --background */
	bool v2;		/* enforcing with cgroup_v2.c, not cg */
	cgroup_v2_t v2cg;
	bool enforcing;
	job_info_msg_t *jobs;	/* last answer from slurmctld */
	bool ctld_down_logged;
	applied_t *applied;
	size_t napplied;
	job_measure_t measure;	/* each job's CPU use, reported in Extra */
	bool stale_known;	/* dfrs_need_stale read from slurmctld */
} agent_t;

/*
 * Stopping.  SIGTERM and SIGINT are taken by a thread of their own (sigwait),
 * not by a handler: libslurm retries a slurmctld that is gone for
 * MessageTimeout seconds (10 s by default) in each call, and no signal cuts
 * that short.  Each query to slurmctld runs between ctld_enter() and
 * ctld_leave(); a signal during one abandons it: the signal thread makes the
 * exit itself, without slurmctld, and the query never returns to the agent.
 */
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stopping;
static bool in_ctld, abandoned;

/* Before a query to slurmctld: false once stopping (then make none). */
static bool ctld_enter(void)
{
	bool go;

	pthread_mutex_lock(&stop_lock);
	go = !stopping;
	in_ctld = go;
	pthread_mutex_unlock(&stop_lock);
	return go;
}

/* After the query: waits for the end if the signal thread took over. */
static void ctld_leave(void)
{
	bool parked;

	pthread_mutex_lock(&stop_lock);
	in_ctld = false;
	parked = abandoned;
	pthread_mutex_unlock(&stop_lock);
	while (parked)
		pause();
}

static void say(agent_t *a, const char *fmt, ...)
{
	char when[32];
	time_t now = time(NULL);
	va_list ap;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&now));
	fprintf(a->log, "[%s] dfrs-nodeagent(%s): ", when, a->node);
	va_start(ap, fmt);
	vfprintf(a->log, fmt, ap);
	va_end(ap);
	fputc('\n', a->log);
	fflush(a->log);
}

static applied_t *find_applied(agent_t *a, uint32_t job_id)
{
	for (size_t i = 0; i < a->napplied; i++)
		if (a->applied[i].job_id == job_id)
			return &a->applied[i];
	return NULL;
}

static void forget_applied(agent_t *a, uint32_t job_id)
{
	applied_t *p = find_applied(a, job_id);

	if (p)
		*p = a->applied[--a->napplied];
}

static const job_info_t *find_job(const agent_t *a, uint32_t job_id)
{
	if (!a->jobs)
		return NULL;
	for (uint32_t i = 0; i < a->jobs->record_count; i++)
		if (a->jobs->job_array[i].job_id == job_id)
			return &a->jobs->job_array[i];
	return NULL;
}

/* Refresh the job table; keep the old one when nothing changed or on error. */
static void load_jobs(agent_t *a)
{
	job_info_msg_t *fresh = NULL;
	time_t since = a->jobs ? a->jobs->last_update : 0;
	int rc, err;

	if (!ctld_enter())
		return;
	rc = slurm_load_jobs(since, &fresh, SHOW_ALL);
	/* libslurm reports in errno (24.11 has no slurm_get_errno()) */
	err = errno;
	ctld_leave();
	if (rc == SLURM_SUCCESS) {
		slurm_free_job_info_msg(a->jobs);
		a->jobs = fresh;
		if (a->ctld_down_logged)
			say(a, "slurmctld answers again");
		a->ctld_down_logged = false;
		return;
	}
	if (err != SLURM_NO_CHANGE_IN_DATA && !a->ctld_down_logged) {
		say(a, "warning: cannot load jobs from slurmctld (%s); keeping the weights in force",
		    slurm_strerror(err));
		a->ctld_down_logged = true;
	}
}

static applied_t *remember(agent_t *a, uint32_t job_id)
{
	applied_t *p = find_applied(a, job_id), *grown;

	if (p)
		return p;
	grown = realloc(a->applied, (a->napplied + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	a->applied = grown;
	p = &a->applied[a->napplied++];
	memset(p, 0, sizeof(*p));
	p->job_id = job_id;
	return p;
}

/*
 * Slurm is ending the job while its processes are still here: a job neither
 * running nor suspended (pending again after a requeue or a preemption,
 * cancelled, timed out, failed), or one completing.
 */
static bool job_ending(const job_info_t *job)
{
	uint32_t base = job->job_state & JOB_STATE_BASE;

	return (job->job_state & JOB_COMPLETING) ||
	       (base != JOB_RUNNING && base != JOB_SUSPENDED);
}

/* The weight for a job, and a short note of where it came from. */
static unsigned weight_for(agent_t *a, uint32_t job_id, char *source,
			   size_t len)
{
	const job_info_t *job = find_job(a, job_id);
	const char *fields[2] = { job ? job->admin_comment : NULL,
				  job ? job->system_comment : NULL };
	const char *names[2] = { "AdminComment", "SystemComment" };
	cpu_weight_tag_t tag;
	char err[160];

	if (job && job_ending(job)) {
		snprintf(source, len, "Slurm is ending the job");
		return CPU_WEIGHT_ENDING;
	}
	for (int i = 0; i < 2; i++) {
		int rc = cpu_weight_tag_parse(fields[i], &tag, err, sizeof(err));
		if (rc == 1) {
			char text[80];
			cpu_weight_tag_format(&tag, text, sizeof(text));
			snprintf(source, len, "%s %s", names[i], text);
			return cpu_weight_of_tag(&tag);
		}
		if (rc < 0) {
			/* say it once per job and tag, not every cycle */
			applied_t *p = remember(a, job_id);
			if (p && strcmp(p->bad, fields[i])) {
				say(a, "job %u: %s ignored: %s", job_id, names[i], err);
				snprintf(p->bad, sizeof(p->bad), "%s", fields[i]);
			}
		}
	}
	snprintf(source, len, "%s", job ? "no dfrs tag: default" :
		 "unknown to slurmctld: default");
	return CPU_WEIGHT_DEFAULT;
}

/*
 * Report measured needs often enough that slurmctld never finds a live
 * agent's report older than its dfrs_need_stale (read once, at start).
 */
static void know_stale(agent_t *a, const slurm_conf_t *conf)
{
	dfrs_params_t p;
	char err[256];

	dfrs_params_defaults(&p);
	if (conf->sched_params &&
	    dfrs_params_parse(conf->sched_params, &p, err, sizeof(err)))
		return;		/* slurmctld says what is wrong */
	job_measure_set_stale(&a->measure, p.need_stale);
	if (a->measure.on)
		say(a, "unchanged measured needs reported every %d s (dfrs_need_stale=%d)",
		    a->measure.refresh, p.need_stale);
}

/*
 * Learn the cluster's name from slurmctld, unless --cluster gave it: a job
 * process is this agent's only if its SLURM_CLUSTER_NAME matches, since
 * emulated clusters on one machine reuse node names and job ids.
 */
static bool know_cluster(agent_t *a)
{
	slurm_conf_t *conf = NULL;
	int rc;

	if (a->cluster[0] && a->stale_known)
		return true;
	if (!ctld_enter())
		return false;
	rc = slurm_load_ctl_conf(0, &conf);
	ctld_leave();
	if (rc != SLURM_SUCCESS || !conf)
		return false;	/* load_jobs says slurmctld is down */
	if (!a->stale_known) {
		know_stale(a, conf);
		a->stale_known = true;
	}
	if (a->cluster[0]) {
		slurm_free_ctl_conf(conf);
		return true;
	}
	if (conf->cluster_name && conf->cluster_name[0]) {
		snprintf(a->cluster, sizeof(a->cluster), "%s", conf->cluster_name);
		say(a, "cluster %s: only processes of its jobs are taken", a->cluster);
	}
	slurm_free_ctl_conf(conf);
	return a->cluster[0] != '\0';
}

/* cgroup v2: the job's weight into its group (Slurm's or the agent's own),
 * logged when a value changed or a failure is new. */
static void apply_v2(agent_t *a, applied_t *p, uint32_t job_id,
		     const pid_t *pids, size_t npids, unsigned w,
		     const char *source)
{
	char err[512], where[PATH_MAX + 200];
	int rc = cgroup_v2_apply(&a->v2cg, job_id, pids, npids, w, where,
				 sizeof(where), err, sizeof(err));

	if (rc < 0) {
		if (strncmp(p->failed, err, sizeof(p->failed) - 1))
			say(a, "job %u: cannot set its CPU weight: %s", job_id, err);
		snprintf(p->failed, sizeof(p->failed), "%s", err);
		return;
	}
	p->failed[0] = '\0';
	if (rc > 0 || p->weight != w)
		say(a, "job %u: %s (weight %u: %s)", job_id, where, w, source);
	p->weight = w;
	snprintf(p->source, sizeof(p->source), "%s", source);
}

/* Pick the writer (--cgroup, else the hierarchy found) and open it; false
 * with err when no CPU weight can be enforced. */
static bool open_cgroups(agent_t *a, char *err, size_t errlen)
{
	cgroup_hier_t h;
	bool v2;

	if (cgroup_detect("/proc/self/mounts", &h, err, errlen))
		return false;
	say(a, "cgroup hierarchy: %s", cgroup_layout_name(h.layout));
	v2 = !strcmp(a->hier, "v2") ||
		(!strcmp(a->hier, "auto") && !h.v1_cpu && h.v2_cpu);
	if (!v2)
		return cgroup_cpu_open(&a->cg, a->controller, a->parent, err,
				       errlen) == 0;
	if (!h.v2_mount[0]) {
		snprintf(err, errlen, "no cgroup2 file system is mounted");
		return false;
	}
	if (cgroup_v2_open(&a->v2cg, h.v2_mount, a->parent, "/proc", a->bg,
			   err, errlen))
		return false;
	a->v2 = true;
	return true;
}

/*
 * The measured needs into the node's Extra (job_measure.h), only when
 * slurmctld answered this pass and the agent is not stopping: libslurm's
 * node calls keep retrying an absent controller, which would hold the
 * agent (and its shutdown) for as long.
 */
static void report_measured(agent_t *a)
{
	char msg[600];
	int rc;

	if (a->ctld_down_logged || !ctld_enter())
		return;
	rc = job_measure_report(&a->measure, a->node, a->jobs, msg,
				sizeof(msg));
	ctld_leave();

	if (rc == 1)
		say(a, "measured CPU needs: %s", msg);
	else if (rc < 0)
		say(a, "warning: measured CPU needs not reported: %s", msg);
}

static void cycle(agent_t *a)
{
	job_proc_t *procs = NULL;
	ssize_t n;
	char err[256];

	load_jobs(a);
	/* until the cluster is known, leave every process where it is */
	if (!know_cluster(a))
		return;
	n = job_procs_scan("/proc", a->node, a->cluster, &procs);
	if (n < 0) {
		say(a, "warning: cannot read /proc");
		return;
	}
	job_measure_begin(&a->measure);
	for (ssize_t i = 0; i < n;) {
		uint32_t job_id = procs[i].job_id;
		ssize_t j = i;
		pid_t pids[512];
		size_t npids = 0;
		char source[96];
		unsigned w;

		while (j < n && procs[j].job_id == job_id) {
			if (npids < sizeof(pids) / sizeof(pids[0]))
				pids[npids++] = procs[j].pid;
			j++;
		}
		i = j;
		job_measure_job(&a->measure, job_id, pids, npids);
		w = weight_for(a, job_id, source, sizeof(source));
		if (!a->enforcing)
			continue;

		applied_t *p = remember(a, job_id);
		if (!p)
			continue;
		if (a->v2) {
			apply_v2(a, p, job_id, pids, npids, w, source);
			continue;
		}
		if (p->weight != w) {	/* 0: no group yet */
			if (cgroup_cpu_set_weight(&a->cg, job_id, w, err, sizeof(err))) {
				say(a, "job %u: cannot set cpu.shares: %s", job_id, err);
				continue;
			}
			if (p->weight)
				say(a, "job %u: cpu.shares %u -> %u (%s)", job_id,
				    p->weight, w, source);
			else
				say(a, "job %u: new cgroup, cpu.shares %u (%s)",
				    job_id, w, source);
			p->weight = w;
			snprintf(p->source, sizeof(p->source), "%s", source);
		}
		if (cgroup_cpu_attach(&a->cg, job_id, pids, npids, err, sizeof(err)))
			say(a, "job %u: cannot move its processes: %s", job_id, err);
	}

	job_measure_end(&a->measure);
	report_measured(a);

	if (a->enforcing) {
		uint32_t *ids;
		size_t ngroups = a->v2 ? cgroup_v2_list_jobs(&a->v2cg, &ids) :
			cgroup_cpu_list_jobs(&a->cg, &ids);
		for (size_t g = 0; g < ngroups; g++) {
			bool has_procs = false;
			for (ssize_t i = 0; i < n && !has_procs; i++)
				has_procs = procs[i].job_id == ids[g];
			if (has_procs)
				continue;
			if ((a->v2 ? cgroup_v2_remove(&a->v2cg, ids[g]) :
			     cgroup_cpu_remove(&a->cg, ids[g])) == 0)
				say(a, "job %u: no process left here, cgroup removed", ids[g]);
			forget_applied(a, ids[g]);
		}
		free(ids);
	}
	/* on v2 a job in Slurm's group has none of ours to remove: forget
	 * every job with no process left, so that the table stays small */
	for (size_t k = 0; a->v2 && k < a->napplied;) {
		bool has_procs = false;
		for (ssize_t i = 0; i < n && !has_procs; i++)
			has_procs = procs[i].job_id == a->applied[k].job_id;
		if (has_procs)
			k++;
		else
			forget_applied(a, a->applied[k].job_id);
	}
	free(procs);
}

/*
 * The exit: remove the groups of finished jobs, then the node's parent and
 * its ancestors while they are empty (a CPU slice's group stays while its
 * slurmd is in it); stopping, so without asking slurmctld.  libslurm's
 * state is freed unless a query abandoned by a signal may still be in it.
 */
static void agent_exit(agent_t *a, const char *pidfile, bool in_libslurm)
{
	if (a->enforcing && !a->once) {
		cycle(a);
		if (a->v2)
			cgroup_v2_close(&a->v2cg);
		else
			cgroup_cpu_close(&a->cg);
	}
	say(a, "stopping");
	slurm_free_job_info_msg(a->jobs);
	free(a->applied);
	job_measure_free(&a->measure);
	if (!in_libslurm)
		slurm_fini();
	if (pidfile)
		unlink(pidfile);
}

typedef struct {
	agent_t *agent;
	const char *pidfile;
	sigset_t signals;
} stopper_t;

/* The signal thread: on SIGTERM or SIGINT, stop; if a query to slurmctld is
 * under way, exit now without its answer. */
static void *stopper(void *arg)
{
	stopper_t *st = arg;
	bool take_over;
	int sig;

	if (sigwait(&st->signals, &sig))
		return NULL;
	pthread_mutex_lock(&stop_lock);
	stopping = 1;
	take_over = abandoned = in_ctld;
	pthread_mutex_unlock(&stop_lock);
	if (!take_over)
		return NULL;	/* the main loop sees stopping within 0.1 s */
	say(st->agent, "signal %d while slurmctld does not answer: stopping without it", sig);
	agent_exit(st->agent, st->pidfile, true);
	_exit(0);	/* not exit(): the main thread may hold libslurm's locks */
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: dfrs-nodeagent --node NAME [--cluster NAME] [--interval SECONDS]\n"
"                      [--cgroup auto|v1|v2] [--controller cpu]\n"
"                      [--cgroup-parent PATH] [--background idle|weight]\n"
"                      [--log FILE] [--pidfile FILE] [--once]\n"
"Enforces slurm-dfrs CPU weights on this node's jobs with cgroups.\n"
"  --node NAME       this node's Slurm NodeName (default: the short host name)\n"
"  --cluster NAME    the ClusterName whose jobs to take (default: slurmctld's)\n"
"  --interval S      seconds between passes (default 2)\n"
"  --cgroup H        auto, v1 or v2 (default auto: v1 if the cpu controller\n"
"                    is on a v1 hierarchy, else v2)\n"
"  --controller C    cgroup v1 controller to use (default cpu)\n"
"  --cgroup-parent P the node's group, relative to the mount, that holds the\n"
"                    jobs' groups (default dfrs/NODE); on v2 only for jobs\n"
"                    that are in no group of Slurm's\n"
"  --background B    v2: the background tier by cpu.idle=1 (idle, default;\n"
"                    cpu.weight=1 where cpu.idle is missing) or cpu.weight=1\n"
"                    (weight)\n"
"  --measure-window N report each job's CPU use over the last N passes in\n"
"                    the node's Extra (dfrs:measured=; default 3, 0: off)\n"
"  --cpu-scale F     CPU capacity of one of Slurm's CPUs on this node\n"
"                    (default 1; a CPU slice of 0.05 core per CPU: 0.05)\n"
"  --log FILE        append the log to FILE (default: standard error)\n"
"  --pidfile FILE    write the process id to FILE\n"
"  --once            one pass, then exit\n");
}

/* Options that are not the agent's state. */
typedef struct {
	const char *pidfile;
	long window;		/* --measure-window */
	double cpu_scale;	/* --cpu-scale */
} agent_opts_t;

/* A whole number in lo..hi, the whole string (checked on the long: a cast
 * first would make 4294967297 into 1). */
static bool whole_in(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= lo && *out <= hi;
}

/* Option c with its value arg into a or o: 0, or 2 after a message. */
static int agent_option(agent_t *a, agent_opts_t *o, int c, const char *arg)
{
	long v;
	char *end;

	switch (c) {
	case 'n': a->node = arg; return 0;
	case 'C':
		if (!*arg || strlen(arg) >= sizeof(a->cluster)) {
			fprintf(stderr, "dfrs-nodeagent: --cluster '%s': want a name of 1 to 127 characters\n", arg);
			return 2;
		}
		snprintf(a->cluster, sizeof(a->cluster), "%s", arg);
		return 0;
	case 'i':
		if (!whole_in(arg, 1, 3600, &v)) {
			fprintf(stderr, "dfrs-nodeagent: --interval %s: not an integer in 1..3600\n", arg);
			return 2;
		}
		a->interval = (int)v;
		return 0;
	case 'c': a->controller = arg; return 0;
	case 'g':
		if (!*arg || *arg == '/' || strstr(arg, "..") ||
		    strlen(arg) >= sizeof(a->parent)) {
			fprintf(stderr, "dfrs-nodeagent: --cgroup-parent '%s': want a relative path without '..', under 256 characters\n", arg);
			return 2;
		}
		snprintf(a->parent, sizeof(a->parent), "%s", arg);
		return 0;
	case 'H':
		if (strcmp(arg, "auto") && strcmp(arg, "v1") && strcmp(arg, "v2")) {
			fprintf(stderr, "dfrs-nodeagent: --cgroup '%s': want auto, v1 or v2\n", arg);
			return 2;
		}
		a->hier = arg;
		return 0;
	case 'B':
		if (strcmp(arg, "idle") && strcmp(arg, "weight")) {
			fprintf(stderr, "dfrs-nodeagent: --background '%s': want idle or weight\n", arg);
			return 2;
		}
		a->bg = !strcmp(arg, "idle") ? CGROUP_V2_BG_IDLE : CGROUP_V2_BG_WEIGHT;
		return 0;
	case 'l':
		if (!(a->log = fopen(arg, "a"))) {
			fprintf(stderr, "dfrs-nodeagent: --log %s: %s\n", arg, strerror(errno));
			return 2;
		}
		return 0;
	case 'p': o->pidfile = arg; return 0;
	case 'o': a->once = true; return 0;
	case 'w':
		if (!whole_in(arg, 0, CPU_WINDOW_MAX, &o->window)) {
			fprintf(stderr, "dfrs-nodeagent: --measure-window %s: not an integer in 0..%d\n", arg, CPU_WINDOW_MAX);
			return 2;
		}
		return 0;
	case 's':
		errno = 0;
		o->cpu_scale = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->cpu_scale > 0) ||
		    o->cpu_scale > 1024) {
			fprintf(stderr, "dfrs-nodeagent: --cpu-scale %s: not a number above 0 and at most 1024\n", arg);
			return 2;
		}
		return 0;
	case 'h': usage(stdout); return 0;
	}
	usage(stderr);
	return 2;
}

/* The command line into a and o: -1 to go on, else the exit status. */
static int agent_args(int argc, char **argv, agent_t *a, agent_opts_t *o)
{
	static const struct option opts[] = {
		{ "node", required_argument, NULL, 'n' },
		{ "cluster", required_argument, NULL, 'C' },
		{ "interval", required_argument, NULL, 'i' },
		{ "controller", required_argument, NULL, 'c' },
		{ "cgroup-parent", required_argument, NULL, 'g' },
		{ "cgroup", required_argument, NULL, 'H' },
		{ "background", required_argument, NULL, 'B' },
		{ "log", required_argument, NULL, 'l' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "once", no_argument, NULL, 'o' },
		{ "measure-window", required_argument, NULL, 'w' },
		{ "cpu-scale", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "n:C:i:c:g:H:B:l:p:ow:s:h", opts, NULL)) != -1)
		if ((rc = agent_option(a, o, c, optarg)) || c == 'h')
			return rc;
	if (optind < argc) {
		fprintf(stderr, "dfrs-nodeagent: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return -1;
}

/* The agent's pid into path: 0, or 2 after a message. */
static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "dfrs-nodeagent: --pidfile %s: %s\n", path, strerror(errno));
		return 2;
	}
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	return 0;
}

/* The thread that takes SIGTERM and SIGINT (stopper): 0, or -1. */
static int start_stopper(stopper_t *stop)
{
	pthread_t stop_thread;

	sigemptyset(&stop->signals);
	sigaddset(&stop->signals, SIGTERM);
	sigaddset(&stop->signals, SIGINT);
	/* blocked here and so in every later thread: only sigwait takes them */
	pthread_sigmask(SIG_BLOCK, &stop->signals, NULL);
	if (pthread_create(&stop_thread, NULL, stopper, stop)) {
		fprintf(stderr, "dfrs-nodeagent: cannot start the signal thread\n");
		return -1;
	}
	pthread_detach(stop_thread);
	return 0;
}

/* The cpu cgroups, and one line saying whether and how the agent
 * enforces the weights. */
static void start_enforcing(agent_t *a)
{
	char err[512];

	if (!open_cgroups(a, err, sizeof(err))) {
		say(a, "warning: not enforcing CPU weights: %s; jobs run with the kernel's default shares", err);
	} else if (a->v2) {
		a->enforcing = true;
		say(a, "enforcing CPU weights with cgroup v2 under %s every %d s "
		    "(in Slurm's job groups, else in %s; background tier by %s)",
		    a->v2cg.mount, a->interval, a->v2cg.parent,
		    a->bg == CGROUP_V2_BG_IDLE ? "cpu.idle" : "cpu.weight 1");
	} else {
		a->enforcing = true;
		say(a, "enforcing CPU weights in %s/%s every %d s", a->cg.mount,
		    a->cg.parent, a->interval);
	}
}

int main(int argc, char **argv)
{
	agent_t a = { .controller = "cpu", .interval = 2, .log = stderr,
		      .hier = "auto", .bg = CGROUP_V2_BG_IDLE };
	agent_opts_t o = { .window = CPU_WINDOW_DEFAULT, .cpu_scale = 1 };
	stopper_t stop = { .agent = &a };
	char host[256];
	int rc;

	if ((rc = agent_args(argc, argv, &a, &o)) >= 0)
		return rc;
	if (!a.node) {
		if (gethostname(host, sizeof(host)))
			return 2;
		host[strcspn(host, ".")] = '\0';
		a.node = host;
	}
	if (!a.parent[0])
		snprintf(a.parent, sizeof(a.parent), "dfrs/%s", a.node);
	if (o.pidfile && write_pidfile(o.pidfile))
		return 2;
	job_measure_init(&a.measure, (size_t)o.window, o.cpu_scale);
	stop.pidfile = o.pidfile;
	if (start_stopper(&stop))
		return 1;
	slurm_init(NULL);
	start_enforcing(&a);
	do {
		cycle(&a);
		for (int s = 0; s < a.interval * 10 && !stopping && !a.once; s++)
			usleep(100000);
	} while (!stopping && !a.once);

	agent_exit(&a, o.pidfile, false);
	return 0;
}
