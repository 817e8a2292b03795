/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement_algorithm.c - DFRS static placement algorithms by name
 * (Stillwell et al. 2010, "Algorithms").  See placement_algorithm.h.
 */
#include <stdio.h>
#include <string.h>

#include "metagreedy.h"
#include "placement_algorithm.h"
#include "metavp.h"

const char *placement_algorithm_default(const dfrs_instance_t *inst)
{
	return dfrs_hosts_homogeneous(inst) ? "METAVP" : "METAHVP";
}

int placement_algorithm_known(const char *name)
{
	vp_algorithm_t a;
	int s, p;

	return !strcmp(name, "METAVP") || !strcmp(name, "METAHVP") ||
	       !strcmp(name, "METAGREEDY") ||
	       metavp_algorithm_parse(name, &a) == 0 ||
	       metagreedy_parse(name, &s, &p) == 0;
}

void placement_algorithm_list(void (*emit)(const char *name, void *arg), void *arg)
{
	char buf[32];

	emit("METAVP", arg);
	emit("METAHVP", arg);
	emit("METAGREEDY", arg);
	for (int het = 0; het <= 1; het++)
		for (int i = 0; i < metavp_algorithm_count(het); i++) {
			metavp_algorithm_name(metavp_algorithm_at(het, i), buf, sizeof(buf));
			emit(buf, arg);
		}
	for (int s = 1; s <= METAGREEDY_JOB_ORDERS; s++)
		for (int p = 1; p <= METAGREEDY_HOST_CHOICES; p++) {
			metagreedy_name(s, p, buf, sizeof(buf));
			emit(buf, arg);
		}
}

int placement_algorithm_run(const dfrs_instance_t *inst, const char *name,
	       dfrs_placement_t *out, char *winner, size_t winner_len,
	       int *failed_job, char *err, size_t errlen)
{
	vp_algorithm_t alg;
	int s = 0, p = 0, rc;
	char buf[32] = "";

	if (!name)
		name = placement_algorithm_default(inst);
	if (!strcmp(name, "METAVP") || !strcmp(name, "METAHVP")) {
		rc = metavp_place_meta(inst, !strcmp(name, "METAHVP"), NULL, out,
				   &alg, failed_job);
		if (rc == 0)
			metavp_algorithm_name(alg, buf, sizeof(buf));
	} else if (!strcmp(name, "METAGREEDY")) {
		rc = metagreedy_place_meta(inst, out, &s, &p, failed_job);
		if (rc == 0)
			metagreedy_name(s, p, buf, sizeof(buf));
	} else if (metavp_algorithm_parse(name, &alg) == 0) {
		rc = metavp_place(inst, alg, NULL, 0.0, out, failed_job);
		snprintf(buf, sizeof(buf), "%s", name);
	} else if (metagreedy_parse(name, &s, &p) == 0) {
		rc = metagreedy_place(inst, s, p, out, failed_job);
		snprintf(buf, sizeof(buf), "%s", name);
	} else {
		snprintf(err, errlen,
			 "unknown algorithm '%s' (METAVP, METAHVP, METAGREEDY, VP_CPSUM, HVP_CPSUM_L, GREEDY_S3_P2, ...; --list shows all)",
			 name);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (winner)
		snprintf(winner, winner_len, "%s", buf);
	return rc;
}
