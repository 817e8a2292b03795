/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.c - files the plugins export for `dfrs status` (state_file.h).
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "state_file.h"

char *dfrs_state_file_path(const char *name)
{
	char *path = NULL;

	if (!slurm_conf.state_save_location)
		return NULL;
	xstrfmtcat(path, "%s/%s", slurm_conf.state_save_location, name);
	return path;
}

int dfrs_write_file(const char *path, const char *text)
{
	char *tmp = NULL;
	FILE *f;
	int rc = -1;

	xstrfmtcat(tmp, "%s.new", path);
	if ((f = fopen(tmp, "w"))) {
		bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
		if (fclose(f) == 0 && ok && rename(tmp, path) == 0)
			rc = 0;
	}
	if (rc) {
		error("cannot write %s: %m", path);
		(void)unlink(tmp);
	}
	xfree(tmp);
	return rc;
}

int dfrs_write_state_file(const char *name, const char *text)
{
	char *path = dfrs_state_file_path(name);
	int rc = -1;

	if (path && text)
		rc = dfrs_write_file(path, text);
	xfree(path);
	return rc;
}
