/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_mark.h - a mark is one space-separated word in a free text (a Slurm
 * job's AdminComment), added and removed without touching the rest of the
 * text.  sched/amcbf marks the jobs it suspends, so that they are found
 * and resumed even when its own state file is lost, the plugin is passive,
 * or it was replaced (squeue -O JobID,admin_comment shows the mark).  Plain
 * C, no Slurm headers.
 */
#ifndef DFRS_TEXT_MARK_H
#define DFRS_TEXT_MARK_H

#include <stdbool.h>
#include <stddef.h>

/* Is mark one of the words of text (NULL: no words)? */
bool text_mark_has(const char *text, const char *mark);

/*
 * The text with the mark added as its last word (once: unchanged if it is
 * there) or removed (every occurrence, and the space before it), in *out
 * (malloc'ed; NULL when nothing is left).  0, or -1 when out of memory.
 */
int text_mark_add(const char *text, const char *mark, char **out);
int text_mark_remove(const char *text, const char *mark, char **out);

/*
 * The first word of text that begins with prefix, copied into buf (cut to
 * len - 1 bytes): 1, or 0 when there is none (text NULL: none).  A mark
 * that carries a value (prefix=value) is found this way and replaced with
 * text_mark_remove and text_mark_add.
 */
int text_mark_word(const char *text, const char *prefix, char *buf,
		   size_t len);

#endif
