/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_power.c - powered-down nodes last in the engine's node preference
 * (amcbf_power.h), as select_nodes() weighs them, so a job wakes a node
 * only when the powered-up ones do not hold it.
 */
#include "src/common/slurm_xlator.h"

#include "src/common/bitstring.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_power.h"

/* powered down or powering down; renamed after 22.05 */
#if DFRS_SLURM_SINCE(24, 11)
#define POWERED_DOWN_NODES power_down_node_bitmap
#else
#define POWERED_DOWN_NODES power_node_bitmap
#endif

int *amcbf_power_rank(int *rank)
{
	int *out;

	if (!POWERED_DOWN_NODES || bit_ffs(POWERED_DOWN_NODES) < 0)
		return rank;
	out = xcalloc(node_record_count ? node_record_count : 1, sizeof(*out));
	for (int i = 0; i < node_record_count; i++)
		out[i] = (rank ? rank[i] : i) +
			 (bit_test(POWERED_DOWN_NODES, i) ? node_record_count : 0);
	xfree(rank);
	return out;
}
