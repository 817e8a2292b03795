/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_params.h - the suite's parameters: names, defaults, ranges and the
 * parser of Slurm's SchedulerParameters string.
 *
 * Plain C, no Slurm headers: the plugins hand over slurm_conf.sched_params,
 * dfrs sim hands over its --param options, and all get the same checks.
 * Keys starting with "amcbf_" are sched/amcbf's, "dfrs_" select/dfrs's;
 * every other key belongs to Slurm and is left alone.
 */
#ifndef DFRS_DFRS_PARAMS_H
#define DFRS_DFRS_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "dfrs/dfrs_online_types.h"

typedef enum {
	AMCBF_MODE_AMCBF,	/* default: adaptive consolidation backfill */
	AMCBF_MODE_CMBF,
	AMCBF_MODE_AMBF,
	AMCBF_MODE_CMCBF,
	AMCBF_MODE_DFRS,
} amcbf_mode_t;

typedef enum {
	AMCBF_PRIO_PRIORITY,	/* Slurm's job priority (priority/multifactor,
				   priority/basic), then first submit time */
	AMCBF_PRIO_FIFO,	/* first submit time (arrival order) */
	AMCBF_PRIO_STRETCH,	/* DFRS flow_time / virtual_time^2 */
} amcbf_priority_t;

/* A colon-separated list of names (partitions, QOS), or "all" / "none". */
#define DFRS_PARAMS_NAMES_MAX 256

/* Checkpoint signal sent before a preemption's requeue. */
typedef enum {
	AMCBF_CKPT_NONE,
	AMCBF_CKPT_USR1,
	AMCBF_CKPT_USR2,
	AMCBF_CKPT_TERM,
	AMCBF_CKPT_INT,
	AMCBF_CKPT_HUP,
} amcbf_ckpt_signal_t;

/* What the availability module does (amcbf_avail_policy). */
typedef enum {
	AMCBF_AVAIL_OFF,	/* nodes not observed */
	AMCBF_AVAIL_OBSERVE,	/* estimated and shown, nothing decided */
	AMCBF_AVAIL_THRESHOLD,	/* He et al.'s optimal threshold policy */
	AMCBF_AVAIL_MYOPIC,
	AMCBF_AVAIL_WAIT,	/* always suspend */
	AMCBF_AVAIL_MIGRATE,	/* always requeue */
} amcbf_avail_policy_t;

typedef struct {
	amcbf_mode_t mode;
	amcbf_priority_t priority;
	int interval;		/* seconds between periodic cycles */
	double util_threshold;	/* fg utilization under which a bg job may join */
	double min_idle_cpu;	/* idle CPU at or under this takes no bg job */
	double bg_min_rate;	/* predicted bg rate under which no bg start */
	int reserve;		/* 1: the head holds EASY's reservation */
	int requeue_victims;	/* 0: preempt only jobs that go to bg in place;
				   1: as Liu et al.; 2: auto (by mode) */
	int max_preempt;	/* requeues a job may suffer; then exempt */
	int min_runtime;	/* s a job runs before it may be preempted */
	int max_preempt_per_cycle;	/* requeues in one cycle */
	int yield_interval;	/* ms under slurmctld's locks before a yield */
	int max_read_time;	/* ms the read phase reads pending jobs */
	int drift_window;	/* s of history of the drift guard; 0: off */
	double drift_factor;	/* drift: run stretch over this x window's */
	int drift_min_work;	/* s: a job's CPU time counts at least this */
	char metrics_file[DFRS_PARAMS_NAMES_MAX];	/* "none" or a path */
	int metrics_interval;	/* s at least between two writes of it */
	char partitions[DFRS_PARAMS_NAMES_MAX];	/* managed: "all" or a:b:c */
	char exempt_qos[DFRS_PARAMS_NAMES_MAX];	/* never preempted: "none" or a:b */
	amcbf_ckpt_signal_t ckpt_signal;	/* sent before a requeue */
	int ckpt_wait;		/* s between the signal and the requeue */
	int extend_past_limits;	/* 1: end times moved past MaxTime/MaxWall */
	dfrs_policy_t dfrs_policy;	/* amcbf_mode=dfrs: the online policy */
	int dfrs_period;	/* s between periodic repacks; 0: none */
	int dfrs_minvt;		/* s of virtual time before a migration */
	int dfrs_repack_algorithms;	/* METAVP algorithms per repack */
	double dfrs_repack_drift;	/* repair instead of a full repack
					 * while the minimum scaled yield is
					 * within this of the last one's */
	double dfrs_repack_tolerance;	/* repacks search the yield from
					 * the last one's, to within this */
	double dfrs_starve_bsld;	/* a job in the system this many times
					 * its time limit claims room; 0: off */
	double dfrs_wide_share;	/* greedypmr: a job on more than this share
				 * of the nodes is wide */
	int dfrs_long_time;	/* greedypmr: a time limit over this is long */
	double dfrs_long_min_yield;	/* greedypmr: a long job's least
					 * minimum yield */
	int dfrs_max_start_per_cycle;	/* starts applied in one cycle
					 * (default 8); 0: no bound */
	amcbf_avail_policy_t avail_policy;
	int avail_slot;		/* s per observation slot */
	double avail_zeta;	/* outside load (share of CPUs) above: OFF */
	int avail_half_life;	/* slots; 0: no forgetting */
	double avail_beta;	/* discount per slot */
	double avail_migration_cost;	/* s per task migration */
	double avail_wait_factor;	/* a wait lasts at most this times the
					   expected OFF period; 0: no bound */
	int avail_drain_acts;	/* 1: a node drained for maintenance makes
				   its jobs wait or migrate; 0: they finish */
	double share_cpu_need;	/* select/dfrs: a job's CPU need per node */
	double share_min_yield;	/* select/dfrs: a job's minimum yield */
	int need_stale;		/* s a measured need stays fresh; 0: off */
} dfrs_params_t;

/* Fill *p with the documented defaults. */
void dfrs_params_defaults(dfrs_params_t *p);

/*
 * Parse a SchedulerParameters-style string ("key=value,key=value,...").
 * Keys without the amcbf_ or dfrs_ prefix are ignored. On success *p holds the
 * defaults overridden by the string and 0 is returned. On the first bad
 * entry -1 is returned, *p is left untouched and err holds one line naming
 * the key, the value and what is wrong. str may be NULL (all defaults).
 */
int dfrs_params_parse(const char *str, dfrs_params_t *p,
		       char *err, size_t errlen);

/* Is the key (klen bytes, case ignored) one whose value is a list of
 * names, a:b:c (amcbf_partitions, amcbf_exempt_qos)? */
int dfrs_params_takes_names(const char *key, size_t klen);

/* One line "amcbf_mode=amcbf amcbf_interval=30 ..." for logs. */
void dfrs_params_format(const dfrs_params_t *p, char *buf, size_t len);

/* The documentation table: each key, its default, range and meaning. */
void dfrs_params_describe(FILE *out);

const char *dfrs_params_mode_name(amcbf_mode_t mode);

/* Does sched/amcbf manage jobs of this partition (amcbf_partitions)? */
int dfrs_params_manages_partition(const dfrs_params_t *p, const char *name);
/* Are jobs of this QOS exempt from preemption (amcbf_exempt_qos)? */
int dfrs_params_qos_exempt(const dfrs_params_t *p, const char *name);
/* amcbf_avail_policy's value: "off", "observe", "threshold", ... */
const char *dfrs_params_avail_policy_name(amcbf_avail_policy_t policy);
/* The checkpoint signal's name without "SIG" ("USR1"), or NULL for none. */
const char *dfrs_params_ckpt_signal_name(amcbf_ckpt_signal_t sig);
/* Its signal number (SIGUSR1, ...; 0 for none). */
int dfrs_params_ckpt_signo(amcbf_ckpt_signal_t sig);

#endif
