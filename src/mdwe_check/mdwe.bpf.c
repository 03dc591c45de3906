// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdwe.bpf - two iterators: over tasks, the MDWE bits of every process's
 * mm->flags (MMF_HAS_MDWE 28, MMF_HAS_MDWE_NO_INHERIT 29); over VMAs, every
 * mapping both writable and executable. Together they
 * are the whole audit of a live system in one pass through the kernel,
 * without reading (and making the kernel write) every /proc/PID/maps.
 *
 * Compiled once with clang into a CO-RE object; its light skeleton's loader
 * program has the kernel fit it to its own BTF at load time. The kernel
 * types are declared here, only with the fields read, found by name in the
 * kernel's BTF,
 * so no vmlinux.h of the build machine is baked in. mm->flags changed type
 * in 6.18 (mm_flags_t, a bitmap in a struct); the two "flavours" of
 * mm_struct below describe the two layouts and exactly one of them matches
 * a given kernel.
 */
#include "bpf_iter.bpf.h"
#include "mdwe_check/mdwe_rec.h"

#define MMF_HAS_MDWE		28
#define MMF_HAS_MDWE_NO_INHERIT	29
#define PF_KTHREAD		0x00200000

struct mm_struct {
	int __unused;
} __attribute__((preserve_access_index));

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_flags;
} __attribute__((preserve_access_index));

/* up to 6.17: unsigned long flags */
struct mm_struct___ulong {
	unsigned long flags;
} __attribute__((preserve_access_index));

/* 6.18 and later: mm_flags_t flags, { unsigned long __mm_flags[1]; } */
struct mm_struct___bitmap {
	struct {
		unsigned long __mm_flags[1];
	} flags;
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int flags;
	int pid;
	int tgid;
	struct mm_struct *mm;
	struct task_struct *group_leader;
	struct pid *thread_pid;
} __attribute__((preserve_access_index));

struct bpf_iter__task_vma {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	struct vm_area_struct *vma;
} __attribute__((preserve_access_index));

#define VM_WRITE	0x2
#define VM_EXEC		0x4

static __always_inline unsigned long mm_flags(struct mm_struct *mm, int *ok)
{
	unsigned long v = 0;

	*ok = 1;
	if (bpf_core_field_exists(struct mm_struct___bitmap, flags))
		bpf_core_read(&v, sizeof(v), &((struct mm_struct___bitmap *)mm)->flags.__mm_flags[0]);
	else if (bpf_core_field_exists(struct mm_struct___ulong, flags))
		bpf_core_read(&v, sizeof(v), &((struct mm_struct___ulong *)mm)->flags);
	else
		*ok = 0;
	return v;
}

SEC("iter/task")
int mdwe_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct mdwe_rec rec = {};
	struct mm_struct *mm;
	unsigned long f;
	int ok;

	if (!task)
		return 0;
	mm = BPF_CORE_READ(task, mm);
	/*
	 * One record per process: its leader's, or a thread's when the leader
	 * has left its mm behind (a zombie leader of a live process).
	 */
	if (BPF_CORE_READ(task, pid) != BPF_CORE_READ(task, tgid)) {
		if (!mm || BPF_CORE_READ(task, group_leader, mm))
			return 0;
	}
	rec.tgid = pid_nr_seen_by(BPF_CORE_READ(task, group_leader, thread_pid),
				  reader_struct_pid());
	rec.kthread = !!(BPF_CORE_READ(task, flags) & PF_KTHREAD);
	rec.self = is_reader(task);
	if (mm && !rec.kthread) {
		f = mm_flags(mm, &ok);
		if (!ok)
			return 1;	/* neither layout: read() fails, user space says why */
		rec.has_mm = 1;
		if (f & (1UL << MMF_HAS_MDWE))
			rec.flags |= 1;
		if (f & (1UL << MMF_HAS_MDWE_NO_INHERIT))
			rec.flags |= 2;
	}
	bpf_seq_write(seq, &rec, sizeof(rec));
	return 0;
}

/*
 * Names are left to user space, which reads /proc/PID/maps of the few
 * processes this finds: bpf_d_path() refuses vma->vm_file on recent
 * kernels (an untrusted pointer to the verifier).
 */
SEC("iter/task_vma")
int mdwe_wx_vmas(struct bpf_iter__task_vma *ctx)
{
	struct vm_area_struct *vma = ctx->vma;
	struct task_struct *task = ctx->task;
	struct mdwe_wx_rec rec = {};

	if (!vma || !task)
		return 0;
	if ((vma->vm_flags & (VM_WRITE | VM_EXEC)) != (VM_WRITE | VM_EXEC))
		return 0;
	rec.tgid = pid_nr_seen_by(BPF_CORE_READ(task, group_leader, thread_pid),
				  reader_struct_pid());
	rec.tid = task->pid;	/* the machine's: only told apart from the process's others */
	rec.start = vma->vm_start;
	rec.end = vma->vm_end;
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
