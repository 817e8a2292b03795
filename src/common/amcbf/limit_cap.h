/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * limit_cap.h - how far sched/amcbf may move a running job's end time.
 *
 * sched/amcbf gives a job back, as time limit, the CPU time it did not get
 * in the background tier or at a DFRS yield under 1 (Liu et al. 2013,
 * Sec. III; Stillwell et al. 2010, Sec. 5, measure jobs by the progress
 * they make).  A site's partition MaxTime and QOS MaxWall are wall-clock
 * bounds on a run (less the time it was suspended, as Slurm counts): by
 * default no end time moves past them.
 */
#ifndef DFRS_LIMIT_CAP_H
#define DFRS_LIMIT_CAP_H

#include <stdint.h>
#include <time.h>

/*
 * The latest end time a job that started at `start` and was suspended
 * `suspended` seconds since may have: start + suspended + the smaller of
 * part_max_min and qos_max_min (minutes; 0: no such bound).  0 when
 * neither bounds it.
 */
time_t limit_cap_end(time_t start, time_t suspended, uint32_t part_max_min,
		     uint32_t qos_max_min);

/*
 * The end time after moving `end` by `add` seconds (>= 0) under the cap
 * `cap` (0: none): never past the cap, never earlier than `end` (a job
 * whose end was already past it keeps its end).
 */
time_t limit_cap_move(time_t end, time_t add, time_t cap);

/*
 * The end time of a job resumed at `now` from a suspension that began at
 * `suspended_at`, when its end time was `end_before`.  Slurm's resume sets
 * now + time limit - the time it ran before (`slurm_end`, 22.05 to 26.05's
 * job_mgr.c), which drops what sched/amcbf had added to the end time for
 * CPU the job was denied; the job gets back the time it had left when it
 * was suspended, end_before - suspended_at, with that addition.  Never
 * earlier than slurm_end; past `deadline` (0: none) only as far as
 * slurm_end already is.
 */
time_t limit_cap_resume(time_t now, time_t slurm_end, time_t end_before,
			time_t suspended_at, time_t deadline);

/*
 * How far the caps let a job's end time `end` move: the smaller of
 * cap_end - end and deadline - end (each 0: none), at least 0; -1 when
 * neither holds it.
 */
double limit_cap_room(time_t end, time_t cap_end, time_t deadline);

/*
 * May a job be slowed?  run_left: the seconds of its time limit still to
 * run (a pending job: all of it); room: limit_cap_room of its end time;
 * slowdown: the largest part of its run it may be denied where it would
 * go (1 in the background tier, whose progress has no floor; 1 - its
 * minimum yield under DFRS).  1 when no cap holds it or the time it may
 * lose fits in the room; 0: keep it in the foreground at full yield.
 */
int limit_cap_may_slow(double run_left, double room, double slowdown);

#endif
