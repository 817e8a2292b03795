/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stretch_drift.c - the drift guard (stretch_drift.h): the
 * running jobs' mean run stretch (Stillwell et al. 2010's stretch, Section
 * 2, counted from the first start) against the last window's, in a ring
 * of per-bucket means, with hysteresis.
 */
#include "stretch_drift.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RING (STRETCH_DRIFT_BUCKETS + 1)

void stretch_drift_defaults(stretch_drift_config_t *c)
{
	c->window = 3600;
	c->factor = 3.0;
	c->min_work = 600;
}

int stretch_drift_check(const stretch_drift_config_t *c, char *err,
			size_t errlen)
{
	if (!isfinite(c->window) || c->window < 0) {
		snprintf(err, errlen, "drift window %g s: not a finite number of seconds >= 0", c->window);
		return -1;
	}
	if (!isfinite(c->factor) || c->factor <= 1) {
		snprintf(err, errlen, "drift factor %g: not a finite number > 1", c->factor);
		return -1;
	}
	if (!isfinite(c->min_work) || c->min_work <= 0) {
		snprintf(err, errlen, "drift min_work %g s: not a finite number of seconds > 0", c->min_work);
		return -1;
	}
	return 0;
}

static void empty_window(stretch_drift_t *d)
{
	for (int i = 0; i < RING; i++)
		d->bucket[i] = (stretch_drift_bucket_t){ .id = -1 };
}

void stretch_drift_init(stretch_drift_t *d, const stretch_drift_config_t *c)
{
	memset(d, 0, sizeof(*d));
	d->cfg = *c;
	empty_window(d);
}

int stretch_drift_add(stretch_drift_sum_t *s, double since, double work,
		      double min_work)
{
	double w;

	if (!isfinite(since) || !isfinite(work) || !isfinite(min_work) ||
	    since < 0 || !(min_work > 0))
		return -1;
	w = work > min_work ? work : min_work;
	s->span += since > w ? since : w;
	s->work += w;
	s->n++;
	return 0;
}

double stretch_drift_mean(const stretch_drift_sum_t *s)
{
	return s->n && s->work > 0 ? s->span / s->work : 0;
}

/* The mean of the bucket means with ids in [id - BUCKETS, id - 1]; 0 when
 * none or when the oldest of them is under half a window old. */
static double window_mean(const stretch_drift_t *d, long long id)
{
	double sum = 0;
	long long oldest = id;
	int n = 0;

	for (int i = 0; i < RING; i++) {
		const stretch_drift_bucket_t *b = &d->bucket[i];

		if (b->id < id - STRETCH_DRIFT_BUCKETS || b->id >= id || !b->n)
			continue;
		sum += b->sum / (double)b->n;
		n++;
		if (b->id < oldest)
			oldest = b->id;
	}
	if (!n || oldest > id - STRETCH_DRIFT_BUCKETS / 2)
		return 0;
	return sum / n;
}

static void add_sample(stretch_drift_t *d, long long id, double mean)
{
	stretch_drift_bucket_t *b = &d->bucket[id % RING];

	if (b->id != id)
		*b = (stretch_drift_bucket_t){ .id = id };
	b->sum += mean;
	b->n++;
}

/* Enter or leave drift on this cycle's mean against the window's (0:
 * too little history to judge an entry). */
static stretch_drift_event_t judge(stretch_drift_t *d, double now,
				   double mean, double wmean)
{
	double leave = (1 + d->cfg.factor) / 2;

	if (!d->drifting && wmean > 0 && mean > d->cfg.factor * wmean) {
		d->drifting = 1;
		d->baseline = wmean;
		d->since = now;
		d->entries++;
		return STRETCH_DRIFT_ENTER;
	}
	if (d->drifting && mean <= leave * d->baseline) {
		d->drifting = 0;
		d->drift_seconds += now > d->since ? now - d->since : 0;
		return STRETCH_DRIFT_LEAVE;
	}
	return STRETCH_DRIFT_NONE;
}

stretch_drift_event_t stretch_drift_feed(stretch_drift_t *d, double now,
					 const stretch_drift_sum_t *s)
{
	double width = d->cfg.window / STRETCH_DRIFT_BUCKETS;
	double mean, wmean;
	long long id;

	if (!(d->cfg.window > 0) || !isfinite(now) || now < 0)
		return STRETCH_DRIFT_NONE;
	if (d->fed && now < d->last) {
		/* the clock went back: the window's times mean nothing now */
		empty_window(d);
		if (d->drifting && d->since > now) {
			d->drift_seconds += d->last > d->since ?
					    d->last - d->since : 0;
			d->since = now;
		}
	}
	d->fed = 1;
	d->last = now;
	if (!(mean = stretch_drift_mean(s)) || !isfinite(mean))
		return STRETCH_DRIFT_NONE;
	id = (long long)floor(now / width);
	wmean = window_mean(d, id);
	d->current = mean;
	d->window_mean = wmean;
	add_sample(d, id, mean);
	return judge(d, now, mean, wmean);
}

double stretch_drift_seconds(const stretch_drift_t *d, double now)
{
	double s = d->drift_seconds;

	if (d->drifting && now > d->since)
		s += now - d->since;
	return s;
}
