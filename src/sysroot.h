/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysroot - every /proc, /sys and tracefs path, opened relative to one root.
 *
 * The root is "/" (the live system) unless --sysroot DIR points the suite at
 * a tree captured from another machine or at a test fixture. Paths are given
 * as on the live system ("/proc/1/status"); writes and live-only actions are
 * refused on a non-live root.
 */
#ifndef RTLA_SYSROOT_H
#define RTLA_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Point the suite at DIR ("/" or NULL: the live system). -errno on failure. */
int sysroot_set(const char *dir);
bool sysroot_is_live(void);
const char *sysroot_dir(void);

/* "live-only action" guard: 0 on the live root, else prints why and -EROFS. */
int sysroot_require_live(const char *what);

/* The host path of PATH under the root, in buf. */
char *sysroot_path(const char *path, char *buf, size_t len);

int sysroot_open(const char *path, int flags);
FILE *sysroot_fopen(const char *path, const char *mode);
DIR *sysroot_opendir(const char *path);
bool sysroot_exists(const char *path);

/*
 * Read a whole (small) file into buf, NUL-terminated, trailing newline
 * stripped. Returns the length or -errno.
 */
int sysroot_read(const char *path, char *buf, size_t len);
int sysroot_read_ll(const char *path, long long *val);

/*
 * The same, with the path given as a printf format, as util-linux's
 * ul_path_readf_*(): sysroot_readf(buf, len, "/sys/block/%s/size", disk).
 * The caller builds no path of its own; one past PATH_MAX is -ENAMETOOLONG
 * (NULL or false with errno ENAMETOOLONG), never a truncated other path.
 */
__attribute__((format(printf, 3, 4)))
int sysroot_readf(char *buf, size_t len, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int sysroot_readf_ll(long long *val, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
bool sysroot_existsf(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
DIR *sysroot_opendirf(const char *fmt, ...);
/*
 * sscanf(3) of the file at PATH (read as sysroot_read(), up to 4 KiB) with
 * SCANFMT: the number of items converted, or -errno (-ENODATA: none).
 */
__attribute__((format(scanf, 2, 3)))
int sysroot_scanf(const char *path, const char *scanfmt, ...);

/*
 * Where cgroup2 is mounted, from the root's /proc/self/mountinfo, in buf.
 * 0, -ENOENT when it is not mounted, -errno when mountinfo cannot be read.
 * A mount point too long for buf is passed over.
 */
int sysroot_cgroup2_mount(char *buf, size_t len);

/* Write a value to a kernel file of the live system. -errno on failure. */
int sysroot_write(const char *path, const char *val);
/*
 * Write LEN bytes to the file at the host path PATH in one write(2), as a
 * kernel file wants them (the ledger and the guardian keep host paths).
 * -errno on failure, -EIO on a short write.
 */
int write_host_file(const char *path, const void *buf, size_t len);

/* Number of CPUs the kernel was configured for (possible CPUs), and online. */
int sysroot_nr_cpus(void);
int sysroot_online_cpus(void *cpu_set /* cpu_set_t * */);

#endif
