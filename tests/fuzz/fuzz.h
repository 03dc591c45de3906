/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz - what the libFuzzer targets share.
 *
 * A target feeds its input to a parser and then checks the parser's
 * contract: a failed check aborts, and libFuzzer keeps the input as a
 * reproducer, exactly as it does for a sanitizer report. Buffers a parser
 * writes into are heap blocks of exactly the size it is promised, so that
 * ASan sees one byte too many.
 */
#ifndef RTLA_FUZZ_H
#define RTLA_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define FUZZ_CHECK(cond) do {							\
	if (!(cond)) {								\
		fprintf(stderr, "%s:%d: contract broken: %s\n",			\
			__FILE__, __LINE__, #cond);				\
		abort();							\
	}									\
} while (0)

/* A byte no parser writes: what an error buffer holds before the call. */
#define FUZZ_POISON 0x7f

/* The input as a C string in a block of exactly size + 1 bytes. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An error buffer of exactly PARSE_ERR_MAX bytes, poisoned. */
static inline char *fuzz_err_new(void)
{
	char *err = malloc(PARSE_ERR_MAX);

	if (!err)
		abort();
	memset(err, FUZZ_POISON, PARSE_ERR_MAX);
	return err;
}

/* After a rejection: a reason was written, and it ends inside the buffer. */
static inline void fuzz_err_check(char *err)
{
	FUZZ_CHECK(memchr(err, '\0', PARSE_ERR_MAX) != NULL);
	FUZZ_CHECK(err[0] != '\0' && err[0] != FUZZ_POISON);
	memset(err, FUZZ_POISON, PARSE_ERR_MAX);
}

#endif
