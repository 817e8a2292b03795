/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_plot.c - dfrs sim --plot DIR (sim_plot.h).  Writes plain data files
 * and a gnuplot script, then runs "gnuplot plots.gp" in DIR; if gnuplot is
 * missing the data and the script stay for the administrator to plot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim_plot.h"
#include "sim/sim_live.h"

/* The time axis in the run's own units: minutes for a run of under two
 * hours (a compressed live excerpt), hours otherwise. */
#define SIM_PLOT_MINUTES_UNDER (2 * 3600.0)

int sim_plot_begin(sim_plot_t *p, const char *dir, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (strlen(dir) >= sizeof(p->dir) - 64 || strchr(dir, '\'')) {
		snprintf(err, errlen, "'%s': path too long or holds a quote",
			 dir);
		return -1;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	strcpy(p->dir, dir);
	return 0;
}

static FILE *open_in(const sim_plot_t *p, const char *name, char *err,
		     size_t errlen)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno));
	return f;
}

int sim_plot_add(sim_plot_t *p, const char *policy, const sim_workload_t *w,
		 const sim_result_t *r, char *err, size_t errlen)
{
	if (p->npolicies == SIM_PLOT_MAX || strlen(policy) >= 32) {
		snprintf(err, errlen, "too many policies to plot");
		return -1;
	}
	char name[64];
	snprintf(name, sizeof(name), "util_%s.dat", policy);
	FILE *f = open_in(p, name, err, errlen);
	if (!f)
		return -1;
	/* seconds here; plots.gp picks the unit from the longest run */
	fprintf(f, "# seconds  utilization (busy CPU / capacity per %g s bin, at "
		"most 1: a live run longer than its job's run time, time-sliced "
		"or at a DFRS yield, has its work spread from its start to "
		"its end)\n",
		r->bucket_seconds);
	double capacity = (double)w->nodes * r->bucket_seconds;
	size_t last = (size_t)(r->makespan / r->bucket_seconds);
	for (size_t b = 0; b <= last && b < r->nbuckets; b++) {
		double u = r->busy_buckets[b] / capacity;
		fprintf(f, "%g %g\n", (double)b * r->bucket_seconds,
			u > 1 ? 1 : u);
	}
	fclose(f);
	size_t i = p->npolicies++;
	strcpy(p->policy[i], policy);
	const char *pred = sim_live_predicted(policy);
	snprintf(p->predicted[i], sizeof(p->predicted[i]), "%s",
		 pred && strcmp(pred, policy) ? pred : "");
	if (r->makespan > p->makespan)
		p->makespan = r->makespan;
	sim_metrics_bsld_by_size(w, r, SIM_BSLD_BOUND, p->bsld[i], p->count);
	sim_classes_compute(w, r, SIM_BSLD_BOUND, p->classes[i]);
	return 0;
}

/* One line per class with jobs: name, jobs, then per policy its mean
 * bsld and its share of the policy's mean bsld. */
static int write_classes(const sim_plot_t *p, char *err, size_t errlen)
{
	FILE *f = open_in(p, "bsld_by_class.dat", err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# class jobs");
	for (size_t i = 0; i < p->npolicies; i++)
		fprintf(f, " %s_bsld %s_share", p->policy[i], p->policy[i]);
	fprintf(f, "\n");
	for (int c = 0; p->npolicies && c < SIM_CLASSES; c++) {
		char name[32];
		if (!p->classes[0][c].jobs)
			continue;
		sim_class_name(c, name, sizeof(name));
		fprintf(f, "\"%s\" %zu", name, p->classes[0][c].jobs);
		for (size_t i = 0; i < p->npolicies; i++)
			fprintf(f, " %g %g", p->classes[i][c].mean_bsld,
				p->classes[i][c].bsld_share);
		fprintf(f, "\n");
	}
	fclose(f);
	return 0;
}

/* Index of the simulated series a live series is drawn over, or -1. */
static int panel_of(const sim_plot_t *p, size_t i)
{
	for (size_t j = 0; j < p->npolicies; j++)
		if (p->predicted[i][0] && !strcmp(p->policy[j], p->predicted[i]))
			return (int)j;
	return -1;
}

void sim_plot_describe(sim_plot_t *p, const char *trace, int nodes,
		       double load, int procs_per_node)
{
	const char *base = strrchr(trace, '/');

	snprintf(p->caption, sizeof(p->caption), "%s, %d %s, load x%g",
		 base ? base + 1 : trace, nodes, procs_per_node > 1 ?
		 "allocation units" : "processors", load);
	for (char *q = p->caption; *q; q++)
		if (*q == '\'' || *q == '"' || *q == '\\')
			*q = '_';	/* inside gnuplot's quotes */
	if (procs_per_node > 1)
		snprintf(p->size_unit, sizeof(p->size_unit), "allocation units "
			 "of %d processors", procs_per_node);
	else
		snprintf(p->size_unit, sizeof(p->size_unit), "processes");
}

static const char *size_unit(const sim_plot_t *p)
{
	return p->size_unit[0] ? p->size_unit : "processes";
}

/* utilization.png: one panel per simulated policy (or live run without its
 * prediction), the live run over its prediction, two panels a row. */
static void write_utilization(const sim_plot_t *p, FILE *f)
{
	size_t panels = 0;
	int minutes = p->makespan < SIM_PLOT_MINUTES_UNDER;
	double unit = minutes ? 60.0 : 3600.0;

	for (size_t i = 0; i < p->npolicies; i++)
		panels += panel_of(p, i) < 0;
	size_t cols = panels > 1 ? 2 : 1, rows = (panels + cols - 1) / cols;
	fprintf(f, "set terminal pngcairo size %zu,%zu\n"
		"set output 'utilization.png'\nset style data lines\n"
		"set key below\nset yrange [0:1.05]\n"
		"set multiplot layout %zu,%zu title 'utilization over time "
		"(busy CPU / capacity) - %s'\nset xlabel '%s since the first "
		"arrival'\nset ylabel 'utilization'\n", cols * 600,
		rows * 300 + 40, rows, cols, p->caption, minutes ? "minutes"
								: "hours");
	for (size_t i = 0; i < p->npolicies; i++) {
		if (panel_of(p, i) >= 0)
			continue;
		fprintf(f, "set title '%s'\nplot 'util_%s.dat' using ($1/%g):2 "
			"title '%s%s' lw 2 dt 2 lc rgb '#3060c0'", p->policy[i], p->policy[i],
			unit, p->policy[i], p->predicted[i][0] ? "" : " (simulated)");
		for (size_t j = 0; j < p->npolicies; j++)
			if (panel_of(p, j) == (int)i)
				fprintf(f, ", 'util_%s.dat' using ($1/%g):2 title "
					"'%s (live)' lw 2 lc rgb '#d03020'", p->policy[j], unit,
					p->policy[j]);
		fprintf(f, "\n");
	}
	fprintf(f, "unset multiplot\n");
}

int sim_plot_finish(sim_plot_t *p, char *err, size_t errlen)
{
	FILE *f = open_in(p, "bsld_by_size.dat", err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# size_class jobs");
	for (size_t i = 0; i < p->npolicies; i++)
		fprintf(f, " %s", p->policy[i]);
	fprintf(f, "\n");
	for (int c = 0; c < SIM_SIZE_CLASSES; c++) {
		fprintf(f, "\"%s\" %zu", sim_size_class_names[c], p->count[c]);
		for (size_t i = 0; i < p->npolicies; i++)
			fprintf(f, " %g", p->bsld[i][c]);
		fprintf(f, "\n");
	}
	fclose(f);
	if (write_classes(p, err, errlen))
		return -1;

	f = open_in(p, "plots.gp", err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# dfrs sim --plot: run 'gnuplot plots.gp' in this "
		"directory\nset terminal pngcairo size 1000,600\n"
		"set key outside right\nset grid\n"
		"set output 'bsld_by_size.png'\n"
		"set title 'mean bounded slowdown (Gamma = 10 s) by job size - "
		"%s'\nset xlabel 'job size, %s'\n"
		"set ylabel 'mean bounded slowdown'\n"
		"set logscale y\nset style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nplot ", p->caption,
		size_unit(p));
	for (size_t i = 0; i < p->npolicies; i++)
		fprintf(f, "%s'bsld_by_size.dat' using %zu:xtic(1) title '%s'",
			i ? ", " : "", i + 3, p->policy[i]);
	fprintf(f, "\nunset logscale y\nset output 'bsld_share_by_class.png'\n"
		"set title 'share of the mean bounded slowdown by class "
		"(job size x run time) - %s'\nset xlabel 'class: job size in "
		"%s x run time'\n"
		"set ylabel 'share of the mean'\nset xtics rotate by -60\n"
		"plot ", p->caption, size_unit(p));
	for (size_t i = 0; i < p->npolicies; i++)
		fprintf(f, "%s'bsld_by_class.dat' using %zu:xtic(1) title '%s'",
			i ? ", " : "", 2 * i + 4, p->policy[i]);
	fprintf(f, "\nset xtics norotate\n");
	write_utilization(p, f);
	fclose(f);

	char cmd[700];
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot plots.gp", p->dir);
	int st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errlen, "gnuplot failed in %s (data and "
			 "plots.gp are there; is gnuplot installed?)", p->dir);
		return -1;
	}
	return 0;
}

void sim_plot_free(sim_plot_t *p)
{
	(void)p;
}
