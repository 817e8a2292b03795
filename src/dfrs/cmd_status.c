/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_status.c - dfrs status: sched/amcbf's statistics and each node's jobs
 * with their yields and CPU weights, from the JSON files sched/amcbf and
 * select/dfrs export in StateSaveLocation.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "cli_args.h"
#include "commands.h"
#include "suite/node_share_json.h"
#include "suite/sched_metrics.h"
#include "suite/sched_stats.h"

/* StateSaveLocation from slurm.conf ($SLURM_CONF or /etc/slurm/slurm.conf). */
static int state_dir_from_conf(char *dir, size_t len)
{
	const char *conf = getenv("SLURM_CONF");
	char line[4096];
	FILE *f;
	int found = 0;

	if (!conf)
		conf = "/etc/slurm/slurm.conf";
	if (!(f = fopen(conf, "r"))) {
		fprintf(stderr, "dfrs status: cannot read %s: %s (set SLURM_CONF or pass --state-dir)\n",
			conf, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *v = line + strspn(line, " \t");
		if (strncasecmp(v, "StateSaveLocation=", 18))
			continue;
		v += 18;
		v[strcspn(v, " \t\r\n#")] = '\0';
		snprintf(dir, len, "%s", v);
		found = 1;
	}
	fclose(f);
	if (!found) {
		fprintf(stderr, "dfrs status: no StateSaveLocation in %s (pass --state-dir)\n", conf);
		return -1;
	}
	return 0;
}

/* The whole file (malloc'ed) or NULL with errno set. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
	    size <= 64L * 1024 * 1024 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = calloc(1, (size_t)size + 1)) &&
	    fread(text, 1, (size_t)size, f) != (size_t)size) {
		free(text);
		text = NULL;
		errno = EIO;
	} else if (!text) {
		errno = EFBIG;
	}
	fclose(f);
	return text;
}

static const char *text_of(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : "-";
}

/* The availability model's nodes from avail-status.json, for the
 * metrics: their count (0 when the file is missing or has none; the
 * names point into *root, which the caller puts), or -1 for a file that
 * is not an availability status. */
static long avail_nodes(const char *dir, sched_metrics_node_t **out,
			json_object **root)
{
	char path[4200], *text;
	json_object *nodes;
	size_t n;

	*out = NULL;
	*root = NULL;
	snprintf(path, sizeof(path), "%s/avail-status.json", dir);
	if (!(text = slurp(path)))
		return 0;
	*root = json_tokener_parse(text);
	free(text);
	if (!*root || !json_object_object_get_ex(*root, "nodes", &nodes) ||
	    !json_object_is_type(nodes, json_type_array)) {
		fprintf(stderr, "dfrs status: %s: not an availability status (no \"nodes\" array)\n",
			path);
		return -1;
	}
	n = json_object_array_length(nodes);
	if (!n || !(*out = calloc(n, sizeof(**out))))
		return 0;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(nodes, i), *v = NULL;
		const char *state = text_of(o, "state");

		(*out)[i].name = text_of(o, "name");
		(*out)[i].availability =
			json_object_object_get_ex(o, "availability", &v) && v ?
			json_object_get_double(v) : NAN;
		(*out)[i].on = !strcmp(state, "-") ? -1 : !strcmp(state, "ON");
	}
	return (long)n;
}

/* sched/amcbf's statistics, when it runs, as text or (metrics) as
 * Prometheus metrics, with the availability model's nodes: 1 printed,
 * 0 none, -1 bad. */
static int print_sched_stats(const char *dir, int metrics)
{
	char path[4200], err[256], *text;
	sched_stats_t st;
	int rc = 1;

	snprintf(path, sizeof(path), "%s/amcbf-stats.json", dir);
	if (!(text = slurp(path)))
		return 0;
	if (sched_stats_from_json(text, &st, err, sizeof(err))) {
		fprintf(stderr, "dfrs status: %s: %s\n", path, err);
		rc = -1;
	} else if (metrics) {
		sched_metrics_node_t *nodes;
		json_object *root;
		long n = avail_nodes(dir, &nodes, &root);

		if (n < 0 || sched_metrics_write(&st, nodes, n > 0 ? (size_t)n : 0,
						 stdout))
			rc = -1;
		free(nodes);
		if (root)
			json_object_put(root);
	} else {
		sched_stats_print(&st, stdout);
		putchar('\n');
	}
	free(text);
	return rc;
}

static void print_number(json_object *o, const char *key, int width)
{
	json_object *v = NULL;

	if (json_object_object_get_ex(o, key, &v) && v)
		printf(" %*.3f", width, json_object_get_double(v));
	else
		printf(" %*s", width, "-");
}

/* The availability module's status (sched/amcbf): per-node estimates and
 * state, suspended jobs, recent decisions.  1 printed, 0 none, -1 bad. */
static int print_avail_status(const char *dir, int raw)
{
	char path[4200], *text;
	json_object *root, *nodes, *list;

	snprintf(path, sizeof(path), "%s/avail-status.json", dir);
	if (!(text = slurp(path)))
		return 0;
	if (raw) {
		fputs(text, stdout);
		free(text);
		return 1;
	}
	root = json_tokener_parse(text);
	free(text);
	if (!root || !json_object_object_get_ex(root, "nodes", &nodes) ||
	    !json_object_is_type(nodes, json_type_array)) {
		fprintf(stderr, "dfrs status: %s: not an availability status (no \"nodes\" array)\n",
			path);
		json_object_put(root);
		return -1;
	}
	printf("availability: policy %s, slot %s s, gamma %g, beta %g, %s slots observed\n",
	       text_of(root, "policy"), text_of(root, "slot"),
	       json_object_get_double(json_object_object_get(root, "gamma")),
	       json_object_get_double(json_object_object_get(root, "beta")),
	       text_of(root, "slots_observed"));
	printf("%-12s %-5s %7s %7s %7s %7s %8s\n", "NODE", "STATE", "P01", "P11", "AVAIL",
	       "KS", "SLOTS");
	for (size_t i = 0; i < json_object_array_length(nodes); i++) {
		json_object *n = json_object_array_get_idx(nodes, i);
		printf("%-12s %-5s", text_of(n, "name"), text_of(n, "state"));
		print_number(n, "p01", 7);
		print_number(n, "p11", 7);
		print_number(n, "availability", 7);
		print_number(n, "ks", 7);
		printf(" %8.0f\n", json_object_get_double(json_object_object_get(n, "slots")));
	}
	if (json_object_object_get_ex(root, "pooled", &list)) {
		printf("%-12s %-5s", "(pooled)", "");
		print_number(list, "p01", 7);
		print_number(list, "p11", 7);
		print_number(list, "availability", 7);
		print_number(list, "ks", 7);
		printf("\n");
	}
	if (json_object_object_get_ex(root, "suspended", &list) &&
	    json_object_array_length(list)) {
		printf("waiting (suspended) for their hosts:");
		for (size_t i = 0; i < json_object_array_length(list); i++)
			printf(" %s", json_object_get_string(json_object_array_get_idx(list, i)));
		printf("\n");
	}
	if (json_object_object_get_ex(root, "decisions", &list) &&
	    json_object_array_length(list)) {
		printf("recent decisions (newest first):\n");
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *d = json_object_array_get_idx(list, i);
			time_t when = (time_t)json_object_get_int64(json_object_object_get(d, "when"));
			char stamp[32];
			strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", localtime(&when));
			printf("  %s JobId=%s n=%s s'=%s spare=%s", stamp, text_of(d, "job_id"),
			       text_of(d, "n"), text_of(d, "on_hosts"), text_of(d, "spare_on"));
			printf(" p01=%.3f p11=%.3f gamma=%g policy=%s T_%s: %s\n",
			       json_object_get_double(json_object_object_get(d, "p01")),
			       json_object_get_double(json_object_object_get(d, "p11")),
			       json_object_get_double(json_object_object_get(d, "gamma")),
			       text_of(d, "policy"), text_of(d, "threshold"),
			       text_of(d, "decision"));
		}
	}
	putchar('\n');
	json_object_put(root);
	return 1;
}

int cmd_status(int argc, char **argv)
{
	char dir[4096] = "", path[4200], err[256];
	const char *file = NULL, *state_dir = NULL;
	const char *format = "text";
	int raw = 0, sched = 0, avail_raw = 0, avail = 0;
	char *text;
	const cli_opt_t opts[] = {
		{ CLI_OPT("json", CLI_FLAG, &raw) },
		{ CLI_OPT("availability-json", CLI_FLAG, &avail_raw) },
		{ CLI_OPT("file", CLI_STRING, &file) },
		{ CLI_OPT("state-dir", CLI_STRING, &state_dir) },
		{ CLI_OPT("format", CLI_STRING, &format) },
	};
	const char *use = "usage: dfrs status [--state-dir DIR | --file FILE] "
			  "[--json | --availability-json | --format text|openmetrics]\n";
	const cli_spec_t spec = { .cmd = "dfrs status", .unknown = use,
				  .no_value = use, .extra = use };

	if (cli_parse(&spec, opts, CLI_COUNT_OF(opts), argc, argv))
		return 2;
	if (strcmp(format, "text") && strcmp(format, "openmetrics")) {
		fprintf(stderr, "dfrs status: --format %s: not text or openmetrics\n%s",
			format, use);
		return 2;
	}
	if (state_dir)
		snprintf(dir, sizeof(dir), "%s", state_dir);
	if (!strcmp(format, "openmetrics")) {
		/* sched/amcbf's metrics, as amcbf_metrics_file has them */
		if (!dir[0] && state_dir_from_conf(dir, sizeof(dir)))
			return 1;
		sched = print_sched_stats(dir, 1);
		if (!sched)
			fprintf(stderr, "dfrs status: cannot read %s/amcbf-stats.json: %s (is SchedulerType=sched/amcbf running?)\n",
				dir, strerror(errno));
		return sched <= 0;
	}
	if (!file) {
		if (!dir[0] && state_dir_from_conf(dir, sizeof(dir)))
			return 1;
		if (avail_raw) {
			if (print_avail_status(dir, 1) > 0)
				return 0;
			fprintf(stderr, "dfrs status: cannot read %s/avail-status.json: %s (is SchedulerType=sched/amcbf running, amcbf_avail_policy not off?)\n",
				dir, strerror(errno));
			return 1;
		}
		if (!raw) {
			sched = print_sched_stats(dir, 0);
			avail = print_avail_status(dir, 0);
			if (avail < 0)
				sched = -1;
		}
		snprintf(path, sizeof(path), "%s/dfrs-nodes.json", dir);
		file = path;
	}
	if (!(text = slurp(file))) {
		if (sched && errno == ENOENT) {
			printf("(no shared nodes: SelectType is not select/dfrs)\n");
			return sched < 0;
		}
		fprintf(stderr, "dfrs status: cannot read %s: %s (is SelectType=select/dfrs running?)\n",
			file, strerror(errno));
		return 1;
	}
	if (raw) {
		fputs(text, stdout);
		free(text);
		return 0;
	}
	if (node_share_print_status(text, stdout, err, sizeof(err))) {
		fprintf(stderr, "dfrs status: %s: %s\n", file, err);
		free(text);
		return 1;
	}
	free(text);
	return sched < 0;
}
