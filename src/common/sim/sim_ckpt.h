/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_ckpt.h - which replayed jobs count as checkpointable in the
 * requeue model of the online DFRS policy (Stillwell et al. 2010, Sec. 5,
 * with requeues priced as lost work), by the rule the plugin applies live
 * (ckpt_opt_in): a job keeps its progress over a requeue only if it asked
 * for the deployed checkpoint signal.  A job history does not say which
 * jobs asked (sacct has no --signal field, SWF none either), so the replay
 * is told: by default no job asked, and a selector (dfrs advise
 * --ckpt-jobs) names the jobs that did, by user or partition.
 */
#ifndef DFRS_SIM_CKPT_H
#define DFRS_SIM_CKPT_H

#include <stddef.h>

#include "trace/trace.h"

#define SIM_CKPT_MAX_TERMS 32
#define SIM_CKPT_NAME_MAX 64

/* The jobs that asked for the checkpoint signal (--signal=B:SIG@TIME):
 * every job (all), or those of one of the users (UIDs) or partitions
 * (sacct names, or SWF field 16's numbers written in decimal).  Zeroed:
 * no job. */
typedef struct {
	int all;
	int users[SIM_CKPT_MAX_TERMS];
	size_t nusers;
	char partitions[SIM_CKPT_MAX_TERMS][SIM_CKPT_NAME_MAX];
	size_t npartitions;
} sim_ckpt_sel_t;

/*
 * Parse spec, "all" or a comma-separated list of user=UID and
 * partition=NAME terms, into *sel.  0, or -1 with one line in err naming
 * the term and what is wrong.
 */
int sim_ckpt_parse(const char *spec, sim_ckpt_sel_t *sel, char *err,
		   size_t errlen);

/* Does trace job j (of t) ask for the checkpoint signal by sel? */
int sim_ckpt_asked(const sim_ckpt_sel_t *sel, const trace_t *t,
		   const trace_job_t *j);

/*
 * Does trace job j (of t) checkpoint in the replay (sim_job_t.checkpoints):
 * it asked (sim_ckpt_asked) and the deployment sends it the signal by
 * ckpt_opt_in, with site_signo, amcbf_ckpt_signal's number (0: none), and
 * site_wait, amcbf_ckpt_wait, as the plugin passes them; the replayed job
 * a batch job that asked for that very signal.
 */
int sim_ckpt_checkpoints(const sim_ckpt_sel_t *sel, int site_signo,
			 int site_wait, const trace_t *t, const trace_job_t *j);

#endif
