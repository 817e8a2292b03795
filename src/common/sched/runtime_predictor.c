/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runtime_predictor.c - per-user run-time predictions and their correction
 * for EASY++ (Tsafrir, Etsion & Feitelson 2007; runtime_predictor.h).  The
 * history is the last two run times of each user, kept in an array sorted
 * by user id.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_predictor.h"

/* The correction's increments, seconds; the last repeats. */
static const double ladder[] = {
	60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000,
};
#define NLADDER (sizeof(ladder) / sizeof(ladder[0]))

void runtime_predictor_init(runtime_predictor_t *p)
{
	memset(p, 0, sizeof(*p));
}

void runtime_predictor_free(runtime_predictor_t *p)
{
	free(p->users);
	memset(p, 0, sizeof(*p));
}

/* Where user is, or where it would be inserted (*found 0). */
static size_t find(const runtime_predictor_t *p, int user, int *found)
{
	size_t lo = 0, hi = p->nusers;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->users[mid].user < user)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < p->nusers && p->users[lo].user == user;
	return lo;
}

int runtime_predictor_ended(runtime_predictor_t *p, int user,
			    double runtime)
{
	int found;
	size_t i;

	if (user < 0)
		return 0;
	i = find(p, user, &found);
	if (!found) {
		if (p->nusers == p->cap) {
			size_t cap = p->cap ? 2 * p->cap : 64;
			runtime_history_t *u = realloc(p->users,
						       cap * sizeof(*u));
			if (!u)
				return -1;
			p->users = u;
			p->cap = cap;
		}
		memmove(&p->users[i + 1], &p->users[i],
			(p->nusers - i) * sizeof(p->users[0]));
		p->users[i] = (runtime_history_t){ .user = user };
		p->nusers++;
	}
	runtime_history_t *h = &p->users[i];
	h->prev = h->last;
	h->last = runtime;
	if (h->ended < 2)
		h->ended++;
	return 0;
}

double runtime_predictor_predict(const runtime_predictor_t *p, int user,
				 double estimate)
{
	int found;
	size_t i;

	if (user < 0)
		return estimate;
	i = find(p, user, &found);
	if (!found || p->users[i].ended < 2)
		return estimate;
	double mean = (p->users[i].last + p->users[i].prev) / 2;
	return estimate >= 0 && mean > estimate ? estimate : mean;
}

double runtime_predictor_correct(double prediction, double elapsed,
				 double estimate, int *steps)
{
	if (prediction < 0)
		return prediction;	/* no estimate: never expected to end */
	while (prediction <= elapsed &&
	       (estimate < 0 || prediction < estimate)) {
		size_t k = *steps < (int)NLADDER ? (size_t)*steps : NLADDER - 1;

		prediction += ladder[k];
		(*steps)++;
	}
	return estimate >= 0 && prediction > estimate ? estimate : prediction;
}
