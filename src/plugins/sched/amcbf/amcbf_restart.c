/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_restart.c - sched/amcbf's state file for restarts
 * (amcbf_restart.h): the plugin's memory to and from amcbf_state_t, node
 * indices to and from node names.
 */
#include "src/common/slurm_xlator.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#define DFRS_AMCBF_SLURM_TYPES
#include "amcbf_locks.h"
#include "amcbf_restart.h"
#include "state_file.h"
#include "amcbf/amcbf_state.h"

static char *restart_path(void)
{
	char *path = NULL;

	xstrfmtcat(path, "%s/%s", slurm_conf.state_save_location,
		   AMCBF_RESTART_FILE);
	return path;
}

/* The whole file (xmalloc'ed), NULL if it cannot be read (*missing: it
 * does not exist). */
static char *read_text(const char *path, bool *missing)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, buf[4096];
	size_t n;

	*missing = !f;
	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		xstrncat(text, buf, n);
	fclose(f);
	return text ? text : xstrdup("");
}

/* Node names to indices (node read lock held); NULL unless all exist. */
static int *host_indices(char **names, size_t n)
{
	int *idx = xcalloc(n ? n : 1, sizeof(int));

	for (size_t h = 0; h < n; h++) {
		node_record_t *node_ptr = find_node_record(names[h]);
		if (!node_ptr) {
			xfree(idx);
			return NULL;
		}
		idx[h] = node_ptr->index;
	}
	return idx;
}

static void restore(amcbf_memory_t *mem, const amcbf_state_t *st)
{
	slurmctld_lock_t node_read = { .node = READ_LOCK };
	size_t with_hosts = 0;

	amcbf_memory_reserve(mem, st->njobs);
	lock_slurmctld(node_read);
	for (size_t i = 0; i < st->njobs; i++) {
		const amcbf_state_job_t *j = &st->jobs[i];
		amcbf_known_t *k = amcbf_known(mem, j->id, true);

		k->vt = j->vt;
		k->seen = j->seen;
		k->submit = (time_t)j->submit;
		k->restored = 1;
		if (j->nhosts && (k->hosts = host_indices(j->hosts, j->nhosts))) {
			k->nhosts = (int)j->nhosts;
			with_hosts++;
		}
	}
	unlock_slurmctld(node_read);
	mem->last_periodic = (time_t)st->last_periodic;
	info("restored %zu jobs' virtual times (%zu with the nodes to resume on) from %s",
	     st->njobs, with_hosts, AMCBF_RESTART_FILE);
}

char *amcbf_restart_load(amcbf_memory_t *mem)
{
	char *path = restart_path(), *text, *params = NULL, err[256];
	amcbf_state_t st;
	bool missing;

	if (!(text = read_text(path, &missing))) {
		if (!missing)
			error("%s: cannot read it: %m; starting without it", path);
		xfree(path);
		return NULL;
	}
	if (amcbf_state_parse(text, &st, err, sizeof(err))) {
		error("%s: %s; starting without it", path, err);
	} else {
		restore(mem, &st);
		params = st.params ? xstrdup(st.params) : NULL;
	}
	amcbf_state_free(&st);
	xfree(text);
	xfree(path);
	return params;
}

/* Node indices to names (node read lock held); malloc'ed for amcbf_state. */
static char **host_names(const int *idx, int n)
{
	char **names = calloc(n, sizeof(*names));

	for (int h = 0; names && h < n; h++) {
		node_record_t *node_ptr = idx[h] >= 0 && idx[h] < node_record_count ?
			node_record_table_ptr[idx[h]] : NULL;
		if (!node_ptr || !(names[h] = strdup(node_ptr->name))) {
			for (int g = 0; g < h; g++)
				free(names[g]);
			free(names);
			return NULL;	/* the job resumes wherever it fits */
		}
	}
	return names;
}

int amcbf_restart_save(const amcbf_memory_t *mem, const char *params)
{
	amcbf_hold_t h = { .locks = { .node = READ_LOCK },
			   .phase = AMCBF_PHASE_OTHER };
	amcbf_state_t st = { .params = params ? strdup(params) : NULL,
			     .last_periodic = (long)mem->last_periodic };
	char *json;
	int rc;

	st.jobs = calloc(mem->njobs ? mem->njobs : 1, sizeof(*st.jobs));
	amcbf_hold_lock(&h);
	for (size_t i = 0; st.jobs && i < mem->njobs; i++) {
		const amcbf_known_t *k = &mem->jobs[i];
		amcbf_state_job_t *j = &st.jobs[st.njobs++];

		j->id = k->id;
		j->vt = k->vt;
		j->seen = k->seen;
		j->submit = (long)k->submit;
		if (k->hosts && k->nhosts > 0 &&
		    (j->hosts = host_names(k->hosts, k->nhosts)))
			j->nhosts = k->nhosts;
	}
	amcbf_hold_unlock(&h);
	json = st.jobs ? amcbf_state_to_json(&st) : NULL;
	rc = json ? dfrs_write_state_file(AMCBF_RESTART_FILE, json) : -1;
	if (!json)
		error("%s: out of memory", AMCBF_RESTART_FILE);
	free(json);
	amcbf_state_free(&st);
	return rc;
}
