/*
 * markov_estimator_state.h - save and restore the learned ON/OFF models of
 * named nodes as JSON (json-c), so that a controller restart keeps them.
 * A corrupt or foreign file is reported (one message naming the file and
 * the first bad field) and nothing is loaded.
 *
 * The state of markov_estimator.h (He et al., seed 000, Sec. III-A).
 */
#ifndef DFRS_MARKOV_ESTIMATOR_STATE_H
#define DFRS_MARKOV_ESTIMATOR_STATE_H

#include <stddef.h>

#include <json-c/json.h>

#include "markov_estimator.h"

#define ONOFF_STATE_FORMAT "slurm-dfrs availability"
#define ONOFF_STATE_VERSION 1

typedef struct {
	char *name;
	onoff_estimator_t model;
} onoff_node_model_t;

/* JSON object for the nodes (new reference), NULL if out of memory. */
json_object *onoff_models_to_json(const onoff_node_model_t *nodes, size_t count);
/* Nodes from such an object: 0 and a malloc'ed array, or -1, a message
 * ("nodes[2].transitions: ...") in err and *nodes = NULL, *count = 0. */
int onoff_models_from_json(json_object *obj, onoff_node_model_t **nodes, size_t *count,
			   char *err, size_t errlen);

/* Files: written to PATH.tmp then renamed over PATH (never half-written). */
int onoff_models_save(const char *path, const onoff_node_model_t *nodes, size_t count,
		      char *err, size_t errlen);
int onoff_models_load(const char *path, onoff_node_model_t **nodes, size_t *count,
		      char *err, size_t errlen);
/* Any JSON document, written the same way (the caller keeps root). */
int onoff_json_save(const char *path, json_object *root, char *err, size_t errlen);
/* A JSON document (new reference), or NULL and "PATH: why" in err. */
json_object *onoff_json_load(const char *path, char *err, size_t errlen);

void onoff_models_free(onoff_node_model_t *nodes, size_t count);

#endif
