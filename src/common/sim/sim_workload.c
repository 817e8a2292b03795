/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_workload.c - from trace_t to the simulator's jobs (sim_workload.h):
 * skip what cannot run, map processors to allocation units, scale the load
 * (inter-arrival times divided by F, the usual way of sweeping load), set
 * EASY's run-time estimates (requested, exact or scaled) and give each
 * process its CPU usage (Liu et al. 2013 section 5.2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim_random.h"
#include "sim_workload.h"

void sim_workload_opts_defaults(sim_workload_opts_t *o)
{
	o->nodes = 0;
	o->procs_per_node = 1;
	o->cpus_per_node = 1;
	o->host_mem_mb = 0;
	o->host_gpus = 0;
	o->load = 1.0;
	o->seed = 1;
	o->estimate_factor = 0;
	o->cpu_usage = 0;
	o->default_cpu_need = 0;
}

/* The most nodes a machine may have (as dfrs sim --nodes). */
#define MAX_NODES 100000000L

/* Units for procs processors at ppn per unit, rounded up; procs + ppn - 1
 * would overflow for sizes near the type's limit. */
static long units_for(long procs, long ppn)
{
	return procs / ppn + (procs % ppn != 0);
}

static long machine_size(const trace_t *t, const sim_workload_opts_t *o)
{
	if (o->nodes > 0)
		return o->nodes;
	return units_for(trace_machine_procs(t), o->procs_per_node);
}

/* A job's request on hosts from what the trace says it held: its nodes
 * (AllocTRES node=; all of each when it held all their CPUs), memory per
 * CPU (AllocTRES mem=, else ReqMem) and GPUs (gres/gpu=), cut to what a
 * host has so that every job can run on an empty machine. */
static void request_on_hosts(sim_workload_t *w, const trace_job_t *tj,
			     int nodes, int ppn, job_request_t *req)
{
	int c = w->cpus_per_node, clamped = 0;
	*req = (job_request_t){ 0 };
	if (tj->alloc_nodes > 0 && nodes <= tj->alloc_nodes * c) {
		req->hosts = tj->alloc_nodes;
		req->exclusive = nodes == tj->alloc_nodes * c;
	}
	/* the most slots it may need on one host */
	int per_host = req->hosts > 0 ? (nodes + req->hosts - 1) / req->hosts
				      : nodes < c ? nodes : c;
	double mem = tj->alloc_mem_mb > 0 ? tj->alloc_mem_mb / nodes
		     : tj->req_mem_kb > 0 ? tj->req_mem_kb * ppn / 1024 : 0;
	if (w->host_mem_mb > 0 && mem > 0) {
		req->mem_per_cpu = (long)(mem + 0.5);
		if (req->mem_per_cpu * per_host > w->host_mem_mb) {
			req->mem_per_cpu = w->host_mem_mb / per_host;
			clamped = 1;
		}
	}
	if (tj->alloc_gpus > 0) {
		int hosts = req->hosts > 0 ? req->hosts : 1;
		int g = (tj->alloc_gpus + hosts - 1) / hosts;
		if (g > w->host_gpus) {
			g = w->host_gpus;
			clamped = 1;
		}
		if (req->hosts > 0)
			req->gpus_per_host = g;
		else
			req->gpus = g;
	}
	w->clamped += clamped;
}

int sim_workload_build(const trace_t *t, const sim_workload_opts_t *o,
		       sim_workload_t *w, char *err, size_t errlen)
{
	*w = (sim_workload_t){ 0 };
	if (o->load <= 0 || o->procs_per_node <= 0 || o->nodes < 0 ||
	    o->cpus_per_node <= 0 || o->host_mem_mb < 0 || o->host_gpus < 0) {
		snprintf(err, errlen, "load, procs per node, CPUs per node and "
			 "nodes must be positive");
		return -1;
	}
	long machine = machine_size(t, o);
	if (machine <= 0) {
		snprintf(err, errlen, "%s: cannot tell the machine size (no "
			 "MaxProcs/MaxNodes header, no job size): give --nodes",
			 t->source);
		return -1;
	}
	if (machine > MAX_NODES) {
		snprintf(err, errlen, "%s: %ld processors make %ld units of %d, "
			 "more than %ld: give --nodes", t->source,
			 trace_machine_procs(t), machine, o->procs_per_node,
			 MAX_NODES);
		return -1;
	}
	w->nodes = (int)machine;
	if (o->cpus_per_node > 1 || o->host_mem_mb > 0 || o->host_gpus > 0) {
		w->cpus_per_node = o->cpus_per_node;
		w->nhosts = (int)units_for(machine, o->cpus_per_node);
		if ((long)w->nhosts * o->cpus_per_node > MAX_NODES) {
			snprintf(err, errlen, "%d hosts of %d CPUs: more than "
				 "%ld: give --nodes", w->nhosts,
				 o->cpus_per_node, MAX_NODES);
			return -1;
		}
		w->nodes = w->nhosts * o->cpus_per_node;
		w->host_mem_mb = o->host_mem_mb;
		w->host_gpus = o->host_gpus;
	}
	w->jobs = calloc(t->njobs ? t->njobs : 1, sizeof(*w->jobs));
	size_t units = 0;
	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].procs > 0)
			units += (size_t)units_for(t->jobs[i].procs,
						   o->procs_per_node);
	w->util_pool = malloc((units ? units : 1) * sizeof(double));
	if (!w->jobs || !w->util_pool) {
		sim_workload_free(w);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sim_random_t rng;
	sim_random_seed(&rng, o->seed);
	w->estimates_exact = o->estimate_factor == 1 ||
			     (o->estimate_factor <= 0 && !t->has_req_time);
	double first = t->njobs ? t->jobs[0].submit : 0;
	size_t used = 0;
	for (size_t i = 0; i < t->njobs; i++) {
		const trace_job_t *tj = &t->jobs[i];
		if (tj->procs <= 0 || tj->runtime < 0 || tj->submit < 0) {
			w->skipped_unusable++;
			continue;
		}
		long need = units_for(tj->procs, o->procs_per_node);
		if (need > w->nodes) {
			w->skipped_too_big++;
			continue;
		}
		int nodes = (int)need;
		if (w->nhosts && tj->alloc_nodes > w->nhosts) {
			w->skipped_too_big++;
			continue;
		}
		sim_job_t *j = &w->jobs[w->njobs++];
		if (w->nhosts)
			request_on_hosts(w, tj, nodes, o->procs_per_node,
					 &j->req);
		j->id = tj->id;
		j->line = tj->line;
		j->arrival = (tj->submit - first) / o->load;
		j->runtime = tj->runtime;
		j->estimate = o->estimate_factor > 0
				      ? tj->runtime * o->estimate_factor
				      : t->has_req_time && tj->req_time > 0
				      ? tj->req_time : tj->runtime;
		j->nodes = nodes;
		j->user = tj->user;
		j->app = tj->app;
		j->util = w->util_pool + used;
		used += (size_t)nodes;
		double traced = tj->cpu_used > 0 && tj->runtime > 0
					? tj->cpu_used / tj->runtime : -1;
		if (traced > 0) {
			w->cpu_from_trace++;
			if (traced > 1)
				traced = 1;
			if (traced < 0.01)
				traced = 0.01;
		}
		for (int p = 0; p < nodes; p++)
			j->util[p] = o->cpu_usage > 0 ? o->cpu_usage
				     : traced > 0 ? traced
				     : o->default_cpu_need > 0 ? o->default_cpu_need
				     : nodes == 1 ? 1.0
				     : sim_random_uniform(&rng, 0.4, 1.0);
	}
	if (w->njobs == 0) {
		snprintf(err, errlen, "%s: no job fits a machine of %d units "
			 "(%zu too big, %zu unusable)", t->source, w->nodes,
			 w->skipped_too_big, w->skipped_unusable);
		sim_workload_free(w);
		return -1;
	}
	return 0;
}

void sim_workload_free(sim_workload_t *w)
{
	free(w->jobs);
	free(w->util_pool);
	*w = (sim_workload_t){ 0 };
}

size_t sim_workload_process_offsets(const sim_workload_t *w, size_t *off)
{
	size_t total = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		off[i] = total;
		total += (size_t)w->jobs[i].nodes;
	}
	return total;
}
