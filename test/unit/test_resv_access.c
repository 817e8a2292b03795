/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_resv_access.c - advanced reservations as the engines see them:
 * the nodes a member and an outsider may use now (Slurm's job_test_resv()
 * rules, amcbf/resv_access.h), then single CMBF calls on those masks: an
 * outsider starts on a free unreserved node, never preempts a member for
 * a reserved node, and its EASY-style reservation (cfg->reserve) does not
 * hold back members on nodes it may not use.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sched/sched_engine.h"
#include "sched/sched_policy.h"
#include "amcbf/resv_access.h"

/* Four nodes, all allowed to begin with. */
#define NN 4
static void all(unsigned char *mask)
{
	memset(mask, 1, NN);
}

static void assert_mask(const unsigned char *mask, unsigned char a,
			unsigned char b, unsigned char c, unsigned char d)
{
	assert_int_equal(mask[0], a);
	assert_int_equal(mask[1], b);
	assert_int_equal(mask[2], c);
	assert_int_equal(mask[3], d);
}

/* R holds n1-n2 from 1000 to 2000, whole nodes. */
static const unsigned char r_nodes[NN] = { 1, 1, 0, 0 };
static const unsigned char part_all[NN] = { 1, 1, 1, 1 };

static resv_access_resv_t resv_r(void)
{
	return (resv_access_resv_t){ .start = 1000, .held_from = 1000,
				     .end = 2000, .nodes = r_nodes, .part = -1,
				     .flags = RESV_ACCESS_WHOLE };
}

static void test_member(void **state)
{
	resv_access_resv_t r = resv_r();
	resv_access_job_t job = { .member = 0, .duration = 60,
				  .part_nodes = part_all };
	unsigned char mask[NN];

	(void)state;
	/* before its start: nothing, whatever it asked */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 999, mask),
			 RESV_ACCESS_NOT_YET);
	assert_mask(mask, 0, 0, 0, 0);
	/* while it runs: its nodes only, and only those still allowed */
	all(mask);
	mask[1] = 0;
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1000, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 0, 0, 0);
	/* a run past its end is Slurm's to cut (ResvOverRun), not refused */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1990, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 0, 0);
	/* after it ended */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 2001, mask),
			 RESV_ACCESS_ENDED);
	assert_mask(mask, 0, 0, 0, 0);
	/* FLEX: any node, before its start too */
	r.flags |= RESV_ACCESS_FLEX;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 1);
	/* ANY_NODES: any node, within its window */
	r.flags = RESV_ACCESS_ANY_NODES;
	r.nodes = NULL;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 1);
	/* no node and not ANY_NODES: treated as not started, as Slurm */
	r.flags = RESV_ACCESS_WHOLE;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_NOT_YET);
	assert_mask(mask, 0, 0, 0, 0);
	/* bad input: a reservation that is not there */
	job.member = 1;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_BAD);
	assert_mask(mask, 1, 1, 1, 1);
}

static void test_outsider(void **state)
{
	resv_access_resv_t r = resv_r();
	resv_access_job_t job = { .member = -1, .duration = 300,
				  .part_nodes = part_all };
	unsigned char mask[NN];

	(void)state;
	/* ends before R starts (600 + 300 <= 1000): every node */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 600, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 1);
	/* would still run at R's start: not R's nodes */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 701, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
	/* no time limit: a year, so R's nodes never */
	job.duration = -1;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 0, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
	/* after R ended: every node */
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 2000, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 1);
	/* a reservation of some cores keeps it off the whole node */
	r.flags = 0;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
	/* a repeating reservation holds its nodes from its first start */
	r.flags = RESV_ACCESS_WHOLE;
	r.held_from = 100;
	job.duration = 10;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
}

static void test_outsider_shut_out(void **state)
{
	static const unsigned char part_12[NN] = { 1, 1, 0, 0 };
	resv_access_resv_t r = resv_r();
	resv_access_job_t job = { .member = -1, .duration = 60, .part = 2,
				  .part_nodes = part_all };
	unsigned char mask[NN];

	(void)state;
	/* ALL_NODES: no node at all while it runs */
	r.flags |= RESV_ACCESS_ALL_NODES;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_SHUT_OUT);
	assert_mask(mask, 0, 0, 0, 0);
	/* PART_NODES of another partition: only its nodes; of its own: none */
	r.flags = RESV_ACCESS_WHOLE | RESV_ACCESS_PART_NODES;
	r.part = 1;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
	r.part = 2;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_SHUT_OUT);
	assert_mask(mask, 0, 0, 0, 0);
	/* MAINT: none if it covers the job's partition, else its nodes */
	r.flags = RESV_ACCESS_WHOLE | RESV_ACCESS_MAINT;
	r.part = -1;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 0, 0, 1, 1);
	job.part_nodes = part_12;
	all(mask);
	assert_int_equal(resv_access_mask(&r, 1, NN, &job, 1500, mask),
			 RESV_ACCESS_SHUT_OUT);
	assert_mask(mask, 0, 0, 0, 0);
}

/* A member keeps off the nodes of another reservation overlapping its run,
 * unless its own is MAINT, or OVERLAP and the other is not MAINT. */
static void test_member_overlap(void **state)
{
	static const unsigned char big[NN] = { 1, 1, 1, 0 };
	static const unsigned char n2[NN] = { 0, 1, 0, 0 };
	resv_access_resv_t r[2] = {
		{ .start = 1000, .held_from = 1000, .end = 2000, .nodes = big,
		  .part = -1, .flags = RESV_ACCESS_WHOLE },
		{ .start = 1100, .held_from = 1100, .end = 1200, .nodes = n2,
		  .part = -1, .flags = RESV_ACCESS_WHOLE },
	};
	resv_access_job_t job = { .member = 0, .duration = 60,
				  .part_nodes = part_all };
	unsigned char mask[NN];

	(void)state;
	/* 1000 + 60 < 1100: the other does not overlap */
	all(mask);
	assert_int_equal(resv_access_mask(r, 2, NN, &job, 1000, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 0);
	all(mask);
	assert_int_equal(resv_access_mask(r, 2, NN, &job, 1050, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 0, 1, 0);
	r[0].flags |= RESV_ACCESS_OVERLAP;
	all(mask);
	assert_int_equal(resv_access_mask(r, 2, NN, &job, 1050, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 0);
	r[1].flags |= RESV_ACCESS_MAINT;
	all(mask);
	assert_int_equal(resv_access_mask(r, 2, NN, &job, 1050, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 0, 1, 0);
	r[0].flags = RESV_ACCESS_WHOLE | RESV_ACCESS_MAINT;
	all(mask);
	assert_int_equal(resv_access_mask(r, 2, NN, &job, 1050, mask),
			 RESV_ACCESS_OK);
	assert_mask(mask, 1, 1, 1, 0);
}

/* --- the engine on those masks: three nodes, R holds P1-P2 ------------- */

typedef struct {
	sched_state_t st;
	sched_node_t nodes[3];
	sched_job_t jobs[6];
	int alloc[6][3];
	double util[6][3];
	unsigned char mask[6][3];
} map_t;

static const unsigned char p12[3] = { 1, 1, 0 };
static const resv_access_resv_t engine_r = {
	.start = 0, .held_from = 0, .end = 3600, .nodes = p12, .part = -1,
	.flags = RESV_ACCESS_WHOLE };

/* Append a job in arrival order, a member of R or not, running on node
 * `on` in fg or queued (on < 0); its mask as resv_access gives it. */
static void map_job(map_t *m, int member, int on, double estimate)
{
	size_t j = m->st.njobs++;
	sched_job_t *job = &m->jobs[j];
	resv_access_job_t rj = { .member = member ? 0 : -1,
				 .duration = estimate, .part_nodes = NULL };

	memset(m->mask[j], 1, 3);
	assert_int_equal(resv_access_mask(&engine_r, 1, 3, &rj, 0,
					  m->mask[j]), RESV_ACCESS_OK);
	m->util[j][0] = 1;
	*job = (sched_job_t){ .id = (long)j + 1, .nodes = 1,
			      .util = m->util[j], .estimate = estimate,
			      .where = on < 0 ? SCHED_QUEUED : SCHED_RUNNING_FG,
			      .alloc = m->alloc[j], .allowed = m->mask[j] };
	if (on >= 0) {
		job->alloc[0] = on;
		m->nodes[on].fg_job = (int)j;
		m->nodes[on].fg_proc = 0;
	}
}

static void map_init(map_t *m)
{
	memset(m, 0, sizeof(*m));
	m->st.nnodes = 3;
	m->st.nodes = m->nodes;
	m->st.jobs = m->jobs;
	for (int n = 0; n < 3; n++)
		m->nodes[n] = (sched_node_t){ -1, -1, -1, -1 };
}

/* An outsider on three idle nodes starts on the unreserved P3 (it used to
 * be given P1, which Slurm refused, every cycle). */
static void test_engine_outsider_starts(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };

	(void)state;
	sched_config_paper(&cfg);
	map_init(&m);
	map_job(&m, 0, -1, 60);
	assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_ARRIVAL, &d), 0);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.items[0].action, SCHED_START);
	assert_int_equal(d.items[0].job_id, 1);
	assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 2);
	sched_decisions_free(&d);
}

/*
 * J1 (outsider) runs on P3; J2 (outsider) waits; J3, J4 (members, later)
 * run on P1, P2.  CMBF preempts later jobs for an earlier one: without
 * its mask J2 would requeue J4 and be given P2, which Slurm refuses; with
 * it nobody is preempted and nothing starts.
 */
static void test_engine_no_victim_in_resv(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };

	(void)state;
	sched_config_paper(&cfg);
	for (int masked = 0; masked <= 1; masked++) {
		map_init(&m);
		map_job(&m, 0, 2, 60);		/* J1 on P3 */
		map_job(&m, 0, -1, 60);		/* J2 */
		map_job(&m, 1, 0, 120);		/* J3 on P1 */
		map_job(&m, 1, 1, 120);		/* J4 on P2 */
		if (!masked)
			m.jobs[1].allowed = NULL;
		sched_decisions_clear(&d);
		assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE,
					    &d), 0);
		if (masked) {
			assert_int_equal(d.count, 0);
			assert_int_equal(m.jobs[1].where, SCHED_QUEUED);
			continue;
		}
		assert_int_equal(d.count, 2);
		assert_int_equal(d.items[0].action, SCHED_REQUEUE);
		assert_int_equal(d.items[0].job_id, 4);
		assert_int_equal(d.items[1].action, SCHED_START);
		assert_int_equal(d.items[1].job_id, 2);
		assert_int_equal(sched_decision_nodes(&d, &d.items[1])[0], 1);
	}
	sched_decisions_free(&d);
}

/*
 * With cfg->reserve: J1 (outsider, 60 s) runs on P3; J2 (outsider) waits
 * for P3 and is the head, shadow time 60, no extra node; J3, J4 (members,
 * 120 s, later) would end after it, but they may use P1, P2 only, which J2
 * may not: they start there.  An outsider J5 (120 s) may not: it waits.
 */
static void test_engine_head_apart(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };

	(void)state;
	sched_config_paper(&cfg);
	cfg.reserve = 1;
	map_init(&m);
	map_job(&m, 0, 2, 60);		/* J1 on P3 */
	m.jobs[0].started = 0;
	map_job(&m, 0, -1, 60);		/* J2 */
	map_job(&m, 1, -1, 120);	/* J3 */
	map_job(&m, 1, -1, 120);	/* J4 */
	map_job(&m, 0, -1, 120);	/* J5 */
	assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d), 0);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.items[0].action, SCHED_START);
	assert_int_equal(d.items[0].job_id, 3);
	assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 0);
	assert_int_equal(d.items[1].action, SCHED_START);
	assert_int_equal(d.items[1].job_id, 4);
	assert_int_equal(sched_decision_nodes(&d, &d.items[1])[0], 1);
	assert_int_equal(m.jobs[1].where, SCHED_QUEUED);
	assert_int_equal(m.jobs[4].where, SCHED_QUEUED);
	sched_decisions_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_member),
		cmocka_unit_test(test_outsider),
		cmocka_unit_test(test_outsider_shut_out),
		cmocka_unit_test(test_member_overlap),
		cmocka_unit_test(test_engine_outsider_starts),
		cmocka_unit_test(test_engine_no_victim_in_resv),
		cmocka_unit_test(test_engine_head_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
