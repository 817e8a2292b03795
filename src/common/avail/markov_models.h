/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markov_models.h - save and restore the learned ON/OFF models of
 * named nodes as JSON (written as text node by node, read with json-c), so
 * that a controller restart keeps them.
 * A corrupt or foreign file is reported (one message naming the file and
 * the first bad field) and nothing is loaded.
 *
 * The state of markov_estimator.h (He et al. 2012, Sec. III-A).
 */
#ifndef DFRS_MARKOV_MODELS_H
#define DFRS_MARKOV_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "markov_estimator.h"

#define MARKOV_STATE_FORMAT "slurm-dfrs availability"
#define MARKOV_STATE_VERSION 1

typedef struct {
	char *name;
	markov_estimator_t model;
} markov_node_model_t;

/* Nodes from the object of such a document (markov_models_json_load): 0 and a malloc'ed array, or -1, a message
 * ("nodes[2].transitions: ...") in err and *nodes = NULL, *count = 0. */
int markov_models_from_json(json_object *obj, markov_node_model_t **nodes, size_t *count,
			   char *err, size_t errlen);

/* Files: written to PATH.tmp then renamed over PATH (never half-written),
 * the text node by node (no json-c tree of the whole).  ids: nids job ids
 * kept beside the models as "suspended" (avail_monitor.h), or NULL: no
 * such key. */
int markov_models_save(const char *path, const markov_node_model_t *nodes, size_t count,
		      const uint32_t *ids, size_t nids, char *err, size_t errlen);
int markov_models_load(const char *path, markov_node_model_t **nodes, size_t *count,
		      char *err, size_t errlen);
/* A JSON document (new reference), or NULL and "PATH: why" in err. */
json_object *markov_models_json_load(const char *path, char *err, size_t errlen);

void markov_models_free(markov_node_model_t *nodes, size_t count);

#endif
