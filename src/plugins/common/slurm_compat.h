/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.h - one plugin source for the Slurm releases the suite is
 * built against: 22.05, 24.11 and 26.05 (built and tested live), 25.05 and
 * 25.11 (compile-checked only, contribs/compile-check).
 *
 * Include it after Slurm's headers (slurm_xlator.h first, as always).  The
 * plugins are written against the 22.05 names; for later releases this
 * header maps them onto what replaced them:
 *   from 24.11
 *   List, ListIterator       list_t *, list_itr_t *  (typedefs)
 *   select_nodes(6 args)     select_nodes(job_node_select_t *, 3 args)
 *   job_suspend(sus, uid, conn_fd, ...)
 *                            job_suspend(slurm_msg_t *msg, sus, uid, ...)
 *   srun_allocate()          declared in proc_req.h, not srun_comm.h
 *   select plugin header     src/interfaces/select.h, not src/common/select.h
 *   from 25.11
 *   job_requeue(uid, job_id, msg, preempt, flags)
 *                            job_requeue_internal(uid, job_ptr, preempt, flags)
 *   suspend_msg_t.job_id     suspend_msg_t.step_id (a slurm_step_id_t)
 *   from 26.05
 *   slurm_thread_create(&id, func, arg)
 *                            slurm_thread_create(name, &id, func, arg), and
 *                            the thread is joined with slurm_thread_join()
 * and, for all, what a plain == or a name cannot express:
 *   DFRS_WHOLE_NODE_REQUIRED(details)  --exclusive; whole_node is a bit mask
 *                            from 24.11 (the MCS value moved from 3 to 4)
 *   DFRS_SLURM_SINCE(maj, min)  1 when built against that release or later
 *   dfrs_job_requeue(job_ptr)   requeue as a preemption, as root
 *   DFRS_SUSPEND_MSG(op, job_ptr)  initializer of a suspend_msg_t
 *   dfrs_thread_create(id, name, func, arg), dfrs_thread_join(id)
 *   dfrs_bf_active_set(active)  sched/backfill's running flag in the
 *                            scheduler statistics (sdiag); from 25.11 its
 *                            clearing is broadcast, as shutdown waits on it
 *   DFRS_HAVE_BF_EXIT        slurmctld_diag_stats.bf_exit[] (23.02 and later)
 * The select interface's changes (31 functions in 24.11, 12 in 25.05 and
 * 25.11, 13 in 26.05) are in select/dfrs's select_delegate.h.
 *
 * Other releases have not been built: configure stops on them
 * (configure.ac), and so does this header.
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
#define DFRS_SLURM_IS(maj, min) \
	(DFRS_SLURM_RELEASE(SLURM_VERSION_NUMBER) == SLURM_VERSION_NUM(maj, min, 0))
#define DFRS_SLURM_SINCE(maj, min) \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(maj, min, 0))

#if !(DFRS_SLURM_IS(22, 5) || DFRS_SLURM_IS(24, 11) || DFRS_SLURM_IS(25, 5) || \
      DFRS_SLURM_IS(25, 11) || DFRS_SLURM_IS(26, 5))
#error "slurm-dfrs is built against Slurm 22.05, 24.11, 25.05, 25.11 and 26.05 only: this Slurm source is another release"
#endif

#if DFRS_SLURM_SINCE(24, 11)

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

/* SelectTypeParameters that make CPUs consumable (cons_tres allocates
 * CPUs, cores or sockets), whole cores, and memory: 25.11 renamed CR_* to
 * SELECT_*. */
#if DFRS_SLURM_SINCE(25, 11)
#define DFRS_SELECT_CPU_BITS (SELECT_CPU | SELECT_CORE | SELECT_SOCKET)
#define DFRS_SELECT_CORE_BITS (SELECT_CORE | SELECT_SOCKET)
#define DFRS_SELECT_MEMORY SELECT_MEMORY
#else
#define DFRS_SELECT_CPU_BITS (CR_CPU | CR_CORE | CR_SOCKET)
#define DFRS_SELECT_CORE_BITS (CR_CORE | CR_SOCKET)
#define DFRS_SELECT_MEMORY CR_MEMORY
#endif

/* A requeue by the scheduler: as root (uid 0), counted as a preemption. */
#if DFRS_SLURM_SINCE(25, 11)
#define dfrs_job_requeue(j) job_requeue_internal(0, (j), true, 0)
#else
#define dfrs_job_requeue(j) job_requeue(0, (j)->job_id, NULL, true, 0)
#endif

/* A suspend or resume request for a whole job. */
#if DFRS_SLURM_SINCE(25, 11)
#define DFRS_SUSPEND_MSG(o, j) { .op = (o), .step_id = { .job_id = (j)->job_id, \
	.step_id = NO_VAL, .step_het_comp = NO_VAL } }
#else
#define DFRS_SUSPEND_MSG(o, j) { .op = (o), .job_id = (j)->job_id }
#endif

/* A joinable thread; 26.05 names it and runs it from its thread pool,
 * whose threads are joined through the pool. */
#if DFRS_SLURM_SINCE(26, 5)
#include "src/common/threadpool.h"
#define dfrs_thread_create(id, name, func, arg) \
	slurm_thread_create(name, id, func, arg)
#define dfrs_thread_join(id) slurm_thread_join(id)
#else
#define dfrs_thread_create(id, name, func, arg) \
	slurm_thread_create(id, func, arg)
#define dfrs_thread_join(id) pthread_join(id, NULL)
#endif

/* The scheduler statistics' "backfill running" flag, set and cleared
 * under check_bf_running_lock with no slurmctld lock held (slurmctld takes
 * that mutex before its locks to purge job records). */
static inline void dfrs_bf_active_set(bool active)
{
	slurm_mutex_lock(&check_bf_running_lock);
	slurmctld_diag_stats.bf_active = active;
#if DFRS_SLURM_SINCE(25, 11)
	if (!active)
		slurm_cond_broadcast(&check_bf_running_cond);
#endif
	slurm_mutex_unlock(&check_bf_running_lock);
}

/* Why backfill cycles ended (bf_exit[BF_EXIT_END], ...): since 23.02. */
#define DFRS_HAVE_BF_EXIT DFRS_SLURM_SINCE(23, 2)

#endif
