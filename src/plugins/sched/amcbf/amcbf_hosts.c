/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_hosts.c - slurmctld's nodes and jobs as the engines' hosts, slots
 * and requests (amcbf_hosts.h; doc/design.md, "The resource model").
 */
#include "src/common/slurm_xlator.h"

#include <string.h>

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_hosts.h"
#include "amcbf/gpu_count.h"

/* The unit cons_tres allocates on a node: cores under CR_Core* and
 * CR_Socket*, else CPUs. */
static int node_slots(node_record_t *node_ptr)
{
	if (!node_ptr)
		return 0;
	if ((slurm_conf.select_type_param & DFRS_SELECT_CORE_BITS) &&
	    node_ptr->tot_cores)
		return node_ptr->tot_cores;
	return node_ptr->cpus;
}

/* GPUs of a GRES or TRES list; a malformed one counts none, said once
 * per read at debug level. */
static int gpus_of(const char *list, const char *what, uint32_t id)
{
	long n = gpu_count(list);

	if (n < 0) {
		debug("%s %u: GPU count of '%s' not understood: none counted",
		      what, id, list);
		return 0;
	}
	return n > 1000000 ? 1000000 : (int)n;
}

void amcbf_hosts_read(amcbf_hosts_t *h)
{
	memset(h, 0, sizeof(*h));
	h->granular = (slurm_conf.select_type_param & DFRS_SELECT_CPU_BITS) != 0;
	h->nhosts = node_record_count;
	if (!h->granular) {
		h->nslots = node_record_count;
		return;
	}
	h->hosts = xcalloc(h->nhosts ? h->nhosts : 1, sizeof(*h->hosts));
	for (int i = 0; i < h->nhosts; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		h->hosts[i].cpus = node_slots(node_ptr);
		h->nslots += h->hosts[i].cpus;
		if (!node_ptr)
			continue;
		h->hosts[i].mem = (long)node_ptr->real_memory;
		/* its configured Gres= (node_ptr->gres is only saved state) */
		h->hosts[i].gpus = gpus_of(node_ptr->config_ptr ?
					   node_ptr->config_ptr->gres :
					   node_ptr->gres, "node index", i);
	}
	h->slot_host = xcalloc(h->nslots ? h->nslots : 1, sizeof(int));
	h->nslots = sched_hosts_layout(h->hosts, h->nhosts, h->slot_host);
}

void amcbf_hosts_free(amcbf_hosts_t *h)
{
	xfree(h->hosts);
	xfree(h->slot_host);
	memset(h, 0, sizeof(*h));
}

/* The smallest CPU count of the hosts (an --exclusive job's unit). */
static int smallest_host(const amcbf_hosts_t *h)
{
	int least = 0;

	for (int i = 0; i < h->nhosts; i++)
		if (h->hosts[i].cpus && (!least || h->hosts[i].cpus < least))
			least = h->hosts[i].cpus;
	return least ? least : 1;
}

/* Memory and GPUs of the job's request (pending or running alike). */
static void request_mem_gpus(const amcbf_hosts_t *h, job_record_t *job_ptr,
			     job_request_t *req)
{
	job_details_t *d = job_ptr->details;
	uint64_t mem = d ? d->pn_min_memory : 0;

	if (mem & MEM_PER_CPU)
		req->mem_per_cpu = (long)(mem & ~MEM_PER_CPU);
	else if (mem)
		req->mem_per_host = (long)mem;
	else if (slurm_conf.select_type_param & DFRS_SELECT_MEMORY)
		/* no request, no default: Slurm gives it a node's memory */
		req->mem_per_host = h->nhosts ? h->hosts[0].mem : 0;
	req->gpus_per_host = gpus_of(job_ptr->tres_per_node, "JobId",
				     job_ptr->job_id);
	req->gpus = gpus_of(job_ptr->tres_per_job, "JobId", job_ptr->job_id);
	if (d && DFRS_WHOLE_NODE_REQUIRED(d))
		req->exclusive = 1;
}

int amcbf_hosts_request(const amcbf_hosts_t *h, job_record_t *job_ptr,
			job_request_t *req)
{
	job_details_t *d = job_ptr->details;
	int nodes = d && d->min_nodes ? (int)d->min_nodes : 1;
	int cpus;

	memset(req, 0, sizeof(*req));
	if (!h->granular)
		return nodes;
	request_mem_gpus(h, job_ptr, req);
	/* -N k (as many nodes at most as at least): exactly k hosts */
	if (d && d->max_nodes && d->max_nodes == d->min_nodes)
		req->hosts = (int)d->min_nodes;
	if (d && d->ntasks_per_node && d->ntasks_per_node != NO_VAL16)
		req->cpus_per_host = d->ntasks_per_node *
			(d->cpus_per_task && d->cpus_per_task != NO_VAL16 ?
			 d->cpus_per_task : 1);
	cpus = d && d->min_cpus ? (int)d->min_cpus : 1;
	if (req->cpus_per_host && req->hosts &&
	    req->cpus_per_host * req->hosts > cpus)
		cpus = req->cpus_per_host * req->hosts;
	if (req->exclusive)
		cpus = nodes * smallest_host(h);
	return cpus;
}

bool amcbf_hosts_asks_only(job_record_t *job_ptr)
{
	part_record_t *part_ptr = job_ptr->part_ptr;

	return part_ptr && !(part_ptr->max_share & SHARED_FORCE);
}

bool amcbf_hosts_shares(job_record_t *job_ptr)
{
	/* cons_tres's rule (its job node_req NODE_CR_AVAILABLE) for a
	 * partition that does not force sharing */
	return amcbf_hosts_asks_only(job_ptr) && job_ptr->details &&
	       job_ptr->part_ptr->max_share >= 2 &&
	       job_ptr->details->share_res == 1;
}

int amcbf_hosts_held(const amcbf_hosts_t *h, job_record_t *job_ptr,
		     bitstr_t *bitmap, int **counts, int *nodes,
		     job_request_t *req)
{
	job_resources_t *jr = job_ptr->job_resrcs;
	int n = bit_set_count(bitmap), k = 0, sum = 0;

	memset(req, 0, sizeof(*req));
	*nodes = n;
	*counts = xcalloc(n > 0 ? n : 1, sizeof(int));
	if (h->granular)
		request_mem_gpus(h, job_ptr, req);
	/* what it holds, not what it asked for */
	if (h->granular && jr && jr->memory_allocated && jr->nhosts) {
		req->mem_per_cpu = 0;
		req->mem_per_host = (long)jr->memory_allocated[0];
	}
	req->exclusive = 0;
	for (int i = 0; i < node_record_count && k < n; i++) {
		int c = 1;

		if (!bit_test(bitmap, i))
			continue;
		if (h->granular) {
			node_record_t *node_ptr = node_record_table_ptr[i];
			int threads = node_ptr && node_ptr->threads &&
				(slurm_conf.select_type_param &
				 DFRS_SELECT_CORE_BITS) ? node_ptr->threads : 1;
			c = jr && jr->cpus && (uint32_t)k < jr->nhosts ?
				(jr->cpus[k] + threads - 1) / threads :
				h->hosts[i].cpus;
			if (c > h->hosts[i].cpus)
				c = h->hosts[i].cpus;
			if (c < 1)
				c = 1;
		}
		(*counts)[k++] = c;
		sum += c;
	}
	return sum;
}

unsigned char *amcbf_hosts_slot_mask(const amcbf_hosts_t *h,
				     const unsigned char *node_mask)
{
	unsigned char *m;

	if (!node_mask)
		return NULL;
	m = xcalloc(h->nslots ? h->nslots : 1, 1);
	for (int s = 0; s < h->nslots; s++)
		m[s] = node_mask[h->granular ? h->slot_host[s] : s];
	return m;
}

int *amcbf_hosts_slot_rank(const amcbf_hosts_t *h, int *node_rank)
{
	int *r;

	if (!node_rank || !h->granular)
		return node_rank;
	r = xcalloc(h->nslots ? h->nslots : 1, sizeof(int));
	for (int s = 0; s < h->nslots; s++)
		r[s] = node_rank[h->slot_host[s]];
	xfree(node_rank);
	return r;
}

int amcbf_hosts_of_slots(const amcbf_hosts_t *h, const int *slots, int n,
			 int *nodes)
{
	int count = 0;

	for (int p = 0; p < n; p++) {
		int node = h->granular ? h->slot_host[slots[p]] : slots[p];
		bool seen = false;

		for (int q = 0; q < count && !seen; q++)
			seen = nodes[q] == node;
		if (!seen)
			nodes[count++] = node;
	}
	return count;
}
