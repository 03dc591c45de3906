/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - the macros and tiny helpers every part of the suite may use
 * (util-linux's c.h).
 */
#ifndef RTLA_UTIL_H
#define RTLA_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The number of elements of an array (not of a pointer: the compiler warns). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Does S end with SUFFIX? */
static inline bool str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
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

#endif
