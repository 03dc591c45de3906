// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg - errors, warnings and debug output on stderr.
 *
 * A message is one line: the helpers add the newline when the format lacks
 * it, so callers cannot produce a half line that the next message glues onto.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

static const char *msg_prefix = "";
static bool msg_debug;

void msg_set_prefix(const char *prefix)
{
	msg_prefix = prefix ? prefix : "";
}

void msg_set_debug(bool on)
{
	msg_debug = on;
}

bool msg_debug_enabled(void)
{
	return msg_debug;
}

static void msg_vprint(const char *kind, const char *fmt, va_list ap)
{
	size_t len = strlen(fmt);

	fflush(stdout);
	fputs(msg_prefix, stderr);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	if (!len || fmt[len - 1] != '\n')
		fputc('\n', stderr);
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vprint(NULL, fmt, ap);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vprint("warning: ", fmt, ap);
	va_end(ap);
}

void info_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vprint(NULL, fmt, ap);
	va_end(ap);
}

void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (!msg_debug)
		return;
	va_start(ap, fmt);
	msg_vprint("debug: ", fmt, ap);
	va_end(ap);
}

void note_append(char *note, size_t size, const char *fmt, ...)
{
	size_t off = strlen(note);
	va_list ap;

	if (off && off + 2 < size) {
		strcpy(note + off, "; ");
		off += 2;
	}
	if (off >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(note + off, size - off, fmt, ap);
	va_end(ap);
}
