/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ckpt_opt_in.c - the checkpoint signal only to jobs that asked for it
 * with --signal (ckpt_opt_in.h).
 */
#include "ckpt_opt_in.h"

ckpt_target_t ckpt_opt_in(int site_signo, int site_wait, int batch,
			  int job_signo, int job_to_batch)
{
	if (site_signo <= 0 || site_wait <= 0 || !batch || job_signo != site_signo)
		return CKPT_NONE;
	return job_to_batch ? CKPT_TO_BATCH : CKPT_TO_STEPS;
}
