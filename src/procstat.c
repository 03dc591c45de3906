// SPDX-License-Identifier: GPL-2.0-only
/*
 * procstat - state and start time of a process, from /proc/PID/stat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procstat.h"

int procstat_parse(const char *line, struct procstat *st)
{
	const char *p = strrchr(line, ')');

	/* after the name: state, then 18 fields, then the start time */
	if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %*s %llu", &st->state, &st->start) != 2)
		return -EINVAL;
	return 0;
}

int procstat_read(pid_t pid, struct procstat *st)
{
	char path[64], buf[1024];
	ssize_t n;
	int fd;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;	/* exited between the open and the read */
	buf[n] = '\0';
	return procstat_parse(buf, st);
}

unsigned long long procstat_start(pid_t pid)
{
	struct procstat st;

	return procstat_read(pid, &st) ? 0 : st.start;
}
