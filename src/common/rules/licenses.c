/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * licenses.c - license requests against the pool (licenses.h).
 */
#include "licenses.h"

int rules_licenses_fit(const rules_lic_req_t *req, int nreq, const int *free,
		       int nlic)
{
	for (int r = 0; r < nreq; r++) {
		const rules_lic_req_t *q = &req[r];

		if (q->count <= 0)
			continue;
		if (!free || q->lic < 0 || q->lic >= nlic)
			return 0;
		if ((long)q->count + (q->held_away > 0 ? q->held_away : 0) >
		    (long)free[q->lic])
			return 0;
	}
	return 1;
}

void rules_licenses_take(const rules_lic_req_t *req, int nreq, int *free,
			 int nlic)
{
	for (int r = 0; free && r < nreq; r++) {
		const rules_lic_req_t *q = &req[r];

		if (q->count > 0 && q->lic >= 0 && q->lic < nlic)
			free[q->lic] -= q->count;
	}
}

void rules_licenses_give(const rules_lic_req_t *req, int nreq, int *free,
			 int nlic)
{
	for (int r = 0; free && r < nreq; r++) {
		const rules_lic_req_t *q = &req[r];

		if (q->count > 0 && q->lic >= 0 && q->lic < nlic)
			free[q->lic] += q->count;
	}
}
