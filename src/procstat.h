/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procstat - the fields of /proc/PID/stat that rtla reads to tell whether
 * a process is alive and whether it is the same process as before
 * (procstat.c).
 */
#ifndef RTLA_PROCSTAT_H
#define RTLA_PROCSTAT_H

#include <sys/types.h>

struct procstat {
	char state;			/* field 3: R, S, D, Z (zombie), X (dead), ... */
	unsigned long long start;	/* field 22: start time, clock ticks after boot */
};

/*
 * Parse one /proc/PID/stat line. The name in parentheses may hold anything
 * (spaces, ')'), so the fields are counted after its last ')'. 0 or -EINVAL.
 */
int procstat_parse(const char *line, struct procstat *st);

/*
 * Read /proc/PID/stat of the live system (ownership marks are about this
 * machine's processes, never a --sysroot tree). 0, -ENOENT or -ESRCH when
 * the process is gone, -EINVAL when the file does not parse, other -errno.
 */
int procstat_read(pid_t pid, struct procstat *st);

/*
 * The start time of PID (clock ticks after boot), or 0 when it cannot be
 * read. A pid alone is reused; pid and start time together name one process,
 * which is what an ownership mark (owned.c, damos/own.c) records and compares.
 */
unsigned long long procstat_start(pid_t pid);

#endif
