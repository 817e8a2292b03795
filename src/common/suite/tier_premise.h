/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tier_premise.h - the premise of sched/amcbf's tiered modes: amcbf_mode=
 * cmcbf and amcbf put a background job on a node beside a foreground one
 * (Liu et al. 2013, Sec. 3: the two share the node's CPUs, each with its
 * own memory), which holds only when Slurm counts memory as a consumable
 * resource (SelectTypeParameters CR_Memory, CR_Core_Memory, CR_CPU_Memory
 * or CR_Socket_Memory): else two jobs' memory may overlap and one of them
 * is killed by the kernel's OOM killer.  Plain C, no Slurm headers: the
 * plugin fills the struct from slurm_conf.
 */
#ifndef DFRS_TIER_PREMISE_H
#define DFRS_TIER_PREMISE_H

#include <stddef.h>

typedef struct {
	const char *mode;	/* amcbf_mode's name */
	int tiered;		/* the mode has a background tier (cmcbf, amcbf) */
	int tiers_possible;	/* SelectType=select/dfrs or cons_tres and a
				   partition with OverSubscribe=FORCE:N or
				   YES:N, N >= 2: a background job can share
				   a node */
	int memory;		/* SelectTypeParameters has CR_MEMORY among its
				   flags */
} tier_premise_t;

/*
 * May the mode run?  0: yes (not tiered, no node to share, or memory is
 * consumable); -1: no, with one line in err that names the fix (the
 * caller adds what it does about it).
 */
int tier_premise_check(const tier_premise_t *p, char *err, size_t len);

#endif
