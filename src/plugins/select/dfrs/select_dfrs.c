/*
 * select_dfrs.c - select/dfrs: node selection for Dynamic Fractional Resource
 * Scheduling (seed 001, Stillwell, Vivien, Casanova) and the foreground/
 * background tiers of consolidation backfill (seed 004).
 *
 * This file is the boundary with Slurm's select interface.  For now every
 * operation is delegated to Slurm's own select/linear, loaded through the
 * plugin interface (plugin_context_create), so select/dfrs behaves exactly as
 * select/linear: whole nodes per job.  The DFRS placement replaces job_test
 * and the bookkeeping around it in a later step; what it does not change
 * stays delegated.
 *
 * Like Slurm's own select plugins, the .so is also loaded by client commands
 * (squeue, sinfo, ...), so it references no slurmctld-only symbol here.
 */
/* Must be first: maps internal names to the ones libslurm exports, so the
 * plugin also loads into programs linked with the public libslurm. */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>

#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/plugin.h"
#include "src/common/select.h"

const char plugin_name[] = "slurm-dfrs fractional node selection";
const char plugin_type[] = "select/dfrs";
/* Unique among select plugins; Slurm 22.05 uses 101..110. */
const uint32_t plugin_id = 111;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define DELEGATE "select/linear"

/* Same order as slurm_select_ops_t in Slurm's src/common/select.h. */
static const char *delegate_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};

static slurm_select_ops_t base;
static plugin_context_t *base_context;

extern int init(void)
{
	base_context = plugin_context_create("select", DELEGATE,
					     (void **)&base, delegate_syms,
					     sizeof(delegate_syms));
	if (!base_context) {
		error("cannot load %s, which it delegates to",
		      DELEGATE);
		return SLURM_ERROR;
	}
	verbose("loaded, delegating node bookkeeping to %s",
		DELEGATE);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	int rc = SLURM_SUCCESS;

	if (base_context)
		rc = plugin_context_destroy(base_context);
	base_context = NULL;
	return rc;
}

extern int select_p_state_save(char *dir_name)
{
	return base.state_save(dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	return base.state_restore(dir_name);
}

extern int select_p_job_init(List job_list_arg)
{
	return base.job_init(job_list_arg);
}

extern int select_p_node_init(void)
{
	return base.node_init();
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	return base.job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			     mode, preemptee_candidates, preemptee_job_list,
			     exc_core_bitmap);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	return base.job_begin(job_ptr);
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	return base.job_ready(job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	return base.job_expand(from_job_ptr, to_job_ptr);
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	return base.job_resized(job_ptr, node_ptr);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return base.job_signal(job_ptr, signal);
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	return base.job_fini(job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	return base.job_suspend(job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	return base.job_resume(job_ptr, indf_susp);
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	return base.step_pick_nodes(job_ptr, jobinfo, node_count, avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	return base.step_start(step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	return base.step_finish(step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	return base.nodeinfo_pack(nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	return base.nodeinfo_unpack(nodeinfo, buffer, protocol_version);
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	return base.nodeinfo_alloc();
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	return base.nodeinfo_free(nodeinfo);
}

extern int select_p_select_nodeinfo_set_all(void)
{
	return base.nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	return base.nodeinfo_set(job_ptr);
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	return base.nodeinfo_get(nodeinfo, dinfo, state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	return base.jobinfo_alloc();
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	return base.jobinfo_free(jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return base.jobinfo_set(jobinfo, data_type, data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return base.jobinfo_get(jobinfo, data_type, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	return base.jobinfo_copy(jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	return base.jobinfo_pack(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	return base.jobinfo_unpack(jobinfo, buffer, protocol_version);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	return base.jobinfo_sprint(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	return base.jobinfo_xstrdup(jobinfo, mode);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	return base.get_info_from_plugin(dinfo, job_ptr, data);
}

extern int select_p_update_node_config(int index)
{
	return base.update_node_config(index);
}

extern int select_p_reconfigure(void)
{
	return base.reconfigure();
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt,
				    bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return base.resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
			      core_bitmap);
}
