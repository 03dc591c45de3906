/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_iter - what the commands with a BPF reader share: running a loaded
 * BPF iterator program to its end, and saying why a load failed.
 *
 * The programs themselves are light skeletons, one per command
 * (src/CMD/NAME.bpf.c, generated into build/gen/NAME.skel.h by the
 * Makefile); this file needs nothing of libbpf.
 */
#ifndef RTLA_BPF_ITER_H
#define RTLA_BPF_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <sys/types.h>

/*
 * Run the iterator of the loaded program PROG_FD once and read all it
 * writes into *BUF (grown as needed; *CAP its size): the length, or
 * -errno. The kernel ends a read() that visited a million objects without
 * output with EAGAIN, and the next read goes on from there: AGAIN_GOES_ON
 * says the program never returns 1 to ask for it itself.
 */
ssize_t bpf_iter_read(int prog_fd, char **buf, size_t *cap, bool again_goes_on);

/* Why a light skeleton's load failed with ERR (-errno), in words a user can act on. */
void bpf_iter_load_why(int err, char *why, size_t len);

/*
 * Whether a pass's PIDs are those rtla's /proc lists: SELF_TGID is the
 * tgid the pass recorded for rtla itself (0: it did not see it). The
 * programs number each process as rtla's PID namespace does; a /proc
 * mounted for another namespace (unshare --pid without a /proc of its own)
 * numbers them otherwise. False then, with why in WHY.
 */
bool bpf_iter_pids_are_ours(pid_t self_tgid, char *why, size_t len);

/* Whether rtla's user namespace is the host's (a pass reads the host's UIDs). */
bool bpf_iter_host_users(void);

/* CLOCK_MONOTONIC in milliseconds, for the readers' -D costs */
double bpf_iter_now_ms(void);

/*
 * The verifier's log of a light skeleton's load, with -D: point its loader
 * context's LEVEL, SIZE and BUF here before its __load(), and show it after
 * a failed one. BPF_ITER_DEFINE_LOAD() does both.
 */
void bpf_iter_log_setup(__u32 *level, __u32 *size, __u64 *buf);
void bpf_iter_log_show(void);

/*
 * static struct NAME *NAME_load(int *err): open and load the light
 * skeleton NAME (its NAME__open, __load and __destroy), the verifier's log
 * shown with -D when the load fails; NULL then, with -errno in *ERR. A
 * light skeleton's loader program fits the programs to the running kernel
 * inside the kernel, against its own BTF, so nothing here reads and parses
 * /sys/kernel/btf/vmlinux (megabytes: most of the cost of a load fitted in
 * user space).
 */
#define BPF_ITER_DEFINE_LOAD(name)							\
static struct name *name##_load(int *err)						\
{											\
	struct name *skel = name##__open();						\
											\
	if (!skel) {									\
		*err = -ENOMEM;								\
		return NULL;								\
	}										\
	bpf_iter_log_setup(&skel->ctx.log_level, &skel->ctx.log_size, &skel->ctx.log_buf); \
	*err = name##__load(skel);							\
	if (*err) {									\
		bpf_iter_log_show();							\
		name##__destroy(skel);							\
		return NULL;								\
	}										\
	return skel;									\
}

#endif
