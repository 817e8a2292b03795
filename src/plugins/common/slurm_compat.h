/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.h - one plugin source for the Slurm versions the suite is
 * built and tested against: 22.05 and 24.11.
 *
 * Include it after Slurm's headers (slurm_xlator.h first, as always).  The
 * plugins are written against the 22.05 names; for 24.11 this header maps
 * them onto what replaced them:
 *   List, ListIterator       list_t *, list_itr_t *  (typedefs)
 *   select_nodes(6 args)     select_nodes(job_node_select_t *, 3 args)
 *   job_suspend(sus, uid, conn_fd, ...)
 *                            job_suspend(slurm_msg_t *msg, sus, uid, ...)
 *   srun_allocate()          declared in proc_req.h, not srun_comm.h
 *   select plugin header     src/interfaces/select.h, not src/common/select.h
 * and, for both, what a plain == or a name cannot express:
 *   DFRS_WHOLE_NODE_REQUIRED(details)  --exclusive; whole_node is a bit mask
 *                            on 24.11 (the MCS value moved from 3 to 4)
 *   DFRS_SLURM_24_11         1 when built against 24.11, else 0
 *
 * Versions between or after these two have not been tested: configure stops
 * on them (configure.ac), and so does this header.
 */
#ifndef DFRS_SLURM_COMPAT_H
#define DFRS_SLURM_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/node_scheduler.h"

#define DFRS_SLURM_RELEASE(v) ((v) & ~0xff)	/* major.minor, no micro */

#if DFRS_SLURM_RELEASE(SLURM_VERSION_NUMBER) == SLURM_VERSION_NUM(22, 5, 0)
#define DFRS_SLURM_24_11 0
#elif DFRS_SLURM_RELEASE(SLURM_VERSION_NUMBER) == SLURM_VERSION_NUM(24, 11, 0)
#define DFRS_SLURM_24_11 1
#else
#error "slurm-dfrs is built and tested against Slurm 22.05 and 24.11 only: this Slurm source is another release"
#endif

#if DFRS_SLURM_24_11

#include "src/interfaces/select.h"
#include "src/slurmctld/proc_req.h"	/* srun_allocate */

typedef list_t *List;
typedef list_itr_t *ListIterator;

#define DFRS_WHOLE_NODE_REQUIRED(d) (((d)->whole_node & WHOLE_NODE_REQUIRED) != 0)

/* 22.05's select_nodes(): the result bitmap and message are not asked for
 * by the plugins (both NULL). */
static inline int dfrs_select_nodes(job_record_t *job_ptr, bool test_only,
				    bitstr_t **select_bitmap, char **err_msg,
				    bool submission, uint32_t scheduler_type)
{
	job_node_select_t sel = { .job_ptr = job_ptr, .err_msg = err_msg };

	if (select_bitmap)
		*select_bitmap = NULL;
	return (select_nodes)(&sel, test_only, submission, scheduler_type);
}
#define select_nodes(j, t, b, e, s, ty) dfrs_select_nodes(j, t, b, e, s, ty)

/* 22.05's job_suspend(): conn_fd -1 (no reply) is a NULL message now. */
static inline int dfrs_job_suspend(suspend_msg_t *sus_ptr, uid_t uid,
				   int conn_fd, bool indf_susp,
				   uint16_t protocol_version)
{
	(void)conn_fd;
	return (job_suspend)(NULL, sus_ptr, uid, indf_susp, protocol_version);
}
#define job_suspend(s, u, fd, i, pv) dfrs_job_suspend(s, u, fd, i, pv)

/* job arrays: the records a split makes go into job_list at once */
#define dfrs_job_array_split(j) job_array_split(j, true)
#define dfrs_job_array_post_sched(j) job_array_post_sched(j, true)
#define dfrs_job_set_pending(j) job_state_set(j, JOB_PENDING)

#else /* 22.05 */

#include "src/common/select.h"
#include "src/slurmctld/srun_comm.h"	/* srun_allocate */

typedef struct job_details job_details_t;

#define DFRS_WHOLE_NODE_REQUIRED(d) ((d)->whole_node == WHOLE_NODE_REQUIRED)

#define dfrs_job_array_split(j) job_array_split(j)
#define dfrs_job_array_post_sched(j) job_array_post_sched(j)
#define dfrs_job_set_pending(j) ((j)->job_state = JOB_PENDING)

#endif

#endif
