/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yield_allocation.c - max-min (progressive filling) yield allocation for a
 * fixed placement (Stillwell et al. 2010, "Resource Allocation").  See
 * yield_allocation.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_index.h"
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
 * The state of a progressive filling (yield_allocation_compute), one
 * array per role; a cell is (host h, dimension d), at h * nd + d.
 */
typedef struct {
	int nd, nh;
	double *fixed, *slope;	/* per cell: usage fixed + slope * level */
	double *full_at;	/* per host: the level its first cell fills */
	int *to_sum, nto_sum;	/* hosts to sum again (dirty), in to_sum */
	char *dirty;
	/* each placed job's usage per task: fixed + slope * level while it
	 * rises, fixed at its yield and no slope once frozen (sum_host) */
	double *add_fixed, *add_slope;
	double *full_from;	/* per cell: full at or above this usage */
	/* act[0..nact): in index order, every job still rising; before
	 * the indexes are used, those only (compacted each round) */
	int *act, nact;
	int nactive;		/* how many jobs still rise */
	double *limit;		/* per job: job_limits */
	int round;
	/* Once the indexes are used (indexed, from round FILL_INDEX_ROUND):
	 * the jobs then rising by limit, lowest first, those before
	 * next_limit all frozen; per job, the round it was last tested in;
	 * per host (host_index.h, keys only), full_at, and stop_at, a level
	 * at or below which no job stops for a full cell of the host, both
	 * kept for the hosts summed */
	int indexed;
	char *active;		/* per job: still rising */
	struct by_limit {
		double limit;
		int i;
	} *by_limit;
	int nlimit, next_limit;
	int *seen;
	host_index_t full, stop;
	/* rises[i * nd + d]: job i's tasks grow in dimension d with the
	 * level (aggregate or elementary need above its minimum yield's) */
	char *rises;
	host_tasks_t ht;
	double level;
} fill_t;

static void fill_free(fill_t *f)
{
	free(f->fixed);
	free(f->slope);
	free(f->full_at);
	free(f->to_sum);
	free(f->add_fixed);
	free(f->add_slope);
	free(f->full_from);
	free(f->act);
	free(f->active);
	free(f->by_limit);
	free(f->seen);
	host_index_free(&f->full);
	host_index_free(&f->stop);
	free(f->dirty);
	free(f->limit);
	free(f->rises);
	host_tasks_free(&f->ht);
}

/* The arrays, every host dirty, every cell's full_from: 0, or -1. */
static int fill_alloc(const dfrs_instance_t *inst, const dfrs_placement_t *p,
		      fill_t *f)
{
	int nd = inst->ndims, nh = inst->nhosts;
	size_t ncells = (size_t)nh * nd, njd = (size_t)inst->njobs * nd;

	*f = (fill_t){ .nd = nd, .nh = nh, .nto_sum = nh };
	f->fixed = malloc(sizeof(double) * (ncells + 1));
	f->slope = malloc(sizeof(double) * (ncells + 1));
	f->full_at = malloc(sizeof(double) * (nh + 1));
	f->to_sum = malloc(sizeof(int) * (nh + 1));
	f->add_fixed = malloc(sizeof(double) * (njd + 1));
	f->add_slope = malloc(sizeof(double) * (njd + 1));
	f->full_from = malloc(sizeof(double) * (ncells + 1));
	f->act = malloc(sizeof(int) * (inst->njobs + 1));
	f->dirty = malloc(nh + 1);
	f->limit = malloc(sizeof(double) * (inst->njobs + 1));
	f->rises = malloc(njd + 1);
	if (!f->fixed || !f->slope || !f->full_at || !f->to_sum ||
	    !f->add_fixed || !f->add_slope || !f->full_from || !f->act ||
	    !f->dirty || !f->limit || !f->rises ||
	    host_tasks_build(inst, p, &f->ht))
		return -1;
	memset(f->dirty, 1, nh + 1);
	for (int h = 0; h < nh; h++) {
		f->to_sum[h] = h;
		for (int d = 0; d < nd; d++) {
			double cap = inst->hosts[h].cap[d];

			f->full_from[(size_t)h * nd + d] = cap - FILL_TOL * (1 + cap);
		}
	}
	return 0;
}

static int by_limit_up(const void *a, const void *b)
{
	const struct by_limit *x = a, *y = b;

	if (x->limit != y->limit)
		return x->limit < y->limit ? -1 : 1;
	return x->i - y->i;
}

/* Every placed job rises from its minimum yield: act, its limit, its
 * usage per task at level 0 and slope; every yield 0. */
static void fill_start(const dfrs_instance_t *inst, dfrs_placement_t *p,
		       fill_t *f)
{
	int nd = f->nd;

	for (int i = 0; i < inst->njobs; i++) {
		p->yield[i] = 0.0;
		if (p->task_host[p->first_task[i]] < 0)
			continue;
		const dfrs_job_t *job = &inst->jobs[i];

		f->act[f->nact++] = i;
		f->nactive++;
		job_limits(inst, &f->ht, i, &f->limit[i]);
		for (int d = 0; d < nd; d++) {
			f->add_fixed[(size_t)i * nd + d] =
				dfrs_task_usage(job, d, job->min_yield);
			f->add_slope[(size_t)i * nd + d] =
				(1.0 - job->min_yield) * job->need[d];
		}
		for (int d = 0; d < nd; d++)
			f->rises[(size_t)i * nd + d] =
				(1.0 - job->min_yield) * job->need[d] > 0.0 ||
				(1.0 - job->min_yield) * dfrs_elem_need(job, d) > 0.0;
	}
}

/*
 * A level at or below which no rising job on host h stops for a full cell
 * of h (fill_stops): the lowest over the cells (h, d) where some rising
 * job rises in d of a lower bound of the levels L at which the test
 * fixed + slope * L >= full_from holds as computed.  L is in [0, 1], so
 * the computed sum is within 3 eps (|fixed| + slope) of the exact one,
 * and the test holds only for L >= (full_from - fixed - 3 eps (|fixed| +
 * slope)) / slope; the margin taken, 1e-9 (|full_from| + |fixed| +
 * slope), is far wider than that and than the rounding of the bound
 * itself.  A cell nothing rises in stops no job: INFINITY; with no slope
 * the test does not depend on L.
 */
static double stop_at(const fill_t *f, int h)
{
	const host_tasks_t *ht = &f->ht;
	double at = INFINITY;

	for (int d = 0; d < f->nd; d++) {
		size_t c = (size_t)h * f->nd + d;
		double fx = f->fixed[c], s = f->slope[c], from = f->full_from[c];
		double cell;
		int rising = 0;

		for (int k = ht->host_start[h]; k < ht->host_start[h + 1] &&
		     !rising; k++) {
			int i = ht->task_job[k];

			rising = f->active[i] && f->rises[(size_t)i * f->nd + d];
		}
		if (!rising)
			continue;
		if (s > 0.0) {
			cell = (from - fx - 1e-9 * (fabs(from) + fabs(fx) + s)) / s;
			if (isnan(cell))
				cell = -INFINITY;
		} else {
			cell = s == 0.0 && fx < from ? INFINITY : -INFINITY;
		}
		if (cell < at)
			at = cell;
	}
	return at;
}

/*
 * From round FILL_INDEX_ROUND on, on FILL_INDEX_HOSTS hosts or more, the
 * rounds use the indexes: a round of passes over every host and rising
 * job costs O(hosts + jobs), and the rounds grow with the jobs (some 340
 * on bench_scale's 1,024 hosts, 2,700 on 10,000), so that the passes made
 * the allocation quadratic; the indexes cost O(hosts + jobs log jobs) to
 * build, then a round O(log hosts) plus the work on the jobs that stop.
 * The first rounds pass, so that a small allocation does not pay for the
 * build; on fewer hosts the passes cost less than the indexes' upkeep.
 */
#define FILL_INDEX_ROUND 16
#define FILL_INDEX_HOSTS 512

/* The indexes of every host's full_at and stop_at (summed), and the
 * rising jobs by limit: 0, or -1 out of memory. */
static int fill_index(const dfrs_instance_t *inst, fill_t *f)
{
	f->active = calloc(inst->njobs + 1, 1);
	f->by_limit = malloc(sizeof(*f->by_limit) * (f->nact + 1));
	f->seen = calloc(inst->njobs + 1, sizeof(int));
	if (!f->active || !f->by_limit || !f->seen ||
	    host_index_init(&f->full, f->nh, 0, NULL) ||
	    host_index_init(&f->stop, f->nh, 0, NULL))
		return -1;
	for (int a = 0; a < f->nact; a++)
		f->active[f->act[a]] = 1;
	for (int h = 0; h < f->nh; h++) {
		host_index_set_leaf(&f->full, h, f->full_at[h], NULL);
		host_index_set_leaf(&f->stop, h, stop_at(f, h), NULL);
	}
	host_index_build(&f->full);
	host_index_build(&f->stop);
	for (int a = 0; a < f->nact; a++)
		f->by_limit[f->nlimit++] =
			(struct by_limit){ f->limit[f->act[a]], f->act[a] };
	qsort(f->by_limit, f->nlimit, sizeof(*f->by_limit), by_limit_up);
	f->indexed = 1;
	return 0;
}

/* The dirty hosts summed again (and their full_at and stop_at in the
 * indexes once they are used). */
static void fill_sum_dirty(const dfrs_instance_t *inst, fill_t *f)
{
	for (int k = 0; k < f->nto_sum; k++) {
		int h = f->to_sum[k];

		sum_host(inst, &f->ht, f->add_fixed, f->add_slope, h, f->fixed,
			 f->slope, &f->full_at[h]);
		f->dirty[h] = 0;
		if (f->indexed) {
			host_index_set(&f->full, h, f->full_at[h], NULL);
			host_index_set(&f->stop, h, stop_at(f, h), NULL);
		}
	}
	f->nto_sum = 0;
}

/* The lowest limit of a rising job and full_at of a host, from 1: by a
 * pass, or from by_limit and the full index (minima: the same values). */
static double fill_next(fill_t *f)
{
	double next = 1.0;

	if (!f->indexed) {
		for (int a = 0; a < f->nact; a++)
			if (f->limit[f->act[a]] < next)
				next = f->limit[f->act[a]];
		for (int h = 0; h < f->nh; h++)
			if (f->full_at[h] < next)
				next = f->full_at[h];
		return next;
	}
	while (f->next_limit < f->nlimit &&
	       !f->active[f->by_limit[f->next_limit].i])
		f->next_limit++;
	if (f->next_limit < f->nlimit &&
	    f->by_limit[f->next_limit].limit < next)
		next = f->by_limit[f->next_limit].limit;
	if (host_index_min_key(&f->full) < next)
		next = host_index_min_key(&f->full);
	return next;
}

/* The dirty hosts summed again; the level raised to the lowest of the
 * rising jobs' limits and the hosts' full_at.  0, or -1 when that is
 * below the level (a rigid overload: the jobs do not fit), or out of
 * memory. */
static int fill_raise(const dfrs_instance_t *inst, fill_t *f)
{
	double next;

	fill_sum_dirty(inst, f);
	if (++f->round == FILL_INDEX_ROUND && f->nh >= FILL_INDEX_HOSTS &&
	    fill_index(inst, f))
		return -1;
	next = fill_next(f);
	if (next < f->level - FILL_TOL)
		return -1;
	if (next < f->level)
		next = f->level;
	f->level = next;
	return 0;
}

/* Whether rising job i stops at the level: the level is 1, its own
 * limit, or a cell it rises in is full. */
static inline int fill_stops(const fill_t *f, int i)
{
	const host_tasks_t *ht = &f->ht;

	if (f->level >= 1.0 - FILL_TOL || f->limit[i] <= f->level + FILL_TOL)
		return 1;
	for (int k = ht->job_start[i]; k < ht->job_start[i + 1]; k++)
		for (int d = 0; d < f->nd; d++) {
			size_t c = (size_t)ht->job_host[k] * f->nd + d;

			if (f->rises[(size_t)i * f->nd + d] &&
			    f->fixed[c] + f->slope[c] * f->level >= f->full_from[c])
				return 1;
		}
	return 0;
}

/* Freeze rising job i at the level: its yield set, its usage fixed, its
 * hosts dirty. */
static inline void freeze(const dfrs_instance_t *inst, dfrs_placement_t *p,
			  fill_t *f, int i)
{
	const host_tasks_t *ht = &f->ht;
	const dfrs_job_t *job = &inst->jobs[i];
	int nd = f->nd;

	p->yield[i] = dfrs_yield_at_scaled(job, f->level);
	for (int d = 0; d < nd; d++) {
		f->add_fixed[(size_t)i * nd + d] =
			dfrs_task_usage(job, d, p->yield[i]);
		f->add_slope[(size_t)i * nd + d] = 0.0;
	}
	for (int k = ht->job_start[i]; k < ht->job_start[i + 1]; k++)
		if (!f->dirty[ht->job_host[k]]) {
			f->dirty[ht->job_host[k]] = 1;
			f->to_sum[f->nto_sum++] = ht->job_host[k];
		}
}

/* Job i, if it still rises and was not tested in this round, frozen if
 * it stops at the level: 1 if it was. */
static int freeze_if_stops(const dfrs_instance_t *inst, dfrs_placement_t *p,
			   fill_t *f, int i)
{
	if (!f->active[i] || f->seen[i] == f->round)
		return 0;
	f->seen[i] = f->round;
	if (!fill_stops(f, i))
		return 0;
	freeze(inst, p, f, i);
	f->active[i] = 0;
	f->nactive--;
	return 1;
}

/*
 * With the indexes, only the jobs that may stop are tested, each once: at
 * level 1 every rising job; below it, those within FILL_TOL of their
 * limit, the next in by_limit, and those on a host whose stop_at is at
 * most the level (the stop index finds them), where a cell they rise in
 * may be full.  How many stopped.
 */
static int freeze_indexed(const dfrs_instance_t *inst, dfrs_placement_t *p,
			  fill_t *f)
{
	const host_tasks_t *ht = &f->ht;
	double up_to = nextafter(f->level, INFINITY);
	int stopped = 0;

	if (f->level >= 1.0 - FILL_TOL) {
		for (int a = 0; a < f->nact; a++)
			if (f->active[f->act[a]]) {
				freeze(inst, p, f, f->act[a]);
				f->active[f->act[a]] = 0;
				stopped++;
			}
		f->nactive = 0;
		return stopped;
	}
	for (int r = f->next_limit; r < f->nlimit &&
	     f->by_limit[r].limit <= f->level + FILL_TOL; r++)
		stopped += freeze_if_stops(inst, p, f, f->by_limit[r].i);
	for (int h = host_index_first(&f->stop, 0, up_to, NULL, NULL, NULL);
	     h >= 0; h = host_index_first(&f->stop, h + 1, up_to, NULL, NULL, NULL))
		for (int k = ht->host_start[h]; k < ht->host_start[h + 1]; k++)
			stopped += freeze_if_stops(inst, p, f, ht->task_job[k]);
	return stopped;
}

/*
 * Freeze the jobs that touch a full cell or a full task at the level:
 * their yields set, their usage fixed, their hosts dirty; a job's test
 * does not depend on which others stop in the same round.  Before the
 * indexes, every rising job is tested and act keeps the others.  If none
 * stops (rounding: nothing binds), all get the level.
 */
static void fill_freeze(const dfrs_instance_t *inst, dfrs_placement_t *p,
			fill_t *f)
{
	int stopped = 0;

	if (f->indexed) {
		stopped = freeze_indexed(inst, p, f);
	} else {
		int kept = 0;

		for (int a = 0; a < f->nact; a++) {
			if (fill_stops(f, f->act[a]))
				freeze(inst, p, f, f->act[a]);
			else
				f->act[kept++] = f->act[a];
		}
		stopped = f->nact - kept;
		if (stopped)
			f->nact = f->nactive = kept;
	}
	if (stopped)
		return;
	for (int a = 0; a < f->nact; a++)
		if (!f->indexed || f->active[f->act[a]])
			p->yield[f->act[a]] = dfrs_yield_at_scaled(
				&inst->jobs[f->act[a]], f->level);
	f->nactive = 0;
}

/*
 * Progressive filling in rounds (Stillwell et al. 2010, "Resource
 * Allocation": "once tasks are placed on nodes we iteratively maximize
 * the minimum yield").  The level L is a scaled yield: a rising job at L
 * has yield dfrs_yield_at_scaled(job, L), its tasks use fixed + slope * L.
 *
 * On entry: p places every job whose first task has a host (the others
 * are not allocated: yield 0).  The placement is not changed.
 *
 * Invariants at the top of each round:
 *  - the nactive placed jobs still rising are those in act (before the
 *    indexes) or those in act marked active (after);
 *    every other placed job is frozen at the yield of the level at which
 *    it stopped, and add_fixed/add_slope hold each job's usage per task
 *    (frozen: its usage at its yield, slope 0);
 *  - fixed/slope of every host not in to_sum are the sums of those rows
 *    over its tasks, in the order of a full pass (host_tasks_t), so a
 *    host summed again gives the same value to the bit; only the hosts of
 *    the jobs frozen in the last round are in to_sum (dirty); once
 *    used, the indexes hold the full_at and stop_at of every host not in
 *    to_sum;
 *  - at the level reached, no cell is over its capacity (by more than
 *    FILL_TOL) and no rising job is over its limit (job_limits).
 * Each round (fill_raise) raises the level to the lowest of the rising
 * jobs' limits and the cells' full_at, which keeps the last invariant by
 * construction: a cell fills exactly there, a limit is reached exactly
 * there.  A lower value than the level means a rigid overload (cells
 * full at the minimum yields): no allocation, -1.  Then fill_freeze stops
 * every rising job that touches a full cell it rises in, or its own
 * limit, or level 1; the frozen jobs' usage no longer grows, so the cells
 * they fill stay within capacity.
 *
 * Termination: every round freezes at least one job: either one touches
 * the cell or limit that set the level, or, when rounding leaves none
 * binding, all the rising jobs get the level and stop.  So nactive
 * decreases strictly and there are at most as many rounds as placed jobs.
 *
 * Cost: a round sums again only the hosts of the jobs frozen in the last
 * one.  From round FILL_INDEX_ROUND on (on FILL_INDEX_HOSTS hosts or
 * more), it finds the next level and the
 * jobs to test through the indexes and by_limit, so that it costs
 * O(log hosts) plus the work on the jobs that stop (and the few hosts
 * within the margin of stop_at), not a pass over every host and job: the
 * rounds grow with the jobs, and a pass each made the allocation
 * quadratic in the hosts.  Both ways reach the same values to the bit.
 *
 * On exit (0): every placed job's yield is in [min_yield, 1], no cell is
 * over capacity, the first level reached is the largest possible minimum
 * scaled yield for this placement, and p->min_scaled_yield is updated.
 */
int yield_allocation_compute(const dfrs_instance_t *inst, dfrs_placement_t *p)
{
	fill_t f;
	int rc = -1;

	if (fill_alloc(inst, p, &f))
		goto out;
	fill_start(inst, p, &f);
	while (f.nactive > 0) {
		if (fill_raise(inst, &f))
			goto out;	/* does not fit at the current level */
		fill_freeze(inst, p, &f);
	}
	dfrs_placement_update_min(inst, p);
	rc = 0;
out:
	fill_free(&f);
	return rc;
}
