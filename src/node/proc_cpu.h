/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc_cpu.h - a process's cumulative CPU time (user + system) from
 * /proc/<pid>/stat, what dfrs-nodeagent's windowed measure of each job's
 * CPU use (cpu_window.h) samples; the same on cgroup v1 and v2.
 */
#ifndef DFRS_PROC_CPU_H
#define DFRS_PROC_CPU_H

#include <sys/types.h>

/*
 * The CPU seconds pid has used (fields 14 and 15 of proc_root/pid/stat,
 * utime and stime, over ticks_per_second) into *seconds.  0, or -1 when
 * the file is gone (the process ended) or not as the kernel writes it.
 */
int proc_cpu_seconds(const char *proc_root, pid_t pid, double ticks_per_second,
		     double *seconds);

#endif
