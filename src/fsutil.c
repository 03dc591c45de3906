// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsutil - a folder and its parents, and a file replaced whole.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"

/* mkdir that accepts a folder already there (and only a folder) */
static int mkdir_one(const char *dir, mode_t mode)
{
	struct stat st;

	if (!mkdir(dir, mode))
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int fs_mkdir_p(const char *dir, mode_t mode)
{
	char tmp[PATH_MAX];
	int ret;

	if (!*dir)
		return -ENOENT;
	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		ret = mkdir_one(tmp, mode);
		*p = '/';
		if (ret)
			return ret;
	}
	return mkdir_one(tmp, mode);
}

int fs_mkdir_parents(const char *file, mode_t mode)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", file) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;	/* in the working folder, or in / */
	*slash = '\0';
	return fs_mkdir_p(dir, mode);
}

int fs_write_replace(const char *path, const char *tmp,
		     void (*fill)(FILE *f, const void *arg), const void *arg)
{
	char tmpbuf[PATH_MAX], target[PATH_MAX];
	FILE *f;
	int ret = 0;

	/* a symbolic link keeps pointing at the file: the file it names is replaced */
	if (!tmp && realpath(path, target))
		path = target;
	if (!tmp) {
		if ((size_t)snprintf(tmpbuf, sizeof(tmpbuf), "%s.tmp", path) >= sizeof(tmpbuf))
			return -ENAMETOOLONG;
		tmp = tmpbuf;
	}
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	errno = 0;	/* what a failed write in FILL left is the reason given */
	fill(f, arg);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		ret = errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

struct text {
	const char *buf;
	size_t len;
};

static void put_text(FILE *f, const void *arg)
{
	const struct text *t = arg;

	fwrite(t->buf, 1, t->len, f);
}

int fs_write_text(const char *path, const char *text, size_t len)
{
	struct text t = { text, len };

	return fs_write_replace(path, NULL, put_text, &t);
}
