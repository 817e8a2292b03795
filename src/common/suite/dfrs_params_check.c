/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_params_check.c - errors and warnings about a SchedulerParameters
 * line (dfrs_params_check.h): the mistakes that leave sched/amcbf passive
 * or silently drop a setting.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dfrs_params.h"
#include "dfrs_params_check.h"

#define MAX_ITEMS 128

/* One ','-separated item of the line, as written. */
typedef struct {
	const char *text;
	size_t len;
	const char *key;	/* text without surrounding spaces, up to '=' */
	size_t klen;
	int has_eq;
} item_t;

/* Slurm 22.05's SchedulerParameters options that take no value
 * (slurm.conf(5)): a bare item after a name list that is none of these
 * was meant as a name. */
static const char *const slurm_flags[] = {
	"allow_zero_lic", "assoc_limit_stop", "bf_busy_nodes", "bf_continue",
	"bf_hetjob_immediate", "bf_ignore_newly_avail_nodes", "bf_licenses",
	"bf_one_resv_per_job", "bf_running_job_reserve", "defer",
	"disable_job_shrink", "disable_hetjob_steps", "enable_hetjob_steps",
	"enable_user_top", "ignore_prefer_validation", "no_backup_scheduling",
	"no_env_cache", "nohold_on_prolog_fail", "pack_serial_at_end",
	"preempt_strict_order", "preempt_youngest_first",
	"reduce_completing_frag", "requeue_setup_env_fail", "salloc_wait_nodes",
	"sbatch_wait_nodes", "spec_cores_first", "whole_hetjob",
};

static void note(dfrs_check_t *out, dfrs_check_level_t level,
		 const char *fmt, ...)
{
	va_list ap;

	if (level == DFRS_CHECK_ERROR)
		out->errors++;
	else
		out->warnings++;
	if (out->n == DFRS_CHECK_MAX_NOTES)
		return;
	dfrs_check_note_t *n = &out->notes[out->n++];
	n->level = level;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
	for (char *c = n->text; *c; c++)	/* one line in a log */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

static size_t split_items(const char *sp, item_t *items, size_t max)
{
	size_t n = 0;

	for (const char *cur = sp; cur && *cur && n < max;) {
		const char *comma = strchr(cur, ',');
		size_t len = comma ? (size_t)(comma - cur) : strlen(cur);
		item_t *it = &items[n];

		if (len) {
			it->text = cur;
			it->len = len;
			it->key = cur;
			while (it->key < cur + len && isspace((unsigned char)*it->key))
				it->key++;
			const char *eq = memchr(cur, '=', len);
			const char *kend = eq ? eq : cur + len;
			while (kend > it->key && isspace((unsigned char)kend[-1]))
				kend--;
			it->klen = (size_t)(kend - it->key);
			it->has_eq = eq != NULL;
			n++;
		}
		cur = comma ? comma + 1 : NULL;
	}
	return n;
}

static int same_key(const item_t *a, const item_t *b)
{
	return a->klen == b->klen && !strncasecmp(a->key, b->key, a->klen);
}

static int is_word(const item_t *it, const char *word)
{
	return it->klen == strlen(word) && !strncasecmp(it->key, word, it->klen);
}

/* Is one item exactly "defer" (as written: no spaces)? */
static int has_defer(const item_t *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!items[i].has_eq && items[i].klen == items[i].len &&
		    is_word(&items[i], "defer"))
			return 1;
	return 0;
}

#define SCHED_INTERVAL "sched_interval="

/* The first "sched_interval=" (case ignored), as slurmctld finds it. */
static const char *find_interval(const char *sp)
{
	size_t n = strlen(SCHED_INTERVAL);

	for (const char *c = sp; c && *c; c++)
		if (!strncasecmp(c, SCHED_INTERVAL, n))
			return c + n;
	return NULL;
}

int dfrs_params_owns_starts(const char *sp)
{
	item_t items[MAX_ITEMS];
	size_t n = split_items(sp, items, MAX_ITEMS);
	const char *si = find_interval(sp);

	/* slurmctld takes atoi() of what follows */
	return has_defer(items, n) && si && atoi(si) == -1;
}

static void check_passive(const char *sp, const item_t *items, size_t n,
			  dfrs_check_t *out)
{
	const char *si = find_interval(sp);
	int defer = has_defer(items, n), off = si && atoi(si) == -1;
	char interval[64] = "";

	if (defer && off)
		return;
	if (!off && si)
		snprintf(interval, sizeof(interval),
			 "sched_interval=%d, not -1", atoi(si));
	else if (!off)
		snprintf(interval, sizeof(interval), "no sched_interval=-1");
	note(out, DFRS_CHECK_ERROR,
	     "SchedulerParameters: %s%s%s: slurmctld's main scheduler would "
	     "start jobs on its own and sched/amcbf would stay passive "
	     "(start and preempt nothing); add defer,sched_interval=-1",
	     defer ? "" : "no 'defer' item", !defer && !off ? " and " : "",
	     interval);
}

static void check_spaces(const item_t *items, size_t n, dfrs_check_t *out)
{
	for (size_t i = 0; i < n; i++) {
		const item_t *it = &items[i];
		size_t k;

		for (k = 0; k < it->len; k++)
			if (isspace((unsigned char)it->text[k]))
				break;
		if (k == it->len)
			continue;
		int ignored = it->key != it->text && it->klen > 6 &&
			      (!strncasecmp(it->key, "amcbf_", 6) ||
			       !strncasecmp(it->key, "dfrs_", 5));
		note(out, DFRS_CHECK_WARNING,
		     "SchedulerParameters item %zu '%.*s': stray space%s",
		     i + 1, (int)it->len, it->text,
		     ignored ? "; sched/amcbf ignores the key with the space "
			       "before it (remove the space)"
			     : "; Slurm and sched/amcbf read the text as "
			       "written (remove the space)");
	}
}

static void check_duplicates(const item_t *items, size_t n,
			     dfrs_check_t *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t count = 1, last = i;
		int seen_before = 0;

		if (!items[i].has_eq || !items[i].klen)
			continue;
		for (size_t j = 0; j < i && !seen_before; j++)
			seen_before = items[j].has_eq && same_key(&items[j], &items[i]);
		if (seen_before)
			continue;
		for (size_t j = i + 1; j < n; j++)
			if (items[j].has_eq && same_key(&items[j], &items[i]))
				count++, last = j;
		if (count == 1)
			continue;
		int ours = !strncasecmp(items[i].key, "amcbf_", 6) ||
			   !strncasecmp(items[i].key, "dfrs_", 5);
		const item_t *used = ours ? &items[last] : &items[i];
		note(out, DFRS_CHECK_WARNING,
		     "SchedulerParameters %.*s given %zu times (items %zu and "
		     "%zu): %s uses the %s, '%.*s'; give it once",
		     (int)items[i].klen, items[i].key, count, i + 1, last + 1,
		     ours ? "sched/amcbf" : "Slurm", ours ? "last" : "first",
		     (int)used->len, used->text);
	}
}

static int slurm_flag(const item_t *it)
{
	for (size_t f = 0; f < sizeof(slurm_flags) / sizeof(slurm_flags[0]); f++)
		if (is_word(it, slurm_flags[f]))
			return 1;
	return 0;
}

/* amcbf_partitions=a,b: b was meant as a second name. */
static void check_lists(const item_t *items, size_t n, dfrs_check_t *out)
{
	for (size_t i = 0; i + 1 < n; i++) {
		const item_t *list = &items[i];
		size_t j = i + 1;

		if (!list->has_eq || !dfrs_params_takes_names(list->key, list->klen))
			continue;
		while (j < n && !items[j].has_eq && items[j].klen &&
		       !slurm_flag(&items[j]))
			j++;
		if (j == i + 1)
			continue;
		char meant[320] = "";
		size_t used = 0;
		for (size_t k = i; k < j && used < sizeof(meant); k++) {
			const char *t = k == i ? (const char *)memchr(list->text, '=',
								      list->len) + 1
					       : items[k].key;
			size_t len = k == i ? list->len - (size_t)(t - list->text)
					    : items[k].klen;
			used += (size_t)snprintf(meant + used, sizeof(meant) - used,
						 "%s%.*s", k == i ? "" : ":",
						 (int)len, t);
		}
		note(out, DFRS_CHECK_WARNING,
		     "SchedulerParameters %.*s: ',' ends the list, so '%.*s'%s "
		     "not in it (and no option of Slurm's); separate names with "
		     "':' (%.*s=%s)",
		     (int)list->klen, list->key, (int)items[i + 1].klen,
		     items[i + 1].key, j - i > 2 ? " and what follows are" : " is",
		     (int)list->klen, list->key, meant);
		i = j - 1;
	}
}

void dfrs_params_check(const char *sp, dfrs_check_t *out)
{
	item_t items[MAX_ITEMS];
	size_t n = split_items(sp, items, MAX_ITEMS);
	dfrs_params_t p;
	char err[256];

	memset(out, 0, sizeof(*out));
	if (dfrs_params_parse(sp, &p, err, sizeof(err)))
		note(out, DFRS_CHECK_ERROR, "%s", err);
	check_passive(sp, items, n, out);
	check_spaces(items, n, out);
	check_duplicates(items, n, out);
	check_lists(items, n, out);
}
