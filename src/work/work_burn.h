/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * work_burn.h - spend a given amount of this thread's CPU time computing,
 * measured by the kernel (CLOCK_THREAD_CPUTIME_ID), so that a process that
 * gets less of a CPU (cgroup weights, CFS bandwidth, SIGSTOP) takes longer
 * in wall time but burns exactly the same work.
 */
#ifndef DFRS_WORK_BURN_H
#define DFRS_WORK_BURN_H

/* This thread's CPU time in seconds. */
double work_burn_cpu_now(void);

/* Monotonic wall time in seconds. */
double work_burn_wall_now(void);

/* Compute until this thread has used `seconds` more CPU time. */
void work_burn(double seconds);

/* Sleep until the monotonic clock reads `when` (seconds); at once if past. */
void work_burn_sleep_until(double when);

#endif
