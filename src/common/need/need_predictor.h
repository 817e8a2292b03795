/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * need_predictor.h - the CPU need of a pending job, predicted from the
 * needs measured on the nodes for earlier jobs of the same user: same user
 * and job name, else same user, else the configured default (dfrs_cpu_need).
 * Liu et al. 2013 (section 4.1) take each process's CPU usage "from
 * history"; this is that history.  Plain C, no Slurm types: sched/amcbf
 * and select/dfrs feed it the needs dfrs-nodeagent reports, dfrs sim feeds
 * it the trace's needs in submit order.
 *
 * Estimate (errs towards more CPU).  Each key (user, or user and name)
 * keeps an exponentially weighted mean m and variance v of the observed
 * needs, with weight 1/n for the first NEED_WINDOW observations (then m
 * and v are the plain mean and population variance) and 1/NEED_WINDOW
 * after (so a change of habit is followed within about NEED_WINDOW jobs).
 * The prediction is
 *
 *     m + NEED_K * max(sqrt(v), NEED_SPREAD_FLOOR), clamped to [0.01, 1]
 *
 * (one standard deviation above the mean, at least NEED_SPREAD_FLOOR).
 * A job whose use is stable is predicted NEED_SPREAD_FLOOR above it; a
 * user whose jobs vary gets the margin of that variation.  Predicting too
 * little puts a job in the background tier beside a foreground job that
 * it then slows, or gives it a yield it cannot live with; too much only
 * forgoes some sharing, so the margin is on the side of more CPU.
 *
 * Memory is bounded: at most `capacity` keys (a user's key and each of
 * its job names count one each), a fixed table of capacity entries of
 * sizeof(need_entry_t) bytes (about 100) plus 2 * capacity bucket heads;
 * when full, the key observed least recently is forgotten.  Job names are
 * kept to NEED_NAME_MAX - 1 bytes (longer names share their prefix's
 * history).
 *
 * State file (text, one key a line, written and read whole; empty lines
 * may end it):
 *
 *     dfrs-need-history 1
 *     u <user> <n> <mean> <variance> <last>
 *     j <user> <n> <mean> <variance> <last> <name, %XX-escaped>
 *
 * <last> is the predictor's clock (observations so far) when the key was
 * last observed; space, '%' and bytes outside 0x21..0x7e in a name are
 * written %XX.
 */
#ifndef DFRS_NEED_PREDICTOR_H
#define DFRS_NEED_PREDICTOR_H

#include <stddef.h>
#include <stdint.h>

#define NEED_HISTORY_VERSION 1
#define NEED_WINDOW 8			/* observations weighted 1/n */
#define NEED_K 1.0			/* standard deviations added */
#define NEED_SPREAD_FLOOR 0.02		/* least margin above the mean */
#define NEED_NAME_MAX 64		/* bytes kept of a name, with NUL */
#define NEED_CAPACITY_DEFAULT 4096	/* keys kept */
#define NEED_MIN 0.01			/* dfrs_cpu_need's range */
#define NEED_MAX 1.0

typedef enum {
	NEED_FROM_JOB,		/* same user and job name */
	NEED_FROM_USER,		/* same user */
	NEED_FROM_DEFAULT,	/* no history: the default */
} need_source_t;

typedef struct {
	uint32_t user;
	int is_user;		/* 1: the user's key (name unused) */
	char name[NEED_NAME_MAX];
	uint32_t n;		/* observations (saturates) */
	double mean, var;
	uint64_t last;		/* clock at the last observation */
	int32_t next;		/* bucket chain, -1: end */
} need_entry_t;

typedef struct {
	need_entry_t *entries;	/* capacity, the first used of them live */
	size_t capacity, used;
	int32_t *buckets;	/* nbuckets heads, -1: empty */
	size_t nbuckets;	/* a power of two >= 2 * capacity */
	uint64_t clock;		/* observations so far */
} need_predictor_t;

/* An empty history of at most capacity keys (0: NEED_CAPACITY_DEFAULT;
 * at least 2).  0, or -1 when out of memory. */
int need_predictor_init(need_predictor_t *p, size_t capacity);
void need_predictor_free(need_predictor_t *p);
/* Forget everything (the capacity stays). */
void need_predictor_clear(need_predictor_t *p);

/*
 * Record that a job of user, named name (NULL or "": only the user's key),
 * used need (0..1) of the CPUs it held.  0, or -1 (nothing recorded) when
 * need is not a number in 0..1.
 */
int need_predictor_observe(need_predictor_t *p, uint32_t user,
			   const char *name, double need);

/* The predicted need (see the header comment) of a job of user named name,
 * else default_need; *from (may be NULL) says which. */
double need_predictor_predict(const need_predictor_t *p, uint32_t user,
			      const char *name, double default_need,
			      need_source_t *from);

/* The state file's text (malloc'ed), NULL when out of memory. */
char *need_predictor_to_text(const need_predictor_t *p);

/*
 * Replace the history with the state file's text.  0, or -1 with one
 * message in err ("line 3: mean 1.5 is not in 0..1") and the history left
 * empty.  Keys beyond the capacity: the least recent are forgotten.
 */
int need_predictor_parse(need_predictor_t *p, const char *text, char *err,
			 size_t errlen);

#endif
