/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msg - the one way the suite talks to the user on stderr.
 *
 * Errors, warnings and debug lines all go through here so that the prefix,
 * the -D/--debug switch and the "one line per error" rule live in one place.
 */
#ifndef RTLA_MSG_H
#define RTLA_MSG_H

#include <stdbool.h>
#include <stddef.h>

/* Prefix for every message ("capdump: ..."); NULL or "" prints none. */
void msg_set_prefix(const char *prefix);
/* Append the formatted text to NOTE (SIZE bytes), after "; " when it holds some already. */
void note_append(char *note, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void msg_set_debug(bool on);
bool msg_debug_enabled(void);

void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void debug_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
