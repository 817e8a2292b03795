/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sim_ckpt.c - which replayed jobs checkpoint (sim_ckpt.c): the
 * --ckpt-jobs selector (all, user=UID, partition=NAME) and its errors;
 * a job checkpoints only if it asked and the deployed line sends it the
 * signal (amcbf_ckpt_signal and amcbf_ckpt_wait, ckpt_opt_in); and dfrs
 * advise's replay of a requeue under amcbf_mode=dfrs: a checkpoint
 * signal alone changes nothing (no job asked), a job that asked keeps
 * its progress.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_advise.h"
#include "sim/sim_ckpt.h"
#include "suite/dfrs_params.h"
#include "trace/trace.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void bad(const char *spec, const char *want)
{
	sim_ckpt_sel_t sel;
	char err[256] = "";

	assert_int_equal(sim_ckpt_parse(spec, &sel, err, sizeof(err)), -1);
	print_message("%s: %s\n", spec ? spec : "(null)", err);
	assert_string_equal(err, want);
	assert_int_equal(sel.all, 0);
	assert_int_equal(sel.nusers + sel.npartitions, 0);
}

static void test_parse(void **state)
{
	sim_ckpt_sel_t sel;
	char err[256] = "", spec[512] = "", name[80];

	(void)state;
	assert_int_equal(sim_ckpt_parse("all", &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.all, 1);
	assert_int_equal(sim_ckpt_parse("user=1001,partition=short,user=0",
					&sel, err, sizeof(err)), 0);
	assert_int_equal(sel.all, 0);
	assert_int_equal(sel.nusers, 2);
	assert_int_equal(sel.users[0], 1001);
	assert_int_equal(sel.users[1], 0);
	assert_int_equal(sel.npartitions, 1);
	assert_string_equal(sel.partitions[0], "short");

	bad("", "empty list (all, user=UID, partition=NAME)");
	bad(NULL, "empty list (all, user=UID, partition=NAME)");
	bad("user=1,,all", "an empty term in 'user=1,,all'");
	bad("user=1,", "an empty term in 'user=1,'");
	bad("qos=high", "'qos=high': expected all, user=UID or partition=NAME");
	bad("alls", "'alls': expected all, user=UID or partition=NAME");
	bad("user=", "'user=': expected all, user=UID or partition=NAME");
	bad("user=bob", "'user=bob': a UID is a number from 0");
	bad("user=-1", "'user=-1': a UID is a number from 0");
	bad("user=99999999999", "'user=99999999999': a UID is a number from 0");
	memset(name, 'p', 64);
	name[64] = '\0';
	snprintf(spec, sizeof(spec), "partition=%s", name);
	bad(spec, "'partition=pppppppppppppppppppppppppppppppppppppppppppppppp"
	    "pppppppppppppppp': a partition name has at most 63 characters");
	/* 32 terms are taken, a 33rd is refused */
	spec[0] = '\0';
	for (int i = 0; i < 32; i++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
			 "%suser=%d", i ? "," : "", i);
	assert_int_equal(sim_ckpt_parse(spec, &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.nusers, 32);
	strcat(spec, ",all");
	assert_int_equal(sim_ckpt_parse(spec, &sel, err, sizeof(err)), 0);
	strcat(spec, ",user=7");
	bad(spec, "more than 32 terms");
}

/* One node of one CPU and 4000 MB: J1 (user 1001, batch) runs 1000 s from
 * 0, J2 (user 1002, short) 200 s from 100; each holds 3000 MB, so they
 * cannot share the node.  J3 (user 1003, no partition) runs after. */
static const char history[] =
	"JobID|JobIDRaw|Partition|Submit|Start|End|ElapsedRaw|AllocCPUS|"
	"TimelimitRaw|UID|TotalCPU|AllocTRES|Reservation\n"
	"1|1|batch|2024-03-01T00:00:00|2024-03-01T00:00:00|"
	"2024-03-01T00:16:40|1000|1|30|1001|00:00:00|cpu=1,mem=3000M,node=1|\n"
	"2|2|short|2024-03-01T00:01:40|2024-03-01T00:16:40|"
	"2024-03-01T00:20:00|200|1|30|1002|00:00:00|cpu=1,mem=3000M,node=1|\n"
	"3|3||2024-03-01T01:00:00|2024-03-01T01:00:00|"
	"2024-03-01T01:00:10|10|1|30|1003|00:00:00|cpu=1,mem=3000M,node=1|\n";

static void read_history(trace_t *t)
{
	char err[256] = "";

	assert_int_equal(trace_parse(history, strlen(history), "h.csv", NULL,
				     t, err, sizeof(err)), 0);
	assert_int_equal(t->njobs, 3);
}

static void test_asked(void **state)
{
	sim_ckpt_sel_t sel;
	trace_t t;
	char err[256] = "";

	(void)state;
	read_history(&t);
	memset(&sel, 0, sizeof(sel));	/* nobody asked */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[i]), 0);
	assert_int_equal(sim_ckpt_parse("partition=short", &sel, err,
					sizeof(err)), 0);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[0]), 0);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[1]), 1);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[2]), 0);
	assert_int_equal(sim_ckpt_parse("user=1003,partition=batch", &sel, err,
					sizeof(err)), 0);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[0]), 1);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[1]), 0);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[2]), 1);
	assert_int_equal(sim_ckpt_parse("all", &sel, err, sizeof(err)), 0);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[i]), 1);
	/* an SWF trace names partitions by number (field 16) */
	t.jobs[0].partition = 0;	/* unknown */
	assert_int_equal(sim_ckpt_parse("partition=1", &sel, err,
					sizeof(err)), 0);
	assert_int_equal(sim_ckpt_asked(&sel, &t, &t.jobs[0]), 0);
	trace_free(&t);
	t = (trace_t){ 0 };
	trace_job_t swf = { .partition = 1, .user = 5 };
	assert_int_equal(sim_ckpt_asked(&sel, &t, &swf), 1);
	swf.partition = 12;
	assert_int_equal(sim_ckpt_asked(&sel, &t, &swf), 0);
}

/* A job checkpoints if it asked and the deployed line sends the signal. */
static void test_checkpoints(void **state)
{
	sim_ckpt_sel_t sel;
	trace_t t;
	char err[256] = "";

	(void)state;
	read_history(&t);
	assert_int_equal(sim_ckpt_parse("user=1001,partition=short", &sel, err,
					sizeof(err)), 0);
	assert_int_equal(sim_ckpt_checkpoints(&sel, SIGUSR1, 60, &t,
					      &t.jobs[0]), 1);
	assert_int_equal(sim_ckpt_checkpoints(&sel, SIGUSR1, 60, &t,
					      &t.jobs[1]), 1);
	assert_int_equal(sim_ckpt_checkpoints(&sel, SIGUSR1, 60, &t,
					      &t.jobs[2]), 0);
	/* no signal, or no wait for the checkpoint: none */
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(sim_ckpt_checkpoints(&sel, 0, 60, &t,
						      &t.jobs[i]), 0);
		assert_int_equal(sim_ckpt_checkpoints(&sel, SIGUSR1, 0, &t,
						      &t.jobs[i]), 0);
	}
	/* a signal and nobody asked: none */
	memset(&sel, 0, sizeof(sel));
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(sim_ckpt_checkpoints(&sel, SIGUSR1, 60, &t,
						      &t.jobs[i]), 0);
	trace_free(&t);
}

/* dfrs advise with amcbf_mode=dfrs (greedypm) on the history: J2's
 * arrival at 100 requeues J1 (the two do not fit in the node's memory).
 * J1 restarts at 300 and, without a checkpoint, does its 1000 s again:
 * done at 1300; J3 runs 3600..3610.  Mean response (1300 + 200 + 10) / 3.
 * With a checkpoint J1 keeps its 100 s and pays the 20 s migration cost:
 * done at 1220.  A checkpoint signal that no job asked for is the first
 * case, as live. */
static double replay(const trace_t *t, const char *params, const char *ckpt)
{
	sim_advise_opts_t o;
	dfrs_params_t p;
	sim_advise_t a;
	char err[256] = "";
	double response;

	sim_advise_opts_defaults(&o);
	assert_int_equal(sim_advise_deploy(&o, params, &p, err, sizeof(err)),
			 0);
	assert_string_equal(o.policy, "greedypm");
	if (ckpt)
		assert_int_equal(sim_ckpt_parse(ckpt, &o.ckpt, err,
						sizeof(err)), 0);
	o.wopts.nodes = 1;
	o.wopts.procs_per_node = 1;
	o.wopts.cpus_per_node = 1;
	o.wopts.host_mem_mb = 4000;
	o.nseeds = 1;
	o.nloads = 1;
	o.sweep = 0;
	o.alternative = 0;
	assert_int_equal(sim_advise_run(t, &o, &a, err, sizeof(err)), 0);
	response = a.loads[0].response_mean[SIM_ADVISE_DEPLOYED];
	sim_advise_free(&a);
	return response;
}

static void test_advise_replay(void **state)
{
	trace_t t;

	(void)state;
	read_history(&t);
	near(replay(&t, "amcbf_mode=dfrs", NULL), (1300 + 200 + 10) / 3.0);
	near(replay(&t, "amcbf_mode=dfrs,amcbf_ckpt_signal=USR1", NULL),
	     (1300 + 200 + 10) / 3.0);
	near(replay(&t, "amcbf_mode=dfrs,amcbf_ckpt_signal=USR1",
		    "user=1001"), (1220 + 200 + 10) / 3.0);
	near(replay(&t, "amcbf_mode=dfrs,amcbf_ckpt_signal=USR1",
		    "partition=short"), (1300 + 200 + 10) / 3.0);
	/* asked, but the deployed line sends no signal */
	near(replay(&t, "amcbf_mode=dfrs", "all"), (1300 + 200 + 10) / 3.0);
	near(replay(&t, "amcbf_mode=dfrs,amcbf_ckpt_signal=USR1,"
		    "amcbf_ckpt_wait=0", "all"), (1300 + 200 + 10) / 3.0);
	trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_asked),
		cmocka_unit_test(test_checkpoints),
		cmocka_unit_test(test_advise_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
