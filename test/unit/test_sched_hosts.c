/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sched_hosts.c - the engines at CPU granularity (doc/design.md, "The
 * resource model: CPUs, memory and GPUs"): sched_fit's choice of slots
 * host by host with memory and GPUs, the memory and GPUs the state keeps
 * per host, and the engines' outcomes on hosts of many CPUs, with jobs
 * that ask to share CPUs (Slurm's OverSubscribe=YES:N) and jobs whose
 * partition shares CPUs only between jobs that ask (asks_only).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched_dispatch.h"
#include "sched/sched_engine.h"
#include "sched/sched_policy.h"

#define MAXJ 128
#define MAXS 256

/* A cluster of `nh` hosts of `cpus` CPUs, `mem` MB and `gpus` GPUs each,
 * and `nj` queued jobs of `size` slots each, arrived at 0 in id order. */
typedef struct {
	sched_state_t st;
	sched_node_t nodes[MAXS];
	sched_host_t hosts[16];
	int slot_host[MAXS];
	sched_job_t jobs[MAXJ];
	int alloc[MAXJ][MAXS];
	double util[MAXS];
	sched_decisions_t out;
} world_t;

static void world(world_t *w, int nh, int cpus, long mem, int gpus)
{
	memset(w, 0, sizeof(*w));
	for (int h = 0; h < nh; h++)
		w->hosts[h] = (sched_host_t){ .cpus = cpus, .mem = mem,
					      .gpus = gpus };
	w->st.nnodes = sched_hosts_layout(w->hosts, nh, w->slot_host);
	w->st.nhosts = nh;
	w->st.hosts = w->hosts;
	w->st.slot_host = w->slot_host;
	w->st.nodes = w->nodes;
	for (int n = 0; n < w->st.nnodes; n++)
		w->nodes[n] = (sched_node_t){ -1, -1, -1, -1 };
	for (int s = 0; s < MAXS; s++)
		w->util[s] = 1.0;
	w->st.jobs = w->jobs;
}

static sched_job_t *add_job(world_t *w, int size, double estimate)
{
	size_t j = w->st.njobs++;
	sched_job_t *job = &w->jobs[j];
	*job = (sched_job_t){ .id = (long)j + 1, .nodes = size,
			      .util = w->util, .estimate = estimate,
			      .alloc = w->alloc[j], .is_new = 1 };
	return job;
}

static int running(const world_t *w)
{
	int n = 0;
	for (size_t j = 0; j < w->st.njobs; j++)
		n += w->jobs[j].where != SCHED_QUEUED;
	return n;
}

/* A 6-CPU job on hosts of 4: all of host 0, then two of host 1. */
static void test_fit_fills_a_host_first(void **state)
{
	world_t w;
	int slots[16];
	(void)state;
	world(&w, 3, 4, 0, 0);
	add_job(&w, 6, -1);
	assert_int_equal(sched_fit(&w.st, NULL, 0, SCHED_TIER_FG, NULL,
				   slots), 1);
	/* four of host 0, then two of host 1 */
	assert_int_equal(slots[0], 0);
	assert_int_equal(slots[3], 3);
	assert_int_equal(slots[4], 4);
	assert_int_equal(slots[5], 5);
}

/* Memory is rigid: a host with CPUs free but not the memory refuses. */
static void test_fit_memory_bound_host_refuses(void **state)
{
	world_t w;
	int slots[16];
	(void)state;
	world(&w, 2, 16, 8000, 0);
	sched_job_t *big = add_job(&w, 1, -1);
	big->req.mem_per_host = 7000;
	sched_job_t *j2 = add_job(&w, 1, -1);
	j2->req.mem_per_host = 2000;
	/* the 7000 MB job on host 0 */
	assert_int_equal(sched_fit(&w.st, NULL, 0, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(slots[0], 0);
	assert_int_equal(sched_start(&w.st, &w.out, 0, SCHED_TIER_FG, slots),
			 0);
	assert_int_equal(w.hosts[0].mem_fg, 7000);
	/* host 0 has 15 CPUs free but 1000 MB: the 2000 MB job on host 1 */
	assert_int_equal(sched_fit(&w.st, NULL, 1, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(w.slot_host[slots[0]], 1);
	/* per CPU: 8 x 1000 MB fit host 1's 8000 MB, 9 do not fit anywhere */
	sched_job_t *j3 = add_job(&w, 9, -1);
	j3->req.mem_per_cpu = 1000;
	j3->req.hosts = 1;
	assert_int_equal(sched_fit(&w.st, NULL, 2, SCHED_TIER_FG, NULL,
				   slots), 0);
	j3->nodes = 8;
	assert_int_equal(sched_fit(&w.st, NULL, 2, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(w.slot_host[slots[7]], 1);
	/* the bg tier shares the host's memory: no 2000 MB bg job on
	 * host 0 beside the 7000 MB fg one */
	sched_config_t cfg;
	sched_config_defaults(&cfg);
	w.util[0] = 0.1;
	assert_int_equal(sched_fit(&w.st, &cfg, 1, SCHED_TIER_BG, NULL,
				   slots), 1);
	assert_int_equal(w.slot_host[slots[0]], 1);
	/* released: its memory is back */
	sched_release(&w.st, 0);
	assert_int_equal(w.hosts[0].mem_fg, 0);
	sched_decisions_free(&w.out);
}

/* GPUs are never shared: a 2-GPU host runs two 1-GPU jobs, not three,
 * and a bg job takes no GPU a fg job holds. */
static void test_fit_gpus(void **state)
{
	world_t w;
	int slots[16];
	sched_config_t cfg;
	(void)state;
	sched_config_defaults(&cfg);
	world(&w, 1, 8, 0, 2);
	for (int i = 0; i < 3; i++)
		add_job(&w, 1, -1)->req.gpus_per_host = 1;
	w.util[0] = 0.1;
	for (size_t j = 0; j < 2; j++) {
		assert_int_equal(sched_fit(&w.st, NULL, j, SCHED_TIER_FG, NULL,
					   slots), 1);
		assert_int_equal(slots[0], (int)j);
		assert_int_equal(sched_start(&w.st, &w.out, j, SCHED_TIER_FG,
					     slots), 0);
	}
	assert_int_equal(w.hosts[0].gpus_fg, 2);
	assert_int_equal(sched_fit(&w.st, NULL, 2, SCHED_TIER_FG, NULL,
				   slots), 0);
	assert_int_equal(sched_fit(&w.st, &cfg, 2, SCHED_TIER_BG, NULL,
				   slots), 0);
	/* a CPU-only job still fits beside them */
	w.jobs[2].req.gpus_per_host = 0;
	assert_int_equal(sched_fit(&w.st, NULL, 2, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(slots[0], 2);
	sched_decisions_free(&w.out);
}

/* Exclusive and per-host requests take whole hosts, and held places
 * (a reservation) are left alone. */
static void test_fit_exclusive_and_hold(void **state)
{
	world_t w;
	int slots[16];
	unsigned char held[MAXS] = { 0 };
	(void)state;
	world(&w, 3, 4, 0, 0);
	add_job(&w, 1, -1);
	assert_int_equal(sched_fit(&w.st, NULL, 0, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(sched_start(&w.st, &w.out, 0, SCHED_TIER_FG, slots),
			 0);
	sched_job_t *ex = add_job(&w, 8, -1);
	ex->req.exclusive = 1;
	assert_int_equal(sched_fit(&w.st, NULL, 1, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(slots[0], 4);	/* host 0 is not empty */
	assert_int_equal(slots[7], 11);
	held[8] = 1;
	sched_hold_t hold = { held, NULL, NULL };
	assert_int_equal(sched_fit(&w.st, NULL, 1, SCHED_TIER_FG, &hold,
				   slots), 0);
	sched_job_t *per = add_job(&w, 4, -1);
	per->req.cpus_per_host = 2;
	assert_int_equal(sched_fit(&w.st, NULL, 2, SCHED_TIER_FG, &hold,
				   slots), 1);
	/* 2 on host 0 (3 free), 2 on host 1 */
	assert_int_equal(slots[0], 1);
	assert_int_equal(slots[1], 2);
	assert_int_equal(slots[2], 4);
	assert_int_equal(slots[3], 5);
	sched_decisions_free(&w.out);
}

/* Start job j in fg where sched_fit puts it (the scene before a call). */
static void run_now(world_t *w, size_t j, double started)
{
	int slots[MAXS];
	assert_int_equal(sched_fit(&w->st, NULL, j, SCHED_TIER_FG, NULL,
				   slots), 1);
	assert_int_equal(sched_start(&w->st, &w->out, j, SCHED_TIER_FG,
				     slots), 0);
	w->jobs[j].started = started;
	w->jobs[j].is_new = 0;
}

/* Running job j ends: the driver frees it and drops it from jobs[]. */
static void end_job(world_t *w, size_t j)
{
	sched_release(&w->st, j);
	memmove(&w->jobs[j], &w->jobs[j + 1],
		(w->st.njobs - j - 1) * sizeof(*w->jobs));
	w->st.njobs--;
	for (int n = 0; n < w->st.nnodes; n++) {
		if (w->nodes[n].fg_job > (int)j)
			w->nodes[n].fg_job--;
		if (w->nodes[n].bg_job > (int)j)
			w->nodes[n].bg_job--;
	}
}

static void easy(world_t *w)
{
	sched_config_t cfg;
	sched_config_defaults(&cfg);
	sched_decisions_clear(&w->out);
	assert_int_equal(sched_easy_backfill(&w->st, &cfg, SCHED_EV_ARRIVAL,
					     &w->out), 0);
}

/* EASY on one host of 4 CPUs: the head (4 CPUs) holds the two idle
 * slots it takes when the running job ends at 100; a job ending after
 * that may not take them, one ending before may. */
static void test_easy_holds_the_heads_slots(void **state)
{
	world_t w;
	(void)state;
	world(&w, 1, 4, 0, 0);
	add_job(&w, 2, 100);		/* 0: running on slots 0, 1 */
	run_now(&w, 0, 0);
	add_job(&w, 4, 100);		/* 1: the head */
	add_job(&w, 1, 1000);		/* 2: past the shadow */
	add_job(&w, 1, 50);		/* 3: ends by it */
	easy(&w);
	assert_int_equal(w.jobs[1].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[2].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[3].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[3].alloc[0], 2);
	assert_int_equal(w.out.count, 1);
	sched_decisions_free(&w.out);
}

/* EASY with memory: the head needs 500 MB of a host whose running job
 * frees 900 by the shadow time, so a long 1-CPU 50 MB job starts now in
 * the 100 MB left; a 200 MB one does not fit now. */
static void test_easy_memory(void **state)
{
	world_t w;
	(void)state;
	world(&w, 1, 8, 1000, 0);
	add_job(&w, 4, 100)->req.mem_per_host = 900;	/* 0: running */
	run_now(&w, 0, 0);
	add_job(&w, 2, 100)->req.mem_per_host = 500;	/* 1: the head */
	add_job(&w, 1, 1000)->req.mem_per_host = 200;	/* 2 */
	add_job(&w, 1, 1000)->req.mem_per_host = 50;	/* 3 */
	easy(&w);
	assert_int_equal(w.jobs[1].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[2].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[3].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[3].alloc[0], 4);
	assert_int_equal(w.hosts[0].mem_fg, 950);
	sched_decisions_free(&w.out);
}

/* EASY with GPUs on a 2-GPU host: the head needs both, one is free; a
 * long 1-GPU job may not take it, a short one may, a CPU-only one may. */
static void test_easy_gpus(void **state)
{
	world_t w;
	(void)state;
	world(&w, 1, 8, 0, 2);
	add_job(&w, 1, 100)->req.gpus_per_host = 1;	/* 0: running */
	run_now(&w, 0, 0);
	add_job(&w, 1, 100)->req.gpus_per_host = 2;	/* 1: the head */
	add_job(&w, 1, 1000)->req.gpus_per_host = 1;	/* 2: long */
	add_job(&w, 1, 1000);				/* 3: no GPU */
	add_job(&w, 1, 50)->req.gpus_per_host = 1;	/* 4: short */
	easy(&w);
	assert_int_equal(w.jobs[1].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[2].where, SCHED_QUEUED);
	assert_int_equal(w.jobs[3].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[4].where, SCHED_RUNNING_FG);
	assert_int_equal(w.hosts[0].gpus_fg, 2);
	sched_decisions_free(&w.out);
}

/* CMCBF/AMCBF on a host of 4 CPUs and 1000 MB: a fg job of 4 CPUs at
 * half use and 600 MB; a 2-CPU 300 MB job starts in bg beside it, then a
 * 1-CPU 200 MB job finds bg CPUs but not the memory (the tiers share the
 * host's memory), and a 1-GPU job no GPU (never shared). */
static void test_tiers_share_memory_not_gpus(void **state)
{
	static const char *policies[] = { "cmcbf", "amcbf" };
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		world_t w;
		sched_config_t cfg;
		sched_config_defaults(&cfg);
		world(&w, 1, 4, 1000, 1);
		for (int s = 0; s < MAXS; s++)
			w.util[s] = 0.5;
		sched_job_t *a = add_job(&w, 4, 1000);
		a->req.mem_per_host = 600;
		a->req.gpus_per_host = 1;
		run_now(&w, 0, 0);
		add_job(&w, 2, 1000)->req.mem_per_host = 300;
		add_job(&w, 1, 1000)->req.mem_per_host = 200;
		add_job(&w, 1, 1000)->req.gpus_per_host = 1;
		assert_int_equal(sched_policy_find(policies[i])->engine(
			&w.st, &cfg, SCHED_EV_ARRIVAL, &w.out), 0);
		assert_int_equal(w.jobs[1].where, SCHED_RUNNING_BG);
		assert_int_equal(w.jobs[2].where, SCHED_QUEUED);
		assert_int_equal(w.jobs[3].where, SCHED_QUEUED);
		assert_int_equal(w.hosts[0].mem_bg, 300);
		assert_int_equal(w.hosts[0].gpus_bg, 0);
		/* the fg job ends: the bg job is promoted, the others start */
		end_job(&w, 0);
		for (size_t j = 0; j < 3; j++)
			w.jobs[j].is_new = 0;
		sched_decisions_clear(&w.out);
		assert_int_equal(sched_policy_find(policies[i])->engine(
			&w.st, &cfg, SCHED_EV_FG_DEPARTURE, &w.out), 0);
		assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
		assert_int_equal(w.jobs[1].where, SCHED_RUNNING_FG);
		assert_int_equal(w.jobs[2].where, SCHED_RUNNING_FG);
		assert_int_equal(w.hosts[0].mem_fg, 500);
		assert_int_equal(w.hosts[0].gpus_fg, 1);
		sched_decisions_free(&w.out);
	}
}

/* CMCBF/AMCBF on a host of 4 CPUs beside a fg job at half use: a job
 * whose caps leave its time limit no room for a slowdown (fg_only) does
 * not start in the background, the next job does; once the fg job ends,
 * it starts in the foreground. */
static void test_fg_only_waits_for_the_foreground(void **state)
{
	static const char *policies[] = { "cmcbf", "amcbf" };
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		world_t w;
		sched_config_t cfg;
		sched_config_defaults(&cfg);
		world(&w, 1, 4, 0, 0);
		for (int s = 0; s < MAXS; s++)
			w.util[s] = 0.5;
		add_job(&w, 4, 1000);
		run_now(&w, 0, 0);
		add_job(&w, 2, 1000)->fg_only = 1;
		add_job(&w, 2, 1000);
		assert_int_equal(sched_policy_find(policies[i])->engine(
			&w.st, &cfg, SCHED_EV_ARRIVAL, &w.out), 0);
		assert_int_equal(w.jobs[1].where, SCHED_QUEUED);
		assert_int_equal(w.jobs[2].where, SCHED_RUNNING_BG);
		end_job(&w, 0);
		for (size_t j = 0; j < 2; j++)
			w.jobs[j].is_new = 0;
		sched_decisions_clear(&w.out);
		assert_int_equal(sched_policy_find(policies[i])->engine(
			&w.st, &cfg, SCHED_EV_FG_DEPARTURE, &w.out), 0);
		assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
		sched_decisions_free(&w.out);
	}
}

/* AMCBF on 2 hosts of 2 CPUs: the head needs a whole host (exclusive);
 * later fg jobs hold slot 0 (host 0) and slots 2 and 3 (host 1).  Counting
 * slots, the newest victim alone would free enough; on hosts only the
 * victim on host 0 makes a whole host, and only it goes to bg for the
 * head. */
static void test_amcbf_evicts_for_a_whole_host(void **state)
{
	world_t w;
	sched_config_t cfg;
	int slots[2];
	(void)state;
	sched_config_defaults(&cfg);
	world(&w, 2, 2, 0, 0);
	for (int s = 0; s < MAXS; s++)
		w.util[s] = 0.5;
	add_job(&w, 2, 1000)->req.exclusive = 1;	/* 0: the head */
	for (int i = 0; i < 3; i++)
		add_job(&w, 1, 1000);
	/* 1 on slot 0, 2 on slot 2, 3 on slot 3 */
	slots[0] = 0;
	assert_int_equal(sched_start(&w.st, &w.out, 1, SCHED_TIER_FG, slots),
			 0);
	slots[0] = 2;
	assert_int_equal(sched_start(&w.st, &w.out, 2, SCHED_TIER_FG, slots),
			 0);
	slots[0] = 3;
	assert_int_equal(sched_start(&w.st, &w.out, 3, SCHED_TIER_FG, slots),
			 0);
	for (size_t j = 0; j < 4; j++)
		w.jobs[j].is_new = 0;
	sched_decisions_clear(&w.out);
	assert_int_equal(sched_amcbf(&w.st, &cfg, SCHED_EV_FG_DEPARTURE,
				     &w.out), 0);
	assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
	/* host 0, both CPUs (which process on which: dispatch's matching) */
	assert_int_equal(w.nodes[0].fg_job, 0);
	assert_int_equal(w.nodes[1].fg_job, 0);
	/* for the head: job 1 to bg, then the head starts */
	assert_int_equal(w.out.items[0].action, SCHED_TO_BG);
	assert_int_equal(w.out.items[0].job, 1);
	assert_int_equal(w.out.items[0].preemptor, 0);
	assert_int_equal(w.out.items[1].action, SCHED_START);
	assert_int_equal(w.out.items[1].job, 0);
	/* then Alg. 2 goes on down the queue: job 1, now in bg, takes the
	 * fg place of the later job 2, which takes job 3's */
	assert_int_equal(w.out.count, 6);
	assert_int_equal(w.jobs[1].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[1].alloc[0], 2);
	assert_int_equal(w.jobs[2].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[2].alloc[0], 3);
	assert_int_equal(w.jobs[3].where, SCHED_RUNNING_BG);
	assert_int_equal(w.jobs[3].alloc[0], 3);
	sched_decisions_free(&w.out);
}

/* CMCBF/AMCBF on a host of 2 CPUs, every process busy (use 1), five
 * one-CPU jobs (Slurm's test17.36 in a partition of OverSubscribe=YES:2):
 * jobs that did not ask to share take the 2 fg places and the rest wait
 * (no CPU is left for a bg one); jobs that ask (sched_job_t.shares,
 * --oversubscribe) also take the bg places beside fg jobs that share, 4
 * at once, as cons_tres runs them.  A sharing job finds no bg place beside
 * a fg job that does not share. */
static void test_sharing_jobs_pair_on_busy_cpus(void **state)
{
	static const char *policies[] = { "cmcbf", "amcbf" };
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		for (int shares = 0; shares < 3; shares++) {
			world_t w;
			sched_config_t cfg;
			sched_config_defaults(&cfg);
			world(&w, 1, 2, 4096, 0);
			/* 2: the first two do not share, the rest do */
			for (int k = 0; k < 5; k++) {
				sched_job_t *job = add_job(&w, 1, 60);
				job->req.mem_per_cpu = 4;
				job->shares = shares == 1 ||
					      (shares == 2 && k >= 2);
			}
			assert_int_equal(sched_policy_find(policies[i])->engine(
				&w.st, &cfg, SCHED_EV_ARRIVAL, &w.out), 0);
			assert_int_equal(running(&w), shares == 1 ? 4 : 2);
			assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
			assert_int_equal(w.jobs[1].where, SCHED_RUNNING_FG);
			assert_int_equal(w.jobs[2].where, shares == 1 ?
					 SCHED_RUNNING_BG : SCHED_QUEUED);
			assert_int_equal(w.jobs[3].where, shares == 1 ?
					 SCHED_RUNNING_BG : SCHED_QUEUED);
			assert_int_equal(w.jobs[4].where, SCHED_QUEUED);
			assert_int_equal(w.hosts[0].mem_bg, shares == 1 ? 8 : 0);
			sched_decisions_free(&w.out);
		}
	}
}

/* A busy job starting in fg on a CPU whose bg place holds another job
 * evicts it (Liu et al.'s Algorithm 2, line 25), unless both share. */
static void test_sharing_bg_job_not_evicted(void **state)
{
	(void)state;
	for (int shares = 0; shares < 2; shares++) {
		world_t w;
		sched_config_t cfg;
		int slot = 0;
		sched_config_defaults(&cfg);
		world(&w, 1, 1, 0, 0);
		add_job(&w, 1, 60)->shares = shares;
		add_job(&w, 1, 60)->shares = shares;
		assert_int_equal(sched_start(&w.st, &w.out, 0, SCHED_TIER_BG,
					     &slot), 0);
		sched_decisions_clear(&w.out);
		assert_int_equal(sched_dispatch_fg(&w.st, &cfg, &w.out, 1,
						   NULL, NULL), 0);
		assert_int_equal(w.jobs[1].where, SCHED_RUNNING_FG);
		assert_int_equal(w.jobs[0].where, shares ? SCHED_RUNNING_BG :
				 SCHED_QUEUED);
		assert_int_equal(w.out.count, shares ? 1 : 2);
		sched_decisions_free(&w.out);
	}
}

/* Jobs of a partition that shares CPUs only between jobs that asked
 * (sched_job_t.asks_only: OverSubscribe=YES:N) and jobs that may pair by
 * CPU use (asks_only 0: FORCE:N). */
typedef struct {
	int asks_only, shares;
} pairing_t;

/* One host of `cpus` CPUs, every process light (use 0.3, under the util
 * threshold), the default config, and two one-CPU jobs of pairings a
 * and b; job `placed` (0 or 1) runs on CPU 0 in `tier` (not new). */
static void pairing_world(world_t *w, sched_config_t *cfg, int cpus,
			  pairing_t a, pairing_t b, size_t placed,
			  sched_tier_t tier)
{
	int slot = 0;
	const pairing_t p[2] = { a, b };
	sched_config_defaults(cfg);
	world(w, 1, cpus, 0, 0);
	for (int s = 0; s < MAXS; s++)
		w->util[s] = 0.3;
	for (int k = 0; k < 2; k++) {
		sched_job_t *job = add_job(w, 1, 60);
		job->asks_only = p[k].asks_only;
		job->shares = p[k].shares;
	}
	assert_int_equal(sched_start(&w->st, &w->out, placed, tier, &slot), 0);
	w->jobs[placed].is_new = 0;
	sched_decisions_clear(&w->out);
}

/* Without a host table: the engine counts slots alone (no sched_fit). */
static void drop_hosts(world_t *w)
{
	w->st.hosts = NULL;
	w->st.nhosts = 0;
	w->st.slot_host = NULL;
}

/* One CPU, a light fg job on it and a light job arriving: it goes to bg
 * by CPU use only when neither is asks_only, by asking when both share,
 * and else waits; with or without a host table (sched_fit's and the
 * slot-counting paths). */
static void test_asks_only_never_bg_by_use(void **state)
{
	static const struct {
		pairing_t fg, job;
		sched_where_t where;
	} cases[] = {
		{ { 0, 0 }, { 0, 0 }, SCHED_RUNNING_BG },	/* FORCE */
		{ { 0, 0 }, { 1, 0 }, SCHED_QUEUED },
		{ { 1, 0 }, { 0, 0 }, SCHED_QUEUED },
		{ { 1, 0 }, { 1, 0 }, SCHED_QUEUED },
		{ { 1, 0 }, { 1, 1 }, SCHED_QUEUED },	/* fg did not ask */
		{ { 0, 0 }, { 1, 1 }, SCHED_QUEUED },
		{ { 1, 1 }, { 0, 0 }, SCHED_QUEUED },
		{ { 1, 1 }, { 1, 1 }, SCHED_RUNNING_BG },	/* both asked */
	};
	static const char *policies[] = { "cmcbf", "amcbf" };
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		for (size_t p = 0; p < 2; p++)
			for (int hosts = 0; hosts < 2; hosts++) {
				world_t w;
				sched_config_t cfg;
				int bg = cases[i].where == SCHED_RUNNING_BG;
				pairing_world(&w, &cfg, 1, cases[i].fg,
					      cases[i].job, 0, SCHED_TIER_FG);
				if (!hosts)
					drop_hosts(&w);
				assert_int_equal(sched_policy_find(policies[p])->
					engine(&w.st, &cfg, SCHED_EV_ARRIVAL,
					       &w.out), 0);
				assert_int_equal(w.jobs[0].where,
						 SCHED_RUNNING_FG);
				assert_int_equal(w.jobs[1].where,
						 cases[i].where);
				assert_int_equal(w.out.count, bg);
				assert_int_equal(w.nodes[0].bg_job, bg ? 1 : -1);
				sched_decisions_free(&w.out);
			}
}

/* A sharing job left alone in bg (its fg partner ended) on CPU 0 of a
 * host of 2; a job of its partition that did not ask (queued before it)
 * takes CPU 1's fg place, not CPU 0's beside it, and the bg job is
 * promoted in place; jobs that may pair by use (FORCE) keep Alg. 2's
 * choice: the first job CPU 0, the bg job promoted to CPU 1. */
static void test_asks_only_not_fg_over_bg(void **state)
{
	(void)state;
	for (int asks = 0; asks < 2; asks++) {
		world_t w;
		sched_config_t cfg;
		pairing_world(&w, &cfg, 2, (pairing_t){ asks, 0 },
			      (pairing_t){ asks, asks }, 1, SCHED_TIER_BG);
		w.jobs[0].is_new = 0;
		assert_int_equal(sched_amcbf(&w.st, &cfg,
					     SCHED_EV_FG_DEPARTURE, &w.out), 0);
		assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
		assert_int_equal(w.jobs[0].alloc[0], asks ? 1 : 0);
		assert_int_equal(w.jobs[1].where, SCHED_RUNNING_FG);
		assert_int_equal(w.jobs[1].alloc[0], asks ? 0 : 1);
		assert_int_equal(w.nodes[0].bg_job, -1);
		assert_int_equal(w.nodes[1].bg_job, -1);
		sched_decisions_free(&w.out);
	}
}

/* One CPU, a sharing job in bg there and its fg place idle (no
 * reservation, which would hold the CPU for the bg job): a job of its
 * partition that did not ask waits for the CPU; one that may pair by use
 * (FORCE, beside a FORCE bg job) starts in fg over it. */
static void test_asks_only_waits_for_a_bg_jobs_cpu(void **state)
{
	(void)state;
	for (int asks = 0; asks < 2; asks++) {
		world_t w;
		sched_config_t cfg;
		pairing_world(&w, &cfg, 1, (pairing_t){ asks, asks },
			      (pairing_t){ asks, 0 }, 0, SCHED_TIER_BG);
		cfg.reserve = 0;
		assert_int_equal(sched_amcbf(&w.st, &cfg, SCHED_EV_ARRIVAL,
					     &w.out), 0);
		assert_int_equal(w.jobs[0].where, SCHED_RUNNING_BG);
		assert_int_equal(w.jobs[1].where, asks ? SCHED_QUEUED :
				 SCHED_RUNNING_FG);
		assert_int_equal(w.nodes[0].fg_job, asks ? -1 : 1);
		assert_int_equal(w.out.count, asks ? 0 : 1);
		sched_decisions_free(&w.out);
	}
}

/* The head (queued first) and a later fg job on the only CPU, both light:
 * AMCBF switches the later job to bg in place for the head when both may
 * pair by use; when the later job's partition shares only on request it
 * is no victim that can go to bg (requeue_victims 0: the head waits) and
 * is requeued instead (requeue_victims 1). */
static void test_asks_only_victim_not_swapped(void **state)
{
	(void)state;
	for (int asks = 0; asks < 2; asks++)
		for (int requeue = 0; requeue < 2; requeue++) {
			world_t w;
			sched_config_t cfg;
			pairing_world(&w, &cfg, 1, (pairing_t){ 0, 0 },
				      (pairing_t){ asks, 0 }, 1, SCHED_TIER_FG);
			cfg.requeue_victims = requeue;
			w.jobs[0].is_new = 0;
			assert_int_equal(sched_amcbf(&w.st, &cfg,
				SCHED_EV_FG_DEPARTURE, &w.out), 0);
			if (asks && !requeue) {
				assert_int_equal(w.jobs[0].where,
						 SCHED_QUEUED);
				assert_int_equal(w.jobs[1].where,
						 SCHED_RUNNING_FG);
				assert_int_equal(w.out.count, 0);
			} else {
				assert_int_equal(w.jobs[0].where,
						 SCHED_RUNNING_FG);
				assert_int_equal(w.out.items[0].action,
					asks ? SCHED_REQUEUE : SCHED_TO_BG);
				assert_int_equal(w.out.items[0].job, 1);
				assert_int_equal(w.jobs[1].where, asks ?
					SCHED_QUEUED : SCHED_RUNNING_BG);
				assert_int_equal(w.nodes[0].bg_job,
						 asks ? -1 : 1);
			}
			sched_decisions_free(&w.out);
		}
}

/* Slots without a host table, victims requeued (requeue_victims 1): the
 * head, of a partition that shares only on request, needs one fg place;
 * the newest fg job (2) holds slot 0 with a bg job (3) beside it, an older
 * one (1) slot 1.  Requeueing job 2 would leave the head slot 0 beside
 * job 3, which it may not pair with: job 1 is requeued for it instead,
 * and the head starts on slot 1. */
static void test_asks_only_victim_whose_place_it_can_take(void **state)
{
	world_t w;
	sched_config_t cfg;
	int slot;
	(void)state;
	pairing_world(&w, &cfg, 2, (pairing_t){ 1, 0 }, (pairing_t){ 0, 0 },
		      1, SCHED_TIER_FG);	/* job 1 on slot 0 */
	drop_hosts(&w);
	cfg.requeue_victims = 1;
	sched_release(&w.st, 1);
	slot = 1;
	assert_int_equal(sched_start(&w.st, &w.out, 1, SCHED_TIER_FG, &slot),
			 0);
	add_job(&w, 1, 60);
	add_job(&w, 1, 60);
	slot = 0;
	assert_int_equal(sched_start(&w.st, &w.out, 2, SCHED_TIER_FG, &slot),
			 0);
	assert_int_equal(sched_start(&w.st, &w.out, 3, SCHED_TIER_BG, &slot),
			 0);
	for (size_t j = 0; j < 4; j++)
		w.jobs[j].is_new = 0;
	sched_decisions_clear(&w.out);
	assert_int_equal(sched_amcbf(&w.st, &cfg, SCHED_EV_FG_DEPARTURE,
				     &w.out), 0);
	assert_int_equal(w.out.items[0].action, SCHED_REQUEUE);
	assert_int_equal(w.out.items[0].job, 1);
	assert_int_equal(w.out.items[0].preemptor, 0);
	assert_int_equal(w.out.items[1].action, SCHED_START);
	assert_int_equal(w.out.items[1].job, 0);
	assert_int_equal(w.jobs[0].where, SCHED_RUNNING_FG);
	assert_int_equal(w.jobs[0].alloc[0], 1);
	assert_int_equal(w.nodes[0].bg_job, 3);
	assert_int_not_equal(w.nodes[0].fg_job, 0);
	sched_decisions_free(&w.out);
}

/* 4 hosts x 16 CPUs, 96 one-CPU jobs: 64 start at once (the issue's
 * burst, as sched/backfill on cons_tres runs it). */
static void test_burst_of_serial_jobs(void **state)
{
	static const char *policies[] = { "fcfs", "easy", "conservative",
					  "cmbf", "ambf", "cmcbf", "amcbf" };
	(void)state;
	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		world_t w;
		sched_config_t cfg;
		const sched_policy_t *pol = sched_policy_find(policies[p]);
		assert_non_null(pol);
		sched_config_defaults(&cfg);
		world(&w, 4, 16, 64000, 0);
		for (int i = 0; i < 96; i++)
			add_job(&w, 1, 300)->req.mem_per_cpu = 200;
		assert_int_equal(pol->engine(&w.st, &cfg, SCHED_EV_ARRIVAL,
					     &w.out), 0);
		assert_int_equal(running(&w), 64);
		assert_int_equal(w.hosts[3].mem_fg, 16 * 200);
		sched_decisions_free(&w.out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_fills_a_host_first),
		cmocka_unit_test(test_fit_memory_bound_host_refuses),
		cmocka_unit_test(test_fit_gpus),
		cmocka_unit_test(test_fit_exclusive_and_hold),
		cmocka_unit_test(test_burst_of_serial_jobs),
		cmocka_unit_test(test_easy_holds_the_heads_slots),
		cmocka_unit_test(test_easy_memory),
		cmocka_unit_test(test_easy_gpus),
		cmocka_unit_test(test_tiers_share_memory_not_gpus),
		cmocka_unit_test(test_fg_only_waits_for_the_foreground),
		cmocka_unit_test(test_amcbf_evicts_for_a_whole_host),
		cmocka_unit_test(test_sharing_jobs_pair_on_busy_cpus),
		cmocka_unit_test(test_sharing_bg_job_not_evicted),
		cmocka_unit_test(test_asks_only_never_bg_by_use),
		cmocka_unit_test(test_asks_only_not_fg_over_bg),
		cmocka_unit_test(test_asks_only_waits_for_a_bg_jobs_cpu),
		cmocka_unit_test(test_asks_only_victim_not_swapped),
		cmocka_unit_test(test_asks_only_victim_whose_place_it_can_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
