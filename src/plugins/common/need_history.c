/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_history.c - read the CPU-need history sched/amcbf keeps in
 * StateSaveLocation (need_history.h).
 */
#include "src/common/slurm_xlator.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "need_history.h"
#include "state_file.h"

int dfrs_need_history_read(need_predictor_t *p, time_t *mtime, char *err,
			   size_t errlen)
{
	char *path, *text = NULL, buf[4096], why[256];
	struct stat st;
	size_t n;
	FILE *f;
	int rc = 1;

	if (!(path = dfrs_state_file_path(DFRS_NEED_HISTORY_FILE)))
		return 0;
	if (stat(path, &st)) {
		xfree(path);
		return 0;	/* none yet */
	}
	if (mtime && *mtime == st.st_mtime) {
		xfree(path);
		return 2;
	}
	if (!(f = fopen(path, "r"))) {
		snprintf(err, errlen, "%s: cannot read it", path);
		need_predictor_clear(p);
		xfree(path);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		xstrncat(text, buf, n);
	fclose(f);
	if (need_predictor_parse(p, text ? text : "", why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		rc = -1;
	}
	if (mtime)
		*mtime = st.st_mtime;
	xfree(text);
	xfree(path);
	return rc;
}
