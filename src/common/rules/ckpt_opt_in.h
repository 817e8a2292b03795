/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ckpt_opt_in.h - which running jobs get sched/amcbf's checkpoint signal
 * (amcbf_ckpt_signal) before a preemption's requeue, and so count as
 * checkpointable in the requeue model of the online DFRS policy
 * (Stillwell et al. 2010, Sec. 5, with requeues priced as lost work).  A
 * signal's default action ends a process that does not trap it (SIGUSR1's,
 * SIGTERM's): a job gets the signal only if it asked for that very signal
 * the way Slurm lets a job ask, --signal=[B:]SIG@TIME; every other job is
 * requeued without a signal and counts as not checkpointable.  Plain C,
 * no Slurm headers: signals are their numbers.
 */
#ifndef DFRS_CKPT_OPT_IN_H
#define DFRS_CKPT_OPT_IN_H

typedef enum {
	CKPT_NONE,	/* no signal: requeued as it is, loses its run */
	CKPT_TO_BATCH,	/* the batch shell (--signal=B:SIG@...) */
	CKPT_TO_STEPS,	/* its steps (--signal=SIG@..., as Slurm sends it) */
} ckpt_target_t;

/*
 * site_signo: amcbf_ckpt_signal's number (0: none); site_wait:
 * amcbf_ckpt_wait (0: no wait, so no signal); batch: a batch job;
 * job_signo: the signal of its --signal (Slurm's warn_signal; 0: none);
 * job_to_batch: its --signal has B: (KILL_JOB_BATCH).
 */
ckpt_target_t ckpt_opt_in(int site_signo, int site_wait, int batch,
			  int job_signo, int job_to_batch);

#endif
