/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_subnode.c - the online DFRS policies and gang in dfrs sim on
 * hosts of many CPUs, jobs smaller than a host (doc/design.md, "The
 * resource model: CPUs, memory and GPUs").  DFRS (sim_dfrs.c,
 * dfrs/host_task.h; Stillwell et al. 2010, "Requirements, Needs, and
 * Yield", at CPU granularity): a task's CPU need is its CPUs over its
 * host's times its use, its memory and GPUs are rigid, and a GPU is never
 * shared.  Gang (sim_gang.c, sched/gang.h; Zhang et al. 2000 on
 * cons_tres's CPUs): jobs on disjoint CPUs run together, jobs on the same
 * CPUs take turns, memory and GPUs are held in every row.  Schedules
 * worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dfrs/host_task.h"
#include "sim/sim_dfrs.h"
#include "sim/sim_engine.h"
#include "sim/sim_policy.h"
#include "sim/sim_workload.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-6)
#define MAXJOBS 128

static const char *const policies[] = { "greedyp", "greedypm", "mcb",
					"greedypmr" };
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

typedef struct {
	sim_workload_t w;
	sim_job_t jobs[MAXJOBS];
	double utils[MAXJOBS * 32];
	size_t used;
} work_t;

/* nhosts hosts of cpus CPUs, mem_mb MB (0: none) and gpus GPUs. */
static void machine(work_t *f, int nhosts, int cpus, long mem_mb, int gpus)
{
	memset(f, 0, sizeof(*f));
	f->w.jobs = f->jobs;
	f->w.nhosts = nhosts;
	f->w.cpus_per_node = cpus;
	f->w.nodes = nhosts * cpus;
	f->w.host_mem_mb = mem_mb;
	f->w.host_gpus = gpus;
}

/* A job of `cpus` CPUs, each used `use`, arriving at 0; its request on
 * hosts to fill in. */
static sim_job_t *add(work_t *f, int cpus, double runtime, double use)
{
	assert_true(f->w.njobs < MAXJOBS);
	assert_true(f->used + (size_t)cpus <= MAXJOBS * 32);
	sim_job_t *j = &f->jobs[f->w.njobs];
	*j = (sim_job_t){ .id = (long)f->w.njobs + 1, .runtime = runtime,
			  .estimate = runtime, .nodes = cpus,
			  .util = f->utils + f->used };
	for (int p = 0; p < cpus; p++)
		f->utils[f->used++] = use;
	f->w.njobs++;
	return j;
}

/* The default model (dfrs_min_yield 0.25, requeue), a fixed memory draw
 * of mem (a host's memory per host's worth of CPUs). */
static void model(sim_model_t *m, double mem)
{
	sim_model_defaults(m);
	m->dfrs_mem_lo = m->dfrs_mem_hi = mem;
}

static void run(const char *policy, const work_t *f, const sim_model_t *m,
		sim_result_t *r)
{
	sim_policy_t p;
	char err[256] = "";

	assert_int_equal(sim_policy_find(policy, &p), 0);
	assert_non_null(p.driver);
	if (sim_policy_run(&p, &f->w, m, r, err, sizeof(err)))
		fail_msg("%s: %s", policy, err);
}

/* Jobs first..last-1 started at `start`, finished at `finish`, never
 * suspended. */
static void ran(const char *policy, const sim_result_t *r, size_t first,
		size_t last, double start, double finish)
{
	for (size_t i = first; i < last; i++) {
		if (fabs(r->jobs[i].first_start - start) > 1e-6 ||
		    fabs(r->jobs[i].finish - finish) > 1e-6)
			fail_msg("%s: J%zu ran %g..%g, not %g..%g", policy,
				 i + 1, r->jobs[i].first_start,
				 r->jobs[i].finish, start, finish);
		assert_int_equal(r->jobs[i].preemptions, 0);
		assert_int_equal(r->jobs[i].migrations, 0);
	}
}

/*
 * The shape of a task: a one-CPU job on a 16-CPU host needs 1/16 of it
 * times its use; a 40-CPU job spreads over ceil(40 / 16) = 3 tasks of 40/3
 * CPUs; -N 2 makes 2 tasks; memory per CPU times the task's CPUs plus per
 * host, cut to a host; GPUs per job spread over the tasks, per host as
 * given, over the host's.  On hosts of one CPU without GPUs a job of b CPUs
 * is b tasks of need `use`, its memory per CPU each: the papers' model.
 */
static void test_task_shape(void **state)
{
	dfrs_job_t s;
	char err[160] = "";

	dfrs_host_request_t one = { .cpus = 1, .use = 0.8,
				    .mem_per_cpu = 0.01 };
	assert_int_equal(dfrs_host_task_shape(&one, 16, 0, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.ntasks, 1);
	assert_true(s.need[DFRS_DIM_CPU] == 0.8 / 16);
	assert_true(s.req[DFRS_DIM_CPU] == 0);
	assert_true(s.req[DFRS_DIM_MEM] == 0.01);
	assert_true(s.need[DFRS_DIM_MEM] == 0);
	assert_true(s.req[DFRS_DIM_GPU] == 0);

	dfrs_host_request_t wide = { .cpus = 40, .use = 1.5,
				     .mem_per_cpu = 0.07, .mem_per_host = 0.1,
				     .gpus = 5 };
	assert_int_equal(dfrs_host_task_shape(&wide, 16, 4, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.ntasks, 3);
	near(s.need[DFRS_DIM_CPU], 40.0 / 3 / 16);	/* use cut to 1 */
	assert_true(s.req[DFRS_DIM_MEM] == 1.0);	/* 1.03 cut to 1 */
	assert_true(s.req[DFRS_DIM_GPU] == 0.5);	/* ceil(5 / 3) of 4 */

	dfrs_host_request_t pinned = { .cpus = 8, .hosts = 2, .use = 0.5,
				       .mem_per_host = 0.25,
				       .gpus_per_host = 1 };
	assert_int_equal(dfrs_host_task_shape(&pinned, 16, 4, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.ntasks, 2);
	assert_true(s.need[DFRS_DIM_CPU] == 0.5 * 4 / 16);
	assert_true(s.req[DFRS_DIM_MEM] == 0.25);
	assert_true(s.req[DFRS_DIM_GPU] == 0.25);

	dfrs_host_request_t papers = { .cpus = 5, .use = 0.7,
				       .mem_per_cpu = 0.3 };
	assert_int_equal(dfrs_host_task_shape(&papers, 1, 0, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.ntasks, 5);
	assert_true(s.need[DFRS_DIM_CPU] == 0.7);
	assert_true(s.req[DFRS_DIM_MEM] == 0.3);

	dfrs_host_request_t too_big = { .cpus = 32, .hosts = 1, .use = 1 };
	assert_int_equal(dfrs_host_task_shape(&too_big, 16, 0, &s, err,
					      sizeof(err)), -1);
	assert_string_equal(err, "32 CPUs on 1 hosts: 32 a host, more than "
			    "a host's 16");
	assert_int_equal(dfrs_host_dims(0), 2);
	assert_int_equal(dfrs_host_dims(4), 3);
}

/*
 * The tasks of a Slurm job: its CPUs fill as few hosts as they can, and it
 * has at least the hosts it asks for.  sbatch -n 32 without -N is a job of
 * min_nodes 1: on hosts of 8 CPUs it is 4 tasks (one task of 32 CPUs fits
 * no host, and select/dfrs refused such a job on every node); 23 CPUs are 3;
 * -N 4 -n 4 keeps its 4 hosts.
 */
static void test_task_count(void **state)
{
	(void)state;
	assert_int_equal(dfrs_host_task_count(32, 1, 8), 4);
	assert_int_equal(dfrs_host_task_count(23, 1, 8), 3);
	assert_int_equal(dfrs_host_task_count(8, 1, 8), 1);
	assert_int_equal(dfrs_host_task_count(1, 1, 8), 1);
	assert_int_equal(dfrs_host_task_count(4, 4, 8), 4);
	assert_int_equal(dfrs_host_task_count(40, 0, 16), 3);
	assert_int_equal(dfrs_host_task_count(5, 0, 1), 5);
	assert_int_equal(dfrs_host_task_count(0, 0, 8), 1);
	assert_int_equal(dfrs_host_task_count(7, 2, 0), 2);
}

/* n one-CPU jobs of 100 s, CPU-bound, each holding mem_per_cpu MB and
 * `gpus` GPUs. */
static void one_cpu_jobs(work_t *f, int n, long mem_per_cpu, int gpus)
{
	for (int i = 0; i < n; i++) {
		sim_job_t *j = add(f, 1, 100, 1.0);

		j->req.mem_per_cpu = mem_per_cpu;
		j->req.gpus = gpus;
	}
}

/* Under every DFRS policy, the first `first` jobs run 0..t, the others
 * t..2t; the busy CPU is the work, 100 s a job. */
static void two_waves(const work_t *f, const sim_model_t *m, size_t first,
		      double t)
{
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], f, m, &r);
		ran(policies[p], &r, 0, first, 0, t);
		ran(policies[p], &r, first, f->w.njobs, t, 2 * t);
		near(r.busy_cpu_seconds, 100.0 * (double)f->w.njobs);
		sim_result_free(&r);
	}
}

/*
 * 96 one-CPU jobs of 100 s, CPU-bound, on 4 hosts of 16 CPUs and 16000
 * MB, each job holding 1000 MB (--mem-per-cpu): a host holds 16 of them by
 * memory, which is rigid.  64 start at 0, 16 a host, each needing 1/16 of
 * its host: yield 1, done at 100.  The other 32 start then and end at
 * 200.  On hosts of one CPU each without memory (the model before CPU
 * granularity) all 96 would start at 0.
 */
static void test_memory_rigid(void **state)
{
	work_t f;
	sim_model_t m;

	machine(&f, 4, 16, 16000, 0);
	one_cpu_jobs(&f, 96, 1000, 0);
	model(&m, 0.3);
	two_waves(&f, &m, 64, 100);
}

/*
 * The same 96 jobs holding 500 MB each: 24 fit a host by memory, and the
 * CPU is shared by yields.  All 96 start at 0, 24 a host (the least loaded
 * host takes each), needing 24/16 = 1.5 of a host at yield 1: every job
 * runs at yield 2/3 (above dfrs_min_yield 0.25) and ends at 150.
 */
static void test_cpu_shared_by_yield(void **state)
{
	work_t f;
	sim_model_t m;

	machine(&f, 4, 16, 16000, 0);
	one_cpu_jobs(&f, 96, 500, 0);
	model(&m, 0.3);
	two_waves(&f, &m, 96, 150);
}

/*
 * Hosts without memory (an SWF trace at --cpus-per-node 16): a task's
 * memory is the draw (here 0.9 of a host per host's worth of CPUs) times
 * its CPUs over the host's.  17 one-CPU jobs of 100 s on one host hold 17
 * x 0.9/16 = 0.956 of its memory and need 17/16 of its CPUs: all start at
 * 0 and run at yield 16/17, done at 106.25.  On hosts of one CPU the draw
 * 0.9 lets one task a CPU: 16 would start and the 17th wait.
 */
static void test_draw_per_cpu(void **state)
{
	work_t f;
	sim_model_t m;

	machine(&f, 1, 16, 0, 0);
	one_cpu_jobs(&f, 17, 0, 0);
	model(&m, 0.9);
	two_waves(&f, &m, 17, 100.0 * 17 / 16);
}

/*
 * GPUs are rigid: 4 hosts of 16 CPUs and 4 GPUs, 20 one-CPU jobs of one
 * GPU each (--gpus 1), 100 s.  16 GPUs: 16 jobs run 0..100 at yield 1
 * (a host's CPU need is 4/16), the other 4 wait for a GPU although CPUs
 * are idle, then run 100..200.  A GPU is never shared by yields.
 */
static void test_gpu_not_shared(void **state)
{
	work_t f;
	sim_model_t m;

	machine(&f, 4, 16, 0, 4);
	one_cpu_jobs(&f, 20, 0, 1);
	model(&m, 0.1);
	two_waves(&f, &m, 16, 100);
}

/*
 * A task's need is its CPUs over the host's times their use: on one host
 * of 16 CPUs, J1 holds 8 CPUs at use 1 (need 0.5) and J2 16 CPUs at use
 * 0.5 (need 0.5), both -N 1: together they need the host exactly and run
 * at yield 1, J1 0..100, J2 0..300.  Busy CPU 8 x 100 + 8 x 300.
 */
static void test_need_is_cpu_share(void **state)
{
	work_t f;
	sim_model_t m;

	machine(&f, 1, 16, 0, 0);
	add(&f, 8, 100, 1.0)->req.hosts = 1;
	add(&f, 16, 300, 0.5)->req.hosts = 1;
	model(&m, 0.1);
	for (size_t p = 0; p < NPOLICIES; p++) {
		sim_result_t r;

		run(policies[p], &f, &m, &r);
		ran(policies[p], &r, 0, 1, 0, 100);
		ran(policies[p], &r, 1, 2, 0, 300);
		near(r.busy_cpu_seconds, 800 + 2400);
		sim_result_free(&r);
	}
}

/* Gang, MPL 2, 10 s slices, no migration cost. */
static void gang_model(sim_model_t *m)
{
	sim_model_defaults(m);
	m->gang_mpl = 2;
	m->gang_slice = 10;
	m->migration_cost = 0;
}

/*
 * Gang on one host of 16 CPUs: J1 and J2 take 8 CPUs each, disjoint, and
 * share row 0: they run together.  J3 takes all 16 (-N 1), so row 1: rows
 * 0 and 1 take turns of 10 s, row 0 first.  J1 and J2 run 0..10, 20..30,
 * ..., 180..190 (100 s of work), J3 10..20, ..., 170..180 (90 s), then
 * alone at 190 when row 0 empties: done at 200.  J4 (16 CPUs) has no row
 * until then: 200..300.
 */
static void test_gang_cpus_take_turns(void **state)
{
	work_t f;
	sim_model_t m;
	sim_result_t r;

	machine(&f, 1, 16, 0, 0);
	add(&f, 8, 100, 1.0);
	add(&f, 8, 100, 1.0);
	add(&f, 16, 100, 1.0)->req.hosts = 1;
	add(&f, 16, 100, 1.0)->req.hosts = 1;
	gang_model(&m);
	run("gang", &f, &m, &r);
	ran("gang", &r, 0, 2, 0, 190);
	ran("gang", &r, 2, 3, 10, 200);
	ran("gang", &r, 3, 4, 200, 300);
	sim_result_free(&r);
}

/*
 * Gang keeps memory rigid across its rows: on one host of 16 CPUs and
 * 16000 MB, J1 (16 CPUs, 12000 MB, 100 s) runs; J2 (16 CPUs, 8000 MB)
 * would take row 1, but J1 holds its memory while suspended and 8000 MB
 * do not fit beside it: J2 waits, 100..200.  On columns without hosts the
 * two would take turns, done at 190 and 200.
 */
static void test_gang_memory_rigid(void **state)
{
	work_t f;
	sim_model_t m;
	sim_result_t r;

	machine(&f, 1, 16, 16000, 0);
	add(&f, 16, 100, 1.0)->req.mem_per_host = 12000;
	add(&f, 16, 100, 1.0)->req.mem_per_host = 8000;
	gang_model(&m);
	for (int b = 0; b < 2; b++) {
		const char *policy = b ? "gang-backfill" : "gang";

		run(policy, &f, &m, &r);
		ran(policy, &r, 0, 1, 0, 100);
		ran(policy, &r, 1, 2, 100, 200);
		sim_result_free(&r);
	}
}

/*
 * Gang never shares a GPU: on one host of 16 CPUs and 4 GPUs, J1 (1 CPU,
 * --gpus 4) runs 0..100; J2 (1 CPU, --gpus 1) has 15 idle CPUs beside it
 * in row 0 but no GPU, in any row: it runs 100..200.  J3 (1 CPU, no GPU)
 * runs beside J1 from 0.
 */
static void test_gang_gpu_not_shared(void **state)
{
	work_t f;
	sim_model_t m;
	sim_result_t r;

	machine(&f, 1, 16, 0, 4);
	add(&f, 1, 100, 1.0)->req.gpus = 4;
	add(&f, 1, 100, 1.0)->req.gpus = 1;
	add(&f, 1, 100, 1.0);
	gang_model(&m);
	run("gang-backfill", &f, &m, &r);
	ran("gang-backfill", &r, 0, 1, 0, 100);
	ran("gang-backfill", &r, 1, 2, 100, 200);
	ran("gang-backfill", &r, 2, 3, 0, 100);
	sim_result_free(&r);
}

/* A job whose tasks would hold more CPUs than a host: one message. */
static void test_task_too_big(void **state)
{
	work_t f;
	sim_model_t m;
	sim_result_t r;
	sim_policy_t p;
	char err[256] = "";

	machine(&f, 2, 16, 0, 0);
	add(&f, 32, 100, 1.0)->req.hosts = 1;
	model(&m, 0.1);
	assert_int_equal(sim_policy_find("greedyp", &p), 0);
	assert_int_equal(sim_policy_run(&p, &f.w, &m, &r, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "job 1: 32 CPUs on 1 hosts: 32 a host, "
			    "more than a host's 16");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_shape),
		cmocka_unit_test(test_task_count),
		cmocka_unit_test(test_memory_rigid),
		cmocka_unit_test(test_cpu_shared_by_yield),
		cmocka_unit_test(test_draw_per_cpu),
		cmocka_unit_test(test_gpu_not_shared),
		cmocka_unit_test(test_need_is_cpu_share),
		cmocka_unit_test(test_task_too_big),
		cmocka_unit_test(test_gang_cpus_take_turns),
		cmocka_unit_test(test_gang_memory_rigid),
		cmocka_unit_test(test_gang_gpu_not_shared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
