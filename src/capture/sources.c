// SPDX-License-Identifier: GPL-2.0-only
/*
 * sources - what a capture copies: the files the read-only commands read.
 *
 * Only what is listed here is ever read, so what is left out is left out by
 * construction: no environ, no memory (mem, pagemap, kcore), no keys, no fd
 * links, no file contents but those of /proc and /sys listed below (files
 * named on the command line are captured empty, with their security
 * xattrs). Files that block or act when opened are never opened:
 * trace_pipe and friends, and timerlat_fd (opening it starts a timerlat
 * workload), which is captured as an empty file so that its presence shows.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "msg.h"
#include "util.h"

const char *const capture_source_names[CAPTURE_NR_SOURCES] = {
	[CAPTURE_SRC_PROCESSES] = "processes", [CAPTURE_SRC_KERNEL] = "kernel",
	[CAPTURE_SRC_DAMON] = "damon", [CAPTURE_SRC_PARPORT] = "parport", [CAPTURE_SRC_CPU] = "cpu",
	[CAPTURE_SRC_TRACING] = "tracing", [CAPTURE_SRC_FILES] = "files",
};

#define FILE_MAX	(64u << 20)	/* a bigger file is left out, with a note */
#define TREE_DEPTH	8

#define FOLLOW_DEVICES	(1 << 0)	/* also take the /sys/devices trees links point to */

static struct capture_stats *stats(struct capture_ctx *ctx)
{
	return &ctx->stats[ctx->src];
}

static bool excluded(struct capture_ctx *ctx, const char *path)
{
	for (int i = 0; i < ctx->nexcludes; i++)
		if (!fnmatch(ctx->excludes[i], path, FNM_PATHNAME | FNM_LEADING_DIR)) {
			stats(ctx)->excluded++;
			return true;
		}
	return false;
}

/* Open files that never block or act on open: see the top of the file. */
static bool never_open(const char *name)
{
	static const char *const names[] = {
		"trace_pipe", "trace_pipe_raw", "trace", "snapshot", "snapshot_raw",
		"trace_marker", "trace_marker_raw", "timerlat_fd", NULL,
	};

	for (const char *const *n = names; *n; n++)
		if (!strcmp(name, *n))
			return true;
	return false;
}

/* Read PATH whole into ctx->buf; its length, or -errno. */
static ssize_t read_whole(struct capture_ctx *ctx, const char *path)
{
	size_t len = 0;
	int fd, tries = 0;

again:
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len == ctx->buf_len) {
			size_t want = ctx->buf_len ? ctx->buf_len * 2 : 1 << 16;
			char *p = want <= FILE_MAX ? realloc(ctx->buf, want) : NULL;

			if (!p) {
				close(fd);
				return -EFBIG;
			}
			ctx->buf = p;
			ctx->buf_len = want;
		}
		n = read(fd, ctx->buf + len, ctx->buf_len - len);
		if (n < 0 && errno == EINTR)
			continue;
		/* DAMON's sysfs answers EBUSY while another reader holds its lock */
		if (n < 0 && errno == EBUSY && tries++ < 20 && !len) {
			close(fd);
			nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
			goto again;
		}
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	return len;
}

static void fail_at(struct capture_ctx *ctx, int err, const char *path)
{
	if (ctx->err)
		return;
	ctx->err = err;
	snprintf(ctx->err_path, sizeof(ctx->err_path), "%s", path);
}

/* Hand data to the sink (none with --dry-run), counting it against --max-size. */
static void put_file(struct capture_ctx *ctx, const char *path, const void *data, size_t len,
		     mode_t mode, const struct capture_xattr *xattrs, int nxattrs)
{
	int ret = 0;

	ctx->total += len;
	if (ctx->total > ctx->max_size) {
		fail_at(ctx, -EFBIG, path);
		return;
	}
	if (ctx->sink)
		ret = capture_sink_file(ctx->sink, path, data, len, mode, xattrs, nxattrs);
	if (ret) {
		fail_at(ctx, ret, path);
		return;
	}
	stats(ctx)->files++;
	stats(ctx)->bytes += len;
}

/* Captured modes: readable as on the machine, and removable by whoever has the copy. */
static mode_t copy_mode(mode_t mode)
{
	return (mode & 0444) | 0200;
}

/*
 * Keep the path of a file left out, so that the report can say which ones
 * its UNREADABLE counts (-J, and with -D each on stderr as it happens).
 */
static void note_unreadable(struct capture_ctx *ctx, const char *path, int err)
{
	struct capture_unreadable *u;

	debug_msg("not captured: %s: %s", path, strerror(err));
	u = realloc(ctx->unreadable, (ctx->nunreadable + 1) * sizeof(*u));
	if (!u)
		return;		/* the count still holds it */
	ctx->unreadable = u;
	u += ctx->nunreadable;
	u->path = strdup(path);
	if (!u->path)
		return;
	u->src = ctx->src;
	u->err = err;
	ctx->nunreadable++;
}

static void copy_file(struct capture_ctx *ctx, const char *path)
{
	struct stat st;
	ssize_t n;

	if (ctx->err || excluded(ctx, path))
		return;
	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return;
	if (!(st.st_mode & 0444)) {
		stats(ctx)->unreadable++;	/* write-only: commands, not state */
		note_unreadable(ctx, path, EACCES);
		return;
	}
	n = read_whole(ctx, path);
	if (n == -EFBIG) {
		stats(ctx)->too_big++;
		note_unreadable(ctx, path, EFBIG);
		return;
	}
	if (n < 0) {
		if (n != -ENOENT && n != -ESRCH) {	/* else gone since the listing */
			stats(ctx)->unreadable++;
			note_unreadable(ctx, path, -n);
		}
		return;
	}
	put_file(ctx, path, ctx->buf, n, copy_mode(st.st_mode), NULL, 0);
}

/* An empty file where one exists: its presence is what is read. */
static void copy_presence(struct capture_ctx *ctx, const char *path)
{
	struct stat st;

	if (!ctx->err && !excluded(ctx, path) && !stat(path, &st))
		put_file(ctx, path, "", 0, copy_mode(st.st_mode), NULL, 0);
}

static void copy_link(struct capture_ctx *ctx, const char *path)
{
	char target[PATH_MAX];
	ssize_t n;
	int ret = 0;

	if (ctx->err || excluded(ctx, path))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	if (ctx->sink)
		ret = capture_sink_link(ctx->sink, path, target);
	if (ret)
		fail_at(ctx, ret, path);
	else
		stats(ctx)->files++;
}

static bool in_trees(struct capture_ctx *ctx, const char *path)
{
	for (int i = 0; i < ctx->ntrees; i++) {
		size_t len = strlen(ctx->trees[i]);

		if (!strncmp(path, ctx->trees[i], len) && (!path[len] || path[len] == '/'))
			return true;
	}
	return false;
}

static void remember_tree(struct capture_ctx *ctx, const char *path)
{
	char **t = realloc(ctx->trees, (ctx->ntrees + 1) * sizeof(*t));

	if (!t)
		return;
	ctx->trees = t;
	t[ctx->ntrees] = strdup(path);
	if (t[ctx->ntrees])
		ctx->ntrees++;
}

static void copy_tree(struct capture_ctx *ctx, const char *dir, int depth, unsigned flags);

/* A link under a bus's devices/ points into /sys/devices: take that tree too. */
static void follow_device(struct capture_ctx *ctx, const char *link)
{
	char real[PATH_MAX];

	if (!realpath(link, real) || strncmp(real, "/sys/devices/", 13) || in_trees(ctx, real))
		return;
	copy_tree(ctx, real, TREE_DEPTH, 0);
}

static void copy_tree(struct capture_ctx *ctx, const char *dir, int depth, unsigned flags)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (ctx->err || excluded(ctx, dir))
		return;
	d = opendir(dir);
	if (!d)
		return;
	if (depth == TREE_DEPTH)
		remember_tree(ctx, dir);
	while (!ctx->err && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth > 0)
			copy_tree(ctx, path, depth - 1, flags);
		else if (S_ISLNK(st.st_mode))
			copy_link(ctx, path);
		else if (S_ISREG(st.st_mode) && !strcmp(de->d_name, "timerlat_fd"))
			copy_presence(ctx, path);
		else if (S_ISREG(st.st_mode) && !never_open(de->d_name))
			copy_file(ctx, path);
		if (S_ISLNK(st.st_mode) && (flags & FOLLOW_DEVICES) && !ctx->err)
			follow_device(ctx, path);
	}
	closedir(d);
}

/* Every entry of DIR that is a link, as a link (/sys/block, /sys/class/...). */
static void copy_links(struct capture_ctx *ctx, const char *dir, unsigned flags)
{
	copy_tree(ctx, dir, 0, flags);
}

static void capture_processes(struct capture_ctx *ctx)
{
	static const char *const files[] = { "status", "cmdline", "stat", "maps" };
	char path[300];
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d) {
		fail_at(ctx, -errno, "/proc");
		return;
	}
	while (!ctx->err && (de = readdir(d))) {
		bool wanted = !ctx->npids;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		for (int i = 0; i < ctx->npids && !wanted; i++)
			wanted = ctx->pids[i] == atoi(de->d_name);
		if (!wanted)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			snprintf(path, sizeof(path), "/proc/%s/%s", de->d_name, files[i]);
			copy_file(ctx, path);
		}
	}
	closedir(d);
}

static void capture_kernel(struct capture_ctx *ctx)
{
	static const char *const files[] = {
		"/proc/sys/kernel/cap_last_cap", "/proc/sys/kernel/osrelease",
		"/proc/sys/kernel/ostype", "/proc/sys/kernel/version",
		"/proc/sys/kernel/perf_event_paranoid", "/proc/sys/vm/memfd_noexec",
		"/proc/version", "/proc/cmdline", "/proc/filesystems", "/proc/modules",
		"/proc/config.gz", "/sys/kernel/realtime", "/etc/passwd", "/etc/group",
		/* the real-time configuration (src/rtconfig.c) */
		"/proc/interrupts", "/proc/sys/kernel/sched_rt_runtime_us",
		"/proc/sys/kernel/sched_rt_period_us", "/proc/sys/kernel/timer_migration",
		"/sys/devices/virtual/workqueue/cpumask",
		"/sys/devices/system/clocksource/clocksource0/current_clocksource",
		"/sys/devices/system/clocksource/clocksource0/available_clocksource", NULL,
	};
	struct utsname uts;
	char path[PATH_MAX];

	for (const char *const *f = files; *f; f++)
		copy_file(ctx, *f);
	/* BTF is megabytes; the commands that read a tree only ask if it is there */
	copy_presence(ctx, "/sys/kernel/btf/vmlinux");
	if (!uname(&uts)) {
		snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
		copy_file(ctx, path);
		snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", uts.release);
		copy_file(ctx, path);
		snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", uts.release);
		copy_file(ctx, path);
	}
	copy_tree(ctx, "/sys/module/test_dhry", 2, 0);
	/* each interrupt's affinity files, and the fair server's runtime per CPU */
	copy_tree(ctx, "/proc/irq", 1, 0);
	copy_tree(ctx, "/sys/kernel/debug/sched/fair_server", 1, 0);
}

static void capture_damon(struct capture_ctx *ctx)
{
	/* read only: reading a kdamond's files changes nothing of it */
	copy_tree(ctx, "/sys/kernel/mm/damon", 16, 0);
}

static void capture_parport(struct capture_ctx *ctx)
{
	copy_tree(ctx, "/sys/bus/parport", 3, FOLLOW_DEVICES);
	copy_tree(ctx, "/proc/sys/dev/parport", 4, 0);
	copy_tree(ctx, "/sys/bus/pata_parport", 3, FOLLOW_DEVICES);
	copy_tree(ctx, "/sys/devices/pata_parport", TREE_DEPTH, 0);
	copy_tree(ctx, "/sys/module/pata_parport", 2, 0);
	copy_tree(ctx, "/sys/module/parport", 2, 0);
	copy_links(ctx, "/sys/class/ata_port", 0);
	copy_links(ctx, "/sys/block", 0);
}

static void capture_cpu(struct capture_ctx *ctx)
{
	copy_tree(ctx, "/sys/devices/system/cpu", 5, 0);
	copy_file(ctx, "/proc/cpuinfo");
}

static const char *tracefs_dir(void)
{
	if (!access("/sys/kernel/tracing/available_tracers", F_OK))
		return "/sys/kernel/tracing";
	if (!access("/sys/kernel/debug/tracing/available_tracers", F_OK))
		return "/sys/kernel/debug/tracing";
	return NULL;
}

static void capture_tracing(struct capture_ctx *ctx)
{
	static const char *const files[] = {
		"available_tracers", "current_tracer", "tracing_on", "trace_clock",
		"tracing_thresh", "buffer_size_kb", "README", NULL,
	};
	static const char *const systems[] = {
		"irq", "irq_vectors", "ipi", "nmi", "sched", "osnoise", "ftrace", NULL,
	};
	const char *dir = tracefs_dir();
	char path[PATH_MAX];
	struct dirent *de;

	if (!dir) {
		snprintf(stats(ctx)->note, sizeof(stats(ctx)->note), "tracefs is not mounted");
		return;
	}
	for (const char *const *f = files; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		copy_file(ctx, path);
	}
	snprintf(path, sizeof(path), "%s/osnoise", dir);
	copy_tree(ctx, path, 4, 0);
	/* the formats of the events the sampler and the tracer decode */
	for (const char *const *sys = systems; *sys && !ctx->err; sys++) {
		DIR *d;

		snprintf(path, sizeof(path), "%s/events/%s", dir, *sys);
		d = opendir(path);
		while (d && !ctx->err && (de = readdir(d))) {
			char format[PATH_MAX];

			if (de->d_name[0] == '.' || de->d_type != DT_DIR)
				continue;
			if (snprintf(format, sizeof(format), "%s/%s/format", path,
				     de->d_name) < (int)sizeof(format))
				copy_file(ctx, format);
		}
		if (d)
			closedir(d);
	}
}

/* The security.* xattrs of PATH (following links, as capdump --files does). */
static int security_xattrs(const char *path, struct capture_xattr *x, int max)
{
	char names[4096];
	ssize_t len = listxattr(path, names, sizeof(names));
	int n = 0;

	for (char *p = names; len > 0 && p < names + len && n < max; p += strlen(p) + 1) {
		ssize_t vlen;

		if (strncmp(p, "security.", 9) || strlen(p) >= sizeof(x[n].name))
			continue;
		vlen = getxattr(path, p, x[n].val, sizeof(x[n].val));
		if (vlen < 0)
			continue;
		snprintf(x[n].name, sizeof(x[n].name), "%s", p);
		x[n++].len = vlen;
	}
	return n;
}

/* A file named on the command line: empty, its mode, its security xattrs. */
static void capture_named_file(struct capture_ctx *ctx, const char *path, const struct stat *st)
{
	struct capture_xattr x[CAPTURE_MAX_XATTRS];
	int n;

	if (excluded(ctx, path))
		return;
	n = security_xattrs(path, x, CAPTURE_MAX_XATTRS);
	put_file(ctx, path, "", 0, st->st_mode & 0644, x, n);
}

/* PATH made absolute, without resolving links: where --sysroot looks for it. */
static int absolute(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return snprintf(out, len, "%s", path) < (int)len ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return snprintf(out, len, "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", path) < (int)len ?
	       0 : -ENAMETOOLONG;
}

static void capture_files(struct capture_ctx *ctx, char *const *files, int nfiles)
{
	char abs[PATH_MAX], path[PATH_MAX];

	for (int i = 0; i < nfiles && !ctx->err; i++) {
		struct stat st;
		struct dirent *de;
		DIR *d;
		int ret = absolute(files[i], abs, sizeof(abs));

		if (!ret && stat(abs, &st))
			ret = -errno;
		if (ret) {
			fail_at(ctx, ret, files[i]);
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			capture_named_file(ctx, abs, &st);
			continue;
		}
		/* a directory: the files directly in it, as capdump --files reads it */
		d = opendir(abs);
		while (d && !ctx->err && (de = readdir(d))) {
			if (snprintf(path, sizeof(path), "%s/%s", strcmp(abs, "/") ? abs : "",
				     de->d_name) >= (int)sizeof(path))
				continue;
			if (!lstat(path, &st) && S_ISREG(st.st_mode))
				capture_named_file(ctx, path, &st);
		}
		if (d)
			closedir(d);
	}
}

int capture_all(struct capture_ctx *ctx, char *const *files, int nfiles)
{
	static void (*const sources[])(struct capture_ctx *) = {
		[CAPTURE_SRC_PROCESSES] = capture_processes, [CAPTURE_SRC_KERNEL] = capture_kernel,
		[CAPTURE_SRC_DAMON] = capture_damon, [CAPTURE_SRC_PARPORT] = capture_parport,
		[CAPTURE_SRC_CPU] = capture_cpu, [CAPTURE_SRC_TRACING] = capture_tracing,
	};

	for (ctx->src = 0; ctx->src < CAPTURE_SRC_FILES && !ctx->err; ctx->src++)
		sources[ctx->src](ctx);
	if (!ctx->err) {
		ctx->src = CAPTURE_SRC_FILES;
		capture_files(ctx, files, nfiles);
	}
	return ctx->err;
}

void capture_ctx_free(struct capture_ctx *ctx)
{
	for (int i = 0; i < ctx->ntrees; i++)
		free(ctx->trees[i]);
	free(ctx->trees);
	free(ctx->buf);
	for (size_t i = 0; i < ctx->nunreadable; i++)
		free(ctx->unreadable[i].path);
	free(ctx->unreadable);
}
