/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_params.c - table-driven parser for the suite's SchedulerParameters
 * (sched/amcbf's amcbf_* keys, select/dfrs's dfrs_* keys).
 *
 * One table says, for every key, its type, default, range and meaning; the
 * parser, the log line and the documentation (dfrs params, doc/) all come
 * from it, so they cannot disagree.  Defaults follow Liu et al. 2013 (* Sec. IV: 96 % foreground threshold, 4 % minimum idle CPU).
 */
#include "dfrs_params.h"
#include "name_suggest.h"
#include "dfrs/dfrs_online.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { P_INT, P_DOUBLE, P_ENUM, P_NAMES, P_PATH } param_type_t;

typedef struct {
	const char *key;	/* with the amcbf_ prefix */
	param_type_t type;
	const char *def;	/* default, as text */
	double min, max;	/* range for P_INT and P_DOUBLE */
	const char *const *choices;	/* NULL-terminated, for P_ENUM */
	size_t offset;		/* where in dfrs_params_t */
	const char *doc;
} param_spec_t;

static const char *const mode_names[] = {
	"amcbf", "cmbf", "ambf", "cmcbf", "dfrs", NULL
};
static const char *const priority_names[] = {
	"priority", "fifo", "stretch", NULL
};
static const char *const amcbf_avail_policy_names[] = {
	"off", "observe", "threshold", "myopic", "wait", "migrate", NULL
};
/* indexed by sched_config_t.requeue_victims: 0, 1, SCHED_REQUEUE_AUTO */
static const char *const requeue_names[] = { "0", "1", "auto", NULL };
static const char *const signal_names[] = {
	"none", "USR1", "USR2", "TERM", "INT", "HUP", NULL
};

static const param_spec_t specs[] = {
	{ "amcbf_mode", P_ENUM, "amcbf", 0, 0, mode_names,
	  offsetof(dfrs_params_t, mode),
	  "scheduling algorithm: amcbf, cmbf, ambf, cmcbf or dfrs" },
	{ "amcbf_priority", P_ENUM, "priority", 0, 0, priority_names,
	  offsetof(dfrs_params_t, priority),
	  "queue order of the consolidation modes: priority (Slurm's job priority, then first submit time), fifo (first submit time) or stretch (flow time / virtual time^2, new jobs first)" },
	{ "amcbf_interval", P_INT, "30", 1, 3600, NULL,
	  offsetof(dfrs_params_t, interval),
	  "seconds between periodic scheduling cycles" },
	{ "amcbf_util_threshold", P_DOUBLE, "0.8", 0, 1, NULL,
	  offsetof(dfrs_params_t, util_threshold),
	  "foreground CPU utilization under which a background job may share a node" },
	{ "amcbf_min_idle_cpu", P_DOUBLE, "0.04", 0, 1, NULL,
	  offsetof(dfrs_params_t, min_idle_cpu),
	  "idle CPU fraction at or under which a node takes no background job" },
	{ "amcbf_bg_min_rate", P_DOUBLE, "0", 0, 1, NULL,
	  offsetof(dfrs_params_t, bg_min_rate),
	  "predicted background progress rate under which a job is not started in the background (0: wherever it fits)" },
	{ "amcbf_reserve", P_INT, "1", 0, 1, NULL,
	  offsetof(dfrs_params_t, reserve),
	  "1: the first waiting job holds EASY's reservation by the jobs' time limits, and later jobs start in the foreground only where they leave it alone (0: none, as Liu et al. 2013)" },
	{ "amcbf_requeue_victims", P_ENUM, "auto", 0, 0, requeue_names,
	  offsetof(dfrs_params_t, requeue_victims),
	  "0: the head preempts only foreground jobs that can go to the background in place and stay there, never requeueing one; 1: as Liu et al. 2013; auto: 0 for amcbf_mode=amcbf and cmcbf, 1 for cmbf and ambf" },
	{ "amcbf_max_preempt", P_INT, "3", 0, 1000, NULL,
	  offsetof(dfrs_params_t, max_preempt),
	  "times a job may be preempted (requeued); after that it is never preempted again" },
	{ "amcbf_min_runtime", P_INT, "0", 0, 86400, NULL,
	  offsetof(dfrs_params_t, min_runtime),
	  "seconds a job runs before it may be preempted" },
	{ "amcbf_max_preempt_per_cycle", P_INT, "8", 1, 1000, NULL,
	  offsetof(dfrs_params_t, max_preempt_per_cycle),
	  "preemptions (requeues) at most in one scheduling cycle" },
	{ "amcbf_yield_interval", P_INT, "200", 0, 10000, NULL,
	  offsetof(dfrs_params_t, yield_interval),
	  "milliseconds sched/amcbf holds slurmctld's locks at most before it lets waiting RPCs run (0: never yields)" },
	{ "amcbf_max_read_time", P_INT, "200", 0, 60000, NULL,
	  offsetof(dfrs_params_t, max_read_time),
	  "milliseconds the read phase at the start of a cycle may hold slurmctld's locks before it stops reading pending jobs; the ones left are read first in the next cycle, one second later (0: no bound)" },
	{ "amcbf_drift_window", P_INT, "3600", 0, 604800, NULL,
	  offsetof(dfrs_params_t, drift_window),
	  "seconds of history the drift guard compares the running jobs' mean run stretch (time since their first start over the CPU time they got) with: one info line when a cycle's mean exceeds amcbf_drift_factor times the window's, one when it falls back halfway (0: no guard)" },
	{ "amcbf_drift_factor", P_DOUBLE, "3", 1.01, 1000, NULL,
	  offsetof(dfrs_params_t, drift_factor),
	  "the drift guard logs that the running workload drifted when the running jobs' mean run stretch exceeds this times its amcbf_drift_window mean" },
	{ "amcbf_drift_min_work", P_INT, "600", 1, 86400, NULL,
	  offsetof(dfrs_params_t, drift_min_work),
	  "the drift guard counts a job's CPU time since its first start as at least this many seconds, so that a job that just started has a run stretch of 1 (as amcbf_dfrs_minvt bounds the DFRS priorities)" },
	{ "amcbf_metrics_file", P_PATH, "none", 0, 0, NULL,
	  offsetof(dfrs_params_t, metrics_file),
	  "the plugin's metrics in Prometheus' text format, written to this absolute path (a temporary file beside it renamed over it) for node_exporter's textfile collector: none, or a path ending in .prom" },
	{ "amcbf_metrics_interval", P_INT, "15", 1, 3600, NULL,
	  offsetof(dfrs_params_t, metrics_interval),
	  "seconds at least between two writes of amcbf_metrics_file" },
	{ "amcbf_partitions", P_NAMES, "all", 0, 0, NULL,
	  offsetof(dfrs_params_t, partitions),
	  "partitions whose jobs sched/amcbf schedules and preempts, a:b:c; others start in submit order where Slurm fits them, never preempted" },
	{ "amcbf_exempt_qos", P_NAMES, "none", 0, 0, NULL,
	  offsetof(dfrs_params_t, exempt_qos),
	  "QOS whose jobs are never preempted, a:b:c" },
	{ "amcbf_ckpt_signal", P_ENUM, "none", 0, 0, signal_names,
	  offsetof(dfrs_params_t, ckpt_signal),
	  "signal sent to a job's batch script amcbf_ckpt_wait seconds before it is preempted: none, USR1, USR2, TERM, INT or HUP" },
	{ "amcbf_ckpt_wait", P_INT, "30", 0, 3600, NULL,
	  offsetof(dfrs_params_t, ckpt_wait),
	  "seconds between the checkpoint signal and the requeue" },
	{ "amcbf_extend_past_limits", P_INT, "0", 0, 1, NULL,
	  offsetof(dfrs_params_t, extend_past_limits),
	  "0: a running job's end time, moved on for the CPU it did not get (background tier, DFRS yield under 1), never passes its partition's MaxTime or its QOS's MaxWall from its start; 1: it may (the papers' extension)" },
	{ "amcbf_dfrs_policy", P_ENUM, "greedypm", 0, 0, dfrs_online_policy_names,
	  offsetof(dfrs_params_t, dfrs_policy),
	  "amcbf_mode=dfrs: online DFRS policy, greedypm, greedyp, mcb or greedypmr (greedypm that never requeues a wide job and reserves room for the oldest waiting one)" },
	{ "amcbf_dfrs_period", P_INT, "600", 0, 86400, NULL,
	  offsetof(dfrs_params_t, dfrs_period),
	  "amcbf_mode=dfrs: seconds between periodic repacks (0: none)" },
	{ "amcbf_dfrs_minvt", P_INT, "600", 0, 86400, NULL,
	  offsetof(dfrs_params_t, dfrs_minvt),
	  "amcbf_mode=dfrs: seconds of virtual time before a job may be migrated" },
	{ "amcbf_dfrs_repack_algorithms", P_INT, "14", 1, 14, NULL,
	  offsetof(dfrs_params_t, dfrs_repack_algorithms),
	  "amcbf_mode=dfrs: repacks (mcb, greedypm's periodic one) try the first this many of METAVP's 14 vector-packing algorithms; 1: VP_FFSUM alone, the cheapest" },
	{ "amcbf_dfrs_repack_drift", P_DOUBLE, "0", 0, 0.99, NULL,
	  offsetof(dfrs_params_t, dfrs_repack_drift),
	  "amcbf_mode=dfrs: mcb, and greedypm at its periodic repack, first repair the current placement (no running job moves) and repack every job only when a waiting job outranks a running one or the minimum scaled yield fell this fraction below the last full repack's (0: repack every time)" },
	{ "amcbf_dfrs_repack_tolerance", P_DOUBLE, "0", 0, 0.1, NULL,
	  offsetof(dfrs_params_t, dfrs_repack_tolerance),
	  "amcbf_mode=dfrs: the repacks' binary search on the yield starts from the yield the last repack reached and stops within this (0: from 0 to within 1e-4, as Stillwell et al.)" },
	{ "amcbf_dfrs_starve_bsld", P_DOUBLE, "1000", 0, 1000000, NULL,
	  offsetof(dfrs_params_t, dfrs_starve_bsld),
	  "amcbf_mode=dfrs: a job in the system this many times its time limit starves: at a submission the most starved takes jobs off (requeues them) to start, and while it runs no job requeues it (0: none starves)" },
	{ "amcbf_dfrs_wide_share", P_DOUBLE, "0.25", 0, 1, NULL,
	  offsetof(dfrs_params_t, dfrs_wide_share),
	  "amcbf_dfrs_policy=greedypmr: a job of more nodes than this share of the managed nodes is wide: no job requeues it while it runs, and the waiting ones start first, oldest first (0: none is wide)" },
	{ "amcbf_dfrs_long_time", P_INT, "3600", 0, 31536000, NULL,
	  offsetof(dfrs_params_t, dfrs_long_time),
	  "amcbf_dfrs_policy=greedypmr: a job whose time limit is over this many seconds (or that has none) is long" },
	{ "amcbf_dfrs_long_min_yield", P_DOUBLE, "0.75", 0, 1, NULL,
	  offsetof(dfrs_params_t, dfrs_long_min_yield),
	  "amcbf_dfrs_policy=greedypmr: a long job's minimum yield is at least this, so sharing stretches it at most 1 / this (0: dfrs_min_yield alone)" },
	{ "amcbf_dfrs_max_start_per_cycle", P_INT, "8", 0, 100000, NULL,
	  offsetof(dfrs_params_t, dfrs_max_start_per_cycle),
	  "amcbf_mode=dfrs: starts and resumptions applied in one cycle; the others are decided again at the next cycle, a second later (0: no bound)" },
	{ "amcbf_avail_policy", P_ENUM, "observe", 0, 0, amcbf_avail_policy_names,
	  offsetof(dfrs_params_t, avail_policy),
	  "nodes' ON/OFF availability: off (not observed), observe (estimated, shown in dfrs status, nothing done), or what a running job with OFF hosts gets: threshold (He et al.'s optimal policy), myopic, wait (always suspend) or migrate (always requeue)" },
	{ "amcbf_avail_slot", P_INT, "60", 1, 3600, NULL,
	  offsetof(dfrs_params_t, avail_slot),
	  "seconds per availability slot: nodes are observed and decisions taken once a slot" },
	{ "amcbf_avail_zeta", P_DOUBLE, "1", 0, 1, NULL,
	  offsetof(dfrs_params_t, avail_zeta),
	  "a node whose CPU load from outside Slurm's jobs exceeds this fraction of its CPUs is OFF (1: no load test; only down, not responding or drained nodes are OFF)" },
	{ "amcbf_avail_half_life", P_INT, "0", 0, 10000000, NULL,
	  offsetof(dfrs_params_t, avail_half_life),
	  "slots after which an observation weighs half as much in the estimates (0: no forgetting)" },
	{ "amcbf_avail_beta", P_DOUBLE, "0.999", 0.5, 0.999999, NULL,
	  offsetof(dfrs_params_t, avail_beta),
	  "discount per slot of the wait-or-migrate cost; 1/(1-beta) slots is the horizon planned for" },
	{ "amcbf_avail_migration_cost", P_DOUBLE, "300", 0, 10000000, NULL,
	  offsetof(dfrs_params_t, avail_migration_cost),
	  "seconds of delay one task migration (checkpoint, requeue, restart) costs; gamma = this / amcbf_avail_slot" },
	{ "amcbf_avail_wait_factor", P_DOUBLE, "3", 0, 1000, NULL,
	  offsetof(dfrs_params_t, avail_wait_factor),
	  "a job suspended for its OFF hosts waits at most this times the expected OFF period of those hosts (slot / p01, p01 at least 0.01), then is resumed where it is (0: no bound)" },
	{ "amcbf_avail_drain_acts", P_INT, "0", 0, 1, NULL,
	  offsetof(dfrs_params_t, avail_drain_acts),
	  "1: a node drained for maintenance (up, responding, not loaded) makes its jobs wait or migrate as any OFF node; 0: it is OFF for the estimates only, its jobs run on and finish" },
	{ "dfrs_cpu_need", P_DOUBLE, "1", 0.01, 1, NULL,
	  offsetof(dfrs_params_t, share_cpu_need),
	  "select/dfrs: CPU need per node of a job that does not say (fraction of the node's CPUs)" },
	{ "dfrs_min_yield", P_DOUBLE, "0.25", 0.01, 1, NULL,
	  offsetof(dfrs_params_t, share_min_yield),
	  "select/dfrs: minimum yield of a job that does not say; a node takes a job only if every job there keeps its minimum" },
	{ "dfrs_need_stale", P_INT, "180", 0, 86400, NULL,
	  offsetof(dfrs_params_t, need_stale),
	  "seconds after which a running job's CPU need measured by dfrs-nodeagent (its node's Extra) is stale and dfrs_cpu_need is used instead (0: measured needs are not used)" },
};
static const char *const prefixes[] = { "amcbf_", "dfrs_" };

/* 1 if the key (klen bytes) starts with one of our prefixes. */
static int ours(const char *key, size_t klen)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		if (klen > n && !strncasecmp(key, prefixes[i], n))
			return 1;
	}
	return 0;
}
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

/* Set one field from text; 0 on success, -1 with err filled otherwise. */
static int set_int(const param_spec_t *s, const char *text, void *field,
		   char *err, size_t errlen)
{
	char *end;

	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || *end || v < s->min || v > s->max) {
		snprintf(err, errlen,
			 "SchedulerParameters %s=%s: not an integer in %.0f..%.0f",
			 s->key, text, s->min, s->max);
		return -1;
	}
	*(int *)field = (int)v;
	return 0;
}

static int set_double(const param_spec_t *s, const char *text, void *field,
		      char *err, size_t errlen)
{
	char *end;

	errno = 0;
	double v = strtod(text, &end);
	if (errno || *end || !isfinite(v) || v < s->min || v > s->max) {
		snprintf(err, errlen,
			 "SchedulerParameters %s=%s: not a number in %g..%g",
			 s->key, text, s->min, s->max);
		return -1;
	}
	*(double *)field = v;
	return 0;
}

/* Names of letters, digits, '_', '-', '.', split by ':'. */
static int set_names(const param_spec_t *s, const char *text, size_t vlen,
		     void *field, char *err, size_t errlen)
{
	size_t item = 0;

	for (size_t i = 0; i <= vlen; i++) {
		char c = text[i];
		if (c == ':' || c == '\0') {
			if (!item) {
				snprintf(err, errlen,
					 "SchedulerParameters %s=%s: empty name in the list (names are separated by ':')",
					 s->key, text);
				return -1;
			}
			item = 0;
		} else if (isalnum((unsigned char)c) || c == '_' ||
			   c == '-' || c == '.') {
			item++;
		} else {
			snprintf(err, errlen,
				 "SchedulerParameters %s=%s: '%c' is not allowed in a name (list names separated by ':')",
				 s->key, text, c);
			return -1;
		}
	}
	if (vlen >= DFRS_PARAMS_NAMES_MAX) {
		snprintf(err, errlen, "SchedulerParameters %s: list longer than %d characters",
			 s->key, DFRS_PARAMS_NAMES_MAX - 1);
		return -1;
	}
	memset(field, 0, DFRS_PARAMS_NAMES_MAX);
	memcpy(field, text, vlen + 1);
	return 0;
}

/* None, or an absolute path of letters, digits, '/', '_', '-', '.' ending
 * in .prom (no ',': it ends the parameter). */
static int set_path(const param_spec_t *s, const char *text, size_t vlen,
		    void *field, char *err, size_t errlen)
{
	if (strcmp(text, "none")) {
		size_t n = strlen(text);
		if (text[0] != '/' || n < 6 || strcmp(text + n - 5, ".prom")) {
			snprintf(err, errlen,
				 "SchedulerParameters %s=%s: not none or an absolute path ending in .prom",
				 s->key, text);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			char c = text[i];
			if (!isalnum((unsigned char)c) && c != '/' &&
			    c != '_' && c != '-' && c != '.') {
				snprintf(err, errlen,
					 "SchedulerParameters %s=%s: '%c' is not allowed in the path",
					 s->key, text, c);
				return -1;
			}
		}
	}
	memset(field, 0, DFRS_PARAMS_NAMES_MAX);
	memcpy(field, text, vlen + 1);
	return 0;
}

/* One of s->choices (any case): its index; else the list and the
 * closest choice. */
static int set_enum(const param_spec_t *s, const char *text, void *field,
		    char *err, size_t errlen)
{
	char list[128] = "";
	size_t n = 0;

	for (int i = 0; s->choices[i]; i++) {
		if (!strcasecmp(text, s->choices[i])) {
			*(int *)field = i;
			return 0;
		}
	}
	for (int i = 0; s->choices[i]; i++) {
		if (i)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, s->choices[i], sizeof(list) - strlen(list) - 1);
	}
	while (s->choices[n])
		n++;
	const char *near = name_suggest(text, s->choices, n);
	snprintf(err, errlen,
		 "SchedulerParameters %s=%s: must be one of %s%s%s%s",
		 s->key, text, list, near ? " (did you mean " : "",
		 near ? near : "", near ? "?)" : "");
	return -1;
}

static int set_value(const param_spec_t *s, const char *val, size_t vlen,
		     dfrs_params_t *p, char *err, size_t errlen)
{
	char text[DFRS_PARAMS_NAMES_MAX + 1];
	void *field = (char *)p + s->offset;

	if (vlen == 0 || vlen >= sizeof(text)) {
		snprintf(err, errlen, "SchedulerParameters %s: %s value",
			 s->key, vlen ? "too long a" : "missing");
		return -1;
	}
	memcpy(text, val, vlen);
	text[vlen] = '\0';

	switch (s->type) {
	case P_INT:
		return set_int(s, text, field, err, errlen);
	case P_DOUBLE:
		return set_double(s, text, field, err, errlen);
	case P_NAMES:
		return set_names(s, text, vlen, field, err, errlen);
	case P_PATH:
		return set_path(s, text, vlen, field, err, errlen);
	case P_ENUM:
		return set_enum(s, text, field, err, errlen);
	}
	return -1;
}

void dfrs_params_defaults(dfrs_params_t *p)
{
	char err[16];

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < NSPECS; i++)
		(void)set_value(&specs[i], specs[i].def, strlen(specs[i].def),
				p, err, sizeof(err));
}

/* Control characters of the quoted input as '?': the message stays one
 * line of the log. */
static void printable(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = '?';
}

/* "unknown parameter", with the closest key when one is close. */
static void unknown_key(const char *key, size_t klen, char *err,
			size_t errlen)
{
	const char *keys[NSPECS];
	char typed[64];
	const char *near = NULL;

	for (size_t i = 0; i < NSPECS; i++)
		keys[i] = specs[i].key;
	if (klen < sizeof(typed)) {
		memcpy(typed, key, klen);
		typed[klen] = '\0';
		near = name_suggest(typed, keys, NSPECS);
	}
	snprintf(err, errlen,
		 "SchedulerParameters %.*s: unknown parameter (%s%s%s)",
		 (int)klen, key, near ? "did you mean " : "dfrs params lists them",
		 near ? near : "", near ? "?" : "");
}

int dfrs_params_takes_names(const char *key, size_t klen)
{
	for (size_t i = 0; i < NSPECS; i++)
		if (specs[i].type == P_NAMES && strlen(specs[i].key) == klen &&
		    !strncasecmp(key, specs[i].key, klen))
			return 1;
	return 0;
}

/* Parse str over the defaults in *p: 0, or -1 with err. */
static int parse_into(const char *str, dfrs_params_t *p, char *err,
		      size_t errlen)
{
	const char *cur = str;

	while (cur && *cur) {
		const char *comma = strchr(cur, ',');
		size_t len = comma ? (size_t)(comma - cur) : strlen(cur);
		const char *eq = memchr(cur, '=', len);
		size_t klen = eq ? (size_t)(eq - cur) : len;

		if (ours(cur, klen)) {
			const param_spec_t *s = NULL;
			for (size_t i = 0; i < NSPECS; i++) {
				if (strlen(specs[i].key) == klen &&
				    !strncasecmp(cur, specs[i].key, klen))
					s = &specs[i];
			}
			if (!s) {
				unknown_key(cur, klen, err, errlen);
				return -1;
			}
			if (!eq) {
				snprintf(err, errlen,
					 "SchedulerParameters %s: missing value", s->key);
				return -1;
			}
			if (set_value(s, eq + 1, len - klen - 1, p, err, errlen))
				return -1;
		}
		cur = comma ? comma + 1 : NULL;
	}
	return 0;
}

int dfrs_params_parse(const char *str, dfrs_params_t *out,
		       char *err, size_t errlen)
{
	dfrs_params_t p;

	dfrs_params_defaults(&p);
	if (parse_into(str, &p, err, errlen)) {
		if (errlen)
			printable(err);
		return -1;
	}
	*out = p;
	return 0;
}

static int format_one(const param_spec_t *s, const dfrs_params_t *p,
		      char *buf, size_t len)
{
	const void *field = (const char *)p + s->offset;

	switch (s->type) {
	case P_INT:
		return snprintf(buf, len, "%s=%d", s->key, *(const int *)field);
	case P_DOUBLE:
		return snprintf(buf, len, "%s=%g", s->key, *(const double *)field);
	case P_ENUM:
		return snprintf(buf, len, "%s=%s", s->key,
				s->choices[*(const int *)field]);
	case P_NAMES:
	case P_PATH:
		return snprintf(buf, len, "%s=%s", s->key, (const char *)field);
	}
	return 0;
}

void dfrs_params_format(const dfrs_params_t *p, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < NSPECS && used + 1 < len; i++) {
		if (i)
			buf[used++] = ' ', buf[used] = '\0';
		int n = format_one(&specs[i], p, buf + used, len - used);
		if (n < 0)
			break;
		used += (size_t)n < len - used ? (size_t)n : len - used - 1;
	}
}

void dfrs_params_describe(FILE *out)
{
	for (size_t i = 0; i < NSPECS; i++) {
		const param_spec_t *s = &specs[i];
		fprintf(out, "%-22s default %-6s ", s->key, s->def);
		if (s->type == P_ENUM)
			fprintf(out, "%-14s", "(choice)");
		else if (s->type == P_INT)
			fprintf(out, "%-14s", "(integer)");
		else if (s->type == P_NAMES)
			fprintf(out, "%-14s", "(names a:b:c)");
		else if (s->type == P_PATH)
			fprintf(out, "%-14s", "(path)");
		else
			fprintf(out, "%-14s", "(number)");
		fprintf(out, " %s\n", s->doc);
	}
}

const char *dfrs_params_mode_name(amcbf_mode_t mode)
{
	return (mode >= AMCBF_MODE_AMCBF && mode <= AMCBF_MODE_DFRS) ?
		mode_names[mode] : "?";
}

/* Is name one of the ':'-separated names of list (case-sensitive, as
 * Slurm's partition and QOS names)? */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *cur = list; *cur;) {
		const char *colon = strchr(cur, ':');
		size_t len = colon ? (size_t)(colon - cur) : strlen(cur);
		if (len == n && !strncmp(cur, name, n))
			return 1;
		if (!colon)
			break;
		cur = colon + 1;
	}
	return 0;
}

int dfrs_params_manages_partition(const dfrs_params_t *p, const char *name)
{
	return !strcmp(p->partitions, "all") || (name && listed(p->partitions, name));
}

int dfrs_params_qos_exempt(const dfrs_params_t *p, const char *name)
{
	return strcmp(p->exempt_qos, "none") && name && listed(p->exempt_qos, name);
}

const char *dfrs_params_ckpt_signal_name(amcbf_ckpt_signal_t sig)
{
	return (sig > AMCBF_CKPT_NONE && sig <= AMCBF_CKPT_HUP) ?
		signal_names[sig] : NULL;
}

int dfrs_params_ckpt_signo(amcbf_ckpt_signal_t sig)
{
	static const int signo[] = {
		[AMCBF_CKPT_NONE] = 0, [AMCBF_CKPT_USR1] = SIGUSR1,
		[AMCBF_CKPT_USR2] = SIGUSR2, [AMCBF_CKPT_TERM] = SIGTERM,
		[AMCBF_CKPT_INT] = SIGINT, [AMCBF_CKPT_HUP] = SIGHUP,
	};

	return (sig > AMCBF_CKPT_NONE && sig <= AMCBF_CKPT_HUP) ? signo[sig]
								 : 0;
}

const char *dfrs_params_avail_policy_name(amcbf_avail_policy_t policy)
{
	return (policy >= AMCBF_AVAIL_OFF && policy <= AMCBF_AVAIL_MIGRATE) ?
		amcbf_avail_policy_names[policy] : "?";
}
