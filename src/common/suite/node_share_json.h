/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_share_json.h - select/dfrs's shared-node model as JSON: what the
 * plugin exports for `dfrs status` (each node, the jobs on it, their yields
 * and CPU weights).
 */
#ifndef DFRS_NODE_SHARE_JSON_H
#define DFRS_NODE_SHARE_JSON_H

#include <stdio.h>
#include <time.h>

#include "dfrs/node_share.h"

/*
 * The model as a JSON text (malloc'ed, NULL on out of memory):
 * {"updated": T, "nodes": [{"name": .., "cpu_load": .., "mem_used": ..,
 *   "jobs": [{"job_id", "yield", "need", "mem", "min_yield", "suspended",
 *   "weight"}]}]}.  names[i] is node i's name (NULL: "node<i>").
 */
char *node_share_to_json(const node_share_t *s, const char *const *names,
			 time_t updated);

/*
 * Print a JSON text made by node_share_to_json as a table, one line per job
 * on each node.  Returns 0, or -1 with err naming what is wrong with it.
 */
int node_share_print_status(const char *json, FILE *out, char *err,
			    size_t errlen);

#endif
