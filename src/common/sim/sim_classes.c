/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_classes.c - per-class diagnostics and the consolidation potential of
 * a workload (sim_classes.h): where a policy's mean bounded slowdown comes
 * from, and how much idle CPU a background tier (Liu et al. 2013 section
 * 4) could harvest at all.
 */
#include <stdio.h>

#include "sim_classes.h"
#include "sim_slowdown.h"

const char *const sim_runtime_class_names[SIM_RUNTIME_CLASSES] = {
	"<1m", "1-10m", "10m-1h", "1-10h", ">=10h",
};

int sim_runtime_class(double runtime)
{
	if (runtime < 60)
		return 0;
	if (runtime < 600)
		return 1;
	if (runtime < 3600)
		return 2;
	if (runtime < 36000)
		return 3;
	return 4;
}

int sim_class_of(int nodes, double runtime)
{
	return sim_size_class(nodes) * SIM_RUNTIME_CLASSES +
	       sim_runtime_class(runtime);
}

void sim_class_name(int c, char *buf, size_t len)
{
	snprintf(buf, len, "%s x %s",
		 sim_size_class_names[c / SIM_RUNTIME_CLASSES],
		 sim_runtime_class_names[c % SIM_RUNTIME_CLASSES]);
}

void sim_classes_compute(const sim_workload_t *w, const sim_result_t *r,
			 double bsld_bound,
			 sim_class_metrics_t out[SIM_CLASSES])
{
	double bsld_sum[SIM_CLASSES] = { 0 }, wait[SIM_CLASSES] = { 0 };
	double resp[SIM_CLASSES] = { 0 };
	double fg[SIM_CLASSES] = { 0 }, bg[SIM_CLASSES] = { 0 };
	double total = 0;
	for (int c = 0; c < SIM_CLASSES; c++)
		out[c] = (sim_class_metrics_t){ 0 };
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		const sim_job_result_t *res = &r->jobs[i];
		int c = sim_class_of(j->nodes, j->runtime);
		double b = sim_bounded_slowdown(res->finish - j->arrival,
						j->runtime, bsld_bound);
		out[c].jobs++;
		bsld_sum[c] += b;
		if (b > out[c].max_bsld)
			out[c].max_bsld = b;
		total += b;
		wait[c] += res->first_start - j->arrival;
		resp[c] += res->finish - j->arrival;
		fg[c] += res->fg_seconds;
		bg[c] += res->bg_seconds;
	}
	for (int c = 0; c < SIM_CLASSES; c++) {
		if (!out[c].jobs)
			continue;
		out[c].mean_bsld = bsld_sum[c] / (double)out[c].jobs;
		out[c].bsld_share = total > 0 ? bsld_sum[c] / total : 0;
		out[c].mean_wait = wait[c] / (double)out[c].jobs;
		out[c].mean_response = resp[c] / (double)out[c].jobs;
		out[c].bg_fraction = fg[c] + bg[c] > 0
					     ? bg[c] / (fg[c] + bg[c]) : 0;
	}
}

double sim_consolidation_potential(const sim_workload_t *w,
				   const sched_config_t *cfg)
{
	double held = 0, offered = 0;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		for (int p = 0; p < j->nodes; p++) {
			double u = j->util[p];
			held += j->runtime;
			if (u < cfg->util_threshold &&
			    1.0 - u > cfg->min_idle_cpu)
				offered += j->runtime * (1.0 - u);
		}
	}
	return held > 0 ? offered / held : 0;
}
