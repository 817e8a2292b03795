/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu_weight.h - from the controller's decision (a DFRS yield, or an AMCBF
 * tier) to the cgroup CPU weight a node applies, and the tag that carries it
 * from slurmctld to the nodes.
 *
 * The tag is text of the form "dfrs:yield=0.5,need=0.4,tier=fg,weight=2000"
 * inside a job's SystemComment (written by the plugins in slurmctld) or
 * AdminComment (an administrator's override, `scontrol update jobid=J
 * AdminComment=dfrs:weight=N`).  A user states a job's CPU need and minimum
 * yield the same way, in its Comment (`sbatch --comment=dfrs:need=0.4,
 * min_yield=0.5`).  Plain C, no Slurm headers.
 */
#ifndef DFRS_CPU_WEIGHT_H
#define DFRS_CPU_WEIGHT_H

#include "sched/sched_tier.h"

#include <stddef.h>

/* cgroup v1 cpu.shares limits, and the values the suite uses. */
#define CPU_WEIGHT_MIN 2u
#define CPU_WEIGHT_MAX 262144u
#define CPU_WEIGHT_DEFAULT 1024u	/* the kernel's default: an equal share */
#define CPU_WEIGHT_FOREGROUND 10000u	/* Liu et al.'s fg tier */
#define CPU_WEIGHT_BACKGROUND 2u	/* Liu et al.'s bg tier */
#define CPU_WEIGHT_SCALE 10000.0	/* weight of a task at yield 1, need 1 */
/*
 * A job Slurm is ending (requeued, preempted, cancelled, timed out) whose
 * processes are still on the node, whatever its tag said: exiting takes CPU
 * (freeing its memory), and a job held at a tiny weight on a busy node can
 * outlast UnkillableStepTimeout, which drains the node ("Kill task failed").
 */
#define CPU_WEIGHT_ENDING CPU_WEIGHT_FOREGROUND

typedef struct {
	double yield;		/* -1 if absent */
	double need;		/* -1 if absent */
	sched_tier_t tier;	/* SCHED_TIER_NONE if absent */
	long weight;		/* -1 if absent */
	double min_yield;	/* -1 if absent; a user's request, in --comment */
	double avail;		/* -1 if absent; a user's request, in --comment:
				   the availability its nodes should have
				   (SSAC ranking); not written by
				   cpu_weight_tag_format */
} cpu_weight_tag_t;

/*
 * Weight for a task given its yield y (0..1) and CPU need (fraction of the
 * node, 0..1): proportional to the CPU the controller gives it, y * need, so
 * that under contention the kernel's proportional split hands each task what
 * DFRS allocated (and idle CPU to whoever wants it).  Clamped to 2..262144.
 */
unsigned cpu_weight_for_yield(double yield, double need);

/*
 * The weight a tag asks for: an explicit weight first, then the tier, then
 * yield x need (need 1 if absent); CPU_WEIGHT_DEFAULT if the tag says nothing.
 */
unsigned cpu_weight_of_tag(const cpu_weight_tag_t *tag);

/*
 * Find "dfrs:" in text (NULL allowed) and parse the key=value list after it,
 * up to the first ';', space or end.  Returns 1 and fills *tag when a tag is
 * there, 0 when there is none, -1 when it is malformed (err says what).
 */
int cpu_weight_tag_parse(const char *text, cpu_weight_tag_t *tag, char *err, size_t errlen);

/* Write a tag; fields at -1 / SCHED_TIER_NONE are left out. */
void cpu_weight_tag_format(const cpu_weight_tag_t *tag, char *buf, size_t len);

#endif
