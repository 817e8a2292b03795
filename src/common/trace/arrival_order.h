/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arrival_order.h - the order in which jobs arrive: earlier submit time
 * first, ties by a second key that is unique per job (its job id, or its
 * line in a trace file).  The trace readers and generators sort by it,
 * and so do sched/amcbf's queue order (fifo, and the ties of the others),
 * its list of arrivals for the online DFRS policies and its starts in the
 * partitions it does not manage.  Plain C, no Slurm headers.
 */
#ifndef DFRS_ARRIVAL_ORDER_H
#define DFRS_ARRIVAL_ORDER_H

/* < 0 when the job submitted at submit_a with key_a arrives first, > 0
 * when the other does, 0 for the same submit time and key. */
int arrival_order(double submit_a, long key_a, double submit_b, long key_b);

#endif
