/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select_dfrs.c - select/dfrs: node selection for Dynamic Fractional Resource
 * Scheduling (Stillwell, Vivien and Casanova 2010): several jobs share a
 * node; memory is a rigid requirement, CPU a fluid need; every running job
 * gets a yield, and the nodes enforce it with cgroup CPU weights
 * (dfrs-nodeagent).
 *
 * This file is the boundary with Slurm's select interface.  Bookkeeping that
 * DFRS does not change (memory accounting, job resources, node states,
 * packing of select data for clients) is delegated to one of Slurm's own
 * select plugins, loaded from PluginDir by select_delegate.c: to
 * select/cons_tres when SelectTypeParameters makes CPUs consumable
 * (CR_CPU*, CR_Core*, CR_Socket*: the site's own allocation of cores,
 * memory and GPUs), else to select/linear (CR_Memory: whole nodes, shared
 * within memory).  A partition with OverSubscribe=FORCE:N lets the
 * delegate place jobs on resources other jobs hold.
 * What DFRS decides is made by src/common/dfrs/node_share.c:
 *   job_test  (run now) chooses the nodes, least CPU-loaded first where the
 *             job fits with every job at its minimum yield, and hands linear
 *             only those nodes;
 *   job_begin, job_fini, job_suspend, job_resume  update the model and
 *             reallocate the yields max-min;
 * and every job whose yield changed gets "dfrs:yield=Y,need=N" in its
 * SystemComment (visible in scontrol show job; read by dfrs-nodeagent).
 * The model is rebuilt from Slurm's own job records after a start or
 * reconfiguration, so a slurmctld restart keeps it without a state file.
 *
 * A job states its CPU need per node and its minimum yield in its comment,
 * `sbatch --comment=dfrs:need=0.4,min_yield=0.5`; otherwise a running job's
 * need is the one dfrs-nodeagent measured on its nodes, a pending job's the
 * one predicted from the history sched/amcbf keeps (need_history.h), else
 * SchedulerParameters dfrs_cpu_need (dfrs_measured.h); dfrs_min_yield
 * applies to a job that states no minimum yield.  An --exclusive job needs
 * the whole node.  A thread looks at the running jobs' needs again every
 * DFRS_NEED_REFRESH seconds and reallocates the yields when one moved;
 * the same thread exports the model for `dfrs status` (dfrs-nodes.json)
 * at most every DFRS_EXPORT_EVERY seconds after it changed, not in every
 * select call: at 1,024 nodes a text of the whole model took 10 to 40 ms
 * under slurmctld's locks, once for each of hundreds of starts.
 *
 * Like Slurm's own select plugins, the .so is also loaded by client commands
 * up to 24.11 (squeue, sinfo, dfrs-nodeagent, ...; from 25.05 only slurmctld
 * loads a select plugin): the slurmctld data it uses is defined
 * here as plain globals (slurmctld's own definitions win inside slurmctld),
 * and slurmctld-only code runs only when running_in_slurmctld().
 */
#define _GNU_SOURCE	/* program_invocation_short_name */

/* Must be first: maps internal names to the ones libslurm exports, so the
 * plugin also loads into programs linked with the public libslurm. */
#include "src/common/slurm_xlator.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "slurm_compat.h"

#include "suite/cpu_weight.h"
#include "dfrs_job_shape.h"
#include "dfrs_measured.h"
#include "need_history.h"
#include "select_delegate.h"
#include "dfrs/node_share.h"
#include "suite/node_share_json.h"
#include "suite/dfrs_params.h"
#include "state_writer.h"

/* slurmctld's data; its own definitions win inside slurmctld */
slurm_conf_t slurm_conf;
node_record_t **node_record_table_ptr;
int node_record_count;
List job_list;
time_t last_job_update;

const char plugin_name[] = "slurm-dfrs fractional node selection";
const char plugin_type[] = "select/dfrs";
/* Unique among select plugins: Slurm 22.05 uses 101..110, 24.11 fewer.
 * From 25.05 ids are no longer checked and slurmctld asks whether it runs
 * cons_tres by the id (running_cons_tres): init() then takes the
 * delegate's. */
uint32_t plugin_id = 111;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static select_delegate_ops_t base;
/* the plugin delegated to (delegate_type) */
static const char *delegate;

/*
 * The shared-node model and the settings, used only inside slurmctld.  The
 * select calls come with slurmctld's job and node locks held; the mutex
 * guards the model against select calls from different threads.
 */
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static node_share_t model;
static bool in_ctld;
static bool model_stale = true;	/* rebuild from job_list before use */
static dfrs_params_t params;
static uint64_t ref_memory_mb;	/* smallest RealMemory: memory fraction unit */
/* dfrs-nodes.json, written outside slurmctld's locks */
static state_writer_t model_file;

/* seconds between two looks at the running jobs' measured needs */
#define DFRS_NEED_REFRESH 5
/* seconds between the refresher's looks at whether the model changed and
 * is to be exported */
#define DFRS_EXPORT_EVERY 1
/* the model changed since it was last exported (model_lock) */
static bool model_dirty;
/* a need that moved less than this keeps the yields (the agent reports
 * moves of 0.02 or more) */
#define DFRS_NEED_MOVE 0.015

/* the history of measured needs sched/amcbf keeps, read again when it
 * changed (model_lock) */
static need_predictor_t hist;
static bool hist_ready;
static time_t hist_mtime, hist_checked;

/* the thread that refreshes the needs of running jobs */
static pthread_t refresher;
static bool refresher_on, refresher_stop;
static pthread_mutex_t refresher_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t refresher_cond = PTHREAD_COND_INITIALIZER;

/*
 * Slurm's running_in_slurmctld() compares the program name with "slurmctld"
 * exactly, and Debian's binary is slurmctld-wlm: accept the prefix.
 */
static bool running_in_controller(void)
{
	return running_in_slurmctld() ||
	       !strncmp(program_invocation_short_name, "slurmctld", 9);
}

/*
 * With sched/amcbf in a tiered mode (amcbf, cmcbf) the scheduler decides
 * nodes and tiers and writes the jobs' tier tags: select/dfrs then only
 * checks memory (through linear) and does not publish yields.
 */
static bool tiers_owned_by_scheduler(void)
{
	return !xstrcmp(slurm_conf.schedtype, "sched/amcbf") &&
	       (params.mode == AMCBF_MODE_AMCBF || params.mode == AMCBF_MODE_CMCBF);
}

/*
 * The select plugin to delegate to: select/cons_tres when the
 * SelectTypeParameters allocate CPUs (cores, memory and GPUs as the site's
 * cons_tres does), select/linear otherwise (CR_Memory: whole nodes).
 */
static const char *delegate_type(void)
{
	return (slurm_conf.select_type_param & DFRS_SELECT_CPU_BITS) ?
		"select/cons_tres" : "select/linear";
}

static void load_params(void)
{
	dfrs_params_t fresh;
	char err[256];

	if (dfrs_params_parse(slurm_conf.sched_params, &fresh, err,
			      sizeof(err))) {
		error("%s; keeping %s settings", err,
		      params.share_min_yield > 0 ? "previous" : "default");
		if (!(params.share_min_yield > 0))
			dfrs_params_defaults(&params);
	} else {
		params = fresh;
	}
	info("dfrs_cpu_need=%g dfrs_min_yield=%g", params.share_cpu_need,
	     params.share_min_yield);
}

/* The history sched/amcbf keeps, read again when the file changed (looked
 * at every DFRS_NEED_REFRESH s at most); NULL when there is none. */
static const need_predictor_t *history(void)
{
	time_t now = time(NULL);
	char err[512];

	if (!hist_ready) {
		if (need_predictor_init(&hist, 0))
			return NULL;
		hist_ready = true;
	}
	if (difftime(now, hist_checked) >= DFRS_NEED_REFRESH) {
		hist_checked = now;
		/* a corrupt file is said once: its mtime is then known */
		if (dfrs_need_history_read(&hist, &hist_mtime, err,
					   sizeof(err)) < 0)
			error("%s; pending jobs get dfrs_cpu_need", err);
	}
	return hist.used ? &hist : NULL;
}

/* The job's shape in the model: memory and CPU per node (declared,
 * measured, predicted or dfrs_cpu_need: *from, may be NULL), minimum yield. */
static void job_shape(job_record_t *job_ptr, share_job_t *out,
		      need_chosen_t *from)
{
	/* sched/amcbf's tiered modes decide on running jobs' needs and say
	 * what they cannot use */
	double need = dfrs_job_need(job_ptr, &params, history(), time(NULL),
				    tiers_owned_by_scheduler(), from);

	dfrs_job_shape(job_ptr, &params, need, ref_memory_mb, out);
}

/* Node indices of a bitmap into nodes[] (xmalloc'ed); returns the count. */
static int bitmap_nodes(bitstr_t *bitmap, int **nodes)
{
	int n = 0, cnt = bitmap ? bit_set_count(bitmap) : 0;

	*nodes = xcalloc(cnt ? cnt : 1, sizeof(int));
	for (int i = 0; bitmap && i < node_record_count && n < cnt; i++)
		if (bit_test(bitmap, i))
			(*nodes)[n++] = i;
	return n;
}

/*
 * Export the model for `dfrs status`: StateSaveLocation/dfrs-nodes.json,
 * written to a temporary file and renamed, so a reader never sees half.
 * Only the text is made here, with the node read lock (the names) and the
 * model lock held; the writer thread writes it (the latest model wins
 * over one not yet written).
 */
static void export_model(void)
{
	model_dirty = false;
	const char **names = xcalloc(model.nnodes ? model.nnodes : 1,
				     sizeof(char *));
	char *json;

	for (int i = 0; i < model.nnodes && i < node_record_count; i++)
		names[i] = node_record_table_ptr[i] ?
			node_record_table_ptr[i]->name : NULL;
	json = node_share_to_json(&model, names, time(NULL));
	xfree(names);
	state_writer_post(&model_file, json);
}

/*
 * Put every placed job's current yield in its SystemComment where it
 * differs, so that squeue/scontrol and the node agents see it, and export
 * the model.  Called with the job write lock held (every select call that
 * changes the model is).
 */
static void publish_yields(void)
{
	bool changed = false;

	for (size_t i = 0; i < model.njobs && !tiers_owned_by_scheduler(); i++) {
		const share_job_t *j = &model.jobs[i];
		job_record_t *job_ptr = find_job_record(j->id);
		cpu_weight_tag_t tag = { .yield = j->yield, .need = j->need,
				   .tier = SCHED_TIER_NONE, .weight = -1,
				   .min_yield = -1 };
		char text[128];

		if (!job_ptr)
			continue;
		cpu_weight_tag_format(&tag, text, sizeof(text));
		if (job_ptr->system_comment && !xstrcmp(job_ptr->system_comment, text))
			continue;
		xfree(job_ptr->system_comment);
		job_ptr->system_comment = xstrdup(text);
		changed = true;
	}
	if (changed)
		last_job_update = time(NULL);
	/* the refresher thread exports it (within DFRS_EXPORT_EVERY s);
	 * without that thread, here */
	model_dirty = true;
	if (!refresher_on)
		export_model();
}

/*
 * Look at the needs of the running jobs again (their nodes' agents may
 * have measured them since) and reallocate the yields when one moved by
 * DFRS_NEED_MOVE or more.  Model lock, slurmctld's job write and node read
 * locks held.
 */
static void refresh_needs(void)
{
	bool moved = false;

	for (size_t i = 0; i < model.njobs; i++) {
		uint32_t id = model.jobs[i].id;
		double was = model.jobs[i].need;
		job_record_t *job_ptr = find_job_record(id);
		need_chosen_t from;
		share_job_t s;

		if (!job_ptr || !IS_JOB_RUNNING(job_ptr))
			continue;
		job_shape(job_ptr, &s, &from);
		if (fabs(s.need - was) < DFRS_NEED_MOVE ||
		    node_share_set_need(&model, id, s.need) < 0)
			continue;
		info("%pJ: CPU need %.2f -> %.2f per node (%s): yields reallocated",
		     job_ptr, was, s.need, need_chosen_name(from));
		moved = true;
	}
	if (moved)
		publish_yields();
}

/* Is the model to be exported?  (model_dirty is the model lock's; a
 * stale read only moves the export to the next look.) */
static bool export_due(void)
{
	bool due;

	slurm_mutex_lock(&model_lock);
	due = model_dirty;
	slurm_mutex_unlock(&model_lock);
	return due;
}

/*
 * Every DFRS_EXPORT_EVERY s: export the model if it changed (node read
 * lock: the names); every DFRS_NEED_REFRESH s: look at the running jobs'
 * needs again (job write and node read locks).
 */
static void *refresh_loop(void *arg)
{
	slurmctld_lock_t refresh_locks = { .job = WRITE_LOCK, .node = READ_LOCK };
	slurmctld_lock_t export_locks = { .node = READ_LOCK };
	time_t last_refresh = time(NULL);

	slurm_mutex_lock(&refresher_lock);
	while (!refresher_stop) {
		struct timespec until = { .tv_sec = time(NULL) +
						    DFRS_EXPORT_EVERY };
		bool refresh;

		pthread_cond_timedwait(&refresher_cond, &refresher_lock,
				       &until);
		if (refresher_stop)
			break;
		slurm_mutex_unlock(&refresher_lock);
		refresh = difftime(time(NULL), last_refresh) >= DFRS_NEED_REFRESH;
		if (refresh) {
			last_refresh = time(NULL);
			lock_slurmctld(refresh_locks);
			slurm_mutex_lock(&model_lock);
			if (!model_stale && !tiers_owned_by_scheduler())
				refresh_needs();
			if (model_dirty)
				export_model();
			slurm_mutex_unlock(&model_lock);
			unlock_slurmctld(refresh_locks);
		} else if (export_due()) {
			lock_slurmctld(export_locks);
			slurm_mutex_lock(&model_lock);
			if (model_dirty)
				export_model();
			slurm_mutex_unlock(&model_lock);
			unlock_slurmctld(export_locks);
		}
		slurm_mutex_lock(&refresher_lock);
	}
	slurm_mutex_unlock(&refresher_lock);
	return NULL;
}

/* Add a started (or running, at restart) job to the model; lock held. */
static void model_add(job_record_t *job_ptr, bool suspended)
{
	share_job_t shape;
	char err[256], *where;
	int rc;

	if (!job_ptr->node_bitmap || node_share_find(&model, job_ptr->job_id))
		return;
	job_shape(job_ptr, &shape, NULL);
	shape.nnodes = bitmap_nodes(job_ptr->node_bitmap, &shape.nodes);
	shape.suspended = suspended;
	if (shape.nnodes == 0) {
		xfree(shape.nodes);
		return;
	}
	rc = node_share_add(&model, &shape, err, sizeof(err));
	if (rc) {
		/* started outside our choice (e.g. nodes forced by an
		 * administrator): keep it in the model below the minimums */
		shape.min_yield = 0.01;
		rc = node_share_add(&model, &shape, err, sizeof(err));
	}
	where = bitmap2node_name(job_ptr->node_bitmap);
	if (rc)
		error("%pJ on %s not modelled: %s", job_ptr, where, err);
	else
		info("%pJ on %s: need %.3g, mem %.3g, min yield %.3g per node",
		     job_ptr, where, shape.need, shape.mem, shape.min_yield);
	xfree(where);
	xfree(shape.nodes);
}

/*
 * Rebuild the model from Slurm's own job records once they are complete:
 * at start slurmctld calls job_init before the jobs' node bitmaps are set,
 * so the rebuild waits for select_p_select_nodeinfo_set, which slurmctld
 * calls for every job after setting them, or for any earlier select call
 * that needs the model.  Called with the model lock and slurmctld's job
 * lock held.
 */
static void model_reset(void);
static void ensure_model(void)
{
	ListIterator it;
	job_record_t *job_ptr;

	if (!model_stale)
		return;
	model_stale = false;
	model_reset();
	if (!job_list)
		return;
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr))
			model_add(job_ptr, IS_JOB_SUSPENDED(job_ptr));
	}
	list_iterator_destroy(it);
	publish_yields();
	info("model rebuilt: %zu running or suspended jobs on %d nodes",
	     model.njobs, model.nnodes);
}

static void model_reset(void)
{
	node_share_free(&model);
	node_share_init(&model, node_record_count);
	ref_memory_mb = dfrs_ref_memory_mb();
}

extern int init(void)
{
	in_ctld = running_in_controller();
	/* info in slurmctld's log; in slurmd and clients (sbatch loads the
	 * select plugin too, and prints info lines) only at debug level */
	if (in_ctld)
		info("slurm-dfrs %s built for Slurm %s", DFRS_PACKAGE_VERSION,
		     SLURM_VERSION_STRING);
	else
		debug("slurm-dfrs %s built for Slurm %s", DFRS_PACKAGE_VERSION,
		      SLURM_VERSION_STRING);
	delegate = delegate_type();
	if (select_delegate_load(delegate, &base)) {
		error("cannot load %s, which it delegates to", delegate);
		return SLURM_ERROR;
	}
#if DFRS_SLURM_SINCE(25, 5)
	plugin_id = *base.plugin_id;
#endif
	if (in_ctld) {
		dfrs_params_defaults(&params);
		load_params();
		node_share_init(&model, 0);
		state_writer_start(&model_file, "dfrs-nodes.json");
		refresher_stop = false;
		refresher_on = !pthread_create(&refresher, NULL, refresh_loop,
					       NULL);
		if (!refresher_on)
			error("cannot start the thread that follows measured CPU needs: yields follow declared and start-time needs only");
		info("loaded: jobs share nodes by DFRS yields; bookkeeping delegated to %s",
		     delegate);
	}
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	int rc = SLURM_SUCCESS;

	if (refresher_on) {
		slurm_mutex_lock(&refresher_lock);
		refresher_stop = true;
		pthread_cond_broadcast(&refresher_cond);
		slurm_mutex_unlock(&refresher_lock);
		pthread_join(refresher, NULL);
		refresher_on = false;
	}
	rc = select_delegate_unload();
	slurm_mutex_lock(&model_lock);
	state_writer_stop(&model_file);	/* writes the last model first */
	node_share_free(&model);
	need_predictor_free(&hist);
	hist_ready = false;
	slurm_mutex_unlock(&model_lock);
	return rc;
}

#if DFRS_SELECT_HAS_INFO
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
	int rc = base.job_init(job_list_arg);

	if (in_ctld) {
		slurm_mutex_lock(&model_lock);
		model_stale = true;
		slurm_mutex_unlock(&model_lock);
	}
	return rc;
}
#endif

extern int select_p_node_init(void)
{
	int rc = base.node_init();

	if (in_ctld) {
		slurm_mutex_lock(&model_lock);
		model_stale = true;
		slurm_mutex_unlock(&model_lock);
	}
	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     DFRS_JOB_TEST_EXC_PARAMS)
{
	share_job_t shape;
	unsigned char *allowed;
	int *chosen, want, rc;
	char err[256];
	bitstr_t *req = job_ptr->details ? job_ptr->details->req_node_bitmap : NULL;

	if (!in_ctld || mode != SELECT_MODE_RUN_NOW || !bitmap ||
	    tiers_owned_by_scheduler())
		return base.job_test(job_ptr, bitmap, min_nodes, max_nodes,
				     req_nodes, mode, preemptee_candidates,
				     preemptee_job_list, DFRS_JOB_TEST_EXC_ARGS);

	slurm_mutex_lock(&model_lock);
	ensure_model();
	job_shape(job_ptr, &shape, NULL);
	/* a job of more CPUs than a node, without -N, comes with
	 * min_nodes 1: as many nodes as its CPUs fill */
	want = dfrs_job_tasks(job_ptr);
	if (want < (int)min_nodes)
		want = (int)min_nodes;
	allowed = xcalloc(node_record_count ? node_record_count : 1, 1);
	for (int i = 0; i < node_record_count; i++)
		allowed[i] = bit_test(bitmap, i) && (!req || bit_test(req, i));
	if (req && bit_set_count(req) > want)
		want = bit_set_count(req);
	chosen = xcalloc(want > 0 ? want : 1, sizeof(int));
	rc = (want > 0 && want <= model.nnodes) ?
		node_share_choose(&model, &shape, allowed, want, chosen, err,
				  sizeof(err)) : -1;
	if (rc) {
		if (want <= 0 || want > model.nnodes)
			snprintf(err, sizeof(err), "asks for %d of %d nodes",
				 want, model.nnodes);
		debug("%pJ cannot start now: %s", job_ptr, err);
		slurm_mutex_unlock(&model_lock);
		xfree(allowed);
		xfree(chosen);
		return SLURM_ERROR;
	}
	bit_clear_all(bitmap);
	for (int k = 0; k < want; k++)
		bit_set(bitmap, chosen[k]);
	slurm_mutex_unlock(&model_lock);
	xfree(allowed);
	xfree(chosen);
	/* linear checks memory and builds the job's resources on our nodes */
	return base.job_test(job_ptr, bitmap, want, want, want, mode,
			     preemptee_candidates, preemptee_job_list,
			     DFRS_JOB_TEST_EXC_ARGS);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	int rc = base.job_begin(job_ptr);

	if (rc == SLURM_SUCCESS && in_ctld) {
		slurm_mutex_lock(&model_lock);
		ensure_model();
		model_add(job_ptr, false);
		publish_yields();
		slurm_mutex_unlock(&model_lock);
	}
	return rc;
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

#if DFRS_SELECT_HAS_22_05_EXTRAS
extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return base.job_signal(job_ptr, signal);
}
#endif

#if DFRS_SELECT_HAS_MEM_REDUCE
/* The job's memory shrank (a resize): rebuild the model from the records. */
extern void select_p_job_mem_reduce(job_record_t *job_ptr)
{
	base.job_mem_reduce(job_ptr);
	if (in_ctld) {
		slurm_mutex_lock(&model_lock);
		model_stale = true;
		slurm_mutex_unlock(&model_lock);
	}
}
#endif

extern int select_p_job_fini(job_record_t *job_ptr)
{
	int rc = base.job_fini(job_ptr);

	if (in_ctld) {
		slurm_mutex_lock(&model_lock);
		ensure_model();
		if (node_share_remove(&model, job_ptr->job_id) == 0) {
			debug("%pJ left its nodes", job_ptr);
			publish_yields();
		}
		slurm_mutex_unlock(&model_lock);
	}
	return rc;
}

/* Suspended jobs keep their memory and give their CPU to the others. */
static void model_suspend(job_record_t *job_ptr, int suspended)
{
	int rc;

	slurm_mutex_lock(&model_lock);
	ensure_model();
	rc = node_share_set_suspended(&model, job_ptr->job_id, suspended);
	if (rc == 1)
		info("%pJ resumed where the jobs no longer all fit at their minimum yields: sharing below them",
		     job_ptr);
	if (rc >= 0)
		publish_yields();
	slurm_mutex_unlock(&model_lock);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	int rc = base.job_suspend(job_ptr, indf_susp);

	if (rc == SLURM_SUCCESS && in_ctld)
		model_suspend(job_ptr, 1);
	return rc;
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	int rc = base.job_resume(job_ptr, indf_susp);

	if (rc == SLURM_SUCCESS && in_ctld)
		model_suspend(job_ptr, 0);
	return rc;
}

#if DFRS_SELECT_HAS_INFO
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
#endif

extern int select_p_select_nodeinfo_set_all(void)
{
	return base.nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	int rc = base.nodeinfo_set(job_ptr);

	/* at start and reconfigure slurmctld calls this for every job once
	 * all their node bitmaps are set: the moment to rebuild the model */
	if (in_ctld) {
		slurm_mutex_lock(&model_lock);
		ensure_model();
		slurm_mutex_unlock(&model_lock);
	}
	return rc;
}

#if DFRS_SELECT_HAS_INFO
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
#endif

#if DFRS_SELECT_HAS_22_05_EXTRAS
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
#endif

#if DFRS_SELECT_HAS_INFO
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	return base.get_info_from_plugin(dinfo, job_ptr, data);
}
#endif

#if DFRS_SELECT_HAS_22_05_EXTRAS
extern int select_p_update_node_config(int index)
{
	return base.update_node_config(index);
}
#endif

extern int select_p_reconfigure(void)
{
	if (in_ctld)
		load_params();
	return base.reconfigure();
}

#if DFRS_SELECT_HAS_22_05_EXTRAS
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt,
				    bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return base.resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
			      core_bitmap);
}
#endif
