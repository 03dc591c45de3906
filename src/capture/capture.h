/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * capture - copy what the read-only commands read into a tree (or a
 * .tar.gz of one) that `rtla --sysroot DIR` reads on another machine.
 *
 * sources.c walks the live system and hands each file to a sink; sink.c
 * has two, a directory and a gzip'd tar. Both write beside the destination
 * under a ".partial" name and rename it into place only when everything,
 * the manifest last, was written: a destination either is a complete
 * capture or does not exist.
 */
#ifndef RTLA_CAPTURE_H
#define RTLA_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct capture_xattr {
	char name[64];
	unsigned char val[256];
	size_t len;
};

#define CAPTURE_MAX_XATTRS 8

struct capture_sink;

/* Create a sink whose result will be DEST. -errno, with *what the step. */
int capture_sink_dir_new(struct capture_sink **s, const char *dest, const char **what);
int capture_sink_tar_new(struct capture_sink **s, const char *dest, const char **what);

/* PATH is the system path ("/proc/1/status"); parents are made as needed. */
int capture_sink_file(struct capture_sink *s, const char *path, const void *data, size_t len,
		      mode_t mode, const struct capture_xattr *xattrs, int nxattrs);
int capture_sink_link(struct capture_sink *s, const char *path, const char *target);
/* Write the manifest last, flush, and rename into DEST. -errno. */
int capture_sink_finish(struct capture_sink *s, const void *manifest, size_t len);
/* Remove whatever was written; frees s. */
void capture_sink_abort(struct capture_sink *s);

#define CAPTURE_MANIFEST "rtla-capture.json"

enum capture_source {
	CAPTURE_SRC_PROCESSES, CAPTURE_SRC_KERNEL, CAPTURE_SRC_DAMON, CAPTURE_SRC_PARPORT,
	CAPTURE_SRC_CPU, CAPTURE_SRC_TRACING, CAPTURE_SRC_FILES,
	CAPTURE_NR_SOURCES,
};

struct capture_stats {
	uint64_t files, bytes;
	uint64_t excluded;	/* paths --exclude left out */
	uint64_t unreadable;	/* files the kernel would not give (write-only, EBUSY...) */
	uint64_t too_big;	/* files over the per-file limit */
	char note[160];
};

/* A file the kernel would not give, for the report's list of them. */
struct capture_unreadable {
	enum capture_source src;
	int err;			/* errno: EACCES (write-only), EFBIG (too big), ... */
	char *path;
};

struct capture_ctx {
	struct capture_sink *sink;		/* NULL with --dry-run */
	const char *const *excludes;
	int nexcludes;
	const int *pids;		/* --pids: only these processes (npids > 0) */
	int npids;
	uint64_t max_size;		/* of all files together */
	uint64_t total;
	enum capture_source src;
	struct capture_stats stats[CAPTURE_NR_SOURCES];
	int err;			/* the first write error: the capture fails */
	char err_path[4096];
	char *buf;
	size_t buf_len;
	/* directories captured whole, so that a link pointing into one is not taken twice */
	char **trees;
	int ntrees;
	struct capture_unreadable *unreadable;	/* every file counted in UNREADABLE */
	size_t nunreadable;
};

extern const char *const capture_source_names[CAPTURE_NR_SOURCES];

/* Capture each source; 0, or -errno with ctx->err_path naming where. */
int capture_all(struct capture_ctx *ctx, char *const *files, int nfiles);
void capture_ctx_free(struct capture_ctx *ctx);

#endif
