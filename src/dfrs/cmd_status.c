/*
 * cmd_status.c - dfrs status: sched/amcbf's statistics and each node's jobs
 * with their yields and CPU weights, from the JSON files sched/amcbf and
 * select/dfrs export in StateSaveLocation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "node_share_json.h"
#include "sched_stats.h"

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

/* sched/amcbf's statistics, when it runs: 1 printed, 0 none, -1 bad. */
static int print_sched_stats(const char *dir)
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
	} else {
		sched_stats_print(&st, stdout);
		putchar('\n');
	}
	free(text);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	char dir[4096] = "", path[4200], err[256];
	const char *file = NULL;
	int raw = 0, sched = 0;
	char *text;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			raw = 1;
		else if (!strcmp(argv[i], "--file") && i + 1 < argc)
			file = argv[++i];
		else if (!strcmp(argv[i], "--state-dir") && i + 1 < argc)
			snprintf(dir, sizeof(dir), "%s", argv[++i]);
		else {
			fprintf(stderr, "usage: dfrs status [--state-dir DIR | --file FILE] [--json]\n");
			return 2;
		}
	}
	if (!file) {
		if (!dir[0] && state_dir_from_conf(dir, sizeof(dir)))
			return 1;
		if (!raw)
			sched = print_sched_stats(dir);
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
