/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched_stats.h - sched/amcbf's statistics as the administrator sees them:
 * the plugin writes them as JSON into StateSaveLocation/amcbf-stats.json
 * after its cycles, and `dfrs status` prints them beside select/dfrs's
 * table.  Plain C (json-c), no Slurm headers.
 */
#ifndef DFRS_SCHED_STATS_H
#define DFRS_SCHED_STATS_H

#include <stdio.h>
#include <time.h>

typedef struct {
	char mode[32];			/* the algorithm running: "amcbf", "dfrs(greedypm)", ... */
	unsigned long cycles;
	double mean_ms, max_ms;		/* cycle time, locks included */
	unsigned long started, preempted, promoted, demoted, refused;
	unsigned long pending, running;	/* jobs at the last cycle */
	time_t updated;
} sched_stats_t;

/* JSON text (malloc'ed; NULL when out of memory). */
char *sched_stats_to_json(const sched_stats_t *s);

/* Parse a text made by sched_stats_to_json: 0, or -1 with err naming the
 * field that is missing or wrong. */
int sched_stats_from_json(const char *json, sched_stats_t *s, char *err,
			  size_t errlen);

/* Print as `dfrs status` shows it (a few lines). */
void sched_stats_print(const sched_stats_t *s, FILE *out);

#endif
