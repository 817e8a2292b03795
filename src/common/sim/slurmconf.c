/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmconf.c - read the machine and the scheduler settings out of a
 * slurm.conf (slurmconf.h).  A line is whitespace-separated Key=Value
 * words (keys in any case, '#' starts a comment, a value may be quoted);
 * a NodeName=DEFAULT line sets values for the NodeName lines after it.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurmconf.h"
#include "trace/trace.h"

#define MAX_WORDS 64
#define MAX_LINE 4096

typedef struct {
	char key[64];
	char value[1024];
} conf_word_t;

typedef struct {
	const char *name;
	size_t line;
	char *err;
	size_t errlen;
} conf_ctx_t;

typedef struct {	/* NodeName=DEFAULT values */
	long cpus, sockets, cores, threads, mem;
	long gpus;	/* Gres=gpu:N ... (0: none) */
} node_defaults_t;

static int conf_fail(const conf_ctx_t *c, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%zu: %s", c->name, c->line, what);
	return -1;
}

/* One number of a bracket group: digits only; -1 if not. */
static long range_number(const char *s, size_t len)
{
	long v = 0;

	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "1-3,5" (the inside of brackets): 4; -1 if malformed. */
static long bracket_count(const char *s, size_t len)
{
	long total = 0;
	size_t i = 0;

	while (i <= len) {
		size_t j = i;
		while (j < len && s[j] != ',')
			j++;
		const char *dash = memchr(s + i, '-', j - i);
		long lo, hi;
		if (dash) {
			lo = range_number(s + i, (size_t)(dash - (s + i)));
			hi = range_number(dash + 1, (size_t)(s + j - dash - 1));
		} else {
			lo = hi = range_number(s + i, j - i);
		}
		if (lo < 0 || hi < lo)
			return -1;
		total += hi - lo + 1;
		i = j + 1;
	}
	return total;
}

/* One host name with bracket groups, "r[1-2]n[1-4]": 8; -1 if malformed. */
static long name_count(const char *s, size_t len)
{
	long count = 1;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ']')
			return -1;
		if (s[i] != '[')
			continue;
		const char *close = memchr(s + i, ']', len - i);
		if (!close)
			return -1;
		long n = bracket_count(s + i + 1, (size_t)(close - s - i - 1));
		if (n < 0 || count > LONG_MAX / (n ? n : 1))
			return -1;
		count *= n;
		i = (size_t)(close - s);
	}
	return count;
}

long slurmconf_hostlist_count(const char *list)
{
	long total = 0;
	size_t len = strlen(list), i = 0;
	int depth = 0;

	if (len == 0)
		return -1;
	for (size_t j = 0; j <= len; j++) {
		if (j < len && list[j] == '[')
			depth++;
		else if (j < len && list[j] == ']')
			depth--;
		if (j < len && (list[j] != ',' || depth > 0))
			continue;
		long n = name_count(list + i, j - i);
		if (n < 0)
			return -1;
		total += n;
		i = j + 1;
	}
	return depth ? -1 : total;
}

/* Split a line into Key=Value words; a word without '=' is an error. */
static int split_words(const conf_ctx_t *c, const char *line,
		       conf_word_t *w, size_t *nw)
{
	const char *p = line;

	*nw = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			return 0;
		const char *start = p;
		while (*p && *p != '=' && *p != ' ' && *p != '\t')
			p++;
		size_t klen = (size_t)(p - start);
		if (*p != '=' || klen == 0 || klen >= sizeof(w->key))
			return conf_fail(c, "'%.*s' is not Key=Value",
					 (int)(klen ? klen : 1), start);
		if (*nw == MAX_WORDS)
			return conf_fail(c, "more than %d words", MAX_WORDS);
		conf_word_t *cw = &w[(*nw)++];
		memcpy(cw->key, start, klen);
		cw->key[klen] = '\0';
		p++;
		size_t vlen = 0;
		char quote = (*p == '"' || *p == '\'') ? *p++ : 0;
		while (*p && (quote ? *p != quote : (*p != ' ' && *p != '\t'
						      && *p != '#'))) {
			if (vlen + 1 >= sizeof(cw->value))
				return conf_fail(c, "%s: value too long",
						 cw->key);
			cw->value[vlen++] = *p++;
		}
		if (quote && *p != quote)
			return conf_fail(c, "%s: unterminated quote", cw->key);
		if (quote)
			p++;
		cw->value[vlen] = '\0';
	}
}

static int positive(const conf_ctx_t *c, const conf_word_t *w, long *out)
{
	char *end;
	long v = strtol(w->value, &end, 10);

	/* RealMemory and CPUs are whole numbers; MB may carry no unit */
	if (!isdigit((unsigned char)w->value[0]) || *end || v <= 0)
		return conf_fail(c, "%s=%s is not a whole number above 0",
				 w->key, w->value);
	*out = v;
	return 0;
}

static const conf_word_t *find_word(const conf_word_t *w, size_t nw,
				    const char *key)
{
	for (size_t i = 0; i < nw; i++)
		if (!strcasecmp(w[i].key, key))
			return &w[i];
	return NULL;
}

/* CPUs, Sockets, CoresPerSocket, ThreadsPerCore, RealMemory of a line
 * over the defaults so far. */
static int node_values(const conf_ctx_t *c, const conf_word_t *w, size_t nw,
		       node_defaults_t *v)
{
	static const char *const keys[] = { "CPUs", "Sockets",
		"CoresPerSocket", "ThreadsPerCore", "RealMemory" };
	long *field[] = { &v->cpus, &v->sockets, &v->cores, &v->threads,
			  &v->mem };

	for (size_t k = 0; k < 5; k++) {
		const conf_word_t *x = find_word(w, nw, keys[k]);
		if (x && positive(c, x, field[k]))
			return -1;
	}
	return 0;
}

/* Gres=gpu:4, gpu:a100:4, gpu:2(S:0-1),mps:100: the GPUs it lists. */
static int gres_gpus(const conf_ctx_t *c, const conf_word_t *w, long *out)
{
	const char *p = w->value;
	long sum = 0;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > 4 && !strncasecmp(p, "gpu:", 4)) {
			/* the count is the last ':' field, before any '(' */
			const char *q = p + len, *paren = memchr(p, '(', len);
			if (paren)
				q = paren;
			const char *colon = q;
			while (colon > p && colon[-1] != ':')
				colon--;
			char *stop;
			long n = strtol(colon, &stop, 10);
			if (colon == q || stop != q || n < 0)
				return conf_fail(c, "Gres=%s: a gpu entry with "
						 "no count (e.g. gpu:4)",
						 w->value);
			sum += n;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	*out = sum;
	return 0;
}

static int node_line(const conf_ctx_t *c, const conf_word_t *w, size_t nw,
		     node_defaults_t *defaults, slurmconf_t *out)
{
	node_defaults_t v = *defaults;

	if (node_values(c, w, nw, &v))
		return -1;
	const conf_word_t *gres = find_word(w, nw, "Gres");
	if (gres && gres_gpus(c, gres, &v.gpus))
		return -1;
	if (!strcasecmp(w[0].value, "DEFAULT")) {
		*defaults = v;
		return 0;
	}
	long hosts = slurmconf_hostlist_count(w[0].value);
	if (hosts < 0)
		return conf_fail(c, "NodeName=%s is not a hostlist (e.g. "
				 "n[001-032])", w[0].value);
	if (hosts > INT_MAX - out->nodes)
		return conf_fail(c, "NodeName=%s: too many nodes", w[0].value);
	long cpus = find_word(w, nw, "CPUs") || !v.sockets ? v.cpus
		    : v.sockets * (v.cores ? v.cores : 1) *
		      (v.threads ? v.threads : 1);
	if (cpus <= 0)
		cpus = 1;
	if (cpus > INT_MAX)
		return conf_fail(c, "NodeName=%s: too many CPUs", w[0].value);
	if (!out->nodes || cpus < out->cpus_min)
		out->cpus_min = (int)cpus;
	if (!out->nodes || cpus > out->cpus_max)
		out->cpus_max = (int)cpus;
	if (v.mem && (!out->mem_mb_min || v.mem < out->mem_mb_min))
		out->mem_mb_min = v.mem;
	long gpus = v.gpus > 0 ? v.gpus : 0;
	if (gpus > INT_MAX)
		gpus = INT_MAX;
	if (!out->nodes || gpus < out->gpus_min)
		out->gpus_min = (int)gpus;
	out->nodes += (int)hosts;
	return 0;
}

static int partition_line(const conf_ctx_t *c, const conf_word_t *w,
			  size_t nw, slurmconf_t *out)
{
	if (!strcasecmp(w[0].value, "DEFAULT"))
		return 0;
	if (out->npartitions == SLURMCONF_MAX_PARTITIONS)
		return conf_fail(c, "more than %d partitions",
				 SLURMCONF_MAX_PARTITIONS);
	if (strlen(w[0].value) >= sizeof(out->partitions[0].name) ||
	    !w[0].value[0])
		return conf_fail(c, "PartitionName='%s': empty or too long",
				 w[0].value);
	slurmconf_partition_t *p = &out->partitions[out->npartitions++];
	strcpy(p->name, w[0].value);
	const conf_word_t *nodes = find_word(w, nw, "Nodes");
	const conf_word_t *def = find_word(w, nw, "Default");
	p->is_default = def && !strcasecmp(def->value, "YES");
	if (!nodes || !strcasecmp(nodes->value, "ALL")) {
		p->nodes = -1;	/* every node: known once all are read */
		return 0;
	}
	long n = slurmconf_hostlist_count(nodes->value);
	if (n < 0)
		return conf_fail(c, "PartitionName=%s: Nodes=%s is not a "
				 "hostlist", p->name, nodes->value);
	p->nodes = n > INT_MAX ? INT_MAX : (int)n;
	return 0;
}

static int copy_value(const conf_ctx_t *c, const conf_word_t *w, char *dst,
		      size_t len)
{
	if (strlen(w->value) >= len)
		return conf_fail(c, "%s: value too long", w->key);
	strcpy(dst, w->value);
	return 0;
}

static int conf_line(const conf_ctx_t *c, const char *line,
		     node_defaults_t *defaults, slurmconf_t *out)
{
	conf_word_t w[MAX_WORDS];
	size_t nw;

	if (split_words(c, line, w, &nw))
		return -1;
	if (nw == 0)
		return 0;
	if (!strcasecmp(w[0].key, "NodeName"))
		return node_line(c, w, nw, defaults, out);
	if (!strcasecmp(w[0].key, "PartitionName"))
		return partition_line(c, w, nw, out);
	if (!strcasecmp(w[0].key, "SchedulerParameters"))
		return copy_value(c, &w[0], out->sched_params,
				  sizeof(out->sched_params));
	if (!strcasecmp(w[0].key, "SchedulerType"))
		return copy_value(c, &w[0], out->sched_type,
				  sizeof(out->sched_type));
	if (!strcasecmp(w[0].key, "PriorityType"))
		return copy_value(c, &w[0], out->priority_type,
				  sizeof(out->priority_type));
	return 0;
}

/* Partitions' node counts against the machine once every line is read. */
static int check_partitions(conf_ctx_t *c, slurmconf_t *out)
{
	if (out->nodes == 0) {
		c->line = 0;
		snprintf(c->err, c->errlen, "%s: no NodeName line (dfrs advise "
			 "needs the nodes)", c->name);
		return -1;
	}
	for (size_t i = 0; i < out->npartitions; i++) {
		slurmconf_partition_t *p = &out->partitions[i];
		if (p->nodes < 0)
			p->nodes = out->nodes;
		if (p->nodes > out->nodes) {
			snprintf(c->err, c->errlen, "%s: partition %s names %d "
				 "nodes, the NodeName lines %d", c->name,
				 p->name, p->nodes, out->nodes);
			return -1;
		}
	}
	return 0;
}

int slurmconf_parse(const char *text, size_t len, const char *name,
		    slurmconf_t *out, char *err, size_t errlen)
{
	conf_ctx_t c = { name, 0, err, errlen };
	node_defaults_t defaults = { 0 };
	char line[MAX_LINE];
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		c.line++;
		if (end - pos >= sizeof(line))
			return conf_fail(&c, "line longer than %d bytes",
					 MAX_LINE - 1);
		memcpy(line, text + pos, end - pos);
		line[end - pos] = '\0';
		if (end > pos && line[end - pos - 1] == '\r')
			line[end - pos - 1] = '\0';
		pos = end + 1;
		if (conf_line(&c, line, &defaults, out)) {
			memset(out, 0, sizeof(*out));
			return -1;
		}
	}
	if (check_partitions(&c, out)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

int slurmconf_read(const char *path, slurmconf_t *out, char *err,
		   size_t errlen)
{
	char *data;
	size_t len;

	if (trace_read_file(path, 16u << 20, &data, &len, err, errlen))
		return -1;
	int rc = slurmconf_parse(data, len, path, out, err, errlen);
	free(data);
	return rc;
}
