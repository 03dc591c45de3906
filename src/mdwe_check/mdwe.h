/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mdwe - memory-deny-write-execute: who runs under it, who still maps W+X,
 * and whether the running kernel enforces it.
 *
 * The kernel shows a process's MDWE flags to no one but the process itself
 * (PR_GET_MDWE). The audit (audit.c) reads them from mm->flags with a BPF
 * task iterator, and the W+X mappings with a VMA iterator (bpf.c,
 * mdwe.bpf.c); without BPF, or on a captured tree, W+X comes from
 * /proc/PID/maps (maps.c), and --method ptrace asks each process (ptrace.c).
 * selftest.c checks the kernel's enforcement in child processes; run.c
 * starts a command under it; mdwe_cmd.c dispatches the verbs.
 */
#ifndef RTLA_MDWE_H
#define RTLA_MDWE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "output.h"

#ifndef PR_SET_MDWE
#define PR_SET_MDWE			65
#define PR_GET_MDWE			66
#endif
#ifndef PR_MDWE_REFUSE_EXEC_GAIN
#define PR_MDWE_REFUSE_EXEC_GAIN	(1UL << 0)
#endif
#ifndef PR_MDWE_NO_INHERIT
#define PR_MDWE_NO_INHERIT		(1UL << 1)
#endif

/* The MDWE flags as a cell: "refuse-exec-gain", "+no-inherit" or "-". */
const char *mdwe_flags_name(unsigned long flags);

/* ---- maps.c: W+X mappings of /proc/PID/maps text ---- */

#define MDWE_WX_PATH_MAX	(PATH_MAX + 64)

struct mdwe_wx {
	unsigned count;		/* mappings both writable and executable */
	uint64_t bytes;
	/* the first one's name as maps shows it; "[anon]" for an unnamed one */
	char first[MDWE_WX_PATH_MAX];
	unsigned lines;		/* mappings seen */
};

/*
 * Scan LEN bytes of maps text for W+X mappings. A line too malformed to
 * parse ends the scan: -EINVAL, with the line number in wx->lines + 1.
 */
int mdwe_maps_scan(const char *text, size_t len, struct mdwe_wx *wx);

/* ---- maps.c too: the few /proc/PID/status lines the audit shows ---- */

struct mdwe_status {
	char name[64];
	char state;		/* first letter of State:, 0 if absent */
	pid_t ppid;		/* -1 if absent */
	long long uid;		/* effective UID, -1 if absent */
	int kthread;		/* Kthread:, -1 if absent */
	int nnp;		/* NoNewPrivs:, -1 if absent */
	int seccomp;		/* Seccomp: 0/1/2, -1 if absent */
};

void mdwe_status_parse(const char *text, struct mdwe_status *st);
const char *mdwe_seccomp_name(int mode);	/* "disabled", "strict", "filter", NULL */

/* ---- bpf.c: every process's MDWE flags at once ---- */

struct mdwe_task_flags {
	pid_t pid;
	uint32_t flags;		/* PR_MDWE_* bits */
	bool has_mm;		/* false for kernel threads and reaped zombies */
	bool kthread;
	/* W+X mappings, when the set's wx_known (their names: maps) */
	unsigned wx_count;
	uint64_t wx_bytes;
	pid_t wx_tid;		/* the thread whose mappings were counted */
};

struct mdwe_flags_set {
	struct mdwe_task_flags *task;	/* sorted by pid */
	size_t nr;
	bool wx_known;		/* the W+X mappings came along */
	char wx_why[128];	/* why not */
	double load_ms, iter_ms;	/* cost, for -D and the benchmark */
};

/* Whether this binary was built with the BPF reader. */
bool mdwe_bpf_built(void);
/*
 * Read the flags of every process. 0, or -errno with one line of why in
 * WHY (for the "unknown" column); the set is empty then.
 */
int mdwe_bpf_read(struct mdwe_flags_set *set, char *why, size_t len);
const struct mdwe_task_flags *mdwe_flags_find(const struct mdwe_flags_set *set, pid_t pid);
void mdwe_flags_free(struct mdwe_flags_set *set);

/* ---- ptrace.c: the opt-in reader that asks the target itself ---- */

struct mdwe_ptrace_opts {
	bool force;		/* also real-time targets */
};

/*
 * PR_GET_MDWE in PID, by a prctl injected through ptrace: the flags, or
 * -errno with why in WHY. Refuses what it cannot do safely (see ptrace.c).
 */
long mdwe_ptrace_read(pid_t pid, const struct mdwe_ptrace_opts *o, char *why, size_t len);
/* Set FLAGS in a stopped tracee at a syscall-entry stop (run --no-inherit). */
int mdwe_ptrace_set_at_entry(pid_t pid, unsigned long flags, char *why, size_t len);
bool mdwe_ptrace_supported(void);

/* ---- the verbs ---- */

int mdwe_audit(int argc, char **argv);
int mdwe_selftest(int argc, char **argv);
int mdwe_run(int argc, char **argv);

extern const struct cli_spec mdwe_audit_cli, mdwe_selftest_cli, mdwe_run_cli;
/* "rtla mdwe" is the audit: its options and help serve the command's spec */
extern const struct cli_option mdwe_audit_options[];
void mdwe_audit_usage(FILE *f);

/* Whether the kernel has MDWE at all: 0, or -errno of PR_GET_MDWE. */
int mdwe_kernel_probe(void);

#endif
