/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap - a minimal TAP producer for the C unit tests.
 *
 * ok()/is_int()/is_str() print one TAP line each and remember failures;
 * tap_done() prints the plan and returns the exit status. A failure shows
 * what was expected and what came out.
 */
#ifndef RTLA_TAP_H
#define RTLA_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 0)))
static inline bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

__attribute__((format(printf, 2, 3)))
static inline bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(cond, fmt, ap);
	va_end(ap);
	return r;
}

#define is_int(got, want, ...) do { \
	long long g_ = (got), w_ = (want); \
	if (!ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got %lld, expected %lld\n", g_, w_); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__)) \
		printf("#   got '%s', expected '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
