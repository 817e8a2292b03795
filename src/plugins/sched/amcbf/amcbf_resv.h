/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_resv.h - the site's advanced reservations as sched/amcbf's engines
 * see them (amcbf_resv.c; the rules are in amcbf/resv_access.h).
 */
#ifndef DFRS_AMCBF_RESV_H
#define DFRS_AMCBF_RESV_H

#include <stdbool.h>
#include <time.h>

#ifdef DFRS_AMCBF_SLURM_TYPES
/*
 * May this pending job start now as far as its own reservation goes (a job
 * that asked for none: always): Slurm's job_test_resv_now(), i.e. access,
 * the reservation's window and nodes.  False sets reason Reservation, as
 * select_nodes() would.  With slurmctld's job and node locks held.
 */
bool amcbf_resv_ok(job_record_t *job_ptr, time_t now);
/*
 * Clear in avail (a node bitmap) the nodes the reservations keep this
 * pending job off now: a member may use its reservation's nodes only, an
 * outsider no node of a reservation its run would overlap.  With
 * slurmctld's job and node locks and the partition read lock held.
 */
void amcbf_resv_restrict(job_record_t *job_ptr, bitstr_t *avail, time_t now);
#endif

/* Free what the plugin keeps between calls (at fini). */
void amcbf_resv_fini(void);

#endif
