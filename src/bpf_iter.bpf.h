/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_iter.bpf.h - what the BPF programs of the commands (src/CMD/NAME.bpf.c)
 * share: the kernel's integer types, which libbpf's headers expect (no
 * vmlinux.h of the build machine is baked in: each program declares only
 * the kernel fields it reads, and the kernel fits them to its own BTF at
 * load time), libbpf's helpers, and the task iterator's context.
 */
#ifndef RTLA_BPF_ITER_BPF_H
#define RTLA_BPF_ITER_BPF_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
/* the names the records shared with user space use (src/CMD/NAME_rec.h) */
typedef __u32 uint32_t;
typedef __s32 int32_t;
typedef __u64 uint64_t;

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct;
struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

/* iter/task: each task once, then NULL */
struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

#endif
