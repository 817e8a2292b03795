/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_consolidation.c - hand-worked schedules of Liu et al.'s Fig. 1
 * (CMBF, AMBF; and FCFS, EASY on the same jobs) and Fig. 2 (CMCBF, AMCBF),
 * replayed through the simulator with the figures' assumptions (no
 * overhead, bg at full speed, free migrations), plus decision-level checks
 * of single engine calls.  The expected times are worked out in the
 * comments; doc/simulator.md walks through them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "sched/sched_engine.h"
#include "sched/sched_policy.h"
#include "sched/sched_rules.h"
#include "sim/sim_engine.h"
#include "sim/sim_workload.h"
#include "sim_fixture.h"

/* Replay under the figures' model (no overhead, free migrations). */
static void replay(const char *policy, int nnodes, const job_spec_t *spec,
		   size_t n, const expect_t *want)
{
	sim_model_t m;
	sim_result_t r;

	fixture_ideal_model(&m);
	fixture_replay(policy, nnodes, spec, n, &m, want, &r);
	sim_result_free(&r);
}

/*
 * Fig. 1: six nodes, J_i(size, length) all queued at 0:
 * J1(1,20) J2(2,5) J3(6,5) J4(4,5) J5(2,15) J6(1,10) (fixture_fig1).
 */

/*
 * CMBF: t=0 J1, J2 start; J3 (6) and J4 (4) do not fit on 3 idle nodes and
 * no later job runs yet; J5 and J6 are backfilled.  t=5 J2 ends: J3 sees
 * 2 idle + 3 later (J5, J6) < 6; J4 sees 2 + 3 >= 4: J6 then J5 are
 * collected, J5 alone is enough, so only J5 is suspended and J4 starts.
 * t=10 J4 and J6 end: J3 (6) still cannot run, J5 resumes (a migration).
 * t=20 J1 and J5 end, J3 runs 20-25.
 */
static void test_fig1_cmbf(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 5, 10, 0, 0 }, { 0, 20, 1, 1 }, { 0, 10, 0, 0 },
	};
	replay("cmbf", 6, fixture_fig1, 6, want);
}

/*
 * AMBF: as CMBF at 0; at 5 only the head (J3) may preempt and it cannot, so
 * J4 waits for idle nodes: J5 ends at 15, J4 runs 15-20, J3 20-25.
 */
static void test_fig1_ambf(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 15, 20, 0, 0 }, { 0, 15, 0, 0 }, { 0, 10, 0, 0 },
	};
	replay("ambf", 6, fixture_fig1, 6, want);
}

/*
 * EASY with exact runtimes: J3's reservation is at 20 (J1's end) with no
 * extra node; J5 (ends 15) and J6 (ends 10) backfill at 0; J4 (4 nodes)
 * fits only at 15, ends 20 <= shadow: same schedule as AMBF.
 */
static void test_fig1_easy(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 15, 20, 0, 0 }, { 0, 15, 0, 0 }, { 0, 10, 0, 0 },
	};
	replay("easy", 6, fixture_fig1, 6, want);
}

/*
 * EASY when running jobs end together: four nodes, J1(1,10) J2(2,10)
 * J3(2,5) J4(1,20).  J1 and J2 start; J3 waits for the shadow time 10,
 * when J1 and J2 both end: 1 + 1 + 2 nodes, 2 of them extra, so J4 (ends
 * at 20, past the shadow time) backfills at 0 on the idle node.  Counting
 * only the first of the jobs ending at 10 would leave no extra node (the
 * live comparison found that against Slurm's backfill).
 */
static void test_easy_shadow_tie(void **state)
{
	static const job_spec_t jobs[] = {
		{ 1, 10, { 0 } }, { 2, 10, { 0 } }, { 2, 5, { 0 } },
		{ 1, 20, { 0 } },
	};
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 10, 0, 0 }, { 10, 15, 0, 0 },
		{ 0, 20, 0, 0 },
	};
	replay("easy", 4, jobs, 4, want);
}

/*
 * Conservative backfilling with exact runtimes: every queued job holds a
 * reservation.  At 0: J1 and J2 start, J3 is reserved at 20-25, J4 at 5-10
 * (5 nodes free then), J5 (2 nodes for 15 s) finds no gap before J3's
 * reservation and is reserved at 25, J6 fits beside J1 and J2 until J4's
 * reservation: it starts at 0.  J4 starts at 5, J3 at 20, J5 at 25: J5
 * may not delay J3, as it does under EASY (starting at 0, ending at 15).
 */
static void test_fig1_conservative(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 5, 10, 0, 0 }, { 25, 40, 0, 0 }, { 0, 10, 0, 0 },
	};
	replay("conservative", 6, fixture_fig1, 6, want);
}

/*
 * FCFS: J3 blocks the queue until 20; then J4 and J5 at 25 (J3's end), J6
 * when J4 ends at 30.
 */
static void test_fig1_fcfs(void **state)
{
	static const expect_t want[] = {
		{ 0, 20, 0, 0 }, { 0, 5, 0, 0 }, { 20, 25, 0, 0 },
		{ 25, 30, 0, 0 }, { 25, 40, 0, 0 }, { 30, 40, 0, 0 },
	};
	replay("fcfs", 6, fixture_fig1, 6, want);
}

/*
 * Fig. 2: five nodes, all ten jobs queued at 0.  Single-process jobs use
 * 100 % CPU (no bg beside them), the others less than 96 %.  J2's two
 * processes use 90 % and 50 % so that, as in the figure, J4's bg processes
 * land on P3-P5 (lowest fg load first) and J5's on P2.
 *   J1(1,10,100%) J2(2,5) J3(2,10) J4(3,10) J5(1,25,100%) J6(1,15,100%)
 *   J7(2,8) J8(5,10) J9(4,5) J10(1,20,100%)
 * t=0  fg: J1 P1, J2 P2-P3, J3 P4-P5; bg: J4 P3-P5, J5 P2.
 * t=5  J2 ends: J4 cannot get 3 fg nodes; J5 is promoted on P2 in place
 *      (weights swapped, no migration); J6 starts in fg on P3 and, at
 *      100 %, evicts J4 from bg; J7 takes the two bg slots left (P4-P5).
 * t=10 J1, J3 end: J4 resumes in fg on P1, P4, P5 (a migration); J10 in bg
 *      on P1 (the only bg slot left).
 * t=13 J7 ends (bg): J8 and J9 do not fit the bg slots.
 * t=15 J4 ends: J8 (5), J9 (4) cannot get 3 fg nodes; J10 is promoted in
 *      place on P1.
 * t=20 J6 ends.  CMCBF: J9 sees 3 idle + J10's node: J10 is switched to
 *      bg on P1 (no restart) and J9 runs 20-25 on P1, P3-P5; J10 ends in
 *      bg at 30 (5 s bg + 5 s fg + 10 s bg).  J8 starts at 25.
 *      AMCBF: only the head J8 may preempt, J9 waits; at 25 (J5 ends) J8
 *      takes 4 idle fg nodes plus J10's, J10 goes to bg, then J9 (now the
 *      head) gets the four bg slots beside J8 and runs 25-30.
 */
static const job_spec_t fig2[] = {
	{ 1, 10, { 1.0 } }, { 2, 5, { 0.9, 0.5 } }, { 2, 10, { 0 } },
	{ 3, 10, { 0 } }, { 1, 25, { 1.0 } }, { 1, 15, { 1.0 } },
	{ 2, 8, { 0 } }, { 5, 10, { 0 } }, { 4, 5, { 0 } },
	{ 1, 20, { 1.0 } },
};

static void test_fig2_cmcbf(void **state)
{
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 5, 0, 0 }, { 0, 10, 0, 0 },
		{ 0, 15, 1, 1 }, { 0, 25, 0, 0 }, { 5, 20, 0, 0 },
		{ 5, 13, 0, 0 }, { 25, 35, 0, 0 }, { 20, 25, 0, 0 },
		{ 10, 30, 0, 0 },
	};
	replay("cmcbf", 5, fig2, 10, want);
}

static void test_fig2_amcbf(void **state)
{
	static const expect_t want[] = {
		{ 0, 10, 0, 0 }, { 0, 5, 0, 0 }, { 0, 10, 0, 0 },
		{ 0, 15, 1, 1 }, { 0, 25, 0, 0 }, { 5, 20, 0, 0 },
		{ 5, 13, 0, 0 }, { 25, 35, 0, 0 }, { 25, 30, 0, 0 },
		{ 10, 30, 0, 0 },
	};
	replay("amcbf", 5, fig2, 10, want);
}

/* --- single engine calls on a hand-built allocation map ------------------ */

typedef struct {
	sched_state_t st;
	sched_node_t nodes[8];
	sched_job_t jobs[8];
	int alloc[8][8];
	double util[8][8];
} map_t;

static void map_init(map_t *m, int nnodes)
{
	memset(m, 0, sizeof(*m));
	m->st.nnodes = nnodes;
	m->st.nodes = m->nodes;
	m->st.jobs = m->jobs;
	for (int n = 0; n < nnodes; n++)
		m->nodes[n] = (sched_node_t){ -1, -1, -1, -1 };
}

/* Append job (arrival order), running on nodes[] in a tier or queued. */
static void map_job(map_t *m, int size, double util, sched_where_t where,
		    const int *nodes)
{
	size_t j = m->st.njobs++;
	sched_job_t *job = &m->jobs[j];
	for (int p = 0; p < size; p++)
		m->util[j][p] = util;
	*job = (sched_job_t){ .id = (long)j + 1, .nodes = size,
			      .util = m->util[j], .estimate = -1,
			      .where = where, .alloc = m->alloc[j] };
	for (int p = 0; p < size && where != SCHED_QUEUED; p++) {
		job->alloc[p] = nodes[p];
		sched_node_t *node = &m->nodes[nodes[p]];
		if (where == SCHED_RUNNING_FG) {
			node->fg_job = (int)j;
			node->fg_proc = p;
		} else {
			node->bg_job = (int)j;
			node->bg_proc = p;
		}
	}
}

/* Fig. 1 at t=5 under CMBF: exactly "suspend J5, start J4 on P2-P5". */
static void test_fig1_t5_decisions(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p1[] = { 0 }, p45[] = { 3, 4 }, p6[] = { 5 };

	sched_config_paper(&cfg);
	map_init(&m, 6);
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J1 */
	map_job(&m, 6, 1, SCHED_QUEUED, NULL);		/* J3 */
	map_job(&m, 4, 1, SCHED_QUEUED, NULL);		/* J4 */
	map_job(&m, 2, 1, SCHED_RUNNING_FG, p45);	/* J5 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p6);	/* J6 */
	assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.items[0].action, SCHED_REQUEUE);
	assert_int_equal(d.items[0].job_id, 4);		/* J5 */
	assert_int_equal(d.items[1].action, SCHED_START);
	assert_int_equal(d.items[1].job_id, 3);		/* J4 */
	assert_int_equal(d.items[1].tier, SCHED_TIER_FG);
	const int *nodes = sched_decision_nodes(&d, &d.items[1]);
	assert_int_equal(nodes[0], 1);
	assert_int_equal(nodes[1], 2);
	assert_int_equal(nodes[2], 3);
	assert_int_equal(nodes[3], 4);
	assert_int_equal(m.nodes[5].fg_job, 4);		/* J6 stays */
	assert_int_equal(m.jobs[3].where, SCHED_QUEUED);

	/* the same map under AMBF: J4 is not the head, nothing happens */
	map_init(&m, 6);
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);
	map_job(&m, 6, 1, SCHED_QUEUED, NULL);
	map_job(&m, 4, 1, SCHED_QUEUED, NULL);
	map_job(&m, 2, 1, SCHED_RUNNING_FG, p45);
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p6);
	sched_decisions_clear(&d);
	assert_int_equal(sched_ambf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	assert_int_equal(d.count, 0);
	sched_decisions_free(&d);
}

/*
 * dispatch: the busiest process goes to the node with the least bg load;
 * a bg job beside a process at or above the 96 % threshold is evicted.
 * Nodes P1-P3 idle in fg with bg loads 0.7 (J1 on P1), 0.2 (J2 on P2) and
 * none (P3); J3 with processes 0.97, 0.3 arrives: 0.97 -> P3, 0.3 -> P2,
 * nothing evicted.  Then J4 (one process at 100 %) arrives: the only idle
 * fg node is P1, whose bg job J1 is evicted.
 */
static void test_dispatch_matching(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p1[] = { 0 }, p2[] = { 1 };

	sched_config_paper(&cfg);
	map_init(&m, 3);
	map_job(&m, 1, 0.7, SCHED_RUNNING_BG, p1);
	map_job(&m, 1, 0.2, SCHED_RUNNING_BG, p2);
	map_job(&m, 2, 0.3, SCHED_QUEUED, NULL);
	m.util[2][0] = 0.3;
	m.util[2][1] = 0.97;
	m.jobs[2].is_new = 1;
	assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL, &d), 0);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.items[0].action, SCHED_START);
	assert_int_equal(d.items[0].tier, SCHED_TIER_FG);
	const int *nodes = sched_decision_nodes(&d, &d.items[0]);
	assert_int_equal(nodes[0], 1);	/* the 0.3 process on P2 */
	assert_int_equal(nodes[1], 2);	/* the 0.97 one on P3 */

	m.jobs[2].is_new = 0;
	map_job(&m, 1, 1.0, SCHED_QUEUED, NULL);
	m.jobs[3].is_new = 1;
	sched_decisions_clear(&d);
	assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL, &d), 0);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.items[0].action, SCHED_START);
	assert_int_equal(d.items[0].job_id, 4);
	assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 0);
	assert_int_equal(d.items[1].action, SCHED_REQUEUE);
	assert_int_equal(d.items[1].job_id, 1);
	assert_int_equal(m.nodes[0].bg_job, -1);
	sched_decisions_free(&d);
}

/*
 * A job restricted to some nodes (Slurm: partition, -w, -x, features)
 * counts, takes and frees only those.  Five nodes; in arrival order J1 fg
 * on P1, J2 fg on P3, J3 queued and allowed only P4, J4 queued (anywhere),
 * J5 fg on P4, J6 fg on P5; P2 idle.  CMBF: J3 cannot use P2; of the later
 * jobs only J5 holds a node it may use, so J5 (not the newest, J6) is
 * suspended and J3 starts on P4; J4 takes the idle P2; J5, now queued
 * before J6, preempts J6 and restarts on P5.
 */
static void test_allowed_nodes(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p1[] = { 0 }, p3[] = { 2 }, p4[] = { 3 }, p5[] = { 4 };
	static const unsigned char only_p4[] = { 0, 0, 0, 1, 0 };

	sched_config_paper(&cfg);
	map_init(&m, 5);
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J1 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p3);	/* J2 */
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J3 */
	m.jobs[2].allowed = only_p4;
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J4 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p4);	/* J5 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p5);	/* J6 */
	assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	assert_int_equal(d.count, 5);
	assert_int_equal(d.items[0].action, SCHED_REQUEUE);
	assert_int_equal(d.items[0].job_id, 5);
	assert_int_equal(d.items[1].action, SCHED_START);
	assert_int_equal(d.items[1].job_id, 3);
	assert_int_equal(sched_decision_nodes(&d, &d.items[1])[0], 3);
	assert_int_equal(d.items[2].action, SCHED_START);
	assert_int_equal(d.items[2].job_id, 4);
	assert_int_equal(sched_decision_nodes(&d, &d.items[2])[0], 1);
	assert_int_equal(d.items[3].action, SCHED_REQUEUE);
	assert_int_equal(d.items[3].job_id, 6);
	assert_int_equal(d.items[4].action, SCHED_START);
	assert_int_equal(d.items[4].job_id, 5);
	assert_int_equal(sched_decision_nodes(&d, &d.items[4])[0], 4);

	/* the same job may not use P2 even when nothing else runs there:
	 * with P4 held by an earlier job it waits, and J4 gets P2 */
	map_init(&m, 5);
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p4);	/* J1 on P4 */
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J2, only P4 */
	m.jobs[1].allowed = only_p4;
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J3 */
	sched_decisions_clear(&d);
	assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.items[0].job_id, 3);
	assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 0);
	assert_int_equal(m.jobs[1].where, SCHED_QUEUED);
	sched_decisions_free(&d);
}

/*
 * AMCBF arrival (Alg. 4) with a restricted job: P1 is idle but not
 * allowed, P2 holds a fg job at 50 %: the new job goes to P2's bg slot
 * instead of P1's idle fg slot; a second one allowed only on P2 finds
 * neither slot free and waits.
 */
static void test_allowed_nodes_tiers(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p2[] = { 1 };
	static const unsigned char only_p2[] = { 0, 1 };

	sched_config_paper(&cfg);
	map_init(&m, 2);
	map_job(&m, 1, 0.5, SCHED_RUNNING_FG, p2);
	map_job(&m, 1, 0.3, SCHED_QUEUED, NULL);
	map_job(&m, 1, 0.3, SCHED_QUEUED, NULL);
	m.jobs[1].allowed = m.jobs[2].allowed = only_p2;
	m.jobs[1].is_new = m.jobs[2].is_new = 1;
	assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL, &d), 0);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.items[0].action, SCHED_START);
	assert_int_equal(d.items[0].job_id, 2);
	assert_int_equal(d.items[0].tier, SCHED_TIER_BG);
	assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 1);
	assert_int_equal(m.jobs[2].where, SCHED_QUEUED);
	assert_int_equal(m.nodes[0].fg_job, -1);
	sched_decisions_free(&d);
}

/*
 * Node preference (sched_job_t.rank, e.g. SSAC's availability order): five
 * idle nodes, a 2-node job preferring P5, then P3, then the rest.  CMBF
 * (sched_pick_idle_fg) and AMCBF (dispatch) both start it on P5 and P3; a
 * second job without preference takes the lowest-numbered idle nodes.
 */
static void test_node_rank(void **state)
{
	static const char *const modes[] = { "cmbf", "amcbf" };
	static const int rank[] = { 2, 3, 1, 4, 0 };	/* P5, P3, P1, P2, P4 */

	for (size_t k = 0; k < 2; k++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };
		const sched_policy_t *pol = sched_policy_find(modes[k]);

		sched_config_paper(&cfg);
		map_init(&m, 5);
		map_job(&m, 2, 1, SCHED_QUEUED, NULL);
		map_job(&m, 2, 1, SCHED_QUEUED, NULL);
		m.jobs[0].rank = rank;
		m.jobs[0].is_new = m.jobs[1].is_new = 1;
		assert_non_null(pol);
		assert_int_equal(pol->engine(&m.st, &cfg, SCHED_EV_ARRIVAL, &d), 0);
		assert_int_equal(d.count, 2);
		const int *a = sched_decision_nodes(&d, &d.items[0]);
		const int *b = sched_decision_nodes(&d, &d.items[1]);
		assert_int_equal(d.items[0].job_id, 1);
		assert_true((a[0] == 4 && a[1] == 2) || (a[0] == 2 && a[1] == 4));
		assert_int_equal(d.items[1].job_id, 2);
		assert_true((b[0] == 0 && b[1] == 1) || (b[0] == 1 && b[1] == 0));
		sched_decisions_free(&d);
	}
}

/*
 * Liu et al. 2013 Alg. 2 line 2: the scan starts at "the first job in
 * Q u J_bg", so under AMCBF a job running in bg can be the head and
 * preempt.  J1 (2 processes) runs in bg on P1-P2 beside the later J2; J3,
 * later still, holds P3-P4 in fg.  At a fg departure (nothing idle) J1 is
 * the head: it collects J3 (newest first, enough to cover its need), J3 is
 * switched to its free bg slots in place, and J1 is promoted onto P3-P4
 * (both processes move: a migration).  Were a bg job never the head,
 * nothing would happen and J1 could wait in bg behind every later job.
 */
static void test_amcbf_head_in_bg(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p12[] = { 0, 1 }, p34[] = { 2, 3 };

	sched_config_paper(&cfg);
	map_init(&m, 4);
	map_job(&m, 2, 0.5, SCHED_RUNNING_BG, p12);	/* J1 */
	map_job(&m, 2, 0.5, SCHED_RUNNING_FG, p12);	/* J2 */
	map_job(&m, 2, 0.5, SCHED_RUNNING_FG, p34);	/* J3 */
	assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.items[0].action, SCHED_TO_BG);
	assert_int_equal(d.items[0].job_id, 3);
	assert_int_equal(d.items[1].action, SCHED_TO_FG);
	assert_int_equal(d.items[1].job_id, 1);
	assert_int_equal(d.items[1].moved, 2);
	assert_int_equal(m.jobs[0].where, SCHED_RUNNING_FG);
	assert_int_equal(m.jobs[2].where, SCHED_RUNNING_BG);
	assert_int_equal(m.nodes[2].fg_job, 0);
	assert_int_equal(m.nodes[3].fg_job, 0);
	assert_int_equal(m.nodes[2].bg_job, 2);
	assert_int_equal(m.jobs[1].where, SCHED_RUNNING_FG);	/* J2 stays */
	sched_decisions_free(&d);
}

/*
 * A bg head whose own node's fg is still busy is promoted to the idle fg
 * of another node, which evicts the bg job there (line 25).  Slurm cannot
 * move a running job: sched_decisions_drop_moves keeps only what can be
 * done, so the evicted job is not requeued for nothing.  Two nodes: J1 in
 * fg on P1 (0.75), J3 in bg on P1 and J4 in bg on P2 (1.0 each), P2's fg
 * job gone.
 */
static void test_drop_moves(void **state)
{
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	static const int p1[] = { 0 }, p2[] = { 1 };

	(void)state;
	sched_config_paper(&cfg);
	map_init(&m, 2);
	map_job(&m, 1, 0.75, SCHED_RUNNING_FG, p1);	/* J1 */
	map_job(&m, 1, 1.0, SCHED_RUNNING_BG, p1);	/* J3 */
	map_job(&m, 1, 1.0, SCHED_RUNNING_BG, p2);	/* J4 */
	assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d),
			 0);
	/* the engine: J3 to P2's fg (moved), J4 requeued for it */
	assert_true(d.count >= 2);
	assert_int_equal(d.items[0].action, SCHED_TO_FG);
	assert_int_equal(d.items[0].job_id, 2);
	assert_int_equal(d.items[0].moved, 1);
	assert_int_equal(d.items[1].action, SCHED_REQUEUE);
	assert_int_equal(d.items[1].job_id, 3);
	assert_int_equal(d.items[1].preemptor, 1);
	size_t before = d.count;
	assert_int_equal(sched_decisions_drop_moves(&d), 2);
	assert_int_equal(d.count, before - 2);
	for (size_t i = 0; i < d.count; i++)
		assert_true(d.items[i].action != SCHED_REQUEUE &&
			    !(d.items[i].action == SCHED_TO_FG &&
			      d.items[i].moved > 0));
	/* a promotion in place, a START and requeues for them are kept */
	sched_decisions_free(&d);
	sched_decision_t items[] = {
		{ .action = SCHED_REQUEUE, .job = 4, .preemptor = 1 },
		{ .action = SCHED_TO_FG, .job = 1, .moved = 0, .preemptor = -1 },
		{ .action = SCHED_TO_BG, .job = 5, .preemptor = 2 },
		{ .action = SCHED_START, .job = 2, .preemptor = -1 },
		{ .action = SCHED_TO_BG, .job = 6, .preemptor = 3 },
		{ .action = SCHED_TO_FG, .job = 3, .moved = 2, .preemptor = -1 },
		{ .action = SCHED_REQUEUE, .job = 7, .preemptor = 3 },
	};
	sched_decisions_t h = { .items = items, .count = 7, .cap = 7 };
	assert_int_equal(sched_decisions_drop_moves(&h), 3);
	assert_int_equal(h.count, 4);
	assert_int_equal(h.items[0].job, 4);
	assert_int_equal(h.items[1].job, 1);
	assert_int_equal(h.items[2].job, 5);
	assert_int_equal(h.items[3].job, 2);
}

/*
 * Admission by predicted progress.  J1 holds both nodes in fg at 90 % CPU;
 * J2 (2 processes at 50 %) arrives.  Its bg rate there is
 * 0.428 * 0.1 / 0.5 = 0.0856 (multi-process mean efficiency times idle
 * over need).  With bg_min_rate 0 (the paper) or 0.08 it starts in bg;
 * with 0.1 it stays queued.
 */
static void test_bg_min_rate(void **state)
{
	static const double limits[] = { 0, 0.08, 0.1 };
	static const int p12[] = { 0, 1 };

	for (size_t k = 0; k < 3; k++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		cfg.bg_min_rate = limits[k];
		map_init(&m, 2);
		map_job(&m, 2, 0.9, SCHED_RUNNING_FG, p12);	/* J1 */
		map_job(&m, 2, 0.5, SCHED_QUEUED, NULL);	/* J2 */
		m.jobs[1].is_new = 1;
		assert_true(fabs(sched_bg_predicted_rate(&m.st, 1, p12) -
				 0.428 * 0.1 / 0.5) < 1e-12);
		assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL,
					     &d), 0);
		if (k < 2) {
			assert_int_equal(d.count, 1);
			assert_int_equal(d.items[0].action, SCHED_START);
			assert_int_equal(d.items[0].tier, SCHED_TIER_BG);
			assert_int_equal(m.jobs[1].where, SCHED_RUNNING_BG);
		} else {
			assert_int_equal(d.count, 0);
			assert_int_equal(m.jobs[1].where, SCHED_QUEUED);
		}
		sched_decisions_free(&d);
	}
}

/*
 * Alg. 3 runs at a bg departure (and, for Fig. 2's t = 5, a fg one), not
 * at an arrival: there Alg. 4 decides for the new job alone.  J2 has waited
 * since before the last event, J3 arrives and is too big for the bg slots
 * (2 processes, one node).  On the arrival J2 stays queued; on a bg
 * departure it takes the bg slot beside J1.
 */
static void test_bg_fill_events(void **state)
{
	static const int p1[] = { 0 };
	unsigned events[] = { SCHED_EV_ARRIVAL, SCHED_EV_BG_DEPARTURE };

	for (size_t k = 0; k < 2; k++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		map_init(&m, 1);
		map_job(&m, 1, 0.5, SCHED_RUNNING_FG, p1);	/* J1 */
		map_job(&m, 1, 0.4, SCHED_QUEUED, NULL);	/* J2 */
		map_job(&m, 2, 0.4, SCHED_QUEUED, NULL);	/* J3 */
		m.jobs[2].is_new = events[k] == SCHED_EV_ARRIVAL;
		assert_int_equal(sched_amcbf(&m.st, &cfg, events[k], &d), 0);
		assert_int_equal(d.count, k);
		assert_int_equal(m.jobs[1].where,
				 k ? SCHED_RUNNING_BG : SCHED_QUEUED);
		assert_int_equal(m.jobs[2].where, SCHED_QUEUED);
		sched_decisions_free(&d);
	}
}

/*
 * A pinned job (a driver's placeholder: sched/amcbf puts one on each node
 * it may not use, e.g. not yet responding after a slurmctld restart, at the
 * front of the order, in whatever slot is left) is never the head.  Two
 * nodes: the placeholder sits in P2's bg slot, J1 runs in fg on P1-P2, J2
 * in bg on P1.  Unpinned, the placeholder is the first job of Q u J_bg and
 * takes P2's fg slot by requeueing J1 (its bg slots are not all free);
 * pinned, nothing happens.
 */
static void test_pinned_not_head(void **state)
{
	static const int p2[] = { 1 }, p12[] = { 0, 1 }, p1[] = { 0 };

	for (int pinned = 0; pinned < 2; pinned++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		map_init(&m, 2);
		map_job(&m, 1, 1.0, SCHED_RUNNING_BG, p2);	/* placeholder */
		map_job(&m, 2, 0.5, SCHED_RUNNING_FG, p12);	/* J1 */
		map_job(&m, 1, 0.4, SCHED_RUNNING_BG, p1);	/* J2 */
		m.jobs[0].pinned = pinned;
		assert_int_equal(sched_amcbf(&m.st, &cfg,
					     SCHED_EV_FG_DEPARTURE |
					     SCHED_EV_ARRIVAL, &d), 0);
		if (pinned) {
			assert_int_equal(d.count, 0);
			assert_int_equal(m.jobs[1].where, SCHED_RUNNING_FG);
			assert_int_equal(m.jobs[0].where, SCHED_RUNNING_BG);
		} else {
			assert_true(d.count >= 2);
			assert_int_equal(d.items[0].action, SCHED_REQUEUE);
			assert_int_equal(d.items[0].job_id, 2);		/* J1 */
			assert_int_equal(m.jobs[0].where, SCHED_RUNNING_FG);
		}
		sched_decisions_free(&d);
	}
}

/*
 * cfg->reserve under AMBF: four nodes, J1 (2 nodes, estimate 100 s) runs on
 * P1-P2 since 0; J2 (4 nodes) is the head: it cannot start or preempt (no
 * later job runs) and reserves the shadow time 100 with no extra node.  J3
 * (1 node, 50 s) ends before it and starts on P3; J4 (1 node, 200 s) would
 * hold P4 past it and waits.  Without the reservation both start (the
 * paper's backfilling without reservations).
 */
static void test_reserve_ambf(void **state)
{
	static const int p12[] = { 0, 1 };

	for (int reserve = 0; reserve <= 1; reserve++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		cfg.reserve = reserve;
		map_init(&m, 4);
		map_job(&m, 2, 1, SCHED_RUNNING_FG, p12);	/* J1 */
		m.jobs[0].estimate = 100;
		map_job(&m, 4, 1, SCHED_QUEUED, NULL);		/* J2 */
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J3 */
		m.jobs[2].estimate = 50;
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J4 */
		m.jobs[3].estimate = 200;
		assert_int_equal(sched_ambf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE,
					    &d), 0);
		assert_int_equal(d.count, reserve ? 1 : 2);
		assert_int_equal(d.items[0].action, SCHED_START);
		assert_int_equal(d.items[0].job_id, 3);
		assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 2);
		assert_int_equal(m.jobs[3].where,
				 reserve ? SCHED_QUEUED : SCHED_RUNNING_FG);
		assert_int_equal(m.jobs[1].where, SCHED_QUEUED);
		sched_decisions_free(&d);
	}
}

/*
 * cfg->reserve counts the nodes of later fg jobs as the head's (it may
 * preempt them); an arrival respects the reservation too.  Under AMCBF,
 * three nodes: J1 (1 node, estimate 100 s) on P1 since 0, J2 (3 nodes)
 * queued, J3 (1 node) on P2, arrived after J2, P3 idle.  J2's reservation:
 * P3 and P2 (J3, which it may preempt) are its now, J1 ends at 100: shadow
 * 100, no extra node.  A new J4 (1 node, 500 s) would be preempted at 100
 * in fg: it starts in the bg slot of P3 instead (where the fg slot is
 * idle it runs at full speed until a fg job comes).  Without the
 * reservation it starts in fg on P3.
 */
static void test_reserve_amcbf_arrival(void **state)
{
	static const int p1[] = { 0 }, p2[] = { 1 };

	for (int reserve = 0; reserve <= 1; reserve++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		cfg.reserve = reserve;
		map_init(&m, 3);
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J1 */
		m.jobs[0].estimate = 100;
		map_job(&m, 3, 1, SCHED_QUEUED, NULL);		/* J2 */
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p2);	/* J3 */
		m.jobs[2].estimate = 1000;
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J4 */
		m.jobs[3].estimate = 500;
		m.jobs[3].is_new = 1;
		assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL,
					     &d), 0);
		assert_int_equal(d.count, 1);
		assert_int_equal(d.items[0].action, SCHED_START);
		assert_int_equal(d.items[0].job_id, 4);
		assert_int_equal(d.items[0].tier,
				 reserve ? SCHED_TIER_BG : SCHED_TIER_FG);
		assert_int_equal(sched_decision_nodes(&d, &d.items[0])[0], 2);
		sched_decisions_free(&d);
	}
}

/*
 * cfg->requeue_victims = 0: the head preempts only fg jobs that go to bg
 * in place and stay there.  Two nodes; J1 (2 processes) queued before J2
 * (2 processes at 100 %) running on P1-P2.  With J1 at 100 % J2 would be
 * switched to bg and then evicted by dispatch (line 25): a requeue, so
 * nothing happens.  With J1 at 50 % J2 goes to bg in place and stays
 * (50 % < 96 %), J1 takes fg.  With requeue_victims = 1 (the paper) J1 at
 * 100 % preempts: J2 to bg, J1 promoted, J2 evicted to the queue.
 */
static void test_requeue_victims(void **state)
{
	static const int p12[] = { 0, 1 };
	static const struct {
		double util;
		int requeue_victims;
		size_t count;
	} cases[] = { { 1.0, 0, 0 }, { 0.5, 0, 2 }, { 1.0, 1, 3 } };

	for (size_t c = 0; c < 3; c++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		cfg.requeue_victims = cases[c].requeue_victims;
		map_init(&m, 2);
		map_job(&m, 2, cases[c].util, SCHED_QUEUED, NULL);	/* J1 */
		map_job(&m, 2, 1.0, SCHED_RUNNING_FG, p12);		/* J2 */
		assert_int_equal(sched_amcbf(&m.st, &cfg,
					     SCHED_EV_FG_DEPARTURE, &d), 0);
		assert_int_equal(d.count, cases[c].count);
		if (cases[c].count == 0) {
			assert_int_equal(m.jobs[1].where, SCHED_RUNNING_FG);
		} else {
			assert_int_equal(d.items[0].action, SCHED_TO_BG);
			assert_int_equal(d.items[0].job_id, 2);
			assert_int_equal(d.items[1].action, SCHED_START);
			assert_int_equal(d.items[1].job_id, 1);
			assert_int_equal(m.jobs[0].where, SCHED_RUNNING_FG);
			assert_int_equal(m.jobs[1].where, cases[c].count == 3
					 ? SCHED_QUEUED : SCHED_RUNNING_BG);
		}
		if (cases[c].count == 3) {
			assert_int_equal(d.items[2].action, SCHED_REQUEUE);
			assert_int_equal(d.items[2].job_id, 2);
		}
		sched_decisions_free(&d);
	}
}

/* --- the site's rules as plain data (sched_rules.h) ---------------------- */

/* A pairwise rule from a table: deny[p][v] nonzero: job p may not preempt
 * job v. */
typedef struct {
	unsigned char deny[8][8];
} pair_table_t;

static int pair_allowed(const void *ctx, size_t preemptor, size_t victim)
{
	const pair_table_t *t = ctx;

	return !t->deny[preemptor][victim];
}

/*
 * A protected victim among two candidates: two nodes, J1 (1 node) queued,
 * J2 on P1 and J3 on P2 running, both later.  CMBF collects the newest
 * first: J3 is requeued for J1.  When the site protects J3 from J1 (a
 * pairwise rule, e.g. its QOS is not in J1's QOS's Preempt= list) or from
 * anyone (no_preempt, e.g. PreemptMode=OFF), J2 is requeued instead; when
 * both are protected nothing happens and J1 waits.  (J3 is protected from
 * J2 throughout: a requeued J2 would otherwise take J3's node in turn, as
 * CMBF lets any earlier job do.)
 */
static void test_rules_protected_victim(void **state)
{
	static const int p1[] = { 0 }, p2[] = { 1 };
	/* 0: no rule; 1: J3 denied to J1; 2: J3 no_preempt; 3: both denied */
	static const struct {
		int deny_j3, no_preempt_j3, deny_j2;
		long victim;	/* job id requeued, 0: none */
		int node;	/* J1's node */
	} cases[] = { { 0, 0, 0, 3, 1 }, { 1, 0, 0, 2, 0 },
		      { 0, 1, 0, 2, 0 }, { 1, 0, 1, 0, -1 } };

	for (size_t c = 0; c < 4; c++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };
		pair_table_t t = { 0 };

		sched_config_paper(&cfg);
		map_init(&m, 2);
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J1 */
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J2 */
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p2);	/* J3 */
		t.deny[0][2] = (unsigned char)cases[c].deny_j3;
		t.deny[0][1] = (unsigned char)cases[c].deny_j2;
		t.deny[1][2] = 1;	/* a requeued J2 does not take J3's node */
		m.jobs[2].no_preempt = cases[c].no_preempt_j3;
		m.st.may_preempt = pair_allowed;
		m.st.preempt_ctx = &t;
		assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE,
					    &d), 0);
		if (!cases[c].victim) {
			assert_int_equal(d.count, 0);
			assert_int_equal(m.jobs[0].where, SCHED_QUEUED);
			assert_int_equal(m.jobs[1].where, SCHED_RUNNING_FG);
			assert_int_equal(m.jobs[2].where, SCHED_RUNNING_FG);
			sched_decisions_free(&d);
			continue;
		}
		assert_int_equal(d.count, 2);
		assert_int_equal(d.items[0].action, SCHED_REQUEUE);
		assert_int_equal(d.items[0].job_id, cases[c].victim);
		assert_int_equal(d.items[0].preemptor, 0);	/* for J1 */
		assert_int_equal(d.items[1].action, SCHED_START);
		assert_int_equal(d.items[1].job_id, 1);
		assert_int_equal(d.items[1].preemptor, -1);
		assert_int_equal(sched_decision_nodes(&d, &d.items[1])[0],
				 cases[c].node);
		sched_decisions_free(&d);
	}
}

/*
 * The same in the tiers (AMCBF, victims go to bg in place): two nodes, J1
 * (2 processes at 50 %) queued, J2 (2 at 100 %) in fg on P1-P2.  J2 goes to
 * bg and J1 takes fg, unless the site protects J2 from J1: then nothing.
 */
static void test_rules_protected_victim_tiers(void **state)
{
	static const int p12[] = { 0, 1 };

	for (int deny = 0; deny <= 1; deny++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };
		pair_table_t t = { 0 };

		sched_config_paper(&cfg);
		cfg.requeue_victims = 0;
		map_init(&m, 2);
		map_job(&m, 2, 0.5, SCHED_QUEUED, NULL);	/* J1 */
		map_job(&m, 2, 1.0, SCHED_RUNNING_FG, p12);	/* J2 */
		t.deny[0][1] = (unsigned char)deny;
		m.st.may_preempt = pair_allowed;
		m.st.preempt_ctx = &t;
		assert_int_equal(sched_amcbf(&m.st, &cfg,
					     SCHED_EV_FG_DEPARTURE, &d), 0);
		assert_int_equal(d.count, deny ? 0 : 2);
		assert_int_equal(m.jobs[1].where,
				 deny ? SCHED_RUNNING_FG : SCHED_RUNNING_BG);
		if (!deny) {
			assert_int_equal(d.items[0].action, SCHED_TO_BG);
			assert_int_equal(d.items[0].preemptor, 0);
		}
		sched_decisions_free(&d);
	}
}

/*
 * dispatch's eviction (Alg. 2 line 25) is a preemption too: one node, J1
 * (40 %) in bg, J2 (100 %) arrives and takes the idle fg slot.  J1 is
 * evicted to the queue, naming J2; protected (no_preempt) it stays in bg.
 */
static void test_rules_bg_eviction(void **state)
{
	static const int p1[] = { 0 };

	for (int protect = 0; protect <= 1; protect++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };

		sched_config_paper(&cfg);
		map_init(&m, 1);
		map_job(&m, 1, 0.4, SCHED_RUNNING_BG, p1);	/* J1 */
		map_job(&m, 1, 1.0, SCHED_QUEUED, NULL);	/* J2 */
		m.jobs[0].no_preempt = protect;
		m.jobs[1].is_new = 1;
		assert_int_equal(sched_amcbf(&m.st, &cfg, SCHED_EV_ARRIVAL,
					     &d), 0);
		assert_int_equal(d.count, protect ? 1 : 2);
		assert_int_equal(d.items[0].action, SCHED_START);
		assert_int_equal(d.items[0].job_id, 2);
		assert_int_equal(m.jobs[0].where,
				 protect ? SCHED_RUNNING_BG : SCHED_QUEUED);
		if (!protect) {
			assert_int_equal(d.items[1].action, SCHED_REQUEUE);
			assert_int_equal(d.items[1].job_id, 1);
			assert_int_equal(d.items[1].preemptor, 1);
		}
		sched_decisions_free(&d);
	}
}

/*
 * A job whose license is held: two nodes, J1 (1 node, license 0 x1)
 * queued, J2 and J3 running after it.  With the license free J3 is
 * requeued for J1, which starts and takes it; with none free nothing
 * happens: no start, no victim.
 */
static void test_rules_license_held(void **state)
{
	static const int p1[] = { 0 }, p2[] = { 1 };
	static const rules_lic_req_t req = { .lic = 0, .count = 1 };

	for (int free_ = 0; free_ <= 1; free_++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };
		int pool = free_;

		sched_config_paper(&cfg);
		map_init(&m, 2);
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J1 */
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J2 */
		map_job(&m, 1, 1, SCHED_RUNNING_FG, p2);	/* J3 */
		m.jobs[0].lic = &req;
		m.jobs[0].nlic = 1;
		m.st.licenses = &pool;
		m.st.nlicenses = 1;
		assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE,
					    &d), 0);
		assert_int_equal(d.count, free_ ? 2 : 0);
		assert_int_equal(m.jobs[2].where,
				 free_ ? SCHED_QUEUED : SCHED_RUNNING_FG);
		assert_int_equal(m.jobs[0].where,
				 free_ ? SCHED_RUNNING_FG : SCHED_QUEUED);
		assert_int_equal(pool, 0);
		sched_decisions_free(&d);
	}
}

/*
 * Licenses taken earlier in the same call count: two idle nodes, J1 and J2
 * each ask for the one license: J1 starts, J2 does not.  With the license
 * held away from J1 by a reservation it may not use, J1 is passed over and
 * J2 starts.  A request naming no license of the pool never fits.
 */
static void test_rules_license_in_call(void **state)
{
	for (int c = 0; c < 3; c++) {
		map_t m;
		sched_config_t cfg;
		sched_decisions_t d = { 0 };
		int pool = 1;
		rules_lic_req_t r1 = { .lic = c == 2 ? 1 : 0, .count = 1,
				       .held_away = c == 1 };
		rules_lic_req_t r2 = { .lic = 0, .count = 1 };

		sched_config_paper(&cfg);
		map_init(&m, 2);
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J1 */
		map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J2 */
		m.jobs[0].lic = &r1;
		m.jobs[0].nlic = 1;
		m.jobs[1].lic = &r2;
		m.jobs[1].nlic = 1;
		m.st.licenses = &pool;
		m.st.nlicenses = 1;
		assert_int_equal(sched_cmbf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE,
					    &d), 0);
		assert_int_equal(d.count, 1);
		assert_int_equal(d.items[0].action, SCHED_START);
		assert_int_equal(d.items[0].job_id, c == 0 ? 1 : 2);
		assert_int_equal(pool, 0);
		sched_decisions_free(&d);
	}
}

/*
 * A job passed over for its licenses is not the head: under AMBF (only
 * the head preempts), two nodes, J1 (license none free) and J2 queued, J3
 * and J4 running after them.  J2 is the head: it requeues J4 and starts.
 * Were J1 the head, it would requeue J4 for a start its licenses forbid.
 */
static void test_rules_license_not_head(void **state)
{
	static const int p1[] = { 0 }, p2[] = { 1 };
	static const rules_lic_req_t req = { .lic = 0, .count = 1 };
	map_t m;
	sched_config_t cfg;
	sched_decisions_t d = { 0 };
	int pool = 0;

	sched_config_paper(&cfg);
	map_init(&m, 2);
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J1 */
	map_job(&m, 1, 1, SCHED_QUEUED, NULL);		/* J2 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p1);	/* J3 */
	map_job(&m, 1, 1, SCHED_RUNNING_FG, p2);	/* J4 */
	m.jobs[0].lic = &req;
	m.jobs[0].nlic = 1;
	m.st.licenses = &pool;
	m.st.nlicenses = 1;
	assert_int_equal(sched_ambf(&m.st, &cfg, SCHED_EV_FG_DEPARTURE, &d), 0);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.items[0].action, SCHED_REQUEUE);
	assert_int_equal(d.items[0].job_id, 4);
	assert_int_equal(d.items[0].preemptor, 1);
	assert_int_equal(d.items[1].action, SCHED_START);
	assert_int_equal(d.items[1].job_id, 2);
	assert_int_equal(m.jobs[0].where, SCHED_QUEUED);
	sched_decisions_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fig1_cmbf),
		cmocka_unit_test(test_fig1_ambf),
		cmocka_unit_test(test_fig1_easy),
		cmocka_unit_test(test_easy_shadow_tie),
		cmocka_unit_test(test_fig1_conservative),
		cmocka_unit_test(test_fig1_fcfs),
		cmocka_unit_test(test_fig2_cmcbf),
		cmocka_unit_test(test_fig2_amcbf),
		cmocka_unit_test(test_fig1_t5_decisions),
		cmocka_unit_test(test_dispatch_matching),
		cmocka_unit_test(test_allowed_nodes),
		cmocka_unit_test(test_allowed_nodes_tiers),
		cmocka_unit_test(test_node_rank),
		cmocka_unit_test(test_amcbf_head_in_bg),
		cmocka_unit_test(test_bg_min_rate),
		cmocka_unit_test(test_bg_fill_events),
		cmocka_unit_test(test_pinned_not_head),
		cmocka_unit_test(test_reserve_ambf),
		cmocka_unit_test(test_reserve_amcbf_arrival),
		cmocka_unit_test(test_requeue_victims),
		cmocka_unit_test(test_drop_moves),
		cmocka_unit_test(test_rules_protected_victim),
		cmocka_unit_test(test_rules_protected_victim_tiers),
		cmocka_unit_test(test_rules_bg_eviction),
		cmocka_unit_test(test_rules_license_held),
		cmocka_unit_test(test_rules_license_in_call),
		cmocka_unit_test(test_rules_license_not_head),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
