/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_avail_state.c - fuzz target for avail_monitor_load, which sched/amcbf
 * runs at start on StateSaveLocation/dfrs-availability.json (the learned
 * ON/OFF chains through markov_models.c, and the suspended jobs): the
 * bytes are written to a scratch file of this process and loaded; a load
 * succeeds (and the models then estimate, decide and report) or fails with
 * one message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "avail/avail_monitor.h"
#include "fuzz_targets.h"

static char path[512];

static void remove_scratch(void)
{
	unlink(path);
}

/* This process's scratch file, holding exactly the bytes. */
static const char *scratch(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!path[0]) {
		const char *dir = getenv("TMPDIR");

		snprintf(path, sizeof(path), "%s/dfrs-fuzz-avail-%ld.json",
			 dir && dir[0] ? dir : "/tmp", (long)getpid());
		atexit(remove_scratch);
	}
	if (!(f = fopen(path, "w")) || fwrite(data, 1, size, f) != size ||
	    fclose(f) != 0) {
		perror(path);
		abort();
	}
	return path;
}

/* What the plugin does with a loaded state. */
static void use_state(avail_monitor_t *m)
{
	avail_monitor_config_t cfg = { .name = "threshold",
		.kind = AVAIL_POLICY_THRESHOLD_EST, .slot = 60, .zeta = 1,
		.beta = 0.999, .migration_cost = 300 };
	markov_estimate_t est;
	avail_decision_t d;
	char err[256] = "", *status;
	size_t n = m->nnodes < 4 ? m->nnodes : 4;

	for (size_t i = 0; i < m->nnodes; i++) {
		avail_monitor_estimate(m, i, &est);
		(void)avail_monitor_availability(m, i);
		(void)avail_monitor_is_on(m, i);
	}
	avail_monitor_pooled(m, &est);
	if (n > 0) {
		int rc = avail_monitor_decide(m, &cfg, 1, 0, n, n / 2, 1, &d,
					      err, sizeof(err));

		FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err)));
	}
	status = avail_monitor_status_json(m, &cfg, 0);
	FUZZ_CHECK(status != NULL);
	free(status);
}

int fuzz_avail_state(const uint8_t *data, size_t size)
{
	avail_monitor_t m;
	char err[512] = "";
	int rc;

	FUZZ_CHECK(avail_monitor_init(&m, 0) == 0);
	rc = avail_monitor_load(&m, scratch(data, size), err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err)));
	if (rc == 0)
		use_state(&m);
	avail_monitor_free(&m);
	return 0;
}
