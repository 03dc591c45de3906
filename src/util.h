/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - the macros every part of the suite may use (util-linux's c.h).
 */
#ifndef RTLA_UTIL_H
#define RTLA_UTIL_H

/* The number of elements of an array (not of a pointer: the compiler warns). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
