/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * name_suggest.h - "did you mean": the known name closest to a mistyped
 * one (a policy, a parameter key, a choice), for error messages that say
 * what to type instead.  Plain C, no Slurm headers.
 */
#ifndef DFRS_NAME_SUGGEST_H
#define DFRS_NAME_SUGGEST_H

#include <stddef.h>

/*
 * The name of names[0..n) closest to typed by edit distance (insertions,
 * deletions, substitutions, swaps of two neighbours; case ignored), or
 * NULL when none is within a third of typed's length (at least 1, at most
 * 3 edits): a suggestion only when it is likely what was meant.  Ties go
 * to the first name listed.
 */
const char *name_suggest(const char *typed, const char *const *names,
			 size_t n);

#endif
