/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version_guard.h - the line a plugin logs when it is loaded into another
 * Slurm release than the one it was built for (version_guard.c).
 */
#ifndef DFRS_VERSION_GUARD_H
#define DFRS_VERSION_GUARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Put into buf the line naming both releases (plugin `type` built for
 * `ours`, loaded into `host`; SLURM_VERSION_NUMBER encoding) and return 1,
 * or return 0 when they are the same release or host is 0 (unknown).
 */
extern int dfrs_version_line(uint32_t ours, uint32_t host, const char *type,
			     char *buf, size_t size);

#endif
