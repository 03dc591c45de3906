/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * capdump_rec - the record capdump.bpf.c writes for each process and
 * bpf.c reads: one layout, included by both sides.
 */
#ifndef RTLA_CAPDUMP_REC_H
#define RTLA_CAPDUMP_REC_H

#ifndef __bpf__
#include <stdint.h>	/* the BPF side has them from bpf_iter.bpf.h */
#endif

#define REC_KTHREAD	1
#define REC_NNP		2
#define REC_ZOMBIE	4
#define REC_SELF	8	/* the reader itself: user space checks the PIDs are its /proc's */
#define REC_SECCOMP	16	/* the kernel has seccomp: .seccomp is its mode */

struct capdump_rec {
	uint32_t tgid;
	uint32_t ppid;
	uint32_t euid;
	uint32_t flags;		/* REC_* */
	int32_t seccomp;
	uint32_t cap_size;	/* sizeof(kernel_cap_t): 8 so far (2 x u32, then u64) */
	uint64_t cap[5];	/* inheritable, permitted, effective, bounding, ambient */
	char comm[16];
};

#endif
