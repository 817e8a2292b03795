/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_window.c - where a time-bounded read of the pending jobs starts and
 * where the next one will (read_window.h).
 */
#include "read_window.h"

size_t read_window_start(const uint32_t *ids, size_t n, uint32_t cursor)
{
	size_t lo = 0, hi = n;

	if (!ids || !cursor)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < cursor)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? lo : 0;
}

uint32_t read_window_next(const uint32_t *ids, size_t n, size_t start,
			  size_t done)
{
	if (!ids || !n || done >= n)
		return 0;
	return ids[(start + done) % n];
}
