/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap_count.h - for a unit test that bounds the heap a call takes: this
 * program's malloc, calloc, realloc and free replaced (glibc lets a
 * program do so: its own calls and its libraries' come here) so that the
 * heap held while `counting` is true is counted, its peak in heap_peak.
 * Include it in one file of a test program only.  HEAP_COUNTED is 0
 * under AddressSanitizer, which replaces malloc itself: such a test
 * skips there.
 */
#ifndef DFRS_TEST_HEAP_COUNT_H
#define DFRS_TEST_HEAP_COUNT_H

#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_COUNTED 0
#else
#define HEAP_COUNTED 1
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
static bool counting;
static long heap_now, heap_peak;

static void heap_count(void *p, int sign)
{
	if (!counting || !p)
		return;
	heap_now += sign * (long)malloc_usable_size(p);
	if (heap_now > heap_peak)
		heap_peak = heap_now;
}

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);

	heap_count(p, 1);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	heap_count(p, 1);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	heap_count(old, -1);
	p = __libc_realloc(old, n);
	heap_count(p ? p : old, 1);
	return p;
}

void free(void *p)
{
	heap_count(p, -1);
	__libc_free(p);
}
#endif

#endif
