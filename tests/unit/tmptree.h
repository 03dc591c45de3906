/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tmptree - a temporary tree of regular files standing in for kernel files,
 * for the unit tests of what borrows and restores them (guardian, ledger).
 * The test creates ROOT with mkdtemp(); at("name") is a path in it.
 */
#ifndef RTLA_TMPTREE_H
#define RTLA_TMPTREE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[64];

static inline char *at(const char *name)
{
	static char bufs[8][512];
	static int n;
	char *b = bufs[n++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", root, name);
	return b;
}

static inline void put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		perror(path);
		exit(2);
	}
	close(fd);
}

/* the whole file, or "(missing)" */
static inline const char *get(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return "(missing)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static inline bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static inline double ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1e3 + (now.tv_nsec - t0->tv_nsec) / 1e6;
}

#endif
