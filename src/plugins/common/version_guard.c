/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version_guard.c - one clear line when a plugin of this suite is loaded
 * into a Slurm release other than the one it was built for.
 *
 * A build of slurm-dfrs is per Slurm release, micro included: Slurm's plugin
 * loader (src/common/plugin.c) compares plugin_version with its own version
 * and refuses the plugin before calling its init(), logging only the
 * plugin's version, at info level.  This constructor runs when the .so is
 * opened, before that check: it reads the release of a Slurm plugin the
 * process has already loaded (slurmctld loads its auth, hash and other
 * plugins first) and, if it differs from ours, logs both releases and what
 * to do.  It never refuses anything itself; Slurm does.
 */
#define _GNU_SOURCE	/* dladdr, dl_iterate_phdr, RTLD_NOLOAD */

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "slurm/slurm.h"
#include "src/common/log.h"

#include "version_guard.h"

/* each plugin's own; this object is linked into each plugin */
extern const char plugin_type[];
extern const uint32_t plugin_version;

#define DFRS_RELEASE_MASK 0xffffff	/* major.minor.micro, as plugin.c */

typedef struct {
	const char *self;	/* our .so's path */
	uint32_t host;		/* the loaded Slurm plugin's version, or 0 */
} seek_t;

/* A Slurm plugin is an object with plugin_type and plugin_version; ours
 * (sched/amcbf, select/dfrs) are not the host's. */
static int seek_slurm_plugin(struct dl_phdr_info *info, size_t size, void *arg)
{
	seek_t *s = arg;
	const uint32_t *version;
	const char *type;
	void *h;

	(void)size;
	if (!info->dlpi_name || !info->dlpi_name[0] ||
	    !strcmp(info->dlpi_name, s->self))
		return 0;
	if (!(h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD)))
		return 0;
	type = dlsym(h, "plugin_type");
	version = dlsym(h, "plugin_version");
	if (type && version && strcmp(type, "sched/amcbf") &&
	    strcmp(type, "select/dfrs"))
		s->host = *version;
	dlclose(h);
	return s->host != 0;	/* stop at the first one */
}

int dfrs_version_line(uint32_t ours, uint32_t host, const char *type,
		      char *buf, size_t size)
{
	if (!host || (ours & DFRS_RELEASE_MASK) == (host & DFRS_RELEASE_MASK))
		return 0;
	snprintf(buf, size,
		 "%s: this build of slurm-dfrs is for Slurm %u.%02u.%u but this is Slurm %u.%02u.%u: a build is per Slurm release; rebuild it against Slurm %u.%02u.%u's source",
		 type, SLURM_VERSION_MAJOR(ours), SLURM_VERSION_MINOR(ours),
		 SLURM_VERSION_MICRO(ours), SLURM_VERSION_MAJOR(host),
		 SLURM_VERSION_MINOR(host), SLURM_VERSION_MICRO(host),
		 SLURM_VERSION_MAJOR(host), SLURM_VERSION_MINOR(host),
		 SLURM_VERSION_MICRO(host));
	return 1;
}

__attribute__((constructor)) static void dfrs_version_guard(void)
{
	seek_t s = { 0 };
	Dl_info self;
	char line[512];

	if (!dladdr((void *)dfrs_version_guard, &self) || !self.dli_fname)
		return;
	s.self = self.dli_fname;
	dl_iterate_phdr(seek_slurm_plugin, &s);
	if (dfrs_version_line(plugin_version, s.host, plugin_type, line,
			      sizeof(line)))
		error("%s", line);
}
