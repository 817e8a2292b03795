/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_fcfs.c - First Come First Served, the baseline of Liu et al. 2013 (section
 * 1) and Zhang et al. 2000: jobs start in arrival order, one process per slot
 * (a CPU; a node on hosts of 1 CPU), and the first job that does not fit
 * (sched_fit: the idle slots, and its memory and GPUs on their hosts)
 * blocks the queue.
 * sched_fcfs_head is that pass alone, EASY's first step too.
 */
#include <stdlib.h>

#include "sched_engine.h"

int sched_fcfs_head(sched_state_t *st, sched_decisions_t *out, int *nodes,
		    int *idle, size_t *j)
{
	for (*j = 0; *j < st->njobs; (*j)++) {
		sched_job_t *job = &st->jobs[*j];
		if (job->where != SCHED_QUEUED)
			continue;
		if (job->nodes > (job->allowed ? sched_fg_idle_for(st, *j)
						: *idle))
			break;
		int fit = sched_fit(st, NULL, *j, SCHED_TIER_FG, NULL, nodes);
		if (fit < 0)
			return -1;
		if (!fit)
			break;
		if (sched_start(st, out, *j, SCHED_TIER_FG, nodes))
			return -1;
		*idle -= job->nodes;
	}
	return 0;
}

int sched_fcfs(sched_state_t *st, const sched_config_t *cfg, unsigned events,
	       sched_decisions_t *out)
{
	int idle = sched_fg_idle_count(st);
	int *nodes = malloc((size_t)(st->nnodes > 0 ? st->nnodes : 1) *
			    sizeof(int));
	size_t j;
	if (!nodes)
		return -1;
	int rc = sched_fcfs_head(st, out, nodes, &idle, &j);
	free(nodes);
	return rc;
}
