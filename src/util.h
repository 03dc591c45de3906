/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - the macros and tiny helpers every part of the suite may use
 * (util-linux's c.h).
 */
#ifndef RTLA_UTIL_H
#define RTLA_UTIL_H

#include <stdbool.h>
#include <string.h>

/* The number of elements of an array (not of a pointer: the compiler warns). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Does S end with SUFFIX? */
static inline bool str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

#endif
