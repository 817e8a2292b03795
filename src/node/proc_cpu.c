/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc_cpu.c - a process's CPU time from /proc/<pid>/stat (proc_cpu.h).
 * The command name (field 2) is in parentheses and may hold spaces and
 * parentheses itself, so fields are counted from the last ')'.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc_cpu.h"

int proc_cpu_seconds(const char *proc_root, pid_t pid, double ticks_per_second,
		     double *seconds)
{
	char path[512], buf[1024];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%ld/stat", proc_root, (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || !(ticks_per_second > 0))
		return -1;
	buf[n] = 0;
	char *s = strrchr(buf, ')');
	if (!s)
		return -1;
	s++;
	/* fields 3 (state) .. 13, then utime (14) and stime (15) */
	for (int field = 3; field <= 13; field++) {
		s += strspn(s, " ");
		if (!*s)
			return -1;
		s += strcspn(s, " ");
	}
	char *end;
	unsigned long long ut = strtoull(s, &end, 10);
	if (end == s || *end != ' ')
		return -1;
	s = end;
	unsigned long long st = strtoull(s, &end, 10);
	if (end == s)
		return -1;
	*seconds = (double)(ut + st) / ticks_per_second;
	return 0;
}
