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

int dfrs_write_state_file(const char *name, const char *text)
{
	char *path = NULL, *tmp = NULL;
	FILE *f;
	int rc = -1;

	if (!slurm_conf.state_save_location || !text)
		return -1;
	xstrfmtcat(path, "%s/%s", slurm_conf.state_save_location, name);
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
	xfree(path);
	xfree(tmp);
	return rc;
}
