/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_dfrs_instance_json.c - fuzz target for dfrs_instance_parse_json, the
 * reader of `dfrs pack --instance`: it reads an instance that passes
 * dfrs_instance_check and writes back to the same instance, or fails with
 * one message.  Small instances are also placed by the default algorithm,
 * whose placement must pass the capacity check.
 */
#include <stdlib.h>
#include <string.h>

#include "dfrs/dfrs_instance_json.h"
#include "dfrs/lp_bound.h"
#include "dfrs/placement_algorithm.h"
#include "fuzz_targets.h"

/* Whether a and b are the same instance (as read, so NaN cannot occur). */
static int same_instance(const dfrs_instance_t *a, const dfrs_instance_t *b)
{
	if (a->ndims != b->ndims || a->nhosts != b->nhosts || a->njobs != b->njobs)
		return 0;
	for (int h = 0; h < a->nhosts; h++)
		for (int d = 0; d < a->ndims; d++)
			if (a->hosts[h].cap[d] != b->hosts[h].cap[d] ||
			    a->hosts[h].elem[d] != b->hosts[h].elem[d])
				return 0;
	for (int i = 0; i < a->njobs; i++) {
		const dfrs_job_t *x = &a->jobs[i], *y = &b->jobs[i];

		if (x->ntasks != y->ntasks || x->min_yield != y->min_yield)
			return 0;
		for (int d = 0; d < a->ndims; d++)
			if (x->req[d] != y->req[d] || x->need[d] != y->need[d] ||
			    dfrs_elem_req(x, d) != dfrs_elem_req(y, d) ||
			    dfrs_elem_need(x, d) != dfrs_elem_need(y, d))
				return 0;
	}
	return 1;
}

/* Place a small instance with the default algorithm; check the result. */
static void place(const dfrs_instance_t *inst)
{
	dfrs_placement_t pl;
	char err[512] = "";
	int failed = -1, rc;

	if (inst->nhosts > 8 || inst->njobs > 8 || dfrs_instance_ntasks(inst) > 16)
		return;
	(void)lp_bound(inst);
	rc = placement_algorithm_run(inst, NULL, &pl, NULL, 0, &failed, err,
				     sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == 1 || (rc == -1 && fuzz_one_message(err)));
	if (rc == 0)
		FUZZ_CHECK(dfrs_placement_check(inst, &pl, err, sizeof(err)) == 0);
	if (rc == 1)
		FUZZ_CHECK(failed >= 0 && failed < inst->njobs);
	if (rc >= 0)
		dfrs_placement_free(&pl);
}

int fuzz_dfrs_instance_json(const uint8_t *data, size_t size)
{
	dfrs_instance_store_t s, back;
	char err[512] = "", *text;
	int rc = dfrs_instance_parse_json((const char *)data, size, &s, err,
					  sizeof(err));

	FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err)));
	if (rc)
		return 0;
	FUZZ_CHECK(dfrs_instance_check(&s.inst, err, sizeof(err)) == 0);
	text = dfrs_instance_to_json(&s.inst);
	FUZZ_CHECK(text != NULL);
	FUZZ_CHECK(dfrs_instance_parse_json(text, strlen(text), &back, err,
					    sizeof(err)) == 0);
	FUZZ_CHECK(same_instance(&s.inst, &back.inst));
	place(&s.inst);
	free(text);
	dfrs_instance_store_free(&back);
	dfrs_instance_store_free(&s);
	return 0;
}
