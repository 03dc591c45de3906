// SPDX-License-Identifier: GPL-2.0-only
/*
 * capdump.bpf - one task iterator: per process, what /proc/PID/status says
 * of its credentials (the five capability sets, the effective UID,
 * no_new_privs, the seccomp mode), its parent and its name, as a
 * fixed-size record. One pass through the kernel instead of a status file
 * formatted and parsed per process.
 *
 * Compiled once with clang into a CO-RE object; its light skeleton's loader
 * program has the kernel fit it to its own BTF at load time (see
 * src/bpf_iter.bpf.h). Only the fields read are declared. kernel_cap_t
 * changed in 6.3 from two u32 (caps 0-31, then 32-63) to one u64: on a
 * little-endian machine the same eight bytes read as the same u64, and
 * CO-RE finds each set by its field's name in struct cred, whatever the
 * struct's own name. A big-endian kernel before 6.3 would swap the halves:
 * bpf.c compares rtla's own sets with capget and reads /proc then.
 */
#include "bpf_iter.bpf.h"
#include "capdump/capdump_rec.h"

#define PF_KTHREAD		0x00200000
#define PFA_NO_NEW_PRIVS	0	/* a bit of task->atomic_flags */
#define EXIT_ZOMBIE		0x20

typedef struct {
	__u64 val;
} kernel_cap_t;

typedef struct {
	__u32 val;
} kuid_t;

struct cred {
	kuid_t euid;
	kernel_cap_t cap_inheritable;
	kernel_cap_t cap_permitted;
	kernel_cap_t cap_effective;
	kernel_cap_t cap_bset;
	kernel_cap_t cap_ambient;
} __attribute__((preserve_access_index));

struct seccomp {
	int mode;
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int flags;
	int exit_state;
	int pid;
	int tgid;
	unsigned long atomic_flags;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct pid *thread_pid;
	const struct cred *real_cred;
	char comm[16];
	struct seccomp seccomp;
} __attribute__((preserve_access_index));

SEC("iter/task")
int capdump_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct capdump_rec rec = {};
	const struct cred *cred;
	struct pid *me;

	if (!task)
		return 0;
	/* a process is its leader: /proc/PID/status of the leader */
	if (BPF_CORE_READ(task, pid) != BPF_CORE_READ(task, tgid))
		return 0;
	me = reader_struct_pid();
	rec.tgid = pid_nr_seen_by(BPF_CORE_READ(task, thread_pid), me);
	rec.ppid = pid_nr_seen_by(BPF_CORE_READ(task, real_parent, group_leader, thread_pid), me);
	if (BPF_CORE_READ(task, flags) & PF_KTHREAD)
		rec.flags |= REC_KTHREAD;
	if (BPF_CORE_READ(task, atomic_flags) & (1UL << PFA_NO_NEW_PRIVS))
		rec.flags |= REC_NNP;
	if (BPF_CORE_READ(task, exit_state) & EXIT_ZOMBIE)
		rec.flags |= REC_ZOMBIE;
	if (is_reader(task))
		rec.flags |= REC_SELF;
	/* without CONFIG_SECCOMP the struct is there, empty: ask for the mode itself */
	if (bpf_core_field_exists(task->seccomp.mode)) {
		rec.flags |= REC_SECCOMP;
		rec.seccomp = BPF_CORE_READ(task, seccomp.mode);
	}
	bpf_core_read(&rec.comm, sizeof(rec.comm), &task->comm);
	/* the objective credentials, as /proc shows them */
	cred = BPF_CORE_READ(task, real_cred);
	rec.euid = BPF_CORE_READ(cred, euid.val);
	rec.cap_size = bpf_core_field_size(cred->cap_effective);
	bpf_core_read(&rec.cap[0], sizeof(rec.cap[0]), &cred->cap_inheritable);
	bpf_core_read(&rec.cap[1], sizeof(rec.cap[1]), &cred->cap_permitted);
	bpf_core_read(&rec.cap[2], sizeof(rec.cap[2]), &cred->cap_effective);
	bpf_core_read(&rec.cap[3], sizeof(rec.cap[3]), &cred->cap_bset);
	bpf_core_read(&rec.cap[4], sizeof(rec.cap[4]), &cred->cap_ambient);
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
