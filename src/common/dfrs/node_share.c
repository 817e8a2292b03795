/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_share.c - jobs sharing nodes under DFRS (Stillwell et al. 2010: rigid memory,
 * fluid CPU, one yield per job, max-min yield allocation), one task per
 * node as Slurm allocates.  Node choice for an arrival is the greedy
 * "least loaded host where the task fits at its minimum yield" of the
 * seed's online GreedyP, restricted to distinct, allowed nodes; the yields
 * come from yield_allocation_compute(), the same code dfrs pack uses.
 */
#include "node_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs_model.h"
#include "yield_allocation.h"

#define FIT_EPS 1e-9
enum { DIM_CPU, DIM_MEM, NDIMS };

void node_share_init(node_share_t *s, int nnodes)
{
	memset(s, 0, sizeof(*s));
	s->nnodes = nnodes;
}

void node_share_free(node_share_t *s)
{
	for (size_t i = 0; i < s->njobs; i++)
		free(s->jobs[i].nodes);
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}

share_job_t *node_share_find(const node_share_t *s, uint32_t id)
{
	for (size_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].id == id)
			return &s->jobs[i];
	return NULL;
}

static int on_node(const share_job_t *j, int n)
{
	for (int t = 0; t < j->nnodes; t++)
		if (j->nodes[t] == n)
			return 1;
	return 0;
}

double node_share_cpu_load(const node_share_t *s, int n)
{
	double load = 0;

	for (size_t i = 0; i < s->njobs; i++)
		if (!s->jobs[i].suspended && on_node(&s->jobs[i], n))
			load += s->jobs[i].need;
	return load;
}

double node_share_mem_used(const node_share_t *s, int n)
{
	double mem = 0;

	for (size_t i = 0; i < s->njobs; i++)
		if (on_node(&s->jobs[i], n))
			mem += s->jobs[i].mem;
	return mem;
}

/* CPU the running tasks on node n use at their minimum yields. */
static double min_cpu(const node_share_t *s, int n)
{
	double cpu = 0;

	for (size_t i = 0; i < s->njobs; i++)
		if (!s->jobs[i].suspended && on_node(&s->jobs[i], n))
			cpu += s->jobs[i].min_yield * s->jobs[i].need;
	return cpu;
}

static int fits(const node_share_t *s, const share_job_t *job, int n)
{
	return node_share_mem_used(s, n) + job->mem <= 1 + FIT_EPS &&
	       min_cpu(s, n) + job->min_yield * job->need <= 1 + FIT_EPS;
}

int node_share_choose(const node_share_t *s, const share_job_t *job,
		      const unsigned char *allowed, int want, int *chosen,
		      char *err, size_t errlen)
{
	int *cand, ncand = 0, nallowed = 0;
	double *load;

	if (want < 1 || want > s->nnodes) {
		snprintf(err, errlen, "job %u asks for %d nodes of %d", job->id,
			 want, s->nnodes);
		return -1;
	}
	cand = malloc(sizeof(*cand) * (size_t)s->nnodes);
	load = malloc(sizeof(*load) * (size_t)s->nnodes);
	if (!cand || !load) {
		free(cand);
		free(load);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int n = 0; n < s->nnodes; n++) {
		if (!allowed[n])
			continue;
		nallowed++;
		if (!fits(s, job, n))
			continue;
		load[n] = node_share_cpu_load(s, n);
		/* insertion by (load, index): stable for equal loads */
		int k = ncand++;
		while (k > 0 && load[cand[k - 1]] > load[n] + FIT_EPS) {
			cand[k] = cand[k - 1];
			k--;
		}
		cand[k] = n;
	}
	if (ncand < want) {
		snprintf(err, errlen,
			 "job %u (mem %.3g, need %.3g at min yield %.3g per node) fits on %d of %d allowed nodes, needs %d",
			 job->id, job->mem, job->need, job->min_yield, ncand,
			 nallowed, want);
		free(cand);
		free(load);
		return -1;
	}
	memcpy(chosen, cand, sizeof(*chosen) * (size_t)want);
	for (int i = 1; i < want; i++) {	/* increasing node order */
		int v = chosen[i], k = i;
		while (k > 0 && chosen[k - 1] > v) {
			chosen[k] = chosen[k - 1];
			k--;
		}
		chosen[k] = v;
	}
	free(cand);
	free(load);
	return 0;
}

/* Max-min yields of the running jobs; floor 0 ignores the minimum yields. */
static int allocate(node_share_t *s, int honour_min)
{
	dfrs_host_t *hosts = calloc((size_t)s->nnodes ? (size_t)s->nnodes : 1,
				    sizeof(*hosts));
	dfrs_job_t *jobs = calloc(s->njobs ? s->njobs : 1, sizeof(*jobs));
	dfrs_instance_t inst = { .ndims = NDIMS, .nhosts = s->nnodes,
				 .hosts = hosts, .njobs = (int)s->njobs,
				 .jobs = jobs };
	dfrs_placement_t p;
	int rc = -1;

	if (!hosts || !jobs)
		goto out;
	for (int n = 0; n < s->nnodes; n++)
		for (int d = 0; d < NDIMS; d++)
			hosts[n].cap[d] = hosts[n].elem[d] = 1.0;
	for (size_t i = 0; i < s->njobs; i++) {
		const share_job_t *j = &s->jobs[i];
		jobs[i].ntasks = j->nnodes;
		jobs[i].req[DIM_MEM] = j->mem;
		/* a suspended job only holds memory */
		jobs[i].need[DIM_CPU] = j->suspended ? 0 : j->need;
		jobs[i].min_yield = (j->suspended || !honour_min) ? 0 : j->min_yield;
	}
	if (dfrs_placement_init(&p, &inst))
		goto out;
	for (size_t i = 0; i < s->njobs; i++)
		for (int t = 0; t < s->jobs[i].nnodes; t++)
			p.task_host[p.first_task[i] + t] = s->jobs[i].nodes[t];
	if (yield_allocation_compute(&inst, &p) == 0) {
		for (size_t i = 0; i < s->njobs; i++)
			s->jobs[i].yield = s->jobs[i].suspended ? 0 : p.yield[i];
		rc = 0;
	}
	dfrs_placement_free(&p);
out:
	free(hosts);
	free(jobs);
	return rc;
}

int node_share_allocate(node_share_t *s)
{
	if (allocate(s, 1) == 0)
		return 0;
	/* e.g. a job resumed where others started meanwhile: share fairly
	 * below the minimums rather than keep stale yields */
	return allocate(s, 0) == 0 ? 1 : -1;
}

int node_share_add(node_share_t *s, const share_job_t *job,
		   char *err, size_t errlen)
{
	share_job_t copy = *job;

	if (node_share_find(s, job->id)) {
		snprintf(err, errlen, "job %u is already placed", job->id);
		return -1;
	}
	if (job->nnodes < 1 || !(job->min_yield > 0 && job->min_yield <= 1) ||
	    !(job->mem >= 0 && job->mem <= 1) || !(job->need >= 0 && job->need <= 1)) {
		snprintf(err, errlen,
			 "job %u: nodes %d, mem %g, need %g, min yield %g out of range",
			 job->id, job->nnodes, job->mem, job->need, job->min_yield);
		return -1;
	}
	for (int t = 0; t < job->nnodes; t++) {
		int n = job->nodes[t];
		if (n < 0 || n >= s->nnodes) {
			snprintf(err, errlen, "job %u: node index %d out of 0..%d",
				 job->id, n, s->nnodes - 1);
			return -1;
		}
		for (int u = 0; u < t; u++)
			if (job->nodes[u] == n) {
				snprintf(err, errlen, "job %u: node %d twice", job->id, n);
				return -1;
			}
	}
	if (s->njobs == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 16;
		share_job_t *grown = realloc(s->jobs, ncap * sizeof(*grown));
		if (!grown) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		s->jobs = grown;
		s->cap = ncap;
	}
	copy.nodes = malloc(sizeof(int) * (size_t)job->nnodes);
	if (!copy.nodes) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(copy.nodes, job->nodes, sizeof(int) * (size_t)job->nnodes);
	copy.yield = 0;
	s->jobs[s->njobs++] = copy;
	if (node_share_allocate(s) != 0) {
		free(s->jobs[--s->njobs].nodes);
		node_share_allocate(s);
		snprintf(err, errlen,
			 "job %u does not fit at the minimum yields on its nodes",
			 job->id);
		return -1;
	}
	return 0;
}

int node_share_remove(node_share_t *s, uint32_t id)
{
	share_job_t *j = node_share_find(s, id);

	if (!j)
		return -1;
	free(j->nodes);
	*j = s->jobs[--s->njobs];
	node_share_allocate(s);
	return 0;
}

int node_share_set_suspended(node_share_t *s, uint32_t id, int suspended)
{
	share_job_t *j = node_share_find(s, id);

	if (!j)
		return -1;
	j->suspended = suspended ? 1 : 0;
	return node_share_allocate(s);
}

int node_share_set_need(node_share_t *s, uint32_t id, double need)
{
	share_job_t *j = node_share_find(s, id);

	if (!j || !(need > 0 && need <= 1))
		return -1;
	j->need = need;
	return node_share_allocate(s);
}
