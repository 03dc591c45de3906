/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * capdump - capability sets of processes and files, as u64 values.
 *
 * caps.c holds the pure parts (status and xattr parsers, names, the rule
 * that decides which processes are worth showing), unit-tested on their
 * own; proc.c and files.c read the machine (bpf.c: proc.c's one BPF pass
 * over the live processes); capdump.c parses options and prints.
 */
#ifndef RTLA_CAPDUMP_H
#define RTLA_CAPDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "output.h"

/* The five sets in the order /proc/PID/status lists them. */
enum capdump_set {
	CAPDUMP_INH,
	CAPDUMP_PRM,
	CAPDUMP_EFF,
	CAPDUMP_BND,
	CAPDUMP_AMB,
	CAPDUMP_NR_SETS,
};

#define CAPDUMP_NAMES_MAX	2048	/* 64 names of at most 30 bytes */
#define CAPDUMP_NOTE_MAX	256

/* What one /proc/PID/status says; a has_* flag is false when its line was absent. */
struct capdump_status {
	char name[64];		/* Name:, as the kernel escapes it */
	char state;		/* first letter of State:, 0 if absent */
	pid_t ppid;
	uid_t uid;		/* effective UID */
	uint64_t set[CAPDUMP_NR_SETS];
	int kthread;		/* Kthread: 0/1, -1 if absent (older kernels) */
	int nnp;		/* NoNewPrivs: 0/1, -1 if absent */
	int seccomp;		/* Seccomp: 0/1/2, -1 if absent */
	bool has_ppid, has_uid;
	unsigned has_set;	/* bit per enum capdump_set */
	unsigned bad_set;	/* bit per set whose line did not parse */
};

/* Parse a status file's text. Never fails: absent or bad lines stay unset. */
void capdump_status_parse(const char *text, struct capdump_status *st);

/* The capabilities the kernel knows: bits 0..cap_last_cap. */
uint64_t capdump_known_mask(int last_cap);

/*
 * Names of bits 0..63, as libcap's cap_to_text writes them: libcap's name
 * ("cap_chown") for a bit up to last_cap, the bare number ("41") above it or
 * where libcap has no name.
 */
struct capdump_names {
	int last_cap;
	char *name[64];
};

int capdump_names_init(struct capdump_names *nm, int last_cap);
void capdump_names_free(struct capdump_names *nm);
/*
 * The shortest exact text of a set: the names it holds ("cap_chown,cap_kill"),
 * or, when shorter, every known capability (0..last_cap) less the names it
 * lacks ("all,-cap_sys_module"; exactly "all" for the full set). Set bits
 * above last_cap are never folded into "all": they follow by number
 * ("all,41"). "" for the empty set. Returns buf, or NULL with errno ERANGE
 * and buf "" when len cannot hold the whole text; CAPDUMP_NAMES_MAX always can.
 */
char *capdump_set_names(const struct capdump_names *nm, uint64_t set, char *buf, size_t len);

/*
 * The default filter. NULL: an ordinary process (empty sets and not root, or
 * root holding everything its bounding set allows); otherwise why it is shown.
 */
const char *capdump_interesting(const struct capdump_status *st, uint64_t known);

/*
 * Compare inheritable, permitted and effective from /proc with capget()'s
 * (indexed by enum capdump_set). Returns the number of sets that differ and
 * describes them in note.
 */
int capdump_crosscheck(const uint64_t *proc, const uint64_t *cg, char *note, size_t len);

/* Read a process's inh/prm/eff with capget(2), v3 (proc.c). 0 or -errno. */
int capdump_capget(pid_t pid, uint64_t *set);

/* security.capability, as stored (little-endian v1, v2, or v3 with a rootid). */
struct capdump_fcaps {
	int version;		/* 1, 2 or 3 */
	bool effective;		/* VFS_CAP_FLAGS_EFFECTIVE */
	uint64_t prm, inh;
	bool has_rootid;	/* v3 */
	uint32_t rootid;
	uint32_t flags;		/* magic bits besides revision and effective (should be 0) */
};

/* -EINVAL with a reason in err (PARSE_ERR_MAX) for a malformed value. */
int capdump_xattr_parse(const void *buf, size_t len, struct capdump_fcaps *fc, char *err);

/* How the process sets are read (--method): BPF for a scan when it can run */
enum capdump_method { CAPDUMP_AUTO, CAPDUMP_PROC, CAPDUMP_BPF };

/* Options shared by the process and file modes. */
struct capdump_opts {
	enum capdump_method method;
	bool all;
	bool names;
	bool diff;
	bool files;
	bool recursive;
	struct out_opts out;
	int nargs;		/* PIDs or PATHs */
	char **args;
};

/* 0, or CLI_EXIT / CLI_ERROR (cli.h) with the help or the error printed. */
int capdump_parse_args(int argc, char **argv, struct capdump_opts *o);

/* Shared state of one run. */
struct capdump_ctx {
	struct capdump_opts *opt;
	struct capdump_names names;
	uint64_t known;
	bool live;
};

char *capdump_fmt_set(uint64_t set, char *buf);	/* 16 hex digits, as /proc */
/* Names of a set for a table cell: "-" for the empty set (JSON: null). */
void capdump_set_names_cell(struct capdump_ctx *ctx, struct out_row *r, int col, uint64_t set);

/* The two tables, described once (proc.c, files.c). */
extern const struct out_column capdump_proc_cols[], capdump_file_cols[];
extern const size_t capdump_proc_ncols, capdump_file_ncols;

int capdump_procs(struct capdump_ctx *ctx);
int capdump_files(struct capdump_ctx *ctx);

/*
 * Every process of the live system from one BPF task iterator pass (bpf.c),
 * in PID order: what each one's /proc/PID/status would say.
 */
struct capdump_bpf_procs {
	char *buf;		/* the records */
	size_t nr;
	double load_ms, iter_ms;
};

/* 0, or -errno with why in WHY: not root, no BTF, another namespace... */
int capdump_bpf_read(struct capdump_bpf_procs *procs, char *why, size_t len);
void capdump_bpf_free(struct capdump_bpf_procs *procs);
/* The index of PID's record, or -1 */
ssize_t capdump_bpf_find(const struct capdump_bpf_procs *procs, pid_t pid);
/*
 * Record I as its status would read. True for a kernel thread, whose
 * status Name can be longer than the task name the record holds.
 */
bool capdump_bpf_status(const struct capdump_bpf_procs *procs, size_t i,
			struct capdump_status *st);
/*
 * A task name (N bytes at most) as the status Name line writes it: the
 * kernel escapes a newline and a backslash. NAME holds LEN bytes.
 */
void capdump_escape_name(const char *comm, size_t n, char *name, size_t len);

#endif
