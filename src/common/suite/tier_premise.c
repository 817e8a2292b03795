/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tier_premise.c - may a tiered mode (Liu et al. 2013, Sec. 3: background
 * jobs beside foreground ones) run under the site's SelectTypeParameters
 * (tier_premise.h).
 */
#include <stdio.h>

#include "tier_premise.h"

int tier_premise_check(const tier_premise_t *p, char *err, size_t len)
{
	if (!p->tiered || !p->tiers_possible || p->memory)
		return 0;
	snprintf(err, len,
		 "amcbf_mode=%s puts a background job on a node beside a foreground one, but SelectTypeParameters does not count memory, so their memory may overlap: set SelectTypeParameters=CR_Memory (or CR_Core_Memory, CR_CPU_Memory, CR_Socket_Memory) with DefMemPerNode or DefMemPerCPU",
		 p->mode ? p->mode : "?");
	return -1;
}
