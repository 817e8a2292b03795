/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_predictor.c - the history of measured CPU needs and the prediction
 * for pending jobs (need_predictor.h; Liu et al. 2013, section 4.1: CPU
 * usage from history).  A chained hash table over a fixed pool of entries;
 * the least recently observed key makes room when the pool is full.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "need_predictor.h"

#define HEADER "dfrs-need-history"

static uint64_t hash_key(uint32_t user, int is_user, const char *name)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (int i = 0; i < 4; i++) {
		h ^= (user >> (8 * i)) & 0xff;
		h *= 1099511628211ULL;
	}
	h ^= (uint64_t)(is_user ? 1 : 2);
	h *= 1099511628211ULL;
	for (; !is_user && *name; name++) {
		h ^= (unsigned char)*name;
		h *= 1099511628211ULL;
	}
	return h;
}

int need_predictor_init(need_predictor_t *p, size_t capacity)
{
	*p = (need_predictor_t){ 0 };
	if (capacity == 0)
		capacity = NEED_CAPACITY_DEFAULT;
	if (capacity < 2)
		capacity = 2;
	if (capacity > (1u << 24))
		capacity = 1u << 24;
	size_t nb = 4;
	while (nb < 2 * capacity)
		nb *= 2;
	p->entries = calloc(capacity, sizeof(*p->entries));
	p->buckets = malloc(nb * sizeof(*p->buckets));
	if (!p->entries || !p->buckets) {
		need_predictor_free(p);
		return -1;
	}
	p->capacity = capacity;
	p->nbuckets = nb;
	need_predictor_clear(p);
	return 0;
}

void need_predictor_free(need_predictor_t *p)
{
	free(p->entries);
	free(p->buckets);
	*p = (need_predictor_t){ 0 };
}

void need_predictor_clear(need_predictor_t *p)
{
	for (size_t b = 0; b < p->nbuckets; b++)
		p->buckets[b] = -1;
	p->used = 0;
	p->clock = 0;
}

/* The key's name as kept: "" for a user's key, else truncated. */
static void key_name(char out[NEED_NAME_MAX], int is_user, const char *name)
{
	out[0] = 0;
	if (!is_user)
		snprintf(out, NEED_NAME_MAX, "%s", name);
}

static int32_t find(const need_predictor_t *p, uint32_t user, int is_user,
		    const char *name)
{
	char kept[NEED_NAME_MAX];

	key_name(kept, is_user, name);
	size_t b = hash_key(user, is_user, kept) & (p->nbuckets - 1);
	for (int32_t i = p->buckets[b]; i >= 0; i = p->entries[i].next) {
		const need_entry_t *e = &p->entries[i];
		if (e->user == user && e->is_user == is_user &&
		    !strcmp(e->name, kept))
			return i;
	}
	return -1;
}

static void unlink_entry(need_predictor_t *p, int32_t i)
{
	need_entry_t *e = &p->entries[i];
	size_t b = hash_key(e->user, e->is_user, e->name) & (p->nbuckets - 1);
	int32_t *link = &p->buckets[b];

	while (*link != i)
		link = &p->entries[*link].next;
	*link = e->next;
}

/* A free entry, making room by forgetting the least recent key. */
static int32_t take_entry(need_predictor_t *p)
{
	if (p->used < p->capacity)
		return (int32_t)p->used++;
	int32_t old = 0;
	for (size_t i = 1; i < p->used; i++)
		if (p->entries[i].last < p->entries[old].last)
			old = (int32_t)i;
	unlink_entry(p, old);
	return old;
}

static need_entry_t *insert(need_predictor_t *p, uint32_t user, int is_user,
			    const char *name)
{
	int32_t i = take_entry(p);
	need_entry_t *e = &p->entries[i];

	*e = (need_entry_t){ .user = user, .is_user = is_user };
	key_name(e->name, is_user, name);
	size_t b = hash_key(user, is_user, e->name) & (p->nbuckets - 1);
	e->next = p->buckets[b];
	p->buckets[b] = i;
	return e;
}

static void update(need_entry_t *e, double x, uint64_t clock)
{
	if (e->n < UINT32_MAX)
		e->n++;
	double alpha = e->n < NEED_WINDOW ? 1.0 / e->n : 1.0 / NEED_WINDOW;
	double d = x - e->mean;
	e->mean += alpha * d;
	e->var = (1 - alpha) * (e->var + alpha * d * d);
	e->last = clock;
}

static void observe_key(need_predictor_t *p, uint32_t user, int is_user,
			const char *name, double need)
{
	int32_t i = find(p, user, is_user, name);
	need_entry_t *e = i >= 0 ? &p->entries[i]
				 : insert(p, user, is_user, name);
	update(e, need, p->clock);
}

int need_predictor_observe(need_predictor_t *p, uint32_t user,
			   const char *name, double need)
{
	if (!(need >= 0 && need <= 1))
		return -1;
	p->clock++;
	if (name && name[0])
		observe_key(p, user, 0, name, need);
	observe_key(p, user, 1, NULL, need);
	return 0;
}

static double estimate(const need_entry_t *e)
{
	double spread = sqrt(e->var > 0 ? e->var : 0);
	double v = e->mean + NEED_K * fmax(spread, NEED_SPREAD_FLOOR);

	return fmin(NEED_MAX, fmax(NEED_MIN, v));
}

double need_predictor_predict(const need_predictor_t *p, uint32_t user,
			      const char *name, double default_need,
			      need_source_t *from)
{
	int32_t i = -1;
	need_source_t src = NEED_FROM_JOB;

	if (name && name[0])
		i = find(p, user, 0, name);
	if (i < 0) {
		src = NEED_FROM_USER;
		i = find(p, user, 1, NULL);
	}
	if (from)
		*from = i < 0 ? NEED_FROM_DEFAULT : src;
	return i < 0 ? default_need : estimate(&p->entries[i]);
}

/* --- the state file --- */

static int needs_escape(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '%';
}

char *need_predictor_to_text(const need_predictor_t *p)
{
	/* a line: 2 + 11 + 11 + 2 * 25 + 21 + 3 * (NEED_NAME_MAX - 1) */
	size_t cap = 32 + p->used * (120 + 3 * NEED_NAME_MAX);
	char *out = malloc(cap);
	size_t len;

	if (!out)
		return NULL;
	len = (size_t)snprintf(out, cap, "%s %d\n", HEADER,
			       NEED_HISTORY_VERSION);
	for (size_t i = 0; i < p->used; i++) {
		const need_entry_t *e = &p->entries[i];
		len += (size_t)snprintf(out + len, cap - len,
					"%c %u %u %.17g %.17g %llu",
					e->is_user ? 'u' : 'j', e->user, e->n,
					e->mean, e->var,
					(unsigned long long)e->last);
		if (!e->is_user) {
			out[len++] = ' ';
			for (const char *c = e->name; *c; c++)
				len += (size_t)(needs_escape((unsigned char)*c)
					? snprintf(out + len, cap - len, "%%%02X",
						   (unsigned char)*c)
					: snprintf(out + len, cap - len, "%c",
						   *c));
		}
		out[len++] = '\n';
		out[len] = 0;
	}
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decode a %XX-escaped name of word (len bytes) into out; -1: bad. */
static int decode_name(const char *word, size_t len,
		       char out[NEED_NAME_MAX], const char **why)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)word[i];
		if (c == '%') {
			int hi = i + 2 < len ? hexval(word[i + 1]) : -1;
			int lo = hi >= 0 ? hexval(word[i + 2]) : -1;
			if (hi < 0 || lo < 0) {
				*why = "a '%' in the name is not followed by "
				       "two hex digits";
				return -1;
			}
			c = hi * 16 + lo;
			i += 2;
			if (c == 0) {
				*why = "the name holds %00";
				return -1;
			}
		}
		else if (needs_escape((unsigned char)c)) {
			*why = "the name holds a byte that should be %XX";
			return -1;
		}
		if (o + 1 >= NEED_NAME_MAX) {
			*why = "the name is longer than the 63 bytes kept";
			return -1;
		}
		out[o++] = (char)c;
	}
	out[o] = 0;
	if (!o) {
		*why = "empty job name";
		return -1;
	}
	return 0;
}

/* Parse one unsigned decimal of at most max; -1: not one. */
static int parse_uint(const char **s, unsigned long long max,
		      unsigned long long *out)
{
	const char *c = *s;
	unsigned long long v = 0;

	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (max - (unsigned long long)(*c - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long long)(*c - '0');
	}
	*s = c;
	*out = v;
	return 0;
}

static int parse_double(const char **s, double *out)
{
	char *end;

	if (**s == ' ' || **s == '\t' || !**s)
		return -1;
	errno = 0;
	*out = strtod(*s, &end);
	if (end == *s || errno || !isfinite(*out))
		return -1;
	*s = end;
	return 0;
}

static int space(const char **s)
{
	if (**s != ' ')
		return -1;
	(*s)++;
	return 0;
}

/* One key line (without its newline, len bytes) into p. */
static int parse_line(need_predictor_t *p, const char *line, size_t len,
		      const char **why)
{
	char buf[512];
	const char *s = buf;
	unsigned long long user, n, last;
	double mean, var;
	int is_user;
	char name[NEED_NAME_MAX] = "";

	if (len >= sizeof(buf)) {
		*why = "line too long";
		return -1;
	}
	memcpy(buf, line, len);
	buf[len] = 0;
	if ((buf[0] != 'u' && buf[0] != 'j') || buf[1] != ' ') {
		*why = "not 'u ...' or 'j ...'";
		return -1;
	}
	is_user = buf[0] == 'u';
	s = buf + 2;
	if (parse_uint(&s, UINT32_MAX, &user) || space(&s) ||
	    parse_uint(&s, UINT32_MAX, &n) || space(&s) ||
	    parse_double(&s, &mean) || space(&s) ||
	    parse_double(&s, &var) || space(&s) ||
	    parse_uint(&s, UINT64_MAX, &last)) {
		*why = "expected <user> <n> <mean> <variance> <last>";
		return -1;
	}
	if (n < 1) {
		*why = "n is 0";
		return -1;
	}
	if (!(mean >= 0 && mean <= 1)) {
		*why = "mean is not in 0..1";
		return -1;
	}
	if (!(var >= 0 && var <= 1)) {
		*why = "variance is not in 0..1";
		return -1;
	}
	if (is_user && *s) {
		*why = "text after a user's key";
		return -1;
	}
	if (!is_user && space(&s)) {
		*why = "no job name";
		return -1;
	}
	if (!is_user && decode_name(s, strlen(s), name, why))
		return -1;
	if (find(p, (uint32_t)user, is_user, name) >= 0) {
		*why = "the key appears twice";
		return -1;
	}
	need_entry_t *e = insert(p, (uint32_t)user, is_user, name);
	e->n = (uint32_t)n;
	e->mean = mean;
	e->var = var;
	e->last = last;
	if (last > p->clock)
		p->clock = last;
	return 0;
}

int need_predictor_parse(need_predictor_t *p, const char *text, char *err,
			 size_t errlen)
{
	const char *line = text;
	size_t lineno = 1;
	char header[64];

	need_predictor_clear(p);
	snprintf(header, sizeof(header), "%s %d", HEADER,
		 NEED_HISTORY_VERSION);
	const char *nl = strchr(line, '\n');
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
	if (len != strlen(header) || strncmp(line, header, len)) {
		snprintf(err, errlen, "line 1: not a need history of version "
			 "%d (expected '%s')", NEED_HISTORY_VERSION, header);
		return -1;
	}
	while (nl) {
		line = nl + 1;
		lineno++;
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		if (!len && !line[strspn(line, "\n")])
			break;		/* only newlines to the end */
		const char *why = NULL;
		if (!len)
			why = "empty line";
		if (why || parse_line(p, line, len, &why)) {
			snprintf(err, errlen, "line %zu: %s", lineno, why);
			need_predictor_clear(p);
			return -1;
		}
	}
	return 0;
}
