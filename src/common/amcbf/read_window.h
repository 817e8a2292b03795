/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_window.h - which pending jobs a time-bounded read phase reads, so
 * that the ones left out are read first next time.
 *
 * sched/amcbf reads slurmctld's pending jobs with its locks held and
 * stops once amcbf_max_read_time is spent (as Slurm's main scheduler stops
 * at max_sched_time).  Stopping always at the same place would starve the
 * tail of the queue; instead each read starts where the last one stopped
 * (a cursor: the first job id not read) and wraps around, so every
 * pending job is read within ceil(n / read-per-cycle) cycles.
 */
#ifndef DFRS_READ_WINDOW_H
#define DFRS_READ_WINDOW_H

#include <stddef.h>
#include <stdint.h>

/*
 * The index in ids (n ids in increasing order) where a read starts: the
 * first id >= cursor, or 0 when there is none (wrap around) or cursor is
 * 0 (the last read went through all).
 */
size_t read_window_start(const uint32_t *ids, size_t n, uint32_t cursor);

/*
 * The cursor for the next read, after reading `done` ids from index
 * `start` on (wrapping around): 0 when all n were read, else the first id
 * not read.
 */
uint32_t read_window_next(const uint32_t *ids, size_t n, size_t start,
			  size_t done);

#endif
