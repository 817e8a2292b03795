/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select_delegate.c - load the select plugin select/dfrs delegates to, the
 * way Slurm's plugin loader does (dlopen from PluginDir, check plugin_type
 * and plugin_version, resolve the functions, call init), but with only
 * dlopen and dlsym, which every process that loads select/dfrs has.
 */

/* Must be first: maps internal names to the ones libslurm exports. */
#include "src/common/slurm_xlator.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "select_delegate.h"

/* Same order as select_delegate_ops_t. */
static const char *syms[] = {
	"plugin_id",
#if DFRS_SELECT_HAS_INFO
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
#endif
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
#if DFRS_SELECT_HAS_22_05_EXTRAS
	"select_p_job_signal",
#endif
#if DFRS_SELECT_HAS_MEM_REDUCE
	"select_p_job_mem_reduce",
#endif
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
#if DFRS_SELECT_HAS_INFO
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
#endif
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
#if DFRS_SELECT_HAS_INFO
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
#endif
#if DFRS_SELECT_HAS_22_05_EXTRAS
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
#endif
#if DFRS_SELECT_HAS_INFO
	"select_p_get_info_from_plugin",
#endif
#if DFRS_SELECT_HAS_22_05_EXTRAS
	"select_p_update_node_config",
#endif
	"select_p_reconfigure",
#if DFRS_SELECT_HAS_22_05_EXTRAS
	"select_p_resv_test",
#endif
};

_Static_assert(sizeof(syms) / sizeof(syms[0]) * sizeof(void *) ==
	       sizeof(select_delegate_ops_t),
	       "one symbol name for each member of select_delegate_ops_t");

static void *handle;

/* Open `type`'s .so from the first PluginDir entry that has it. */
static void *open_plugin(const char *type, char **path_out)
{
	char *file = xstrdup(type), *dirs, *save = NULL, *dir, *tried = NULL;
	void *h = NULL;

	for (char *p = file; *p; p++)
		if (*p == '/')
			*p = '_';
	dirs = xstrdup(slurm_conf.plugindir);
	for (dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir && !h;
	     dir = strtok_r(NULL, ":", &save)) {
		char *path = xstrdup_printf("%s/%s.so", dir, file);

		if (access(path, R_OK) == 0) {
			(void)dlerror();
			h = dlopen(path, RTLD_LAZY);
			if (!h)
				error("cannot load %s: %s", path, dlerror());
			else
				*path_out = xstrdup(path);
		}
		xstrfmtcat(tried, "%s%s", tried ? ", " : "", path);
		xfree(path);
	}
	if (!h && !tried)
		error("cannot load %s: PluginDir is empty", type);
	else if (!h && !*path_out)
		error("cannot load %s: no %s.so in PluginDir (looked for %s)",
		      type, file, tried);
	xfree(tried);
	xfree(dirs);
	xfree(file);
	return h;
}

extern int select_delegate_load(const char *type, select_delegate_ops_t *ops)
{
	void **ptrs = (void **)ops;
	char *path = NULL;
	const char *ptype;
	const uint32_t *version;
	int (*init)(void);

	if (!(handle = open_plugin(type, &path)))
		return -1;
	ptype = dlsym(handle, "plugin_type");
	version = dlsym(handle, "plugin_version");
	if (!ptype || strcmp(ptype, type)) {
		error("%s is not the %s plugin (plugin_type %s)", path, type,
		      ptype ? ptype : "missing");
		goto fail;
	}
	if (!version) {
		error("%s has no plugin_version: not a Slurm plugin", path);
		goto fail;
	}
	if (*version != SLURM_VERSION_NUMBER) {
		error("%s is Slurm %d.%02d.%d's, select/dfrs was built for Slurm %d.%02d.%d: a build is per Slurm release",
		      path, SLURM_VERSION_MAJOR(*version),
		      SLURM_VERSION_MINOR(*version),
		      SLURM_VERSION_MICRO(*version),
		      SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
		      SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
		      SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
		goto fail;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (!(ptrs[i] = dlsym(handle, syms[i]))) {
			error("%s has no %s: not a select plugin of Slurm %d.%02d",
			      path, syms[i],
			      SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			      SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER));
			goto fail;
		}
	}
	init = dlsym(handle, "init");
	if (init && init() != SLURM_SUCCESS) {
		error("%s: init() failed", path);
		goto fail;
	}
	debug("delegating to %s", path);
	xfree(path);
	return 0;
fail:
	memset(ops, 0, sizeof(*ops));
	dlclose(handle);
	handle = NULL;
	xfree(path);
	return -1;
}

extern int select_delegate_unload(void)
{
	void (*fini)(void);

	if (!handle)
		return SLURM_SUCCESS;
	/* called as Slurm's own loader calls it: the select plugins' fini()
	 * returns an int up to 25.05 and nothing on 26.05 */
	if ((fini = (void (*)(void))dlsym(handle, "fini")))
		fini();
	dlclose(handle);
	handle = NULL;
	return SLURM_SUCCESS;
}
