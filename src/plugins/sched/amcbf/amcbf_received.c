/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_received.c - a running job's measured CPU on its nodes
 * (amcbf_received.h; Liu et al. 2013, section 4.1).
 */
#include "src/common/slurm_xlator.h"

#include "src/common/bitstring.h"
#include "src/common/node_conf.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "amcbf_received.h"
#include "need/measured_tag.h"

void amcbf_received(job_record_t *job_ptr, const dfrs_params_t *params,
		    time_t now, limit_charge_in_t *in)
{
	/* one node's report at a time: 4 kB, kept off the stack */
	static measured_tag_t tag;
	char err[160];
	int nodes = 0;

	in->measured = 0;
	in->used = 1;
	in->shared = 0;
	if (params->need_stale <= 0 || !job_ptr->node_bitmap)
		return;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		double used;

		if (!node_ptr || !bit_test(job_ptr->node_bitmap, i))
			continue;
		if (measured_tag_parse(node_ptr->extra, &tag, err,
				       sizeof(err)) != 1 ||
		    (long)now - tag.stamp > params->need_stale ||
		    measured_tag_need(&tag, job_ptr->job_id, &used))
			return;	/* not measured on this node */
		if (used < in->used)
			in->used = used;
		for (size_t j = 0; j < tag.njobs; j++)
			if (tag.jobs[j].job_id != job_ptr->job_id &&
			    tag.jobs[j].need > 0)
				in->shared = 1;
		nodes++;
	}
	in->measured = nodes > 0;
}
