/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_job_shape.c - a Slurm job's DFRS shape (dfrs_job_shape.h), shared by
 * select/dfrs and sched/amcbf.
 */
#include "src/common/slurm_xlator.h"

#include <string.h>
#include <time.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "dfrs/host_task.h"
#include "suite/cpu_weight.h"
#include "dfrs_job_shape.h"
#include "dfrs_job_cap.h"

uint64_t dfrs_ref_memory_mb(void)
{
	uint64_t ref = 0;

	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		if (node_ptr && node_ptr->real_memory &&
		    (!ref || node_ptr->real_memory < ref))
			ref = node_ptr->real_memory;
	}
	return ref;
}

/* The smallest CPU count of the nodes (1 when none states one). */
static uint32_t ref_cpus(void)
{
	uint32_t ref = 0;

	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		if (node_ptr && node_ptr->cpus && (!ref || node_ptr->cpus < ref))
			ref = node_ptr->cpus;
	}
	return ref ? ref : 1;
}

int dfrs_job_tasks(job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	int nodes;

	if ((IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) &&
	    job_ptr->node_cnt)
		return (int)job_ptr->node_cnt;
	nodes = d && d->min_nodes ? (int)d->min_nodes : 1;
	if (d && (slurm_conf.select_type_param & DFRS_SELECT_CPU_BITS))
		nodes = dfrs_host_task_count((int)d->min_cpus, nodes,
					     (int)ref_cpus());
	return nodes;
}

/* The CPUs the job holds (running) or asks for (pending) on each of its
 * nodes. */
static uint32_t cpus_per_node(job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	uint32_t nodes;

	if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) {
		if (job_ptr->total_cpus && job_ptr->node_cnt)
			return job_ptr->total_cpus / job_ptr->node_cnt;
	}
	if (!d)
		return 1;
	nodes = (uint32_t)dfrs_job_tasks(job_ptr);
	return d->min_cpus > nodes ? d->min_cpus / nodes : 1;
}

void dfrs_job_shape(job_record_t *job_ptr, const dfrs_params_t *params,
		    double need, uint64_t ref_mb, share_job_t *out)
{
	job_details_t *d = job_ptr->details;
	uint64_t mem = d ? d->pn_min_memory : 0;
	cpu_weight_tag_t tag;
	char err[160];

	memset(out, 0, sizeof(*out));
	out->id = job_ptr->job_id;
	out->need = need;
	out->min_yield = params->share_min_yield;
	if (cpu_weight_tag_parse(job_ptr->comment, &tag, err, sizeof(err)) < 0) {
		verbose("%pJ: Comment ignored: %s", job_ptr, err);
	} else {
		if (tag.min_yield > 0)
			out->min_yield = tag.min_yield;
	}
	/* a job whose time limit cannot be moved on by what its minimum
	 * yield may cost it runs at full yield (dfrs_job_cap.h) */
	if (out->min_yield < 1.0 &&
	    !dfrs_job_may_slow(job_ptr, params, 1.0 - out->min_yield,
			       time(NULL)))
		out->min_yield = 1.0;
	if (mem & MEM_PER_CPU) {
		uint32_t cpus = job_ptr->total_cpus && job_ptr->node_cnt ?
			job_ptr->total_cpus / job_ptr->node_cnt :
			(d ? d->cpus_per_task : 1);
		mem = (mem & ~MEM_PER_CPU) * (cpus ? cpus : 1);
	}
	/* CPUs allocated one by one (cons_tres): the job's CPUs on a node
	 * over the node's, times its use (doc/design.md, the DFRS need) */
	if (slurm_conf.select_type_param & DFRS_SELECT_CPU_BITS) {
		double part = (double)cpus_per_node(job_ptr) / ref_cpus();
		out->need = need * (part < 1.0 ? part : 1.0);
	}
	out->mem = (mem && ref_mb) ? (double)mem / ref_mb : 1.0;
	if (out->mem > 1.0)
		out->mem = 1.0;
	if (d && DFRS_WHOLE_NODE_REQUIRED(d)) {
		out->mem = 1.0;
		out->need = 1.0;
		out->min_yield = 1.0;
	}
}
