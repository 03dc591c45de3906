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

struct pid_namespace;

struct upid {
	int nr;
	struct pid_namespace *ns;
} __attribute__((preserve_access_index));

struct pid {
	unsigned int level;
	struct upid numbers[1];		/* level + 1 of them */
} __attribute__((preserve_access_index));

/*
 * The number of PID P in the PID namespace of the reader, whose own struct
 * pid is ME: a task's pid and tgid are the machine's, rtla's /proc shows
 * those of its namespace (a container's). The task iterator visits the
 * tasks of the reader's namespace and its descendants only, and a parent
 * is in its child's namespace or an ancestor: a PID at the reader's level
 * or deeper has a number there, one above it (a parent outside a
 * container) has none, 0 (as /proc's PPid: 0).
 */
static __always_inline __u32 pid_nr_seen_by(struct pid *p, struct pid *me)
{
	unsigned int level = BPF_CORE_READ(me, level);
	struct upid *its;

	if (!p || BPF_CORE_READ(p, level) < level)
		return 0;
	/* the kernel's stride: a upid is 8 bytes on a 32-bit kernel */
	its = (struct upid *)((char *)&p->numbers[0] + level * bpf_core_type_size(struct upid));
	return BPF_CORE_READ(its, nr);
}

/*
 * The reader's own struct pid, for pid_nr_seen_by(); the program's struct
 * task_struct declares thread_pid.
 */
#define reader_struct_pid() \
	BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), thread_pid)

/* Whether TASK is of the reader's own process (any of its threads reads). */
#define is_reader(task) \
	(BPF_CORE_READ(task, tgid) == (int)(bpf_get_current_pid_tgid() >> 32))

#endif
