/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dfrs_online.c - online DFRS (Stillwell et al. 2010, "Online Non-Clairvoyant
 * Problem"): priorities, GreedyP / GreedyPM preemption and migration, MCB
 * dropping the lowest priority, minvt, the cost model, virtual time, and
 * invariants over a small randomized event sequence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfrs/dfrs_online.h"
#include "dfrs/online_state.h"
#include "online_fixture.h"

#define EPS 1e-9
#define MAXJ ONLINE_FIXTURE_JOBS

/* The policy's defaults with priority 1/vt and minvt. */
static dfrs_decisions_t decide(online_fixture_t *f, dfrs_policy_t pol,
			       double minvt, dfrs_event_t ev, int job)
{
	dfrs_online_params_t par;

	dfrs_online_params_default(&par, pol);
	par.priority = DFRS_PRIO_VT;
	par.minvt = minvt;
	return online_fixture_decide(&par, f, ev, job);
}

/* ---- priorities ------------------------------------------------------------ */

static void test_priorities(void **state)
{
	dfrs_priority_t k;

	assert_true(isinf(dfrs_priority_value(DFRS_PRIO_FT_VT2, 10, 0, 50)));
	assert_float_equal(dfrs_priority_value(DFRS_PRIO_VT, 10, 4, 50), 0.25, EPS);
	assert_float_equal(dfrs_priority_value(DFRS_PRIO_FT_VT, 10, 4, 50), 10.0, EPS);
	assert_float_equal(dfrs_priority_value(DFRS_PRIO_FT_VT2, 10, 4, 50), 2.5, EPS);
	/* higher first; new (infinite) jobs first, ties by earlier submit */
	assert_true(dfrs_priority_compare(INFINITY, 5, 1, 3.0, 0, 0) < 0);
	assert_true(dfrs_priority_compare(INFINITY, 5, 1, INFINITY, 2, 0) > 0);
	assert_true(dfrs_priority_compare(1.0, 0, 0, 2.0, 0, 1) > 0);
	assert_int_equal(dfrs_priority_parse("ft/vt2", &k), 0);
	assert_int_equal(k, DFRS_PRIO_FT_VT2);
	assert_int_equal(dfrs_priority_parse("1/vt", &k), 0);
	assert_int_equal(k, DFRS_PRIO_VT);
	assert_int_equal(dfrs_priority_parse("ft", &k), -1);
}

/* ---- GreedyP ------------------------------------------------------------- */

static void test_greedyp_places_on_least_loaded(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 100);
	online_fixture_add(&f, 1, 0.2, 0.8, DFRS_JOB_RUNNING, 50, h0);
	online_fixture_add(&f, 2, 0.2, 0.6, DFRS_JOB_PENDING, 0, NULL);
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_ARRIVAL, 1);
	assert_int_equal(d.job[1].action, DFRS_ACT_START);
	/* task 0 to the idle host 1; task 1 too (load 0.6 < 0.8) */
	assert_int_equal(d.job[1].hosts[0], 1);
	assert_int_equal(d.job[1].hosts[1], 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	/* host 1: 1.2 y1 <= 1; job 0 alone on host 0 */
	assert_float_equal(d.job[0].yield, 1.0, EPS);
	assert_float_equal(d.job[1].yield, 1 / 1.2, EPS);
	assert_int_equal(d.nstarted, 1);
	dfrs_decisions_free(&d);
}

/*
 * The least-loaded placement's count of room (room_for) remembers the
 * tasks it found no room for until the hosts change.  Two hosts with 0.4
 * of memory taken each (jobs X, Y): A (3 tasks of 0.4) and B (3 of 0.45)
 * find 1 + 1 copies, not 3.  Once X leaves host 0, C (2 of 0.65) fails as
 * well (1 + 0), and B now finds 2 + 1: it is placed, on hosts 0, 0, 1 (a
 * failure remembered from before the change, A's, would have refused it).
 */
static void test_room_failures_forgotten_when_hosts_change(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 }, h1[] = { 1 }, got[3];
	dfrs_online_params_t par;
	double usage[4] = { 0 }, load[2] = { 0 }, left[4];
	int cand[6];

	online_fixture_init(&f, 2, 100);
	online_fixture_add(&f, 1, 0.4, 0.5, DFRS_JOB_RUNNING, 50, h0);	/* X */
	online_fixture_add(&f, 1, 0.4, 0.5, DFRS_JOB_RUNNING, 50, h1);	/* Y */
	online_fixture_add(&f, 3, 0.4, 0.5, DFRS_JOB_PENDING, 0, NULL);	/* A */
	online_fixture_add(&f, 2, 0.65, 0.5, DFRS_JOB_PENDING, 0, NULL);	/* C */
	online_fixture_add(&f, 3, 0.45, 0.5, DFRS_JOB_PENDING, 0, NULL);	/* B */
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);

	online_state_t w = { .par = &par, .cl = &f.cl, .nd = 2, .nh = 2,
			     .nj = 5, .usage = usage, .load = load,
			     .left = left, .cand = cand };

	online_index_init(&w);
	online_account_task(&w, 0, 0, +1);
	online_account_task(&w, 1, 1, +1);
	assert_int_equal(online_place_least_loaded(&w, 2, got), -1);
	assert_int_equal(online_place_least_loaded(&w, 4, got), -1);
	online_account_task(&w, 0, 0, -1);
	assert_int_equal(online_place_least_loaded(&w, 3, got), -1);
	assert_int_equal(online_place_least_loaded(&w, 4, got), 0);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 0);
	assert_int_equal(got[2], 1);
	assert_float_equal(usage[1], 0.9, EPS);
	assert_float_equal(usage[3], 0.85, EPS);
	host_index_free(&w.ix);
}

/*
 * Least-loaded placement by passes and through the index (host_index.h)
 * choose the same hosts as a scan of every host for every task, in index
 * order, where a host lower than the best so far by more than 1e-12
 * becomes the best: of equal loads the lowest index, and of loads within
 * 1e-12 the one the scan meets first as the best changes.  Random
 * clusters of up to 40 hosts of mixed capacities, loads from a few values
 * with near ties (4e-13 and 9e-13 apart) and exact ones, jobs of 1 to 8
 * tasks placed and taken off in turn; both ways leave usage and load the
 * same to the bit (room_for included: a placement it refuses changes
 * nothing, one that fails late is undone).
 */
typedef struct {
	dfrs_host_t hosts[40];
	dfrs_online_job_t jobs[24];
	dfrs_cluster_t cl;
	dfrs_online_params_t par;
} place_fixture_t;

typedef struct {
	online_state_t w;
	double usage[80], load[40], left[80];
	int cand[82];
} place_state_t;

static uint64_t place_rnd = 45;

static unsigned place_rand(unsigned n)
{
	place_rnd = place_rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(place_rnd >> 33) % n;
}

static void place_state_init(place_state_t *s, place_fixture_t *f,
			     const double *usage, const double *load,
			     int indexed)
{
	memset(s, 0, sizeof(*s));
	s->w = (online_state_t){ .par = &f->par, .cl = &f->cl, .nd = 2,
				 .nh = f->cl.nhosts, .nj = f->cl.njobs,
				 .usage = s->usage, .load = s->load,
				 .left = s->left, .cand = s->cand };
	memcpy(s->usage, usage, sizeof(s->usage));
	memcpy(s->load, load, sizeof(s->load));
	online_index_init(&s->w);
	s->w.index_after = indexed ? 0 : LONG_MAX;
}

/* The definition: each task by a scan of every host. */
static int scan_place(const place_fixture_t *f, double *usage, double *load,
		      int j, int *hosts)
{
	const dfrs_job_t *job = &f->jobs[j].shape;

	for (int t = 0; t < job->ntasks; t++) {
		int best = -1;

		for (int h = 0; h < f->cl.nhosts; h++) {
			int fits = 1;

			for (int d = 0; d < 2; d++)
				fits &= dfrs_amount_fits(
					dfrs_task_usage(job, d, job->min_yield),
					dfrs_task_elem_usage(job, d, job->min_yield),
					usage[h * 2 + d], f->hosts[h].cap[d],
					f->hosts[h].elem[d]);
			if (fits && (best < 0 || load[h] < load[best] - 1e-12))
				best = h;
		}
		if (best < 0)
			return -1;
		hosts[t] = best;
		for (int d = 0; d < 2; d++) {
			usage[best * 2 + d] += dfrs_task_usage(job, d, job->min_yield);
			load[best] += job->need[d] / f->hosts[best].cap[d];
		}
	}
	return 0;
}

static void place_round(void)
{
	static const double caps[] = { 1.0, 1.0, 2.0, 0.5 };
	static const double loads[] = { 0.0, 0.5, 0.5 + 4e-13, 0.5 + 9e-13,
					0.5 + 1.5e-12, 0.7, 1.2 };
	place_fixture_t f;
	place_state_t a, b;
	double usage[80] = { 0 }, load[40] = { 0 };
	int placed[24] = { 0 }, nh = 1 + place_rand(40);

	memset(&f, 0, sizeof(f));
	for (int h = 0; h < nh; h++) {
		for (int d = 0; d < 2; d++) {
			f.hosts[h].cap[d] = caps[place_rand(4)];
			f.hosts[h].elem[d] = place_rand(5) ? f.hosts[h].cap[d] :
					     f.hosts[h].cap[d] / 2;
			usage[h * 2 + d] = f.hosts[h].cap[d] * place_rand(5) / 5;
		}
		load[h] = loads[place_rand(7)];
	}
	for (int j = 0; j < 24; j++) {
		dfrs_job_t *job = &f.jobs[j].shape;

		f.jobs[j].state = DFRS_JOB_PENDING;
		job->ntasks = 1 + place_rand(8);
		job->need[0] = 0.1 * (1 + place_rand(8));
		job->req[1] = 0.05 * (1 + place_rand(6));
		job->min_yield = place_rand(3) ? 0.0 : 0.25;
	}
	f.cl = (dfrs_cluster_t){ .ndims = 2, .nhosts = nh, .hosts = f.hosts,
				 .njobs = 24, .jobs = f.jobs };
	dfrs_online_params_default(&f.par, DFRS_POLICY_GREEDYPM);
	place_state_init(&a, &f, usage, load, 0);
	place_state_init(&b, &f, usage, load, 1);
	for (int step = 0; step < 40; step++) {
		int j = place_rand(24), k = f.jobs[j].shape.ntasks;
		int ha[8], hb[8], hr[8], ra, rb, rr;

		if (placed[j]) {	/* taken off */
			for (int t = 0; t < k; t++) {
				online_account_task(&a.w, j, f.jobs[j].hosts[t], -1);
				online_account_task(&b.w, j, f.jobs[j].hosts[t], -1);
			}
			placed[j] = 0;
			continue;
		}
		memcpy(usage, a.usage, sizeof(usage));
		memcpy(load, a.load, sizeof(load));
		rr = scan_place(&f, usage, load, j, hr);
		ra = online_place_least_loaded(&a.w, j, ha);
		rb = online_place_least_loaded(&b.w, j, hb);
		assert_int_equal(ra, rr);
		assert_int_equal(rb, rr);
		assert_memory_equal(a.usage, b.usage, sizeof(a.usage));
		assert_memory_equal(a.load, b.load, sizeof(a.load));
		if (rr)
			continue;
		assert_memory_equal(ha, hr, sizeof(int) * k);
		assert_memory_equal(hb, hr, sizeof(int) * k);
		assert_memory_equal(a.usage, usage, sizeof(usage));
		assert_memory_equal(a.load, load, sizeof(load));
		f.jobs[j].hosts = f.jobs[j].hosts ? f.jobs[j].hosts :
				  malloc(sizeof(int) * 8);
		memcpy(f.jobs[j].hosts, hr, sizeof(int) * k);
		placed[j] = 1;
	}
	/* the passes never built the index; the other way did */
	assert_int_equal(a.w.ix_valid, 0);
	assert_int_equal(b.w.ix_valid, 1);
	host_index_free(&a.w.ix);
	host_index_free(&b.w.ix);
	for (int j = 0; j < 24; j++)
		free(f.jobs[j].hosts);
}

static void test_place_least_loaded_index_matches_scan(void **state)
{
	for (int round = 0; round < 300; round++)
		place_round();
}

static void test_greedyp_suspends_lower_priority(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 200);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 100, h0);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_ARRIVAL, 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[0].state, DFRS_JOB_SUSPENDED);
	assert_float_equal(d.job[0].cost_bytes, 0.6e9, 1);
	assert_float_equal(d.job[0].yield, 0.0, EPS);
	assert_int_equal(d.job[1].action, DFRS_ACT_START);
	assert_float_equal(d.job[1].yield, 1.0, EPS);
	assert_int_equal(d.nsuspended, 1);
	dfrs_decisions_free(&d);
}

/* Only the victims that must go are suspended. */
static void test_greedyp_suspends_only_what_it_must(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 }, h1[] = { 1 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 6000);
	online_fixture_add(&f, 1, 0.1, 0.1, DFRS_JOB_RUNNING, 5000, h0);	/* B: lowest */
	online_fixture_add(&f, 1, 0.6, 0.1, DFRS_JOB_RUNNING, 1000, h1);	/* A */
	online_fixture_add(&f, 1, 0.6, 0.1, DFRS_JOB_RUNNING, 10, h0);	/* C: highest */
	online_fixture_add(&f, 1, 0.6, 0.1, DFRS_JOB_PENDING, 0, NULL);	/* N */
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_ARRIVAL, 3);
	/* taking B off host 0 is not enough, A must leave host 1; B stays */
	assert_int_equal(d.job[3].action, DFRS_ACT_START);
	assert_int_equal(d.job[3].hosts[0], 1);
	assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[0].state, DFRS_JOB_RUNNING);
	assert_int_equal(d.job[2].action, DFRS_ACT_NONE);
	assert_int_equal(d.nsuspended, 1);
	dfrs_decisions_free(&d);
}

/*
 * Host 0: R (lowest priority) and Q; host 1: X; host 2: Y.  A new job N of
 * two 0.6 tasks fits only once R leaves host 0.  GreedyPM moves R to host 2
 * when R's virtual time is at least minvt, else suspends it; GreedyP always
 * suspends it.
 */
static void setup_victim(online_fixture_t *f)
{
	int h0[] = { 0 }, h1[] = { 1 }, h2[] = { 2 };

	online_fixture_init(f, 3, 5000);
	online_fixture_add(f, 1, 0.5, 0.1, DFRS_JOB_RUNNING, 1000, h0);	/* R, 1/vt lowest */
	online_fixture_add(f, 1, 0.3, 0.1, DFRS_JOB_RUNNING, 500, h0);	/* Q */
	online_fixture_add(f, 1, 0.4, 0.1, DFRS_JOB_RUNNING, 10, h1);	/* X */
	online_fixture_add(f, 1, 0.5, 0.1, DFRS_JOB_RUNNING, 10, h2);	/* Y */
	online_fixture_add(f, 2, 0.6, 0.1, DFRS_JOB_PENDING, 0, NULL);	/* N */
}

static void test_greedypm_migrates_victim_after_minvt(void **state)
{
	online_fixture_t f;
	dfrs_decisions_t d;

	setup_victim(&f);
	d = decide(&f, DFRS_POLICY_GREEDYPM, 600, DFRS_EVENT_ARRIVAL, 4);
	assert_int_equal(d.job[4].action, DFRS_ACT_START);
	assert_int_equal(d.job[4].hosts[0], 0);
	assert_int_equal(d.job[4].hosts[1], 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_MIGRATE);
	assert_int_equal(d.job[0].hosts[0], 2);
	assert_int_equal(d.job[0].tasks_moved, 1);
	assert_float_equal(d.job[0].cost_bytes, 0.5e9, 1);
	for (int j = 1; j <= 3; j++)
		assert_int_equal(d.job[j].action, DFRS_ACT_NONE);
	dfrs_decisions_free(&d);
}

static void test_greedypm_never_migrates_below_minvt(void **state)
{
	online_fixture_t f;
	dfrs_decisions_t d;

	setup_victim(&f);
	d = decide(&f, DFRS_POLICY_GREEDYPM, 2000, DFRS_EVENT_ARRIVAL, 4);
	assert_int_equal(d.job[4].action, DFRS_ACT_START);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[0].hosts[0], 0);	/* remembers its host */
	assert_int_equal(d.nmigrated, 0);
	dfrs_decisions_free(&d);

	setup_victim(&f);
	d = decide(&f, DFRS_POLICY_GREEDYP, 0, DFRS_EVENT_ARRIVAL, 4);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.nmigrated, 0);
	dfrs_decisions_free(&d);
}

/*
 * A suspended job of higher priority than the running one: GreedyP resumes
 * it on its own host only, preempting at a periodic event but not at a
 * completion; GreedyPM moves it to the idle host once past minvt.
 */
static void test_resume_same_host_or_migrate(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 5000);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 3000, h0);	/* prio 1/3000 */
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_SUSPENDED, 1000, h0);	/* 1/1000 */
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	dfrs_decisions_free(&d);

	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.job[1].action, DFRS_ACT_RESUME);
	assert_int_equal(d.job[1].hosts[0], 0);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_float_equal(d.job[1].cost_bytes, 0.6e9, 1);
	dfrs_decisions_free(&d);

	d = decide(&f, DFRS_POLICY_GREEDYPM, 600, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[1].action, DFRS_ACT_MIGRATE);
	assert_int_equal(d.job[1].hosts[0], 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	dfrs_decisions_free(&d);

	/* below minvt it may not move, and a completion preempts nobody */
	d = decide(&f, DFRS_POLICY_GREEDYPM, 1500, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.nmigrated, 0);
	dfrs_decisions_free(&d);
}

/* A suspended job that may migrate but fits nowhere keeps the hosts it
 * left: the first task placed elsewhere before the second failed must
 * not leave it "suspended" on hosts {1, 1}, where two of its tasks could
 * never fit (a later resume there would stall the machine). */
static void test_failed_migration_keeps_hosts(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 }, h01[] = { 0, 1 };
	dfrs_decisions_t d;

	(void)state;
	online_fixture_init(&f, 2, 5000);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 3000, h0);	/* prio 1/3000 */
	online_fixture_add(&f, 2, 0.6, 1.0, DFRS_JOB_SUSPENDED, 1000, h01);	/* 1/1000 */
	d = decide(&f, DFRS_POLICY_GREEDYPM, 600, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].state, DFRS_JOB_SUSPENDED);
	assert_int_equal(d.job[1].hosts[0], 0);
	assert_int_equal(d.job[1].hosts[1], 1);
	dfrs_decisions_free(&d);
}

/* Elementary amounts: two 4-thread jobs share a 4-core host. */
static void test_elementary_amounts_online(void **state)
{
	online_fixture_t f;
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 0);
	f.hosts[0].cap[0] = 4.0;	/* 4 cores, 1 per thread */
	for (int i = 0; i < 2; i++) {
		int j = online_fixture_add(&f, 1, 0.1, 4.0, DFRS_JOB_PENDING, 0, NULL);

		f.jobs[j].shape.elem_given = 1;
		f.jobs[j].shape.elem_need[0] = 1.0;
		f.jobs[j].shape.elem_req[1] = 0.1;
		d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_ARRIVAL, j);
		assert_int_equal(d.job[j].action, DFRS_ACT_START);
		dfrs_online_apply(&f.cl, &d);
		dfrs_decisions_free(&d);
		f.jobs[j].virtual_time = 10;
	}
	assert_float_equal(f.jobs[0].yield, 0.5, EPS);
	assert_float_equal(f.jobs[1].yield, 0.5, EPS);
}

/* ---- incremental MCB (repack_drift) ----------------------------------------- */

static dfrs_decisions_t decide_drift(online_fixture_t *f, dfrs_policy_t pol,
				     double drift, dfrs_event_t ev, int job)
{
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[256] = "";

	dfrs_online_params_default(&par, pol);
	par.priority = DFRS_PRIO_VT;
	par.minvt = 600;
	par.repack_drift = drift;
	if (dfrs_online_decide(&par, &f->cl, ev, job, &d, err, sizeof(err)))
		fail_msg("decide: %s", err);
	return d;
}

/* Two jobs share host 0, host 1 idles: the full repack spreads them; the
 * repair keeps them while the yield is within the drift of the last
 * repack's, and repacks once it is not. */
static void test_repair_keeps_packing_within_drift(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 1000);
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);

	f.cl.repack_yield = 0.5;	/* the last repack reached 0.5 */
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.1, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.repacked, 0);
	assert_int_equal(d.nmigrated, 0);
	assert_int_equal(d.job[0].hosts[0], 0);
	assert_int_equal(d.job[1].hosts[0], 0);
	assert_float_equal(d.min_scaled_yield, 0.5, EPS);
	dfrs_online_apply(&f.cl, &d);
	assert_float_equal(f.cl.repack_yield, 0.5, EPS);	/* unchanged */
	dfrs_decisions_free(&d);

	/* drift 0: every event repacks, as without the parameter */
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.0, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.repacked, 1);
	assert_int_equal(d.nmigrated, 1);
	dfrs_decisions_free(&d);

	/* the last repack reached 1.0: 0.5 is more than 10 % below */
	f.cl.repack_yield = 1.0;
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.1, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.repacked, 1);
	assert_int_equal(d.nmigrated, 1);
	assert_int_not_equal(d.job[0].hosts[0], d.job[1].hosts[0]);
	dfrs_online_apply(&f.cl, &d);
	assert_float_equal(f.cl.repack_yield, 1.0, EPS);
	dfrs_decisions_free(&d);

	/* no repack yet (repack_yield 0): the first one is full */
	f.cl.repack_yield = 0.0;
	f.jobs[1].hosts[0] = 0;
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.5, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.repacked, 1);
	dfrs_decisions_free(&d);
}

/* An arriving job is admitted by the repair as GreedyP would (suspending
 * the lowest priority) when that keeps the yield within the drift. */
static void test_repair_admits_arrival(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 1000);
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 100, h0);	/* A: 1/100 */
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 200, h0);	/* B: 1/200 */
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_PENDING, 0, NULL);	/* C: new */
	f.cl.repack_yield = 0.5;
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.1, DFRS_EVENT_ARRIVAL, 2);
	assert_int_equal(d.repacked, 0);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	assert_float_equal(d.min_scaled_yield, 0.5, EPS);
	dfrs_decisions_free(&d);
}

/* A suspended job of higher priority than a running one waits for the
 * next periodic event: then the full repack swaps them. */
static void test_repair_rotates_at_periodic_events(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 1000);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 700, h0);	/* A: 1/700 */
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_SUSPENDED, 100, h0);	/* B: 1/100 */
	f.cl.repack_yield = 1.0;
	d = decide_drift(&f, DFRS_POLICY_MCB, 0.1, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.repacked, 0);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].state, DFRS_JOB_SUSPENDED);
	dfrs_decisions_free(&d);

	d = decide_drift(&f, DFRS_POLICY_MCB, 0.1, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.repacked, 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[1].action, DFRS_ACT_RESUME);
	dfrs_decisions_free(&d);

	/* GreedyPM repairs at its periodic events the same way */
	d = decide_drift(&f, DFRS_POLICY_GREEDYPM, 0.1, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.repacked, 1);
	assert_int_equal(d.job[1].action, DFRS_ACT_RESUME);
	dfrs_decisions_free(&d);
}

/* ---- requeue model ---------------------------------------------------------- */

/* A suspension is a requeue: a job that does not checkpoint loses its
 * virtual time, one that does keeps it and pays the cost model. */
static void test_requeue_loses_progress_unless_checkpointable(void **state)
{
	for (int ckpt = 0; ckpt <= 1; ckpt++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 1, 1000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 300, h0);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
		f.jobs[0].checkpointable = ckpt;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
		par.requeue = 1;
		par.penalty = 50;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
						    1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[1].action, DFRS_ACT_START);
		assert_float_equal(d.job[0].lost_seconds, ckpt ? 0.0 : 300.0, EPS);
		assert_float_equal(d.total_lost_seconds, ckpt ? 0.0 : 300.0, EPS);
		assert_float_equal(d.job[0].cost_bytes, ckpt ? 0.6e9 : 0.0, 1.0);
		dfrs_online_apply(&f.cl, &d);
		assert_float_equal(f.jobs[0].virtual_time, ckpt ? 300.0 : 0.0, EPS);
		assert_float_equal(f.jobs[0].lost_time, ckpt ? 0.0 : 300.0, EPS);
		/* either way its priority counts the 300 s it was served: a
		 * requeued job does not come back as a new one (ft/vt^2
		 * infinite), which would preempt others again and again */
		double prio = dfrs_online_priority(&par, &f.cl, &f.jobs[0]);
		assert_true(isfinite(prio));
		assert_float_equal(prio, dfrs_priority_value(par.priority,
			f.jobs[0].submit, 300.0, f.cl.now), 1e-12);
		dfrs_decisions_free(&d);

		/* the requeued job comes back: a restart costs nothing, a
		 * checkpointed resume pays the penalty */
		f.jobs[1].state = DFRS_JOB_PENDING;	/* say C left */
		f.cl.njobs = 1;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
						    -1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, DFRS_ACT_RESUME);
		assert_float_equal(d.job[0].cost_seconds, ckpt ? 50.0 : 0.0, EPS);
		assert_float_equal(d.job[0].lost_seconds, 0.0, EPS);
		dfrs_decisions_free(&d);
	}
}

/* Requeue model: the periodic rotation of priorities takes a running job
 * off its host only if it checkpoints (the one that does not would start
 * over at every rotation, and jobs longer than the period would never
 * end); an arrival may still requeue it (above). */
static void test_requeue_rotation_spares_running_jobs(void **state)
{
	(void)state;
	for (int ckpt = 0; ckpt <= 1; ckpt++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 1, 5000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 3000, h0);	/* 1/3000 */
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_SUSPENDED, 1000, h0);	/* 1/1000 */
		f.jobs[0].checkpointable = ckpt;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
		par.requeue = 1;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_PERIODIC,
						    -1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action,
				 ckpt ? DFRS_ACT_SUSPEND : DFRS_ACT_NONE);
		assert_int_equal(d.job[1].action,
				 ckpt ? DFRS_ACT_RESUME : DFRS_ACT_NONE);
		assert_float_equal(d.total_lost_seconds, 0.0, EPS);
		dfrs_decisions_free(&d);
	}
}

/* The repack keeps a running job that does not checkpoint where it is
 * (moving it would restart it); a checkpointing one still moves. */
static void test_requeue_repack_keeps_running_jobs(void **state)
{
	for (int ckpt = 0; ckpt <= 1; ckpt++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 2, 1000);
		online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);
		online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);
		f.jobs[0].checkpointable = f.jobs[1].checkpointable = ckpt;
		dfrs_online_params_default(&par, DFRS_POLICY_MCB);
		par.requeue = 1;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_PERIODIC,
						    -1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.nmigrated, ckpt ? 1 : 0);
		assert_float_equal(d.min_scaled_yield, ckpt ? 1.0 : 0.5, EPS);
		assert_float_equal(d.total_lost_seconds, 0.0, EPS);
		dfrs_decisions_free(&d);
	}
}

/* A job requeued without a checkpoint left nothing on its hosts: it
 * restarts wherever there is room, under GreedyP too and with no virtual
 * time (minvt 600); a checkpointing one still resumes only where its
 * image is (GreedyP never migrates). */
static void test_requeue_restarts_anywhere(void **state)
{
	(void)state;
	for (int ckpt = 0; ckpt <= 1; ckpt++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 2, 1000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 500, h0);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_SUSPENDED, 0, h0);
		f.jobs[1].lost_time = 200;
		f.jobs[1].checkpointable = ckpt;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
		par.requeue = 1;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
						    -1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		if (ckpt) {
			assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
			assert_int_equal(d.job[1].state, DFRS_JOB_SUSPENDED);
		} else {
			assert_int_equal(d.job[1].action, DFRS_ACT_MIGRATE);
			assert_int_equal(d.job[1].hosts[0], 1);
			assert_float_equal(d.job[1].cost_seconds, 0.0, EPS);
			assert_float_equal(d.job[1].lost_seconds, 0.0, EPS);
			assert_int_equal(d.job[1].requeued, 0);
		}
		dfrs_decisions_free(&d);
	}
}

/* A running job that does not checkpoint ranks ahead of a job that never
 * ran, though both priorities are infinite and the waiting one is older:
 * MCB's periodic repack, which drops the lowest priority first, must drop
 * the waiting one, not requeue the running one. */
static void test_requeue_running_job_ahead_of_new_ones(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[256] = "";

	(void)state;
	online_fixture_init(&f, 1, 1000);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 500, h0);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
	f.jobs[0].submit = 400;		/* the waiting job is older */
	f.jobs[1].submit = 100;
	dfrs_online_params_default(&par, DFRS_POLICY_MCB);
	par.requeue = 1;
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_PERIODIC,
					    -1, &d, err, sizeof(err)), 0);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[0].rank, 0);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].state, DFRS_JOB_PENDING);
	assert_float_equal(d.total_lost_seconds, 0.0, EPS);
	dfrs_decisions_free(&d);
}

/* Which running job an arrival takes off: the lowest priority (the most
 * virtual time under 1/vt), as Stillwell et al.; in the requeue model the
 * one that loses the least work, a checkpointing job losing none. */
static void test_requeue_takes_the_cheapest_victim(void **state)
{
	const struct {
		int requeue, a_ckpt, victim;
		double lost;
	} cases[] = {
		{ 0, 0, 0, 0.0 },	/* A: 1/1000 below B: 1/100 */
		{ 1, 0, 1, 100.0 },	/* B loses 100 s, A 1000 s */
		{ 1, 1, 0, 0.0 },	/* A checkpoints: loses nothing */
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 1, 2000);
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 1000, h0);	/* A */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 100, h0);	/* B */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_PENDING, 0, NULL);	/* C */
		f.jobs[0].checkpointable = cases[c].a_ckpt;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
		par.priority = DFRS_PRIO_VT;
		par.requeue = cases[c].requeue;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
						    2, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[cases[c].victim].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[1 - cases[c].victim].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_float_equal(d.total_lost_seconds, cases[c].lost, EPS);
		dfrs_decisions_free(&d);
	}
}

/* max_requeues: an arrival requeues a running job until it has been
 * requeued that often (dfrs_online_apply counts), then leaves it; 0 lets
 * none be requeued, < 0 (the default) any. */
static void test_requeue_cap(void **state)
{
	const struct {
		int max, requeues, suspended;
	} cases[] = {
		{ -1, 5, 1 }, { 0, 0, 0 }, { 1, 0, 1 }, { 1, 1, 0 }, { 3, 2, 1 },
		{ 3, 3, 0 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 1, 1000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 300, h0);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
		f.jobs[0].requeues = cases[c].requeues;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
		assert_int_equal(par.max_requeues, -1);
		par.requeue = 1;
		par.max_requeues = cases[c].max;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
						    1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, cases[c].suspended ?
				 DFRS_ACT_SUSPEND : DFRS_ACT_NONE);
		assert_int_equal(d.job[0].requeued, cases[c].suspended);
		assert_int_equal(d.job[1].state, cases[c].suspended ?
				 DFRS_JOB_RUNNING : DFRS_JOB_PENDING);
		dfrs_online_apply(&f.cl, &d);
		assert_int_equal(f.jobs[0].requeues,
				 cases[c].requeues + cases[c].suspended);
		dfrs_decisions_free(&d);
	}
}

/* starve_bsld: at an arrival, the waiting job that has been in the system
 * the most times its estimate, once that reaches starve_bsld, takes
 * running jobs off as an arriving job does (those that lose the least work
 * first); one such claim per arrival; a job of unknown estimate never
 * starves, nor any outside the requeue model. */
static void test_requeue_starving_job_claims_room(void **state)
{
	const struct {
		int requeue;
		double starve, est2;
		int claims;	/* 0: none, else the job that claims (2, 4) */
	} cases[] = {
		{ 1, 0.0, 10.0, 0 },	/* off */
		{ 1, 1000.0, 10.0, 2 },	/* job 2: 2000 times its estimate */
		{ 1, 3000.0, 10.0, 0 },	/* 2000 < 3000 */
		{ 1, 1000.0, 0.0, 4 },	/* job 2 of unknown estimate; 4: 1000 */
		{ 1, 1000.0, 15.0, 2 },	/* job 2: 1333, of lower priority */
		{ 1, 1000.0, 40.0, 4 },	/* job 2: 500, not starving */
		{ 0, 1000.0, 10.0, 0 },	/* not the requeue model */
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		online_fixture_t f;
		int h0[] = { 0 }, h1[] = { 1 }, h01[] = { 0, 1 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";
		int other = cases[c].claims == 2 ? 4 : 2;

		online_fixture_init(&f, 2, 20000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 500, h0);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 800, h1);
		online_fixture_add(&f, 2, 0.6, 1.0, DFRS_JOB_SUSPENDED, 0, h01);
		online_fixture_add(&f, 1, 0.3, 1.0, DFRS_JOB_PENDING, 0, NULL);
		online_fixture_add(&f, 2, 0.6, 1.0, DFRS_JOB_SUSPENDED, 0, h01);
		for (int j = 0; j < 5; j++)
			f.jobs[j].estimate = 10000.0;
		f.jobs[0].submit = f.jobs[1].submit = 19000.0;
		f.jobs[2].submit = 0.0;
		f.jobs[2].estimate = cases[c].est2;
		f.jobs[2].lost_time = 100.0;
		f.jobs[3].submit = 20000.0;	/* arrives now */
		f.jobs[4].submit = 10000.0;	/* 1000 times 10 s */
		f.jobs[4].estimate = 10.0;
		f.jobs[4].lost_time = 50.0;	/* priority 4, job 2 2 */
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
		assert_float_equal(par.starve_bsld, 0.0, EPS);
		par.requeue = cases[c].requeue;
		par.starve_bsld = cases[c].starve;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
						    3, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[3].action, DFRS_ACT_START);
		assert_int_equal(d.claimed, cases[c].claims ? cases[c].claims : -1);
		if (!cases[c].claims) {
			for (int j = 0; j < 5; j++)
				if (j != 3)
					assert_int_equal(d.job[j].action,
							 DFRS_ACT_NONE);
			assert_float_equal(d.total_lost_seconds, 0.0, EPS);
		} else {
			/* both running jobs make room on both hosts; the
			 * arrival, just started, is no victim */
			assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
			assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
			assert_int_equal(d.job[cases[c].claims].state,
					 DFRS_JOB_RUNNING);
			assert_int_equal(d.job[other].state,
					 DFRS_JOB_SUSPENDED);
			assert_float_equal(d.total_lost_seconds, 1300.0, EPS);
		}
		dfrs_decisions_free(&d);
	}
}

/* A running job that starves is no victim, even of an arrival; without
 * starve_bsld the arrival requeues it. */
static void test_requeue_starving_job_stays(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 1, 20000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 5, h0);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
		f.jobs[0].estimate = 10.0;	/* 2000 times it */
		f.jobs[1].submit = 20000.0;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
		par.requeue = 1;
		par.starve_bsld = on ? 1000.0 : 0.0;
		assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
						    1, &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, on ? DFRS_ACT_NONE :
				 DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[1].state, on ? DFRS_JOB_PENDING :
				 DFRS_JOB_RUNNING);
		assert_int_equal(d.claimed, -1);
		dfrs_decisions_free(&d);
	}
}

/* A starving job that does not fit keeps the room it waits for: at an
 * event without a claim (here a completion), no job behind it starts, as
 * one would without starve_bsld or outside the requeue model; one that
 * fits starts, and the jobs behind it after. */
static void test_requeue_starving_job_keeps_its_room(void **state)
{
	const struct {
		int requeue;
		double starve;
		int wide;	/* tasks of the starving job */
		dfrs_job_state_t starving_after, behind_after;
		int behind_host;
	} cases[] = {
		{ 1, 1000.0, 2, DFRS_JOB_PENDING, DFRS_JOB_PENDING, -1 },
		{ 1, 0.0, 2, DFRS_JOB_PENDING, DFRS_JOB_RUNNING, 1 },
		{ 0, 1000.0, 2, DFRS_JOB_PENDING, DFRS_JOB_RUNNING, 1 },
		{ 1, 1000.0, 1, DFRS_JOB_RUNNING, DFRS_JOB_RUNNING, 0 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		online_fixture_t f;
		int h0[] = { 0 };
		dfrs_online_params_t par;
		dfrs_decisions_t d;
		char err[256] = "";

		online_fixture_init(&f, 2, 20000);
		online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 500, h0);
		online_fixture_add(&f, cases[c].wide, 0.6, 1.0, DFRS_JOB_PENDING, 0, NULL);
		online_fixture_add(&f, 1, 0.3, 1.0, DFRS_JOB_PENDING, 0, NULL);
		f.jobs[0].submit = 19000.0;
		f.jobs[0].estimate = f.jobs[2].estimate = 10000.0;
		f.jobs[1].estimate = 10.0;	/* 2000 times it */
		f.jobs[2].submit = 19500.0;
		dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
		par.requeue = cases[c].requeue;
		par.starve_bsld = cases[c].starve;
		assert_int_equal(dfrs_online_decide(&par, &f.cl,
						    DFRS_EVENT_COMPLETION, -1,
						    &d, err, sizeof(err)), 0);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[1].state, cases[c].starving_after);
		assert_int_equal(d.job[2].state, cases[c].behind_after);
		if (cases[c].starving_after == DFRS_JOB_RUNNING)
			assert_int_equal(d.job[1].hosts[0], 1);
		if (cases[c].behind_after == DFRS_JOB_RUNNING)
			assert_int_equal(d.job[2].hosts[0], cases[c].behind_host);
		assert_int_equal(d.claimed, -1);
		assert_int_equal(d.held, cases[c].behind_after ==
				 DFRS_JOB_PENDING ? 1 : -1);
		dfrs_decisions_free(&d);
	}
}

/* ---- MCB ------------------------------------------------------------------ */

static void test_mcb_drops_lowest_priority(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 1000);
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 100, h0);	/* A: 1/100 */
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 200, h0);	/* B: 1/200 */
	online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_PENDING, 0, NULL);	/* C: new */
	d = decide(&f, DFRS_POLICY_MCB, 0, DFRS_EVENT_ARRIVAL, 2);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	assert_float_equal(d.job[0].yield, 0.5, EPS);
	assert_float_equal(d.job[2].yield, 0.5, EPS);
	assert_float_equal(d.min_scaled_yield, 0.5, EPS);
	dfrs_decisions_free(&d);
}

/*
 * The rank hints only order the sort's input: whatever they hold (none,
 * the reverse of the priority order, out of range), the decisions are the
 * same and each job's rank is its place in the priority order (new job C
 * first, then 1/vt: A 1/100, D 1/150, B 1/200, E 1/300), which
 * dfrs_online_apply keeps as the next hint.  Two hosts hold two of the
 * 0.5 jobs each: MCB keeps the first four and suspends E.
 */
static void test_rank_hints_change_nothing(void **state)
{
	static const int hints[][5] = {
		{ 0, 0, 0, 0, 0 }, { 4, 2, 0, 3, 1 }, { -7, 99, 3, 5, 2 },
		{ 1, 3, 0, 4, 2 },
	};
	static const int rank[5] = { 1, 3, 0, 2, 4 };

	for (size_t c = 0; c < sizeof(hints) / sizeof(hints[0]); c++) {
		online_fixture_t f;
		int h0[] = { 0 }, h1[] = { 1 };
		dfrs_decisions_t d;

		online_fixture_init(&f, 2, 1000);
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 100, h0);	/* A */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 200, h0);	/* B */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_PENDING, 0, NULL);	/* C */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 150, h1);	/* D */
		online_fixture_add(&f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 300, h1);	/* E */
		for (int j = 0; j < 5; j++)
			f.jobs[j].rank = hints[c][j];
		d = decide(&f, DFRS_POLICY_MCB, 0, DFRS_EVENT_ARRIVAL, 2);
		for (int j = 0; j < 5; j++)
			assert_int_equal(d.job[j].rank, rank[j]);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[4].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.nsuspended, 1);
		assert_int_equal(d.nstarted, 1);
		dfrs_online_apply(&f.cl, &d);
		for (int j = 0; j < 5; j++)
			assert_int_equal(f.jobs[j].rank, rank[j]);
		dfrs_decisions_free(&d);
	}
}

static void test_mcb_rebalances_unless_minvt(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_decisions_t d;

	/* two CPU-bound jobs share host 0 while host 1 idles */
	online_fixture_init(&f, 2, 1000);
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, h0);
	d = decide(&f, DFRS_POLICY_MCB, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 1);
	assert_int_not_equal(d.job[0].hosts[0], d.job[1].hosts[0]);
	assert_float_equal(d.min_scaled_yield, 1.0, EPS);
	dfrs_decisions_free(&d);

	d = decide(&f, DFRS_POLICY_MCB, 800, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 0);
	assert_int_equal(d.job[0].hosts[0], 0);
	assert_int_equal(d.job[1].hosts[0], 0);
	assert_float_equal(d.min_scaled_yield, 0.5, EPS);
	dfrs_decisions_free(&d);

	/* GreedyPM repacks at periodic events too; GreedyP does not */
	d = decide(&f, DFRS_POLICY_GREEDYPM, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 1);
	dfrs_decisions_free(&d);
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 0);
	dfrs_decisions_free(&d);
}

/* On identical hosts a repack keeps jobs where they are when it can. */
static void test_mcb_keeps_hosts_when_it_can(void **state)
{
	online_fixture_t f;
	int h2[] = { 2 }, h3[] = { 3, 3 };
	dfrs_decisions_t d;

	online_fixture_init(&f, 4, 5000);
	online_fixture_add(&f, 1, 0.3, 1.0, DFRS_JOB_RUNNING, 1000, h2);
	online_fixture_add(&f, 2, 0.3, 0.4, DFRS_JOB_RUNNING, 1000, h3);
	d = decide(&f, DFRS_POLICY_MCB, 600, DFRS_EVENT_PERIODIC, -1);
	/* the packing puts job 0 alone and job 1's two tasks together */
	assert_int_equal(d.nmigrated, 0);
	assert_int_equal(d.job[0].hosts[0], 2);
	assert_int_equal(d.job[1].hosts[0], 3);
	assert_int_equal(d.job[1].hosts[1], 3);
	assert_float_equal(d.min_scaled_yield, 1.0, EPS);
	dfrs_decisions_free(&d);
}

/* ---- cost model and virtual time ------------------------------------------ */

static void test_cost_apply_advance(void **state)
{
	online_fixture_t f;
	int h0[] = { 0 };
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[128];

	online_fixture_init(&f, 2, 1000);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_RUNNING, 3000, h0);
	online_fixture_add(&f, 1, 0.6, 1.0, DFRS_JOB_SUSPENDED, 1000, h0);
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYPM);
	par.priority = DFRS_PRIO_VT;
	par.penalty = 300;
	par.bandwidth = 1e8;	/* 0.6 GB at 100 MB/s: 6 s */
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), 0);
	assert_int_equal(d.job[1].action, DFRS_ACT_MIGRATE);
	assert_float_equal(d.job[1].cost_bytes, 0.6e9, 1);
	assert_float_equal(d.job[1].cost_seconds, 306.0, EPS);
	dfrs_online_apply(&f.cl, &d);
	dfrs_decisions_free(&d);
	assert_int_equal(f.jobs[1].state, DFRS_JOB_RUNNING);
	assert_int_equal(f.jobs[1].hosts[0], 1);
	assert_float_equal(f.jobs[1].yield, 1.0, EPS);
	assert_float_equal(f.jobs[1].blocked_until, 1306.0, EPS);

	/* job 1 needs 500 s more: 306 s blocked, then 500 s at yield 1 */
	assert_float_equal(dfrs_online_time_to_finish(&f.cl, &f.jobs[1], 1500),
			   806.0, EPS);
	dfrs_online_advance(&f.cl, 400);
	assert_float_equal(f.cl.now, 1400.0, EPS);
	assert_float_equal(f.jobs[1].virtual_time, 1094.0, EPS);
	assert_float_equal(f.jobs[0].virtual_time, 3400.0, EPS);
	assert_true(isinf(dfrs_online_time_to_finish(&f.cl, &(dfrs_online_job_t){
		.state = DFRS_JOB_SUSPENDED }, 10)));
}

/*
 * Hosts that do not change are not copied: the decisions point at the
 * jobs' own (a running job left in place, a suspended one that stays so),
 * and only a job that is placed anew gets hosts of its own in them.
 */
static void test_unchanged_hosts_shared(void **state)
{
	online_fixture_t f;
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, 10, (int[]){ 0 });
	/* no room on host 0, and GreedyP does not migrate */
	online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_SUSPENDED, 5, (int[]){ 0 });
	online_fixture_add(&f, 1, 0.3, 0.5, DFRS_JOB_PENDING, 0, NULL);
	d = decide(&f, DFRS_POLICY_GREEDYP, 0, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_ptr_equal(d.job[0].hosts, f.jobs[0].hosts);
	assert_int_equal(d.job[1].state, DFRS_JOB_SUSPENDED);
	assert_ptr_equal(d.job[1].hosts, f.jobs[1].hosts);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	assert_ptr_not_equal(d.job[2].hosts, f.jobs[2].hosts);
	assert_int_equal(d.job[2].hosts[0], 1);
	dfrs_online_apply(&f.cl, &d);
	assert_int_equal(f.jobs[0].hosts[0], 0);
	assert_int_equal(f.jobs[1].hosts[0], 0);
	assert_int_equal(f.jobs[2].hosts[0], 1);
	dfrs_decisions_free(&d);
	(void)state;
}

static void test_bad_state(void **state)
{
	online_fixture_t f;
	int bad[] = { 5 };
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[128] = "";
	dfrs_policy_t p;

	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 1, 0.1, 0.1, DFRS_JOB_RUNNING, 1, bad);
	dfrs_online_params_default(&par, DFRS_POLICY_MCB);
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 100 task 0: host 5 out of range 0..1"));

	/* a negative host, on a suspended job's second task */
	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 2, 0.1, 0.1, DFRS_JOB_SUSPENDED, 1, (int[]){ 1, -1 });
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 100 task 1: host -1 out of range 0..1"));
	/* and one in the second block of 4 tasks that the check reads at
	 * once (too large), and a negative one in the first */
	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 9, 0.01, 0.01, DFRS_JOB_SUSPENDED, 1,
		(int[]){ 1, 0, 1, 0, 1, 2, 1, 0, 1 });
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 100 task 5: host 2 out of range 0..1"));
	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 5, 0.01, 0.01, DFRS_JOB_SUSPENDED, 1,
		(int[]){ 1, 0, -7, 0, 1 });
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 100 task 2: host -7 out of range 0..1"));

	/* running jobs overloading a host */
	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 1, 0.6, 0.1, DFRS_JOB_RUNNING, 1, (int[]){ 1 });
	online_fixture_add(&f, 1, 0.6, 0.1, DFRS_JOB_RUNNING, 1, (int[]){ 1 });
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_COMPLETION,
					    -1, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "host 1 dimension 1: running jobs use 1.2"));

	/* a task larger than every host, and a NaN need */
	online_fixture_init(&f, 2, 0);
	online_fixture_add(&f, 1, 1.5, 0.1, DFRS_JOB_PENDING, 0, NULL);
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
					    0, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 0 dimension 1: req 1.5 exceeds every host's capacity"));
	f.jobs[0].shape.req[1] = 0.5;
	f.jobs[0].shape.need[0] = NAN;
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
					    0, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "job 0 dimension 0: need nan"));
	f.jobs[0].shape.need[0] = 0.1;
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL,
					    3, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "arrival of job index 3, but 1 jobs"));
	assert_int_equal(dfrs_online_policy_parse("greedypm", &p), 0);
	assert_int_equal(p, DFRS_POLICY_GREEDYPM);
	assert_int_equal(dfrs_online_policy_parse("easy", &p), -1);
}

/* ---- several arrivals decided at once ------------------------------------- */

static dfrs_decisions_t decide_arrivals(online_fixture_t *f, dfrs_policy_t pol,
					const int *arrived, int n)
{
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[256] = "";

	dfrs_online_params_default(&par, pol);
	par.priority = DFRS_PRIO_VT;
	if (dfrs_online_decide_arrivals(&par, &f->cl, arrived, n, &d, err,
					sizeof(err)))
		fail_msg("decide_arrivals: %s", err);
	return d;
}

/*
 * Two full hosts (memory 0.8 each) and two new jobs of 0.8: deciding once
 * for both, each new job takes the lowest-priority running job off its
 * host (job 1 at 1/50 first, then job 0 at 1/40).  Deciding for the first
 * alone leaves the second waiting: the fill after an arrival does not
 * preempt.
 */
static void test_arrivals_decided_together(void **state)
{
	int both[] = { 2, 3 }, out_of_range[] = { 2, 7 };
	dfrs_online_params_t par;
	char err[128] = "";
	online_fixture_t f;
	dfrs_decisions_t d;

	for (int pol = DFRS_POLICY_GREEDYP; pol <= DFRS_POLICY_GREEDYPM; pol++) {
		online_fixture_init(&f, 2, 100);
		online_fixture_add(&f, 1, 0.8, 0.5, DFRS_JOB_RUNNING, 40, (int[]){ 0 });
		online_fixture_add(&f, 1, 0.8, 0.5, DFRS_JOB_RUNNING, 50, (int[]){ 1 });
		online_fixture_add(&f, 1, 0.8, 0.5, DFRS_JOB_PENDING, 0, NULL);
		online_fixture_add(&f, 1, 0.8, 0.5, DFRS_JOB_PENDING, 0, NULL);

		d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 2);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[2].hosts[0], 1);
		assert_int_equal(d.job[3].action, DFRS_ACT_START);
		assert_int_equal(d.job[3].hosts[0], 0);
		assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.nstarted, 2);
		assert_int_equal(d.nsuspended, 2);
		dfrs_decisions_free(&d);

		/* one of them: the same as dfrs_online_decide at its arrival */
		d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 1);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[2].hosts[0], 1);
		assert_int_equal(d.job[3].state, DFRS_JOB_PENDING);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.nstarted, 1);
		dfrs_decisions_free(&d);
	}

	/* MCB repacks once: the two highest priorities (the new jobs) run */
	d = decide_arrivals(&f, DFRS_POLICY_MCB, both, 2);
	assert_int_equal(d.job[2].state, DFRS_JOB_RUNNING);
	assert_int_equal(d.job[3].state, DFRS_JOB_RUNNING);
	assert_int_equal(d.job[0].state, DFRS_JOB_SUSPENDED);
	assert_int_equal(d.job[1].state, DFRS_JOB_SUSPENDED);
	dfrs_decisions_free(&d);

	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
	assert_int_equal(dfrs_online_decide_arrivals(&par, &f.cl, out_of_range,
						     2, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "arrival of job index 7, but 4 jobs"));
	assert_int_equal(dfrs_online_decide_arrivals(&par, &f.cl, NULL, -1,
						     &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-1 arrivals"));
}

/* ---- invariants over a random event sequence ------------------------------ */

static double rnd01(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*s >> 11) / 9007199254740992.0;
}

static void check_invariants(online_fixture_t *f, const dfrs_decisions_t *d,
			     double minvt, dfrs_policy_t pol)
{
	double use[8][2] = { { 0 } };

	for (int j = 0; j < f->cl.njobs; j++) {
		const dfrs_online_job_t *job = &f->jobs[j];
		const dfrs_decision_t *dj = &d->job[j];

		if (dj->action == DFRS_ACT_MIGRATE) {
			assert_int_not_equal(pol, DFRS_POLICY_GREEDYP);
			if (job->virtual_time < minvt)
				fail_msg("job %ld migrated at vt %g < minvt %g",
					 job->id, job->virtual_time, minvt);
		}
		if (dj->state != DFRS_JOB_RUNNING)
			continue;
		assert_true(dj->yield >= job->shape.min_yield - EPS && dj->yield <= 1 + EPS);
		for (int t = 0; t < job->shape.ntasks; t++)
			for (int dim = 0; dim < 2; dim++)
				use[dj->hosts[t]][dim] += job->shape.req[dim] +
					dj->yield * job->shape.need[dim];
	}
	for (int h = 0; h < f->cl.nhosts; h++)
		for (int dim = 0; dim < 2; dim++)
			assert_true(use[h][dim] <= 1.0 + 1e-9);
}

/* Returns the number of suspensions and (in *migrations) migrations. */
static int run_random(dfrs_policy_t pol, uint64_t seed, int *migrations)
{
	int suspensions = 0;
	online_fixture_t f;
	dfrs_online_params_t par;
	double runtime[MAXJ], minvt = 300;
	char err[256];
	int narrived = 0;

	online_fixture_init(&f, 4, 0);
	dfrs_online_params_default(&par, pol);
	par.minvt = minvt;
	par.penalty = 5;
	for (int step = 0; step < 60; step++) {
		dfrs_decisions_t d;
		dfrs_event_t ev = DFRS_EVENT_PERIODIC;
		int arrived = -1, done = -1;
		double dt = 50 + 100 * rnd01(&seed), first = INFINITY;

		/* the earliest completion within dt, else an arrival */
		for (int j = 0; j < f.cl.njobs; j++) {
			double tf = dfrs_online_time_to_finish(&f.cl, &f.jobs[j], runtime[j]);

			if (tf < first)
				first = tf, done = j;
		}
		if (first <= dt) {
			dfrs_online_advance(&f.cl, first);
			/* remove the finished job, keeping storage aligned */
			for (int j = done; j + 1 < f.cl.njobs; j++) {
				f.jobs[j] = f.jobs[j + 1];
				memcpy(f.storage[j], f.storage[j + 1], sizeof(f.storage[j]));
				f.jobs[j].hosts = f.storage[j];
				runtime[j] = runtime[j + 1];
			}
			f.cl.njobs--;
			ev = DFRS_EVENT_COMPLETION;
		} else {
			dfrs_online_advance(&f.cl, dt);
			if (step % 5 != 4 && f.cl.njobs < MAXJ - 1) {
				arrived = online_fixture_add(&f, 1 + (int)(3 * rnd01(&seed)),
						  0.05 + 0.5 * rnd01(&seed),
						  0.1 + 0.9 * rnd01(&seed),
						  DFRS_JOB_PENDING, 0, NULL);
				f.jobs[arrived].submit = f.cl.now;
				f.jobs[arrived].id = 1000 + narrived++;
				runtime[arrived] = 100 + 2000 * rnd01(&seed);
				ev = DFRS_EVENT_ARRIVAL;
			}
		}
		if (dfrs_online_decide(&par, &f.cl, ev, arrived, &d, err, sizeof(err)))
			fail_msg("%s step %d: %s", dfrs_online_policy_name(pol), step, err);
		if (ev == DFRS_EVENT_ARRIVAL) {	/* one arrival: the same either way */
			dfrs_decisions_t one;

			if (dfrs_online_decide_arrivals(&par, &f.cl, &arrived, 1,
							&one, err, sizeof(err)))
				fail_msg("step %d: %s", step, err);
			for (int j = 0; j < f.cl.njobs; j++) {
				assert_int_equal(one.job[j].state, d.job[j].state);
				assert_memory_equal(one.job[j].hosts, d.job[j].hosts,
						    sizeof(int) * f.jobs[j].shape.ntasks);
				assert_true(one.job[j].yield == d.job[j].yield);
			}
			dfrs_decisions_free(&one);
		}
		check_invariants(&f, &d, minvt, pol);
		suspensions += d.nsuspended;
		*migrations += d.nmigrated;
		dfrs_online_apply(&f.cl, &d);
		dfrs_decisions_free(&d);
	}
	assert_true(narrived > 20);
	return suspensions;
}

static void test_random_sequences(void **state)
{
	int susp[3] = { 0 }, mig[3] = { 0 };

	for (uint64_t s = 1; s <= 4; s++)
		for (int p = 0; p < 3; p++)
			susp[p] += run_random((dfrs_policy_t)p, s, &mig[p]);
	print_message("suspensions/migrations: greedyp %d/%d greedypm %d/%d mcb %d/%d\n",
		      susp[0], mig[0], susp[1], mig[1], susp[2], mig[2]);
	/* the sequences are loaded enough to exercise preemption */
	assert_true(susp[0] > 0 && susp[1] > 0 && susp[2] > 0);
	assert_int_equal(mig[0], 0);
	assert_true(mig[1] > 0 && mig[2] > 0);
}

/* ---- the site's rules (dfrs_online.h, "The site's rules") ------------------ */

/* The pairwise predicate of the tests: refuse[p][v] nonzero refuses
 * preemptor p the victim v; calls counts the calls. */
typedef struct {
	unsigned char refuse[MAXJ][MAXJ];
	int calls;
} pair_rule_t;

static int pair_may(const void *ctx, size_t preemptor, size_t victim)
{
	pair_rule_t *r = (pair_rule_t *)ctx;

	r->calls++;
	return !r->refuse[preemptor][victim];
}

/*
 * Two full hosts: R1 on host 0 (virtual time 1000: the lowest priority
 * under 1/vt) and R2 on host 1 (500), each 0.6 of memory; a new job N of
 * 0.6.  Without rules GreedyP(M) takes R1 off host 0.
 */
static void setup_two_victims(online_fixture_t *f)
{
	online_fixture_init(f, 2, 5000);
	online_fixture_add(f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, 1000, (int[]){ 0 });	/* R1 */
	online_fixture_add(f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, 500, (int[]){ 1 });	/* R2 */
	online_fixture_add(f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);		/* N */
}

/* A job the site protects is never a victim: the next one is taken. */
static void test_rules_no_preempt_greedy(void **state)
{
	for (int pol = DFRS_POLICY_GREEDYP; pol <= DFRS_POLICY_GREEDYPM; pol++) {
		online_fixture_t f;
		dfrs_decisions_t d;

		setup_two_victims(&f);
		d = decide(&f, (dfrs_policy_t)pol, 600, DFRS_EVENT_ARRIVAL, 2);
		assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[2].hosts[0], 0);
		dfrs_decisions_free(&d);

		f.jobs[0].no_preempt = 1;
		d = decide(&f, (dfrs_policy_t)pol, 600, DFRS_EVENT_ARRIVAL, 2);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[0].state, DFRS_JOB_RUNNING);
		assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[2].hosts[0], 1);
		assert_int_equal(d.nsuspended, 1);
		dfrs_decisions_free(&d);

		/* both protected: N waits, nothing is suspended */
		f.jobs[1].no_preempt = 1;
		d = decide(&f, (dfrs_policy_t)pol, 600, DFRS_EVENT_PERIODIC, -1);
		assert_int_equal(d.job[2].state, DFRS_JOB_PENDING);
		assert_int_equal(d.nsuspended, 0);
		assert_int_equal(d.nmigrated, 0);
		dfrs_decisions_free(&d);
	}
}

/* The pairwise rule refuses N the first victim: the second is taken; both
 * refused, N waits and nothing is suspended. */
static void test_rules_pairwise_greedy(void **state)
{
	for (int pol = DFRS_POLICY_GREEDYP; pol <= DFRS_POLICY_GREEDYPM; pol++) {
		pair_rule_t rule = { 0 };
		online_fixture_t f;
		dfrs_decisions_t d;

		setup_two_victims(&f);
		f.cl.may_preempt = pair_may;
		f.cl.preempt_ctx = &rule;
		rule.refuse[2][0] = 1;
		d = decide(&f, (dfrs_policy_t)pol, 600, DFRS_EVENT_ARRIVAL, 2);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[2].hosts[0], 1);
		assert_true(rule.calls > 0);
		dfrs_decisions_free(&d);

		rule.refuse[2][1] = 1;
		d = decide(&f, (dfrs_policy_t)pol, 600, DFRS_EVENT_ARRIVAL, 2);
		assert_int_equal(d.job[2].state, DFRS_JOB_PENDING);
		assert_int_equal(d.nsuspended, 0);
		dfrs_decisions_free(&d);
	}
}

/*
 * One host: A (1/100) and B (1/200, the lowest) running, 0.5 of memory
 * each; C new.  Without rules MCB drops B (test_mcb_drops_lowest_priority).
 * B protected, or refused to C by the pairwise rule, stays: A goes.
 */
static void setup_mcb_three(online_fixture_t *f)
{
	online_fixture_init(f, 1, 1000);
	online_fixture_add(f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 100, (int[]){ 0 });	/* A */
	online_fixture_add(f, 1, 0.5, 1.0, DFRS_JOB_RUNNING, 200, (int[]){ 0 });	/* B */
	online_fixture_add(f, 1, 0.5, 1.0, DFRS_JOB_PENDING, 0, NULL);		/* C */
}

static void test_rules_mcb(void **state)
{
	pair_rule_t rule = { 0 };
	online_fixture_t f;
	dfrs_decisions_t d;

	setup_mcb_three(&f);
	f.jobs[1].no_preempt = 1;
	d = decide(&f, DFRS_POLICY_MCB, 0, DFRS_EVENT_ARRIVAL, 2);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	assert_int_equal(d.job[1].rank, 0);	/* ranked first */
	dfrs_decisions_free(&d);

	setup_mcb_three(&f);
	f.cl.may_preempt = pair_may;
	f.cl.preempt_ctx = &rule;
	rule.refuse[2][1] = 1;
	d = decide(&f, DFRS_POLICY_MCB, 0, DFRS_EVENT_ARRIVAL, 2);
	assert_int_equal(d.job[0].action, DFRS_ACT_SUSPEND);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	dfrs_decisions_free(&d);

	/* C may preempt neither: both stay, C waits */
	rule.refuse[2][0] = 1;
	d = decide(&f, DFRS_POLICY_MCB, 0, DFRS_EVENT_ARRIVAL, 2);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[1].action, DFRS_ACT_NONE);
	assert_int_equal(d.job[2].state, DFRS_JOB_PENDING);
	assert_int_equal(d.nsuspended, 0);
	dfrs_decisions_free(&d);
}

/* A repack moves no protected job: two CPU-bound jobs share host 0 while
 * host 1 idles (test_mcb_rebalances_unless_minvt: one moves); both
 * protected, none moves, under MCB and greedypm's periodic repack. */
static void test_rules_mcb_pins(void **state)
{
	online_fixture_t f;
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 1000);
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, (int[]){ 0 });
	online_fixture_add(&f, 1, 0.2, 1.0, DFRS_JOB_RUNNING, 700, (int[]){ 0 });
	f.jobs[0].no_preempt = f.jobs[1].no_preempt = 1;
	d = decide(&f, DFRS_POLICY_MCB, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 0);
	assert_int_equal(d.job[0].hosts[0], 0);
	assert_int_equal(d.job[1].hosts[0], 0);
	dfrs_decisions_free(&d);
	d = decide(&f, DFRS_POLICY_GREEDYPM, 600, DFRS_EVENT_PERIODIC, -1);
	assert_int_equal(d.nmigrated, 0);
	dfrs_decisions_free(&d);
}

/*
 * Licenses: two hosts full (R1, R2 of 0.6 memory), two new jobs of 0.6
 * each asking for one `lic`, one free.  Without the pool each new job
 * takes a running one off (test_arrivals_decided_together); with it the
 * first starts and the second, whose license is taken, takes no victim.
 */
static void test_rules_licenses_greedy(void **state)
{
	const rules_lic_req_t one = { .lic = 0, .count = 1 };
	int both[] = { 2, 3 }, free_lic[] = { 1 };

	for (int pol = DFRS_POLICY_GREEDYP; pol <= DFRS_POLICY_GREEDYPM; pol++) {
		online_fixture_t f;
		dfrs_decisions_t d;

		online_fixture_init(&f, 2, 100);
		online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, 40, (int[]){ 0 });
		online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_RUNNING, 50, (int[]){ 1 });
		online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);
		online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);
		d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 2);
		assert_int_equal(d.nsuspended, 2);
		dfrs_decisions_free(&d);

		f.jobs[2].lic = f.jobs[3].lic = &one;
		f.jobs[2].nlic = f.jobs[3].nlic = 1;
		f.cl.lic_free = free_lic;
		f.cl.nlic = 1;
		d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 2);
		assert_int_equal(d.job[2].action, DFRS_ACT_START);
		assert_int_equal(d.job[2].hosts[0], 1);
		assert_int_equal(d.job[1].action, DFRS_ACT_SUSPEND);
		assert_int_equal(d.job[0].action, DFRS_ACT_NONE);
		assert_int_equal(d.job[3].state, DFRS_JOB_PENDING);
		assert_int_equal(d.nstarted, 1);
		assert_int_equal(d.nsuspended, 1);
		dfrs_decisions_free(&d);

		/* none free: neither starts nor takes a victim */
		free_lic[0] = 0;
		d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 2);
		assert_int_equal(d.nstarted, 0);
		assert_int_equal(d.nsuspended, 0);
		dfrs_decisions_free(&d);
		free_lic[0] = 1;

		/* held by a reservation the job may not use: the same */
		{
			const rules_lic_req_t away = { .lic = 0, .count = 1,
						      .held_away = 1 };

			f.jobs[2].lic = f.jobs[3].lic = &away;
			d = decide_arrivals(&f, (dfrs_policy_t)pol, both, 2);
			assert_int_equal(d.nstarted, 0);
			assert_int_equal(d.nsuspended, 0);
			dfrs_decisions_free(&d);
		}
	}
}

/*
 * MCB: one host of memory 1; new N1, N2 asking for `lic` (one free) and N3
 * asking for none, 0.5 each, N1 first.  Without the pool MCB keeps N1 and
 * N2; with it N2 is left out and the kept jobs go on past it: N1 and N3.
 * A running job R of the lowest priority in place of N3: without the pool
 * N1 and N2 take its room, with it R stays.
 */
static void test_rules_licenses_mcb(void **state)
{
	const rules_lic_req_t one = { .lic = 0, .count = 1 };
	int free_lic[] = { 1 }, all[] = { 0, 1, 2 };
	online_fixture_t f;
	dfrs_decisions_t d;

	online_fixture_init(&f, 1, 100);
	for (int i = 0; i < 3; i++) {
		online_fixture_add(&f, 1, 0.5, 0.5, DFRS_JOB_PENDING, 0, NULL);
		f.jobs[i].submit = i;
	}
	d = decide_arrivals(&f, DFRS_POLICY_MCB, all, 3);
	assert_int_equal(d.job[0].action, DFRS_ACT_START);
	assert_int_equal(d.job[1].action, DFRS_ACT_START);
	assert_int_equal(d.job[2].state, DFRS_JOB_PENDING);
	dfrs_decisions_free(&d);

	f.jobs[0].lic = f.jobs[1].lic = &one;
	f.jobs[0].nlic = f.jobs[1].nlic = 1;
	f.cl.lic_free = free_lic;
	f.cl.nlic = 1;
	d = decide_arrivals(&f, DFRS_POLICY_MCB, all, 3);
	assert_int_equal(d.job[0].action, DFRS_ACT_START);
	assert_int_equal(d.job[1].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	dfrs_decisions_free(&d);

	/* R running in N3's place */
	f.jobs[2].state = DFRS_JOB_RUNNING;
	f.jobs[2].hosts[0] = 0;
	f.jobs[2].virtual_time = 50;
	f.cl.lic_free = NULL;
	f.cl.nlic = 0;
	f.jobs[0].nlic = f.jobs[1].nlic = 0;
	d = decide_arrivals(&f, DFRS_POLICY_MCB, all, 2);
	assert_int_equal(d.job[2].action, DFRS_ACT_SUSPEND);
	dfrs_decisions_free(&d);
	f.jobs[0].nlic = f.jobs[1].nlic = 1;
	f.cl.lic_free = free_lic;
	f.cl.nlic = 1;
	d = decide_arrivals(&f, DFRS_POLICY_MCB, all, 2);
	assert_int_equal(d.job[0].action, DFRS_ACT_START);
	assert_int_equal(d.job[1].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[2].action, DFRS_ACT_NONE);
	assert_int_equal(d.nsuspended, 0);
	dfrs_decisions_free(&d);

	/* a request naming no license of the pool never fits */
	f.jobs[2].state = DFRS_JOB_PENDING;
	f.jobs[0].lic = &(rules_lic_req_t){ .lic = 3, .count = 1 };
	d = decide_arrivals(&f, DFRS_POLICY_MCB, all, 3);
	assert_int_equal(d.job[0].state, DFRS_JOB_PENDING);
	assert_int_equal(d.job[1].action, DFRS_ACT_START);
	assert_int_equal(d.job[2].action, DFRS_ACT_START);
	dfrs_decisions_free(&d);
}

/* Several decisions at one moment (live: completion, arrivals, periodic in
 * one cycle): the starts of one take their licenses from the pool the
 * next sees (dfrs_online_take_licenses); a job running since keeps its
 * own, and a job it suspends returns none. */
static void test_rules_licenses_across_decisions(void **state)
{
	const rules_lic_req_t one = { .lic = 0, .count = 1 };
	int free_lic[] = { 1 };
	online_fixture_t f;
	dfrs_decisions_t d;

	online_fixture_init(&f, 2, 100);
	online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);	/* A */
	f.jobs[0].lic = &one;
	f.jobs[0].nlic = 1;
	f.cl.lic_free = free_lic;
	f.cl.nlic = 1;
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_COMPLETION, -1);
	assert_int_equal(d.job[0].action, DFRS_ACT_START);
	dfrs_online_take_licenses(&f.cl, &d, free_lic);
	assert_int_equal(free_lic[0], 0);
	dfrs_online_apply(&f.cl, &d);
	dfrs_decisions_free(&d);

	online_fixture_add(&f, 1, 0.6, 0.5, DFRS_JOB_PENDING, 0, NULL);	/* B */
	f.jobs[1].lic = &one;
	f.jobs[1].nlic = 1;
	d = decide(&f, DFRS_POLICY_GREEDYP, 600, DFRS_EVENT_ARRIVAL, 1);
	assert_int_equal(d.job[0].action, DFRS_ACT_NONE);	/* A keeps it */
	assert_int_equal(d.job[1].state, DFRS_JOB_PENDING);
	assert_int_equal(d.nsuspended, 0);
	dfrs_online_take_licenses(&f.cl, &d, free_lic);
	assert_int_equal(free_lic[0], 0);
	dfrs_decisions_free(&d);
}

/* A pool asking nothing of anyone and a predicate allowing everything
 * decide as no rules at all, under each policy, at each event. */
static void test_rules_none_changes_nothing(void **state)
{
	int free_lic[] = { 5 };

	for (int pol = 0; pol < 3; pol++)
		for (int ev = 0; ev < 3; ev++) {
			pair_rule_t allow = { 0 };
			online_fixture_t f;
			dfrs_decisions_t a, b;

			setup_victim(&f);
			a = decide(&f, (dfrs_policy_t)pol, 600, (dfrs_event_t)ev,
				   ev == DFRS_EVENT_ARRIVAL ? 4 : -1);
			f.cl.lic_free = free_lic;
			f.cl.nlic = 1;
			f.cl.may_preempt = pair_may;
			f.cl.preempt_ctx = &allow;
			b = decide(&f, (dfrs_policy_t)pol, 600, (dfrs_event_t)ev,
				   ev == DFRS_EVENT_ARRIVAL ? 4 : -1);
			assert_int_equal(a.nsuspended + a.nmigrated + a.nstarted,
					 b.nsuspended + b.nmigrated + b.nstarted);
			for (int j = 0; j < f.cl.njobs; j++) {
				assert_int_equal(a.job[j].action, b.job[j].action);
				assert_int_equal(a.job[j].rank, b.job[j].rank);
				for (int t = 0; t < f.jobs[j].shape.ntasks; t++)
					assert_int_equal(a.job[j].hosts[t],
							 b.job[j].hosts[t]);
			}
			dfrs_decisions_free(&a);
			dfrs_decisions_free(&b);
		}
}

/* License requests or a pool announced but not given: one message. */
static void test_rules_bad_state(void **state)
{
	dfrs_online_params_t par;
	dfrs_decisions_t d;
	char err[128] = "";
	online_fixture_t f;

	setup_two_victims(&f);
	dfrs_online_params_default(&par, DFRS_POLICY_GREEDYP);
	f.jobs[2].nlic = 2;
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL, 2,
					    &d, err, sizeof(err)), -1);
	assert_string_equal(err, "job 102: 2 license requests, none given");
	f.jobs[2].nlic = 0;
	f.cl.nlic = 1;
	assert_int_equal(dfrs_online_decide(&par, &f.cl, DFRS_EVENT_ARRIVAL, 2,
					    &d, err, sizeof(err)), -1);
	assert_string_equal(err, "license pool of 1, none given");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_greedyp_places_on_least_loaded),
		cmocka_unit_test(test_room_failures_forgotten_when_hosts_change),
		cmocka_unit_test(test_place_least_loaded_index_matches_scan),
		cmocka_unit_test(test_greedyp_suspends_lower_priority),
		cmocka_unit_test(test_greedyp_suspends_only_what_it_must),
		cmocka_unit_test(test_greedypm_migrates_victim_after_minvt),
		cmocka_unit_test(test_greedypm_never_migrates_below_minvt),
		cmocka_unit_test(test_resume_same_host_or_migrate),
		cmocka_unit_test(test_elementary_amounts_online),
		cmocka_unit_test(test_mcb_drops_lowest_priority),
		cmocka_unit_test(test_rank_hints_change_nothing),
		cmocka_unit_test(test_mcb_rebalances_unless_minvt),
		cmocka_unit_test(test_mcb_keeps_hosts_when_it_can),
		cmocka_unit_test(test_failed_migration_keeps_hosts),
		cmocka_unit_test(test_requeue_loses_progress_unless_checkpointable),
		cmocka_unit_test(test_requeue_rotation_spares_running_jobs),
		cmocka_unit_test(test_requeue_repack_keeps_running_jobs),
		cmocka_unit_test(test_requeue_restarts_anywhere),
		cmocka_unit_test(test_requeue_running_job_ahead_of_new_ones),
		cmocka_unit_test(test_requeue_cap),
		cmocka_unit_test(test_requeue_takes_the_cheapest_victim),
		cmocka_unit_test(test_requeue_starving_job_claims_room),
		cmocka_unit_test(test_requeue_starving_job_stays),
		cmocka_unit_test(test_requeue_starving_job_keeps_its_room),
		cmocka_unit_test(test_repair_keeps_packing_within_drift),
		cmocka_unit_test(test_repair_admits_arrival),
		cmocka_unit_test(test_repair_rotates_at_periodic_events),
		cmocka_unit_test(test_cost_apply_advance),
		cmocka_unit_test(test_unchanged_hosts_shared),
		cmocka_unit_test(test_bad_state),
		cmocka_unit_test(test_arrivals_decided_together),
		cmocka_unit_test(test_random_sequences),
		cmocka_unit_test(test_rules_no_preempt_greedy),
		cmocka_unit_test(test_rules_pairwise_greedy),
		cmocka_unit_test(test_rules_mcb),
		cmocka_unit_test(test_rules_mcb_pins),
		cmocka_unit_test(test_rules_licenses_greedy),
		cmocka_unit_test(test_rules_licenses_mcb),
		cmocka_unit_test(test_rules_licenses_across_decisions),
		cmocka_unit_test(test_rules_none_changes_nothing),
		cmocka_unit_test(test_rules_bad_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
