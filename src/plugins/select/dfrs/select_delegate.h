/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select_delegate.h - the select plugin select/dfrs hands its bookkeeping to
 * (select/cons_tres or select/linear), loaded from PluginDir with dlopen.
 *
 * Not through Slurm's plugin_context_create(): Slurm 24.11's libslurm.so no
 * longer exports it, and programs linked with libslurm (not Slurm's own
 * commands) load every select plugin when they read node information.  Not
 * through Slurm's ops type either: it is private on 24.11.  The table below
 * is ours, one entry per select_p_* function that the version's select
 * interface has (24.11 dropped five of 22.05's).
 */
#ifndef DFRS_SELECT_DELEGATE_H
#define DFRS_SELECT_DELEGATE_H

#include "slurm_compat.h"

/* select/dfrs never calls slurmctld's job_suspend(); slurm_compat.h's macro
 * for it would rewrite the calls of the delegate's job_suspend below. */
#undef job_suspend

/*
 * The select interface of each release (Slurm's src/interfaces/select.c,
 * node_select_syms[]; plugin_id not counted):
 *   22.05  36 functions
 *   24.11  31: job_signal, jobinfo_sprint, jobinfo_xstrdup,
 *          update_node_config and resv_test are gone
 *   25.05, 25.11  12: only node_init, job_test, job_begin, job_ready,
 *          job_expand, job_resized, job_fini, job_suspend, job_resume,
 *          nodeinfo_set_all, nodeinfo_set and reconfigure are left (state
 *          save/restore, job_init, the step hooks, the node/job info
 *          pack/unpack/get/set and get_info_from_plugin are gone)
 *   26.05  13: job_mem_reduce is added, and required
 */
#define DFRS_SELECT_HAS_22_05_EXTRAS (!DFRS_SLURM_SINCE(24, 11))
#define DFRS_SELECT_HAS_INFO (!DFRS_SLURM_SINCE(25, 5))
#define DFRS_SELECT_HAS_MEM_REDUCE DFRS_SLURM_SINCE(26, 5)

/* select_p_job_test's last parameters: the cores a job must not use */
#if DFRS_SLURM_SINCE(24, 11)
#define DFRS_JOB_TEST_EXC_PARAMS resv_exc_t *resv_exc_ptr, will_run_data_t *will_run_ptr
#define DFRS_JOB_TEST_EXC_ARGS resv_exc_ptr, will_run_ptr
#else
#define DFRS_JOB_TEST_EXC_PARAMS bitstr_t *exc_core_bitmap
#define DFRS_JOB_TEST_EXC_ARGS exc_core_bitmap
#endif

/* In the order of select_delegate.c's symbol names. */
typedef struct {
	uint32_t *plugin_id;
#if DFRS_SELECT_HAS_INFO
	int (*state_save)(char *dir_name);
	int (*state_restore)(char *dir_name);
	int (*job_init)(List job_list);
#endif
	int (*node_init)(void);
	int (*job_test)(job_record_t *job_ptr, bitstr_t *bitmap,
			uint32_t min_nodes, uint32_t max_nodes,
			uint32_t req_nodes, uint16_t mode,
			List preemptee_candidates, List *preemptee_job_list,
			DFRS_JOB_TEST_EXC_PARAMS);
	int (*job_begin)(job_record_t *job_ptr);
	int (*job_ready)(job_record_t *job_ptr);
	int (*job_expand)(job_record_t *from_job_ptr, job_record_t *to_job_ptr);
	int (*job_resized)(job_record_t *job_ptr, node_record_t *node_ptr);
#if DFRS_SELECT_HAS_22_05_EXTRAS
	int (*job_signal)(job_record_t *job_ptr, int signal);
#endif
#if DFRS_SELECT_HAS_MEM_REDUCE
	void (*job_mem_reduce)(job_record_t *job_ptr);
#endif
	int (*job_fini)(job_record_t *job_ptr);
	int (*job_suspend)(job_record_t *job_ptr, bool indf_susp);
	int (*job_resume)(job_record_t *job_ptr, bool indf_susp);
#if DFRS_SELECT_HAS_INFO
	bitstr_t *(*step_pick_nodes)(job_record_t *job_ptr,
				     select_jobinfo_t *step_jobinfo,
				     uint32_t node_count,
				     bitstr_t **avail_nodes);
	int (*step_start)(step_record_t *step_ptr);
	int (*step_finish)(step_record_t *step_ptr, bool killing_step);
	int (*nodeinfo_pack)(select_nodeinfo_t *nodeinfo, buf_t *buffer,
			     uint16_t protocol_version);
	int (*nodeinfo_unpack)(select_nodeinfo_t **nodeinfo, buf_t *buffer,
			       uint16_t protocol_version);
	select_nodeinfo_t *(*nodeinfo_alloc)(void);
	int (*nodeinfo_free)(select_nodeinfo_t *nodeinfo);
#endif
	int (*nodeinfo_set_all)(void);
	int (*nodeinfo_set)(job_record_t *job_ptr);
#if DFRS_SELECT_HAS_INFO
	int (*nodeinfo_get)(select_nodeinfo_t *nodeinfo,
			    enum select_nodedata_type dinfo,
			    enum node_states state, void *data);
	select_jobinfo_t *(*jobinfo_alloc)(void);
	int (*jobinfo_free)(select_jobinfo_t *jobinfo);
	int (*jobinfo_set)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	int (*jobinfo_get)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	select_jobinfo_t *(*jobinfo_copy)(select_jobinfo_t *jobinfo);
	int (*jobinfo_pack)(select_jobinfo_t *jobinfo, buf_t *buffer,
			    uint16_t protocol_version);
	int (*jobinfo_unpack)(select_jobinfo_t **jobinfo, buf_t *buffer,
			      uint16_t protocol_version);
#endif
#if DFRS_SELECT_HAS_22_05_EXTRAS
	char *(*jobinfo_sprint)(select_jobinfo_t *jobinfo, char *buf,
				size_t size, int mode);
	char *(*jobinfo_xstrdup)(select_jobinfo_t *jobinfo, int mode);
#endif
#if DFRS_SELECT_HAS_INFO
	int (*get_info_from_plugin)(enum select_plugindata_info dinfo,
				    job_record_t *job_ptr, void *data);
#endif
#if DFRS_SELECT_HAS_22_05_EXTRAS
	int (*update_node_config)(int index);
#endif
	int (*reconfigure)(void);
#if DFRS_SELECT_HAS_22_05_EXTRAS
	bitstr_t *(*resv_test)(resv_desc_msg_t *resv_desc_ptr,
			       uint32_t node_cnt, bitstr_t *avail_bitmap,
			       bitstr_t **core_bitmap);
#endif
} select_delegate_ops_t;

/*
 * Load the select plugin of type `type` ("select/cons_tres") from the first
 * PluginDir entry that has it, check that it was built for this Slurm
 * version, resolve every function of `ops` and call its init().  Returns 0,
 * or -1 after logging what is missing and where it was looked for.
 */
extern int select_delegate_load(const char *type, select_delegate_ops_t *ops);

/* Call the delegate's fini() and unload it; returns SLURM_SUCCESS. */
extern int select_delegate_unload(void);

#endif
