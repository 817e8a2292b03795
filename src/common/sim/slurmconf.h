/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmconf.h - the few lines of a site's slurm.conf that dfrs advise needs
 * to replay its history on its own machine: NodeName (how many nodes, their
 * CPUs, RealMemory and GPUs: Gres=gpu:N), PartitionName (name, node count, Default), the
 * SchedulerParameters line to deploy and the SchedulerType and PriorityType
 * in use.  Everything else is ignored.  Plain C: no Slurm headers.
 */
#ifndef DFRS_SLURMCONF_H
#define DFRS_SLURMCONF_H

#include <stddef.h>

#define SLURMCONF_MAX_PARTITIONS 32

typedef struct {
	char name[64];
	int nodes;		/* hosts in its Nodes= list (ALL: every node) */
	int is_default;		/* Default=YES */
} slurmconf_partition_t;

typedef struct {
	int nodes;		/* NodeName hosts, DEFAULT lines excluded */
	int cpus_min, cpus_max;	/* CPUs per node (else Sockets x
				   CoresPerSocket x ThreadsPerCore; else 1) */
	long mem_mb_min;	/* RealMemory, MB (0: not given) */
	int gpus_min;		/* Gres=gpu:N (0: none); the least over the
				   NodeName lines */
	slurmconf_partition_t partitions[SLURMCONF_MAX_PARTITIONS];
	size_t npartitions;
	char sched_params[1024];	/* SchedulerParameters ("" if none) */
	char sched_type[64];		/* SchedulerType ("" if none) */
	char priority_type[64];		/* PriorityType ("" if none) */
} slurmconf_t;

/*
 * Parse slurm.conf text (name is used in messages).  Returns 0 and fills
 * *out, or -1 with one line in err, "name:line: what": a malformed hostlist
 * (n[1-), a CPUs/RealMemory/... value that is not a whole number above 0,
 * a partition naming more nodes than there are, no NodeName line.
 */
int slurmconf_parse(const char *text, size_t len, const char *name,
		    slurmconf_t *out, char *err, size_t errlen);

/* The same from a file. */
int slurmconf_read(const char *path, slurmconf_t *out, char *err,
		   size_t errlen);

/* How many hosts a Slurm hostlist names ("n[01-32,40],gpu1": 34); -1 if
 * it is malformed. */
long slurmconf_hostlist_count(const char *list);

#endif
