/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.h - a small file the plugins export into StateSaveLocation for
 * `dfrs status` (select/dfrs's node model, sched/amcbf's statistics),
 * written whole or not at all.
 */
#ifndef DFRS_STATE_FILE_H
#define DFRS_STATE_FILE_H

/*
 * Write text and a newline to StateSaveLocation/name through a temporary
 * file renamed over it, so a reader never sees half of it.  On failure one
 * error line names the file; returns 0 or -1.
 */
int dfrs_write_state_file(const char *name, const char *text);

/* StateSaveLocation/name (xmalloc'ed), or NULL when it is not set. */
char *dfrs_state_file_path(const char *name);

/* dfrs_write_state_file's write, to a path given whole; 0 or -1. */
int dfrs_write_file(const char *path, const char *text);

#endif
