/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yield_allocation.c - max-min (progressive filling) yield allocation for a
 * fixed placement (Stillwell et al. 2010, "Resource Allocation").  See
 * yield_allocation.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "yield_allocation.h"

#define FILL_TOL 1e-9

/* Highest level L <= limit with the task's elementary usage at yield(L)
 * within elem. */
static double elementary_limit(const dfrs_job_t *job, double elem, int d,
			       double limit)
{
	double scalable = (1.0 - job->min_yield) * dfrs_elem_need(job, d);
	double room = elem - dfrs_task_elem_usage(job, d, job->min_yield);

	if (scalable > 0.0 && room / scalable < limit)
		return room / scalable;
	return limit;
}

/*
 * The tasks on each host, in (job, task) order: host h's are
 * task_job[host_start[h] .. host_start[h + 1] - 1], each entry the task's
 * job.  A cell's usage is summed in that order, the order of a pass over
 * every job's tasks, so summing one cell again gives the same value to
 * the bit as summing them all.
 */
typedef struct {
	int *host_start;	/* [nh + 1] */
	int *task_job;		/* [placed tasks] */
	/* each placed job's hosts, once each (a job has several tasks on
	 * a host when it packs them): job i's are
	 * job_host[job_start[i] .. job_start[i + 1] - 1] */
	int *job_start;		/* [njobs + 1] */
	int *job_host;		/* [placed tasks] */
} host_tasks_t;

static int host_tasks_build(const dfrs_instance_t *inst,
			    const dfrs_placement_t *p, host_tasks_t *ht)
{
	int nh = inst->nhosts;

	int *seen_by = malloc(sizeof(int) * (nh + 1));

	ht->host_start = calloc(nh + 2, sizeof(int));
	ht->task_job = malloc(sizeof(int) * (p->first_task[inst->njobs] + 1));
	ht->job_start = malloc(sizeof(int) * (inst->njobs + 1));
	ht->job_host = malloc(sizeof(int) * (p->first_task[inst->njobs] + 1));
	if (!seen_by || !ht->host_start || !ht->task_job || !ht->job_start ||
	    !ht->job_host) {
		free(seen_by);
		return -1;
	}
	for (int h = 0; h < nh; h++)
		seen_by[h] = -1;
	ht->job_start[0] = 0;
	for (int i = 0, n = 0; i < inst->njobs; i++) {
		if (p->task_host[p->first_task[i]] >= 0)
			for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++)
				if (seen_by[p->task_host[t]] != i) {
					seen_by[p->task_host[t]] = i;
					ht->job_host[n++] = p->task_host[t];
				}
		ht->job_start[i + 1] = n;
	}
	free(seen_by);
	for (int i = 0; i < inst->njobs; i++) {
		if (p->task_host[p->first_task[i]] < 0)
			continue;
		for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++)
			ht->host_start[p->task_host[t] + 2]++;
	}
	for (int h = 0; h < nh; h++)
		ht->host_start[h + 2] += ht->host_start[h + 1];
	/* host_start[h + 1] is now where host h's next task goes */
	for (int i = 0; i < inst->njobs; i++) {
		if (p->task_host[p->first_task[i]] < 0)
			continue;
		for (int t = p->first_task[i]; t < p->first_task[i + 1]; t++)
			ht->task_job[ht->host_start[p->task_host[t] + 1]++] = i;
	}
	return 0;
}

/*
 * The highest level a placed job's tasks allow on their hosts' elementary
 * capacities: elementary_limit over its hosts (each once) and dimensions,
 * from 1.  It does not change while the level rises, so it is computed
 * once, not in every round (a minimum, so the same value to the bit as
 * over every task).
 */
static void job_limits(const dfrs_instance_t *inst, const host_tasks_t *ht,
		       int i, double *limit)
{
	const dfrs_job_t *job = &inst->jobs[i];

	*limit = 1.0;
	for (int k = ht->job_start[i]; k < ht->job_start[i + 1]; k++)
		for (int d = 0; d < inst->ndims; d++)
			*limit = elementary_limit(job,
				inst->hosts[ht->job_host[k]].elem[d], d, *limit);
}

static void host_tasks_free(host_tasks_t *ht)
{
	free(ht->host_start);
	free(ht->task_job);
	free(ht->job_start);
	free(ht->job_host);
}

/*
 * Usage at level L in host h's cells (h, d): fixed + slope * L, the
 * jobs still rising counted at their minimum yield plus the slope, the
 * others at their yield.  Each job's share per task is in add_fixed and
 * add_slope (rows of nd, set when it starts rising and when it stops): the
 * same products as computed here, so the same sums to the bit.  The level
 * at which a cell fills is room / slope, INFINITY if nothing in it rises,
 * -INFINITY if it is overloaded with nothing rising (rigid overload);
 * *full_at: the lowest over h's cells.
 */
static void sum_host(const dfrs_instance_t *inst, const host_tasks_t *ht,
		     const double *add_fixed, const double *add_slope, int h,
		     double *fixed, double *slope, double *full_at)
{
	int nd = inst->ndims;
	double *f = &fixed[(size_t)h * nd], *s = &slope[(size_t)h * nd];

	if (nd == 2) {	/* CPU and memory: the sums in registers */
		double f0 = 0.0, f1 = 0.0, s0 = 0.0, s1 = 0.0;

		for (int k = ht->host_start[h]; k < ht->host_start[h + 1]; k++) {
			size_t i = (size_t)ht->task_job[k] * 2;

			f0 += add_fixed[i];
			f1 += add_fixed[i + 1];
			s0 += add_slope[i];
			s1 += add_slope[i + 1];
		}
		f[0] = f0, f[1] = f1, s[0] = s0, s[1] = s1;
	} else {
		for (int d = 0; d < nd; d++)
			f[d] = s[d] = 0.0;
		for (int k = ht->host_start[h]; k < ht->host_start[h + 1]; k++) {
			size_t i = (size_t)ht->task_job[k] * nd;

			for (int d = 0; d < nd; d++) {
				f[d] += add_fixed[i + d];
				s[d] += add_slope[i + d];
			}
		}
	}
	*full_at = INFINITY;
	for (int d = 0; d < nd; d++) {
		double cap = inst->hosts[h].cap[d], room = cap - f[d];
		double at = s[d] > 0.0 ? room / s[d] :
			    room < -FILL_TOL * (1 + cap) ? -INFINITY : INFINITY;

		if (at < *full_at)
			*full_at = at;
	}
}

/*
 * Progressive filling in rounds.  Only the jobs frozen in a round change
 * what the cells hold, so the next round sums again only the hosts where
 * they have tasks (dirty, listed in to_sum), each in the order of a full
 * pass, and keeps the level at which each host's first cell fills; the
 * rounds look only at the jobs still rising (act, in index order).  Each round
 * raises the level to the lowest of the rising jobs' limits and the
 * cells' full_at (a rigid overload: no allocation).
 */
int yield_allocation_compute(const dfrs_instance_t *inst, dfrs_placement_t *p)
{
	int nd = inst->ndims, nh = inst->nhosts;
	size_t ncells = (size_t)nh * nd;
	double *fixed = malloc(sizeof(double) * (ncells + 1));
	double *slope = malloc(sizeof(double) * (ncells + 1));
	double *full_at = malloc(sizeof(double) * (nh + 1));	/* per host */
	int *to_sum = malloc(sizeof(int) * (nh + 1)), nto_sum = nh;
	/* each placed job's usage per task: fixed + slope * level while it
	 * rises, fixed at its yield and no slope once frozen (sum_host) */
	double *add_fixed = malloc(sizeof(double) * ((size_t)inst->njobs * nd + 1));
	double *add_slope = malloc(sizeof(double) * ((size_t)inst->njobs * nd + 1));
	/* a cell is full at or above this usage (the freezing test) */
	double *full_from = malloc(sizeof(double) * (ncells + 1));
	int *act = malloc(sizeof(int) * (inst->njobs + 1));
	char *dirty = malloc(nh + 1);
	double *limit = malloc(sizeof(double) * (inst->njobs + 1));
	host_tasks_t ht = { NULL, NULL, NULL, NULL };
	/* rises[i * nd + d]: job i's tasks grow in dimension d with the
	 * level (aggregate or elementary need above its minimum yield's) */
	char *rises = malloc((size_t)inst->njobs * nd + 1);
	double level = 0.0;
	int nactive = 0, rc = -1;

	if (!fixed || !slope || !full_at || !to_sum || !add_fixed ||
	    !add_slope || !full_from || !act ||
	    !dirty || !limit || !rises || host_tasks_build(inst, p, &ht))
		goto out;
	memset(dirty, 1, nh + 1);
	for (int h = 0; h < nh; h++) {
		to_sum[h] = h;
		for (int d = 0; d < nd; d++) {
			double cap = inst->hosts[h].cap[d];

			full_from[(size_t)h * nd + d] = cap - FILL_TOL * (1 + cap);
		}
	}
	for (int i = 0; i < inst->njobs; i++) {
		p->yield[i] = 0.0;
		if (p->task_host[p->first_task[i]] >= 0) {
			const dfrs_job_t *job = &inst->jobs[i];

			act[nactive++] = i;
			job_limits(inst, &ht, i, &limit[i]);
			for (int d = 0; d < nd; d++) {
				add_fixed[(size_t)i * nd + d] =
					dfrs_task_usage(job, d, job->min_yield);
				add_slope[(size_t)i * nd + d] =
					(1.0 - job->min_yield) * job->need[d];
			}
			for (int d = 0; d < nd; d++)
				rises[(size_t)i * nd + d] =
					(1.0 - job->min_yield) * job->need[d] > 0.0 ||
					(1.0 - job->min_yield) * dfrs_elem_need(job, d) > 0.0;
		}
	}
	while (nactive > 0) {
		double next = 1.0;
		int kept = 0;

		for (int k = 0; k < nto_sum; k++) {
			sum_host(inst, &ht, add_fixed, add_slope, to_sum[k],
				 fixed, slope, &full_at[to_sum[k]]);
			dirty[to_sum[k]] = 0;
		}
		nto_sum = 0;
		for (int a = 0; a < nactive; a++)
			if (limit[act[a]] < next)
				next = limit[act[a]];
		for (int h = 0; h < nh; h++)
			if (full_at[h] < next)
				next = full_at[h];
		if (next < level - FILL_TOL)
			goto out;	/* does not fit at the current level */
		if (next < level)
			next = level;
		level = next;

		/* Freeze the jobs that touch a full cell or a full task. */
		for (int a = 0; a < nactive; a++) {
			int i = act[a];
			const dfrs_job_t *job = &inst->jobs[i];
			int stop = level >= 1.0 - FILL_TOL || limit[i] <= level + FILL_TOL;

			for (int k = ht.job_start[i]; !stop && k < ht.job_start[i + 1]; k++) {
				int h = ht.job_host[k];

				for (int d = 0; !stop && d < nd; d++) {
					size_t c = (size_t)h * nd + d;

					if (rises[(size_t)i * nd + d] &&
					    fixed[c] + slope[c] * level >= full_from[c])
						stop = 1;
				}
			}
			if (!stop) {
				act[kept++] = i;
				continue;
			}
			p->yield[i] = dfrs_yield_at_scaled(job, level);
			for (int d = 0; d < nd; d++) {
				add_fixed[(size_t)i * nd + d] =
					dfrs_task_usage(job, d, p->yield[i]);
				add_slope[(size_t)i * nd + d] = 0.0;
			}
			for (int k = ht.job_start[i]; k < ht.job_start[i + 1]; k++)
				if (!dirty[ht.job_host[k]]) {
					dirty[ht.job_host[k]] = 1;
					to_sum[nto_sum++] = ht.job_host[k];
				}
		}
		if (kept == nactive) {	/* rounding: nothing binds, give all the level */
			for (int a = 0; a < nactive; a++) {
				p->yield[act[a]] = dfrs_yield_at_scaled(&inst->jobs[act[a]], level);
			}
			kept = 0;
		}
		nactive = kept;
	}
	dfrs_placement_update_min(inst, p);
	rc = 0;
out:
	free(fixed);
	free(slope);
	free(full_at);
	free(to_sum);
	free(add_fixed);
	free(add_slope);
	free(full_from);
	free(act);
	free(dirty);
	free(limit);
	free(rises);
	host_tasks_free(&ht);
	return rc;
}
