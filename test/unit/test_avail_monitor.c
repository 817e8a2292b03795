/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_avail_monitor.c - the controller's availability bookkeeping: node
 * states, pooled estimates from known sequences, the decision of each
 * policy, the suspended set, the state file (saved without a heap that
 * grows with the nodes) and the status JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avail/avail_monitor.h"
#include "heap_count.h"

static void test_node_state(void **state)
{
	assert_int_equal(avail_node_state(true, false, 0, 1), ONOFF_OBS_DOWN);
	assert_int_equal(avail_node_state(true, true, 0, 1), ONOFF_OBS_DOWN);
	assert_int_equal(avail_node_state(false, true, 0, 1), ONOFF_OBS_OFF);
	assert_int_equal(avail_node_state(false, false, 0.2, 0.15), ONOFF_OBS_OFF);
	assert_int_equal(avail_node_state(false, false, 0.15, 0.15), ONOFF_OBS_ON);
	assert_int_equal(avail_node_state(false, false, 5.0, 1.0), ONOFF_OBS_ON);
}

/* a: ON ON ON OFF OFF ON (from ON 3, ON->ON 2; from OFF 2, OFF->ON 1)
 * b: ON OFF ON ON ON ON (from ON 4, ON->ON 3; from OFF 1, OFF->ON 1) */
static void feed(avail_monitor_t *m)
{
	static const int a[] = { 1, 1, 1, 0, 0, 1 }, b[] = { 1, 0, 1, 1, 1, 1 };
	size_t ia = avail_monitor_node(m, "a"), ib = avail_monitor_node(m, "b");

	assert_int_equal(ia, 0);
	assert_int_equal(ib, 1);
	assert_int_equal(avail_monitor_node(m, "a"), 0);
	for (int s = 0; s < 6; s++) {
		avail_monitor_observe(m, ia, a[s] ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
		avail_monitor_observe(m, ib, b[s] ? ONOFF_OBS_ON : ONOFF_OBS_OFF);
		avail_monitor_slot_done(m);
	}
}

static void test_estimates(void **state)
{
	avail_monitor_t m;
	markov_estimate_t e;

	assert_int_equal(avail_monitor_init(&m, 0), 0);
	assert_true(isnan(avail_monitor_availability(&m, 0)));
	feed(&m);
	assert_int_equal(m.slots, 6);
	avail_monitor_estimate(&m, 0, &e);
	assert_true(e.valid);
	assert_float_equal(e.p11, 2.0 / 3, 1e-12);
	assert_float_equal(e.p01, 0.5, 1e-12);
	avail_monitor_pooled(&m, &e);
	assert_true(e.valid);
	assert_float_equal(e.p11, 5.0 / 7, 1e-12);
	assert_float_equal(e.p01, 2.0 / 3, 1e-12);
	/* a: stationary 0.5 / (0.5 + 1/3) */
	assert_float_equal(avail_monitor_availability(&m, 0), 0.6, 1e-12);
	assert_true(avail_monitor_is_on(&m, 0));
	avail_monitor_observe(&m, 1, ONOFF_OBS_DOWN);
	assert_false(avail_monitor_is_on(&m, 1));
	avail_monitor_free(&m);
}

/* The plugin's settings for a policy: threshold decides as threshold-est,
 * slots of 10 s, beta 0.999. */
static avail_monitor_config_t config(const char *name, avail_policy_kind_t kind, double cost)
{
	avail_monitor_config_t c = { .name = name, .kind = kind, .slot = 10, .zeta = 1,
				     .beta = 0.999, .migration_cost = cost };
	return c;
}

static avail_decision_t decide(avail_monitor_t *m, const char *name, avail_policy_kind_t kind,
			       double cost, size_t n, size_t on, size_t spare)
{
	avail_monitor_config_t c = config(name, kind, cost);
	avail_decision_t d;
	char err[256];

	assert_int_equal(avail_monitor_decide(m, &c, 42, 1000, n, on, spare, &d, err,
					      sizeof(err)), 0);
	return d;
}

static void test_decisions(void **state)
{
	avail_monitor_t m;
	avail_decision_t d;
	char line[512];

	assert_int_equal(avail_monitor_init(&m, 0), 0);
	/* no chain learned: threshold falls back to myopic; gamma = 4/10:
	 * migrate iff fewer than 1/0.4 = 2.5 hosts are OFF */
	d = decide(&m, "threshold", AVAIL_POLICY_THRESHOLD_EST, 4, 2, 0, 2);
	assert_true(d.fallback);
	assert_int_equal(d.threshold, threshold_myopic_policy(2, 0.4));
	assert_int_equal(d.decision, THRESHOLD_MIGRATE);
	d = decide(&m, "myopic", AVAIL_POLICY_MYOPIC, 4, 4, 1, 3);	/* 3 OFF >= 2.5 */
	assert_int_equal(d.decision, THRESHOLD_WAIT);
	assert_false(d.fallback);

	feed(&m);
	/* tiny gamma: always migrate (T_0), if there is room */
	d = decide(&m, "threshold", AVAIL_POLICY_THRESHOLD_EST, 0.001, 2, 1, 1);
	assert_false(d.fallback);
	assert_int_equal(d.threshold, 0);
	assert_int_equal(d.decision, THRESHOLD_MIGRATE);
	d = decide(&m, "threshold", AVAIL_POLICY_THRESHOLD_EST, 0.001, 2, 0, 1);
	assert_int_equal(d.decision, THRESHOLD_WAIT);	/* 1 spare for 2 */
	/* huge gamma: never migrate (T_n) */
	d = decide(&m, "threshold", AVAIL_POLICY_THRESHOLD_EST, 1e7, 2, 1, 5);
	assert_int_equal(d.threshold, 2);
	assert_int_equal(d.decision, THRESHOLD_WAIT);
	assert_float_equal(d.p11, 5.0 / 7, 1e-12);
	assert_float_equal(d.gamma, 1e6, 1e-6);
	/* the fixed policies ignore gamma */
	d = decide(&m, "wait", AVAIL_POLICY_WAIT, 0.001, 3, 2, 5);
	assert_int_equal(d.decision, THRESHOLD_WAIT);
	d = decide(&m, "migrate", AVAIL_POLICY_MIGRATE, 1e7, 3, 0, 3);
	assert_int_equal(d.decision, THRESHOLD_MIGRATE);
	/* all hosts ON: run, and not recorded */
	size_t before = m.nrecent;
	d = decide(&m, "migrate", AVAIL_POLICY_MIGRATE, 1, 3, 3, 0);
	assert_int_equal(d.decision, THRESHOLD_RUN);
	assert_int_equal(m.nrecent, before);
	assert_int_equal(before, 7);

	d = decide(&m, "threshold", AVAIL_POLICY_THRESHOLD_EST, 1e7, 2, 1, 5);
	avail_decision_format(&d, line, sizeof(line));
	assert_string_equal(line, "JobId=42 n=2 s'=1 spare=5 p01=0.667 p11=0.714 "
			    "gamma=1e+06 beta=0.999 policy=threshold T_2: wait");
	/* the ring keeps the newest AVAIL_RECENT */
	for (int i = 0; i < 2 * AVAIL_RECENT; i++)
		decide(&m, "wait", AVAIL_POLICY_WAIT, 1, 2, 1, 0);
	assert_int_equal(m.nrecent, AVAIL_RECENT);
	avail_monitor_free(&m);
}

static void test_suspended_set(void **state)
{
	avail_monitor_t m;

	assert_int_equal(avail_monitor_init(&m, 0), 0);
	for (uint32_t id = 40; id > 0; id -= 4)
		assert_int_equal(avail_monitor_set_suspended(&m, id, true), 0);
	assert_int_equal(avail_monitor_set_suspended(&m, 8, true), 0);	/* twice */
	assert_int_equal(m.nsuspended, 10);
	assert_int_equal(avail_monitor_set_suspended(&m, 12, false), 0);
	assert_int_equal(avail_monitor_set_suspended(&m, 13, false), 0);
	assert_int_equal(m.nsuspended, 9);
	assert_true(avail_monitor_suspended(&m, 8));
	assert_true(avail_monitor_suspended(&m, 40));
	assert_false(avail_monitor_suspended(&m, 12));
	assert_false(avail_monitor_suspended(&m, 9));
	for (size_t i = 1; i < m.nsuspended; i++)
		assert_true(m.suspended[i - 1] < m.suspended[i]);
	avail_monitor_free(&m);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_state_file(void **state)
{
	char path[] = "/tmp/test_avail_monitor.XXXXXX", err[512];
	avail_monitor_t m, r;
	markov_estimate_t a, b;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(avail_monitor_init(&m, 0), 0);
	feed(&m);
	avail_monitor_set_suspended(&m, 17, true);
	assert_int_equal(avail_monitor_save(&m, path, err, sizeof(err)), 0);

	assert_int_equal(avail_monitor_init(&r, 0), 0);
	avail_monitor_node(&r, "other");
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), 0);
	assert_int_equal(r.nnodes, 2);
	assert_string_equal(r.nodes[1].name, "b");
	avail_monitor_pooled(&m, &a);
	avail_monitor_pooled(&r, &b);
	assert_float_equal(a.p01, b.p01, 0);
	assert_float_equal(a.p11, b.p11, 0);
	assert_true(avail_monitor_suspended(&r, 17));
	assert_int_equal(r.nsuspended, 1);
	assert_float_equal(avail_monitor_availability(&r, 0), 0.6, 1e-12);
	assert_true(isnan(avail_monitor_availability(&r, 2)));

	/* corrupt: nothing loaded, one line naming the file and the field */
	write_file(path, "{\"format\": \"slurm-dfrs availability\", \"version\": 1, "
		   "\"length_bins\": 64, \"nodes\": [], \"suspended\": [0]}");
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "suspended[0]=0: not a job id"));
	assert_int_equal(r.nnodes, 2);
	assert_true(avail_monitor_suspended(&r, 17));
	write_file(path, "{\"format\": \"slurm-dfrs availability\", \"vers");
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not valid JSON (truncated"));
	write_file(path, "{\"format\": \"other\"}");
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a slurm-dfrs availability state"));
	/* missing: a first start */
	unlink(path);
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), 1);
	assert_int_equal(r.nnodes, 2);
	avail_monitor_free(&m);
	avail_monitor_free(&r);
}

static void test_status_json(void **state)
{
	avail_monitor_t m;
	/* the plugin's defaults: observe, 60 s slots, 300 s per migration */
	avail_monitor_config_t c = config("observe", AVAIL_POLICY_WAIT, 300);
	json_object *root, *v, *node, *dec;

	assert_int_equal(avail_monitor_init(&m, 0), 0);
	feed(&m);
	avail_monitor_node(&m, "never");
	avail_monitor_set_suspended(&m, 7, true);
	decide(&m, "migrate", AVAIL_POLICY_MIGRATE, 1, 2, 1, 3);
	decide(&m, "wait", AVAIL_POLICY_WAIT, 1, 2, 0, 3);
	c.slot = 60;
	char *text = avail_monitor_status_json(&m, &c, 1234);
	assert_non_null(text);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "policy", &v));
	assert_string_equal(json_object_get_string(v), "observe");
	assert_true(json_object_object_get_ex(root, "gamma", &v));
	assert_float_equal(json_object_get_double(v), 5.0, 1e-12);
	assert_true(json_object_object_get_ex(root, "slots_observed", &v));
	assert_int_equal(json_object_get_int(v), 6);
	assert_true(json_object_object_get_ex(root, "nodes", &v));
	assert_int_equal(json_object_array_length(v), 3);
	node = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(node, "name", &v));
	assert_string_equal(json_object_get_string(v), "a");
	assert_true(json_object_object_get_ex(node, "state", &v));
	assert_string_equal(json_object_get_string(v), "ON");
	assert_true(json_object_object_get_ex(node, "p01", &v));
	assert_float_equal(json_object_get_double(v), 0.5, 1e-12);
	assert_true(json_object_object_get_ex(node, "ks", &v));
	node = json_object_array_get_idx(json_object_object_get(root, "nodes"), 2);
	assert_true(json_object_object_get_ex(node, "state", &v));
	assert_null(v);		/* never observed */
	assert_true(json_object_object_get_ex(root, "suspended", &v));
	assert_int_equal(json_object_get_int(json_object_array_get_idx(v, 0)), 7);
	assert_true(json_object_object_get_ex(root, "decisions", &v));
	assert_int_equal(json_object_array_length(v), 2);
	dec = json_object_array_get_idx(v, 0);	/* newest first */
	assert_string_equal(json_object_get_string(json_object_object_get(dec, "decision")),
			    "wait");
	assert_string_equal(json_object_get_string(json_object_object_get(dec, "policy")),
			    "wait");
	dec = json_object_array_get_idx(v, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(dec, "decision")),
			    "migrate");
	assert_int_equal(json_object_get_int(json_object_object_get(dec, "on_hosts")), 1);
	json_object_put(root);
	free(text);
	avail_monitor_free(&m);
}

/* The models of 1,024 nodes saved with little heap, and read back the
 * same (a json-c tree of them took about 14 kB a node, 14 MB). */
static void test_save_heap(void **state)
{
	char path[] = "/tmp/test_avail_monitor.XXXXXX", err[512], name[16];
	avail_monitor_t m, r;
	markov_estimate_t a, b;
	int fd;

	(void)state;
	/* before anything is allocated: a skip leaves the test at once */
	if (!HEAP_COUNTED)
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(avail_monitor_init(&m, 0), 0);
	for (int i = 1; i <= 1024; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		avail_monitor_node(&m, name);
	}
	for (int slot = 0; slot < 20; slot++) {
		for (size_t i = 0; i < m.nnodes; i++)
			avail_monitor_observe(&m, i, (slot + i) % 3 ?
					      ONOFF_OBS_ON : ONOFF_OBS_OFF);
		avail_monitor_slot_done(&m);
	}
	avail_monitor_set_suspended(&m, 17, true);
#if HEAP_COUNTED
	heap_now = heap_peak = 0;
	counting = true;
#endif
	assert_int_equal(avail_monitor_save(&m, path, err, sizeof(err)), 0);
#if HEAP_COUNTED
	counting = false;
	/* stdio's buffer and the file's name */
	assert_true(heap_peak < 64 * 1000);
#endif
	assert_int_equal(avail_monitor_init(&r, 0), 0);
	assert_int_equal(avail_monitor_load(&r, path, err, sizeof(err)), 0);
	assert_int_equal(r.nnodes, 1024);
	assert_string_equal(r.nodes[1023].name, "n1024");
	avail_monitor_estimate(&m, 500, &a);
	avail_monitor_estimate(&r, 500, &b);
	assert_float_equal(a.p01, b.p01, 0);
	assert_float_equal(a.p11, b.p11, 0);
	assert_true(avail_monitor_suspended(&r, 17));
	avail_monitor_free(&m);
	avail_monitor_free(&r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_state),
		cmocka_unit_test(test_estimates),
		cmocka_unit_test(test_decisions),
		cmocka_unit_test(test_suspended_set),
		cmocka_unit_test(test_state_file),
		cmocka_unit_test(test_save_heap),
		cmocka_unit_test(test_status_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
