/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runtime_predictor.h - the run-time predictions of EASY++ (Tsafrir,
 * Etsion & Feitelson 2007, "Backfilling using system-generated predictions
 * rather than user runtime estimates", IEEE TPDS): a job's prediction,
 * made when it is submitted, is the mean run time of its user's last two
 * jobs that have ended, never more than the user's own estimate (the
 * estimate is the kill time and stays one); a user with fewer than two
 * ended jobs gets the estimate.  A running job that outlives its
 * prediction has it raised (runtime_predictor_correct): the prediction
 * decides only where the job is expected to end, never when it is killed.
 * See runtime_predictor.c.
 */
#ifndef DFRS_RUNTIME_PREDICTOR_H
#define DFRS_RUNTIME_PREDICTOR_H

#include <stddef.h>

typedef struct {
	int user;
	int ended;		/* jobs of this user that ended, up to 2 */
	double last, prev;	/* run times of the last and the one before */
} runtime_history_t;

typedef struct {
	runtime_history_t *users;	/* sorted by user */
	size_t nusers, cap;
} runtime_predictor_t;

void runtime_predictor_init(runtime_predictor_t *p);
void runtime_predictor_free(runtime_predictor_t *p);

/* A job of `user` (< 0: unknown, not recorded) ended after running
 * `runtime` seconds.  0, or -1 when out of memory. */
int runtime_predictor_ended(runtime_predictor_t *p, int user,
			    double runtime);

/* The prediction for a job of `user` submitted now with the user's
 * estimate `estimate` (< 0: none): the mean of the user's last two run
 * times, at most the estimate; the estimate when the user has fewer than
 * two ended jobs (or is unknown). */
double runtime_predictor_predict(const runtime_predictor_t *p, int user,
				 double estimate);

/*
 * A running job that has run `elapsed` seconds against its `prediction`:
 * while the prediction is not past the elapsed time it is raised by the
 * next step of a ladder of increments (1 min, 5 min, 15 min, 30 min, 1 h,
 * 2 h, 5 h, 10 h, 20 h, 50 h, then 100 h each time); *steps counts the
 * steps taken so far for this job (0 at its start).  Never above the
 * estimate (>= 0); the prediction is returned unchanged while it is still
 * ahead of `elapsed`.
 */
double runtime_predictor_correct(double prediction, double elapsed,
				 double estimate, int *steps);

#endif
