/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_metrics.c - per-policy figures from a simulated schedule
 * (sim_metrics.h): Liu et al. 2013 section 5.2's response time, bounded slowdown
 * (Gamma = 10 s), migrations per job and utilization (busy CPU cycles over
 * the total), plus wait, stretch (Stillwell et al. 2010) and preemptions.
 */
#include "sim_metrics.h"

void sim_metrics_compute(const sim_workload_t *w, const sim_result_t *r,
			 double bsld_bound, sim_metrics_t *m)
{
	*m = (sim_metrics_t){ 0 };
	size_t n = w->njobs;
	m->jobs = n;
	m->makespan = r->makespan;
	m->wall_seconds = r->wall_seconds;
	m->events_per_second = r->wall_seconds > 0 ?
		(double)r->events / r->wall_seconds : 0;
	m->drift_entries = (double)r->drift.entries;
	m->drift_share = r->makespan > 0 ? r->drift_seconds / r->makespan : 0;
	if (!n)
		return;
	double migrations = 0, preemptions = 0, fg = 0, bg = 0, lost = 0;
	for (size_t i = 0; i < n; i++) {
		const sim_job_t *j = &w->jobs[i];
		const sim_job_result_t *res = &r->jobs[i];
		double response = res->finish - j->arrival;
		double bsld = sim_bounded_slowdown(response, j->runtime,
						   bsld_bound);
		double stretch = (response > 1 ? response : 1) /
				 (j->runtime > 1 ? j->runtime : 1);
		m->mean_response += response;
		m->mean_wait += res->first_start - j->arrival;
		m->mean_bsld += bsld;
		m->mean_stretch += stretch;
		if (bsld > m->max_bsld)
			m->max_bsld = bsld;
		if (stretch > m->max_stretch)
			m->max_stretch = stretch;
		migrations += res->migrations;
		preemptions += res->preemptions;
		lost += res->lost_seconds;
		if (res->lost_seconds > m->max_lost_work)
			m->max_lost_work = res->lost_seconds;
		fg += res->fg_seconds;
		bg += res->bg_seconds;
	}
	m->bg_time_share = fg + bg > 0 ? bg / (fg + bg) : 0;
	double outside = r->head_bg_seconds + r->head_queued_seconds;
	m->head_in_bg = outside > 0 ? r->head_bg_seconds / outside : 0;
	sim_classes_compute(w, r, bsld_bound, m->classes);
	m->mean_response /= (double)n;
	m->mean_wait /= (double)n;
	m->mean_bsld /= (double)n;
	m->mean_stretch /= (double)n;
	m->migrations_per_job = migrations / (double)n;
	m->preemptions_per_job = preemptions / (double)n;
	m->lost_work_per_job = lost / (double)n;
	if (r->makespan > 0 && w->nodes > 0)
		m->utilization = r->busy_cpu_seconds /
				 ((double)w->nodes * r->makespan);
}

void sim_metrics_bsld_by_size(const sim_workload_t *w, const sim_result_t *r,
			      double bsld_bound,
			      double mean[SIM_SIZE_CLASSES],
			      size_t count[SIM_SIZE_CLASSES])
{
	for (int c = 0; c < SIM_SIZE_CLASSES; c++) {
		mean[c] = 0;
		count[c] = 0;
	}
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		int c = sim_size_class(j->nodes);
		mean[c] += sim_bounded_slowdown(r->jobs[i].finish - j->arrival,
						j->runtime, bsld_bound);
		count[c]++;
	}
	for (int c = 0; c < SIM_SIZE_CLASSES; c++)
		if (count[c])
			mean[c] /= (double)count[c];
}
