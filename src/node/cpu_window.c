/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu_window.c - each job's CPU use over a sliding window of agent passes
 * (cpu_window.h; Liu et al. 2013, section 4.1: CPU usage from history).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_window.h"

void cpu_window_init(cpu_window_t *w, size_t window)
{
	*w = (cpu_window_t){ 0 };
	w->window = window < 1 ? 1 : window > CPU_WINDOW_MAX ? CPU_WINDOW_MAX
							    : window;
}

static void free_job(cpu_window_job_t *j)
{
	free(j->procs);
	j->procs = NULL;
	j->nprocs = 0;
}

void cpu_window_free(cpu_window_t *w)
{
	for (size_t i = 0; i < w->njobs; i++)
		free_job(&w->jobs[i]);
	free(w->jobs);
	*w = (cpu_window_t){ 0 };
}

void cpu_window_begin(cpu_window_t *w)
{
	w->generation++;
}

void cpu_window_end(cpu_window_t *w)
{
	size_t kept = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		if (w->jobs[i].generation != w->generation) {
			free_job(&w->jobs[i]);
			continue;
		}
		w->jobs[kept++] = w->jobs[i];
	}
	w->njobs = kept;
}

static cpu_window_job_t *find(const cpu_window_t *w, uint32_t job_id)
{
	for (size_t i = 0; i < w->njobs; i++)
		if (w->jobs[i].job_id == job_id)
			return &w->jobs[i];
	return NULL;
}

static int by_pid(const void *a, const void *b)
{
	const cpu_sample_t *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The last sample's CPU time of pid, or -1 when it was not there. */
static double before(const cpu_window_job_t *j, int32_t pid)
{
	cpu_sample_t key = { .pid = pid };
	const cpu_sample_t *s = j->procs ? bsearch(&key, j->procs, j->nprocs,
						    sizeof(key), by_pid) : NULL;

	return s ? s->cpu : -1;
}

int cpu_window_sample(cpu_window_t *w, uint32_t job_id, double now,
		      const cpu_sample_t *procs, size_t n)
{
	cpu_window_job_t *j = find(w, job_id);
	int fresh = !j;

	if (fresh) {
		cpu_window_job_t *grown = realloc(w->jobs, (w->njobs + 1) *
						  sizeof(*grown));
		if (!grown)
			return -1;
		w->jobs = grown;
		j = &w->jobs[w->njobs++];
		*j = (cpu_window_job_t){ .job_id = job_id };
	}
	j->generation = w->generation;
	if (!fresh && now <= j->last)
		return 0;	/* time did not advance: nothing to add */
	cpu_sample_t *copy = malloc((n ? n : 1) * sizeof(*copy));
	if (!copy) {
		free_job(j);
		*j = w->jobs[--w->njobs];	/* starts afresh next time */
		return -1;
	}
	memcpy(copy, procs, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), by_pid);
	if (!fresh) {
		double used = 0;
		for (size_t i = 0; i < n; i++) {
			double was = before(j, copy[i].pid);
			used += was >= 0 && copy[i].cpu >= was
				? copy[i].cpu - was : copy[i].cpu;
		}
		j->dt[j->head] = now - j->last;
		j->dcpu[j->head] = used;
		j->head = (j->head + 1) % CPU_WINDOW_MAX;
		if (j->count < CPU_WINDOW_MAX)
			j->count++;
	}
	free(j->procs);
	j->procs = copy;
	j->nprocs = n;
	j->last = now;
	return 0;
}

int cpu_window_measure(const cpu_window_t *w, uint32_t job_id, double cpus,
		       double *need, double *span)
{
	const cpu_window_job_t *j = find(w, job_id);
	double t = 0, c = 0;

	if (!j || !j->count || !(cpus > 0))
		return -1;
	size_t k = j->count < w->window ? j->count : w->window;
	for (size_t i = 1; i <= k; i++) {
		size_t at = (j->head + CPU_WINDOW_MAX - i) % CPU_WINDOW_MAX;
		t += j->dt[at];
		c += j->dcpu[at];
	}
	double v = c / (t * cpus);
	*need = v < 0 ? 0 : v > 1 ? 1 : v;
	if (span)
		*span = t;
	return 0;
}
