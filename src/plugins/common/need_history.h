/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_history.h - the history of measured CPU needs (need/need_predictor.h)
 * as sched/amcbf keeps it across restarts in
 * StateSaveLocation/dfrs-need-history: sched/amcbf reads it at start and
 * writes it; select/dfrs reads it again whenever it changed, to give a
 * pending job the need sched/amcbf predicts for it.  Liu et al. 2013,
 * section 4.1 (CPU usage from history).
 */
#ifndef DFRS_NEED_HISTORY_H
#define DFRS_NEED_HISTORY_H

#include <time.h>

#include "need/need_predictor.h"

#define DFRS_NEED_HISTORY_FILE "dfrs-need-history"

/*
 * Read the file into *p (initialised).  *mtime (may be NULL): the file's
 * modification time when last read; the file is not read again while it
 * stays the same.  Returns 1 read, 2 unchanged, 0 no file (or no
 * StateSaveLocation; *p left as it was), -1 unreadable or corrupt: *p
 * empty, why in err (naming the file).
 */
int dfrs_need_history_read(need_predictor_t *p, time_t *mtime, char *err,
			   size_t errlen);

#endif
