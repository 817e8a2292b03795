/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_instance_json.h - a DFRS placement instance (dfrs_model.h) read from
 * JSON, the input of dfrs pack:
 *
 *   {"hosts": [[cap_dim0, cap_dim1, ...], ...],
 *    "jobs":  [{"tasks": k, "need": [...], "req": [...], "min_yield": y}, ...]}
 *
 * A host may also be {"cap": [...], "elem": [...]} to give an elementary
 * capacity (the most one task may use of one unit, e.g. one core) below
 * the aggregate one; otherwise elem = cap.  A job may give "elem_req" and
 * "elem_need": what one task uses of one elementary unit (e.g. per thread),
 * each defaulting to the aggregate "req" / "need" when only the other is
 * given.  "tasks" defaults to 1, "min_yield" to 0, a missing "req" or
 * "need" to zeros.  The number of dimensions is the length
 * of the first host's capacity list; every list must have that length.
 * Unknown keys are errors (they are usually typos).
 */
#ifndef DFRS_INSTANCE_JSON_H
#define DFRS_INSTANCE_JSON_H

#include <stddef.h>

#include "dfrs_model.h"

/* An instance and the arrays it points to. */
typedef struct {
	dfrs_instance_t inst;
	dfrs_host_t *hosts;
	dfrs_job_t *jobs;
} dfrs_instance_store_t;

/*
 * Parse JSON text (len bytes).  Returns 0 and fills *out, or -1 with one
 * message in err saying where (byte offset and line for malformed JSON, or
 * the path such as jobs[3].need[1]) and what is wrong.  The instance also
 * passes dfrs_instance_check().
 */
int dfrs_instance_parse_json(const char *text, size_t len,
			     dfrs_instance_store_t *out,
			     char *err, size_t errlen);

/* Read and parse a file; messages start with the path. */
int dfrs_instance_read_json(const char *path, dfrs_instance_store_t *out,
			    char *err, size_t errlen);

void dfrs_instance_store_free(dfrs_instance_store_t *s);

/*
 * Write inst in the format above (hosts as {"cap", "elem"} when they
 * differ, else as plain lists; numbers with 17 significant digits, so that
 * reading it back gives the same instance).  Returns a string to free(),
 * or NULL on out of memory.
 */
char *dfrs_instance_to_json(const dfrs_instance_t *inst);

#endif
