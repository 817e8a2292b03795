/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resv_access.h - which nodes a pending job may use now, given the site's
 * advanced reservations, as plain data: the mask the consolidation engines
 * (Liu et al. 2013, Sec. IV; sched_job_t.allowed) take, so that a job is
 * neither started nor given victims where Slurm would refuse its start.
 *
 * The rules are those of Slurm's job_test_resv() (reservation.c, 22.05 and
 * 24.11) at the time "now":
 *   - a member (a job that asked for the reservation) may start only while
 *     its reservation runs, and only on its nodes; FLEX lifts both, and
 *     ANY_NODES (a reservation of licenses or burst buffers only) the
 *     nodes;
 *   - nobody may use the nodes of another whole-node reservation that
 *     overlaps its run, [now, now + duration); for a member of a MAINT
 *     reservation, or of an OVERLAP one towards non-MAINT ones, that does
 *     not apply;
 *   - an outsider whose run overlaps a reservation with nodes may not use
 *     them, and none at all during an ALL_NODES reservation, a PART_NODES
 *     one of its partition, or a MAINT one covering its partition.
 * A reservation of some cores of a node (CoreCnt=) keeps outsiders off the
 * whole node here: the engine places whole nodes (Slurm would let them use
 * the node's other cores).
 */
#ifndef DFRS_RESV_ACCESS_H
#define DFRS_RESV_ACCESS_H

#include <stddef.h>

/* Reservation flags, as far as the rules above use them. */
#define RESV_ACCESS_FLEX	0x01u	/* members: any node, any time */
#define RESV_ACCESS_ANY_NODES	0x02u	/* members: any node */
#define RESV_ACCESS_MAINT	0x04u
#define RESV_ACCESS_OVERLAP	0x08u
#define RESV_ACCESS_ALL_NODES	0x10u	/* outsiders: no node at all */
#define RESV_ACCESS_PART_NODES	0x20u	/* outsiders of its partition: none */
#define RESV_ACCESS_WHOLE	0x40u	/* whole nodes (not some cores) */

typedef struct {
	double start;		/* its members may start from (s since epoch) */
	double held_from;	/* outsiders are kept off from (for a repeating
				   reservation its first start, as Slurm) */
	double end;
	const unsigned char *nodes;	/* per node: reserved; NULL: none */
	int part;		/* PART_NODES: its partition's id, else -1 */
	unsigned flags;		/* RESV_ACCESS_* */
} resv_access_resv_t;

typedef struct {
	int member;		/* index of the reservation it asked for, -1 */
	double duration;	/* its time limit in seconds; < 0: none */
	int part;		/* its partition's id */
	const unsigned char *part_nodes;	/* its partition's nodes */
} resv_access_job_t;

typedef enum {
	RESV_ACCESS_OK,		/* mask narrowed to what it may use now */
	RESV_ACCESS_NOT_YET,	/* a member before its reservation starts
				   (or while it has no node): mask cleared */
	RESV_ACCESS_ENDED,	/* a member after its reservation ended:
				   mask cleared */
	RESV_ACCESS_SHUT_OUT,	/* an outsider during a reservation of every
				   node it could use: mask cleared */
	RESV_ACCESS_BAD,	/* bad input (member index out of range) */
} resv_access_rc_t;

/*
 * Clear in mask[0..nnodes) the nodes job may not use at time now, given
 * the nresv reservations; nodes already clear stay so.  A run without a
 * time limit lasts a year, as Slurm counts it.
 */
resv_access_rc_t resv_access_mask(const resv_access_resv_t *resv,
				  size_t nresv, int nnodes,
				  const resv_access_job_t *job, double now,
				  unsigned char *mask);

/* What a result means, for a log line. */
const char *resv_access_rc_name(resv_access_rc_t rc);

#endif
