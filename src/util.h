/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - the macros and tiny helpers every part of the suite may use
 * (util-linux's c.h).
 */
#ifndef RTLA_UTIL_H
#define RTLA_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The number of elements of an array (not of a pointer: the compiler warns). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * A * B / C, rounded down, with the product in full: it may pass 64 bits, the
 * quotient may not. 64-bit targets have a 128-bit integer; 32-bit ones (armhf)
 * have none, and take the long multiplication and division below.
 */
static inline uint64_t mul_div_u64_long(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	uint64_t hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	uint64_t lo = (mid << 32) | (p00 & 0xffffffffu), q = 0, r = 0;

	for (int i = 127; i >= 0; i--) {
		uint64_t carry = r >> 63;

		r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (carry || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
}

static inline uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)((unsigned __int128)a * b / c);
#else
	return mul_div_u64_long(a, b, c);
#endif
}

/* Does S end with SUFFIX? */
static inline bool str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/*
 * BYTES of zeroes, aligned to ALIGN (a power of two, a multiple of
 * sizeof(void *)), every page written now rather than when first used: a
 * fault later is noise in a measuring loop, or RSS that grows over a run.
 * posix_memalign, not malloc: the compiler folds malloc and memset into
 * calloc, whose fresh pages stay untouched. NULL on failure; free() it.
 */
static inline void *alloc_resident(size_t bytes, size_t align)
{
	void *p;

	if (posix_memalign(&p, align, bytes))
		return NULL;
	memset(p, 0, bytes);
	return p;
}

/*
 * Room for one more element in the array *ARRP (NR used of *CAP, each SIZE
 * bytes): when full, its capacity doubles, from FIRST, up to MAX elements.
 * 0; -ENOSPC when it would pass MAX; -ENOMEM. ARRP: the address of the
 * array's pointer, whatever its type.
 */
static inline int array_room(void *arrp, size_t *cap, size_t nr, size_t size, size_t first,
			     size_t max)
{
	size_t ncap = *cap ? *cap * 2 : first;
	void *arr, *grown;

	if (nr < *cap)
		return 0;
	if (ncap > max)
		return -ENOSPC;
	memcpy(&arr, arrp, sizeof(arr));
	grown = realloc(arr, ncap * size);
	if (!grown)
		return -ENOMEM;
	memcpy(arrp, &grown, sizeof(grown));
	*cap = ncap;
	return 0;
}

/*
 * The other way, for an array that fills and empties (a queue): when it
 * held at most a quarter of *CAP since the last look (PEAK: the most it held
 * since), the capacity halves, down to FIRST. The new one is at least twice
 * PEAK, so a steady rate does not make it grow again: only a quieter
 * stretch after a burst shrinks it. A failed realloc keeps the array.
 */
static inline void array_shrink(void *arrp, size_t *cap, size_t peak, size_t size, size_t first)
{
	size_t ncap = *cap / 2;
	void *arr, *shrunk;

	if (peak > *cap / 4 || ncap < first)
		return;
	memcpy(&arr, arrp, sizeof(arr));
	shrunk = realloc(arr, ncap * size);
	if (!shrunk)
		return;
	memcpy(arrp, &shrunk, sizeof(shrunk));
	*cap = ncap;
}

#endif
