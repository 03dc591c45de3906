// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysroot - the one place that turns a system path into a host path.
 *
 * Commands never open "/proc/..." directly, so a captured tree of a board in
 * the field (or a test fixture) reads exactly like the machine it came from.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "parse.h"
#include "sysroot.h"

static char root_dir[PATH_MAX] = "/";

int sysroot_set(const char *dir)
{
	struct stat st;
	char real[PATH_MAX];

	if (!dir || !*dir || !strcmp(dir, "/")) {
		strcpy(root_dir, "/");
		return 0;
	}
	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!realpath(dir, real))
		return -errno;
	snprintf(root_dir, sizeof(root_dir), "%s", real);
	return 0;
}

bool sysroot_is_live(void)
{
	return !strcmp(root_dir, "/");
}

const char *sysroot_dir(void)
{
	return root_dir;
}

int sysroot_require_live(const char *what)
{
	if (sysroot_is_live())
		return 0;
	err_msg("--sysroot %s: %s needs the live system", root_dir, what);
	return -EROFS;
}

char *sysroot_path(const char *path, char *buf, size_t len)
{
	if (sysroot_is_live())
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%s%s%s", root_dir, path[0] == '/' ? "" : "/", path);
	return buf;
}

int sysroot_open(const char *path, int flags)
{
	char buf[PATH_MAX];

	if (!sysroot_is_live() && (flags & O_ACCMODE) != O_RDONLY) {
		errno = EROFS;
		return -1;
	}
	return open(sysroot_path(path, buf, sizeof(buf)), flags | O_CLOEXEC);
}

FILE *sysroot_fopen(const char *path, const char *mode)
{
	char buf[PATH_MAX];

	if (!sysroot_is_live() && strpbrk(mode, "wa+")) {
		errno = EROFS;
		return NULL;
	}
	return fopen(sysroot_path(path, buf, sizeof(buf)), mode);
}

DIR *sysroot_opendir(const char *path)
{
	char buf[PATH_MAX];

	return opendir(sysroot_path(path, buf, sizeof(buf)));
}

bool sysroot_exists(const char *path)
{
	char buf[PATH_MAX];

	return access(sysroot_path(path, buf, sizeof(buf)), F_OK) == 0;
}

int sysroot_read(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd = sysroot_open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
}

int sysroot_read_ll(const char *path, long long *val)
{
	char buf[64], err[PARSE_ERR_MAX];
	int ret = sysroot_read(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	return parse_llong(buf, LLONG_MIN, LLONG_MAX, val, err);
}

/* vsnprintf into a PATH_MAX buffer; -ENAMETOOLONG rather than a truncated path */
static int vformat_path(char *path, const char *fmt, va_list ap)
{
	int n = vsnprintf(path, PATH_MAX, fmt, ap);

	if (n < 0)
		return -EINVAL;
	return n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* In a function taking (..., FMT, ...): the path they format, in PATH; 0 or -errno. */
#define FORMAT_PATH(path, fmt) ({					\
	va_list ap_;							\
	int ret_;							\
	va_start(ap_, fmt);						\
	ret_ = vformat_path(path, fmt, ap_);				\
	va_end(ap_);							\
	ret_;								\
})

int sysroot_readf(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = FORMAT_PATH(path, fmt);

	return ret ? ret : sysroot_read(path, buf, len);
}

int sysroot_readf_ll(long long *val, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = FORMAT_PATH(path, fmt);

	return ret ? ret : sysroot_read_ll(path, val);
}

bool sysroot_existsf(const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = FORMAT_PATH(path, fmt);

	if (ret)
		errno = -ret;
	return !ret && sysroot_exists(path);
}

DIR *sysroot_opendirf(const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = FORMAT_PATH(path, fmt);

	if (ret)
		errno = -ret;
	return ret ? NULL : sysroot_opendir(path);
}

int sysroot_scanf(const char *path, const char *scanfmt, ...)
{
	char buf[4096];
	va_list ap;
	int ret = sysroot_read(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	va_start(ap, scanfmt);
	ret = vsscanf(buf, scanfmt, ap);
	va_end(ap);
	return ret == EOF ? -ENODATA : ret;
}

int sysroot_cgroup2_mount(char *buf, size_t len)
{
	FILE *f = sysroot_fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[4096], *sep;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	/* "36 25 0:30 / /sys/fs/cgroup rw,... shared:9 - cgroup2 cgroup2 rw" */
	while (ret && fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && strlen(mnt) < len) {
			strcpy(buf, mnt);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

int write_host_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int sysroot_write(const char *path, const char *val)
{
	char buf[PATH_MAX];

	if (!sysroot_is_live())
		return -EROFS;
	return write_host_file(sysroot_path(path, buf, sizeof(buf)), val, strlen(val));
}

static int max_cpu_in_list(const char *path)
{
	char buf[4096], err[PARSE_ERR_MAX];
	cpu_set_t set;
	int ret = sysroot_read(path, buf, sizeof(buf));

	if (ret <= 0)
		return -1;
	if (parse_cpu_list(buf, CPU_SETSIZE, &set, err))
		return -1;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

int sysroot_nr_cpus(void)
{
	int max = max_cpu_in_list("/sys/devices/system/cpu/possible");

	if (max >= 0)
		return max + 1;
	if (sysroot_is_live())
		return sysconf(_SC_NPROCESSORS_CONF);
	return 1;
}

int sysroot_online_cpus(void *cpu_set)
{
	char buf[4096], err[PARSE_ERR_MAX];
	cpu_set_t *set = cpu_set;
	int ret = sysroot_read("/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (ret <= 0)
		return ret < 0 ? ret : -ENOENT;
	if (parse_cpu_list(buf, CPU_SETSIZE, set, err))
		return -EINVAL;
	return CPU_COUNT(set);
}
