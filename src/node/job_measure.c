/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_measure.c - dfrs-nodeagent's measured CPU needs, sampled from /proc
 * and reported in the node's Extra field (job_measure.h; Liu et al. 2013,
 * section 4.1: CPU usage from history).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm_errno.h>

#include "job_measure.h"
#include "proc_cpu.h"

#define MAX_PIDS 512

void job_measure_init(job_measure_t *m, size_t window, double cpu_scale)
{
	memset(m, 0, sizeof(*m));
	m->on = window > 0;
	cpu_window_init(&m->win, window);
	m->cpu_scale = cpu_scale > 0 ? cpu_scale : 1;
	m->ticks = (double)sysconf(_SC_CLK_TCK);
	if (!(m->ticks > 0))
		m->ticks = 100;
	m->refresh = JOB_MEASURE_REFRESH;
}

void job_measure_set_stale(job_measure_t *m, int need_stale)
{
	int r = need_stale / 3;

	m->refresh = need_stale <= 0 || r > JOB_MEASURE_REFRESH ?
		     JOB_MEASURE_REFRESH : r < 1 ? 1 : r;
}

void job_measure_free(job_measure_t *m)
{
	cpu_window_free(&m->win);
}

static double monotonic(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void job_measure_begin(job_measure_t *m)
{
	if (m->on)
		cpu_window_begin(&m->win);
}

void job_measure_job(job_measure_t *m, uint32_t job_id, const pid_t *pids,
		     size_t npids)
{
	cpu_sample_t s[MAX_PIDS];
	size_t n = 0;

	if (!m->on)
		return;
	for (size_t i = 0; i < npids && n < MAX_PIDS; i++)
		if (proc_cpu_seconds("/proc", pids[i], m->ticks, &s[n].cpu) == 0)
			s[n++].pid = (int32_t)pids[i];
	/* out of memory: the job starts afresh at the next pass */
	(void)cpu_window_sample(&m->win, job_id, monotonic(), s, n);
}

void job_measure_end(job_measure_t *m)
{
	if (m->on)
		cpu_window_end(&m->win);
}

/* Whether now's needs differ enough from the last report's. */
static bool changed(const job_measure_t *m, const measured_tag_t *now)
{
	if (now->njobs != m->sent.njobs)
		return true;
	for (size_t i = 0; i < now->njobs; i++) {
		double was;
		if (measured_tag_need(&m->sent, now->jobs[i].job_id, &was) ||
		    fabs(was - now->jobs[i].need) >= JOB_MEASURE_STEP - 1e-9)
			return true;
	}
	return false;
}

/* Write word (NULL: remove ours) into node's Extra, keeping other words. */
static int write_extra(const char *node, const char *word, char *msg,
		       size_t len)
{
	node_info_msg_t *info = NULL;
	update_node_msg_t up;
	char *extra = NULL;
	int rc;

	if (slurm_load_node_single(&info, (char *)node, SHOW_ALL) !=
	    SLURM_SUCCESS || !info || info->record_count < 1) {
		snprintf(msg, len, "cannot read node %s from slurmctld (%s)",
			 node, slurm_strerror(errno));
		slurm_free_node_info_msg(info);
		return -1;
	}
	rc = measured_tag_replace(info->node_array[0].extra, word, &extra);
	slurm_free_node_info_msg(info);
	if (rc) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	slurm_init_update_node_msg(&up);
	up.node_names = (char *)node;
	up.extra = extra;
	rc = slurm_update_node(&up);
	free(extra);
	if (rc != SLURM_SUCCESS) {
		snprintf(msg, len, "cannot set node %s's Extra (%s)", node,
			 slurm_strerror(errno));
		return -1;
	}
	return 0;
}

int job_measure_report(job_measure_t *m, const char *node,
		       const job_info_msg_t *jobs, char *msg, size_t len)
{
	static measured_tag_t now;
	char word[MEASURED_TAG_MAX_JOBS * 20 + 64];
	long wall = (long)time(NULL);

	if (!m->on || !jobs)
		return 0;
	now.njobs = 0;
	for (size_t i = 0; i < m->win.njobs && now.njobs < MEASURED_TAG_MAX_JOBS;
	     i++) {
		uint32_t id = m->win.jobs[i].job_id;
		const job_info_t *job = NULL;
		for (uint32_t k = 0; k < jobs->record_count && !job; k++)
			if (jobs->job_array[k].job_id == id)
				job = &jobs->job_array[k];
		if (!job || !job->num_nodes || !job->num_cpus)
			continue;
		double cpus = (double)job->num_cpus / job->num_nodes *
			      m->cpu_scale, need;
		if (cpu_window_measure(&m->win, id, cpus, &need, NULL) == 0)
			now.jobs[now.njobs++] = (measured_entry_t){ id,
				round(need * 100) / 100 };
	}
	if (!changed(m, &now) &&
	    (!now.njobs || wall - m->sent_at < m->refresh))
		return 0;
	int have = now.njobs &&
		   measured_tag_format(now.jobs, now.njobs, wall, word,
				       sizeof(word)) == 0;
	if (write_extra(node, have ? word : NULL, msg, len)) {
		if (m->failed_logged)
			return 0;
		m->failed_logged = true;
		return -1;
	}
	int set_changed = now.njobs != m->sent.njobs;
	for (size_t i = 0; i < now.njobs && !set_changed; i++)
		set_changed = measured_tag_need(&m->sent, now.jobs[i].job_id,
						&(double){ 0 }) != 0;
	m->failed_logged = false;
	m->sent = now;
	m->sent_at = wall;
	snprintf(msg, len, "Extra: %s", have ? word : "dfrs:measured removed");
	return set_changed ? 1 : 2;
}
