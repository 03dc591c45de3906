/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * features - which kernel interfaces the suite depends on are there.
 *
 * A row is a feature with a probe. The probe asks the kernel under the
 * sysroot (a file read) or the running kernel itself (a syscall, "live
 * only"), and says what it saw: the state is never inferred from the kernel
 * version where the kernel can be asked.
 */
#ifndef RTLA_FEATURES_H
#define RTLA_FEATURES_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum feat_state {
	FEAT_UNKNOWN,	/* could not be probed: the evidence says why */
	FEAT_NO,
	FEAT_PARTIAL,	/* some of it, or offered but not in use */
	FEAT_YES,
};

#define FEAT_EVIDENCE_MAX 640

struct feat_result {
	enum feat_state state;
	char evidence[FEAT_EVIDENCE_MAX];
};

/* What the FUSE INIT probe saw (fuse_probe.c). */
struct fuse_init_info {
	int err;		/* 0, or -errno of the step that failed */
	char step[48];		/* that step: "open /dev/fuse", "mount", ... */
	uint32_t major, minor;
	uint64_t flags;		/* flags | flags2 << 32 (flags2 only with FUSE_INIT_EXT) */
	uint16_t total_extlen;	/* of the INIT request's header */
};

/* Caches shared by the rows of one run. */
struct feat_ctx {
	bool live;
	char tracefs[64];	/* where tracefs is under the root, "" if nowhere */
	bool fuse_done;
	struct fuse_init_info fuse;
	bool kconfig_done;
	char *kconfig;		/* the kernel's .config text, NULL if none found */
};

struct feat_def {
	const char *group;
	const char *name;
	const char *since;
	const char *needed_by;
	void (*probe)(struct feat_ctx *ctx, struct feat_result *r);
	/* a CONFIG_ symbol whose setting, where the kernel's config is known,
	 * is added to the evidence: it says why a "no" is a no */
	const char *kconfig;
};

/* The rows of each group, NULL-name terminated. */
extern const struct feat_def feat_tracing[], feat_realtime[], feat_mdwe[], feat_caps[],
	feat_damon[], feat_parport[], feat_fuse[], feat_memfd[], feat_bench[];

/* Set the result: a state and the evidence, printf-style. */
void feat_set(struct feat_result *r, enum feat_state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append "; text" (or text when empty) to the evidence. */
void feat_add(struct feat_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A syscall probe under --sysroot: unknown, and says so. */
bool feat_live_only(const struct feat_ctx *ctx, struct feat_result *r, const char *what);

/*
 * A directory's entry names that match a prefix, sorted, joined with SEP
 * into buf ("" when none); returns how many, or -errno if it cannot be read.
 */
int feat_list_dir(const char *dir, const char *prefix, const char *sep, char *buf, size_t len);
/* Is WORD one of the space-separated words of LIST? */
bool feat_has_word(const char *list, const char *word);

/*
 * The setting of CONFIG_NAME in the kernel's config (/proc/config.gz, else
 * /boot/config-RELEASE, under the root): "y", "m", a value, "n" for "is not
 * set" or absent, or NULL when no config can be read.
 */
const char *feat_kconfig(struct feat_ctx *ctx, const char *name, char *buf, size_t len);

/*
 * -c CPUS: the real-time configuration of those CPUs instead of the rows
 * (rtconfig_table.c), its columns for -o; the exit status.
 */
struct out_opts;
extern const struct out_column *const features_rtconfig_cols;
extern const size_t features_rtconfig_ncols;
int features_rtconfig(const cpu_set_t *cpus, int nr_cpus, const struct out_opts *out);

/* FUSE INIT: mount our own file system in a private namespace (fuse_probe.c). */
void fuse_init_probe(struct fuse_init_info *info);
/* The names of the INIT flags set in FLAGS, space-separated. */
void fuse_flag_names(uint64_t flags, char *buf, size_t len);

#endif
