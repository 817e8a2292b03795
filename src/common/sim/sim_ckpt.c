/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_ckpt.c - the replayed jobs that checkpoint: those the selector says
 * asked for the checkpoint signal, where the deployment sends it to them
 * (ckpt_opt_in, as the plugin decides live).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/ckpt_opt_in.h"
#include "sim_ckpt.h"

static int parse_term(const char *term, size_t len, sim_ckpt_sel_t *sel,
		      char *err, size_t errlen)
{
	const char *eq = memchr(term, '=', len);
	size_t klen = eq ? (size_t)(eq - term) : len;
	size_t vlen = eq ? len - klen - 1 : 0;

	if (!eq && len == 3 && !strncmp(term, "all", 3)) {
		sel->all = 1;
		return 0;
	}
	if (!eq || !vlen ||
	    !((klen == 4 && !strncmp(term, "user", 4)) ||
	      (klen == 9 && !strncmp(term, "partition", 9)))) {
		snprintf(err, errlen, "'%.*s': expected all, user=UID or "
			 "partition=NAME", (int)len, term);
		return -1;
	}
	if (sel->nusers + sel->npartitions == SIM_CKPT_MAX_TERMS) {
		snprintf(err, errlen, "more than %d terms", SIM_CKPT_MAX_TERMS);
		return -1;
	}
	if (klen == 4) {
		char num[16], *end;
		long uid;

		if (vlen >= sizeof(num))
			goto bad_uid;
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		errno = 0;
		uid = strtol(num, &end, 10);
		if (errno || *end || uid < 0 || uid > 2147483647L)
			goto bad_uid;
		sel->users[sel->nusers++] = (int)uid;
		return 0;
	}
	if (vlen >= SIM_CKPT_NAME_MAX) {
		snprintf(err, errlen, "'%.*s': a partition name has at most %d "
			 "characters", (int)len, term, SIM_CKPT_NAME_MAX - 1);
		return -1;
	}
	memcpy(sel->partitions[sel->npartitions], eq + 1, vlen);
	sel->partitions[sel->npartitions++][vlen] = '\0';
	return 0;
bad_uid:
	snprintf(err, errlen, "'%.*s': a UID is a number from 0", (int)len,
		 term);
	return -1;
}

int sim_ckpt_parse(const char *spec, sim_ckpt_sel_t *sel, char *err,
		   size_t errlen)
{
	memset(sel, 0, sizeof(*sel));
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty list (all, user=UID, "
			 "partition=NAME)");
		return -1;
	}
	for (const char *p = spec;; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len) {
			snprintf(err, errlen, "an empty term in '%s'", spec);
			memset(sel, 0, sizeof(*sel));
			return -1;
		}
		if (parse_term(p, len, sel, err, errlen)) {
			memset(sel, 0, sizeof(*sel));
			return -1;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* The partition's name: the sacct export's, else its number. */
static const char *partition_name(const trace_t *t, const trace_job_t *j,
				  char *buf, size_t len)
{
	if (j->partition <= 0)
		return NULL;
	if (t->partition_names && (size_t)j->partition <= t->npartition_names &&
	    t->partition_names[j->partition - 1])
		return t->partition_names[j->partition - 1];
	snprintf(buf, len, "%d", j->partition);
	return buf;
}

int sim_ckpt_asked(const sim_ckpt_sel_t *sel, const trace_t *t,
		   const trace_job_t *j)
{
	char buf[16];
	const char *part;

	if (sel->all)
		return 1;
	for (size_t i = 0; i < sel->nusers; i++)
		if (j->user >= 0 && j->user == sel->users[i])
			return 1;
	part = sel->npartitions ? partition_name(t, j, buf, sizeof(buf)) : NULL;
	for (size_t i = 0; part && i < sel->npartitions; i++)
		if (!strcmp(part, sel->partitions[i]))
			return 1;
	return 0;
}

int sim_ckpt_checkpoints(const sim_ckpt_sel_t *sel, int site_signo,
			 int site_wait, const trace_t *t, const trace_job_t *j)
{
	int asked = sim_ckpt_asked(sel, t, j);

	return ckpt_opt_in(site_signo, site_wait, 1, asked ? site_signo : 0,
			   1) != CKPT_NONE;
}
