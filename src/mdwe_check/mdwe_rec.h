/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mdwe_rec - the records mdwe.bpf.c writes and bpf.c reads: one layout,
 * included by both sides.
 */
#ifndef RTLA_MDWE_REC_H
#define RTLA_MDWE_REC_H

#ifndef __bpf__
#include <stdint.h>	/* the BPF side has them from bpf_iter.bpf.h */
#endif

/* One per process, from the task iterator. */
struct mdwe_rec {
	uint32_t tgid;
	uint32_t flags;		/* PR_MDWE_REFUSE_EXEC_GAIN (1) | PR_MDWE_NO_INHERIT (2) */
	uint32_t has_mm;
	uint32_t kthread;
	uint32_t self;		/* rtla itself: user space checks the PIDs are its /proc's */
};

/* One per W+X mapping, from the task_vma iterator. */
struct mdwe_wx_rec {
	uint32_t tgid;
	uint32_t tid;
	uint64_t start;
	uint64_t end;
};

#endif
