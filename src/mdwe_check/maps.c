// SPDX-License-Identifier: GPL-2.0-only
/*
 * maps - the pure parsers of the audit: W+X mappings in /proc/PID/maps
 * text and the few lines of /proc/PID/status it shows. No I/O here, so
 * the unit tests and the fixtures exercise exactly what a live run does.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mdwe_check/mdwe.h"

/*
 * One maps line: "start-end perms offset dev inode   name", the name
 * padded to a column and possibly absent; it may hold blanks and ends only
 * at the newline (the kernel escapes a newline in a file name as "\012").
 */
static int parse_line(const char *s, const char *end, struct mdwe_wx *wx)
{
	unsigned long long start, stop;
	const char *p = s, *name;
	size_t len;
	char *e;
	int field;

	errno = 0;
	start = strtoull(p, &e, 16);
	if (e == p || *e != '-' || errno)
		return -EINVAL;
	p = e + 1;
	stop = strtoull(p, &e, 16);
	if (e == p || *e != ' ' || errno || stop < start)
		return -EINVAL;
	p = e + 1;
	if (end - p < 5 || p[4] != ' ' || !strchr("r-", p[0]) || !strchr("w-", p[1]) ||
	    !strchr("x-", p[2]) || !strchr("ps", p[3]))
		return -EINVAL;
	wx->lines++;
	if (p[1] != 'w' || p[2] != 'x')
		return 0;
	wx->count++;
	wx->bytes += stop - start;
	if (wx->count > 1)
		return 0;
	/* skip offset, dev and inode, then the padding before the name */
	p += 5;
	for (field = 0; field < 3 && p < end; field++) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	name = p;
	/* a NUL never comes from the kernel, but a damaged capture may hold one */
	len = name < end ? strnlen(name, end - name) : 0;
	if (!len) {
		strcpy(wx->first, "[anon]");
		return 0;
	}
	if (len >= sizeof(wx->first))
		len = sizeof(wx->first) - 1;
	memcpy(wx->first, name, len);
	wx->first[len] = '\0';
	return 0;
}

int mdwe_maps_scan(const char *text, size_t len, struct mdwe_wx *wx)
{
	const char *p = text, *stop = text + len;

	memset(wx, 0, sizeof(*wx));
	while (p < stop) {
		const char *nl = memchr(p, '\n', stop - p);
		const char *end = nl ? nl : stop;

		if (end > p && parse_line(p, end, wx))
			return -EINVAL;
		p = end + 1;
	}
	return 0;
}

/* "Key:\tvalue": the value when LINE starts with KEY, else NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static long long number(const char *v)
{
	char *e;
	long long n;

	errno = 0;
	n = strtoll(v, &e, 10);
	return e == v || errno || n < 0 ? -1 : n;
}

/* A flag or a mode: a small number, -1 when it is not one. */
static int small(const char *v)
{
	long long n = number(v);

	return n <= 1000 ? n : -1;
}

void mdwe_status_parse(const char *text, struct mdwe_status *st)
{
	const char *line = text, *v;

	memset(st, 0, sizeof(*st));
	st->ppid = -1;
	st->uid = -1;
	st->kthread = st->nnp = st->seccomp = -1;
	while (line && *line) {
		const char *nl = strchr(line, '\n');

		if ((v = value_of(line, "Name"))) {
			size_t n = nl ? (size_t)(nl - v) : strlen(v);

			if (n >= sizeof(st->name))
				n = sizeof(st->name) - 1;
			memcpy(st->name, v, n);
			st->name[n] = '\0';
		} else if ((v = value_of(line, "State"))) {
			st->state = *v != '\n' ? *v : 0;
		} else if ((v = value_of(line, "PPid"))) {
			long long n = number(v);

			st->ppid = n <= INT_MAX ? n : -1;
		} else if ((v = value_of(line, "Uid"))) {
			/* real, effective, saved, filesystem: the second one */
			while (*v && *v != '\t' && *v != ' ' && *v != '\n')
				v++;
			st->uid = !*v || *v == '\n' ? -1 : number(v + 1);
		} else if ((v = value_of(line, "Kthread"))) {
			st->kthread = small(v);
		} else if ((v = value_of(line, "NoNewPrivs"))) {
			st->nnp = small(v);
		} else if ((v = value_of(line, "Seccomp"))) {
			st->seccomp = small(v);
		}
		line = nl ? nl + 1 : NULL;
	}
}

const char *mdwe_seccomp_name(int mode)
{
	static const char *const modes[] = { "disabled", "strict", "filter" };

	return mode >= 0 && mode <= 2 ? modes[mode] : NULL;
}
