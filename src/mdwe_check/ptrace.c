// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptrace - have a process make a prctl() it did not ask for.
 *
 * Two uses: "mdwe run --no-inherit" sets the flags in a command stopped at
 * its first system call (it has run none of its own code yet), and
 * "--method ptrace" asks a running process its PR_GET_MDWE. Both swap the
 * system call's number and arguments in the registers, let the kernel run
 * it, and put everything back. x86-64 only: the registers are the ABI's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mdwe_check/mdwe.h"

#ifdef __x86_64__

bool mdwe_ptrace_supported(void)
{
	return true;
}

/* The length of "syscall" (0f 05): rip points past it at a syscall stop. */
#define SYSCALL_INSN_LEN 2

int mdwe_ptrace_set_at_entry(pid_t pid, unsigned long flags, char *why, size_t len)
{
	struct user_regs_struct saved, regs;
	int status;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &saved)) {
		snprintf(why, len, "PTRACE_GETREGS: %s", strerror(errno));
		return -errno;
	}
	/* the kernel reads the number and arguments again after the entry stop */
	regs = saved;
	regs.orig_rax = SYS_prctl;
	regs.rdi = PR_SET_MDWE;
	regs.rsi = flags;
	regs.rdx = regs.r10 = regs.r8 = 0;
	if (ptrace(PTRACE_SETREGS, pid, NULL, &regs) ||
	    ptrace(PTRACE_SYSCALL, pid, NULL, NULL) ||
	    waitpid(pid, &status, 0) < 0) {
		snprintf(why, len, "cannot run prctl in it: %s", strerror(errno));
		return -errno;
	}
	if (!WIFSTOPPED(status) || ptrace(PTRACE_GETREGS, pid, NULL, &regs)) {
		snprintf(why, len, "it ended while setting MDWE");
		return -ESRCH;
	}
	if ((long)regs.rax < 0) {
		snprintf(why, len, "PR_SET_MDWE: %s", strerror(-(long)regs.rax));
		return regs.rax;
	}
	/* back to the syscall instruction, with the call it was about to make */
	saved.rip -= SYSCALL_INSN_LEN;
	saved.rax = saved.orig_rax;
	if (ptrace(PTRACE_SETREGS, pid, NULL, &saved) || ptrace(PTRACE_DETACH, pid, NULL, NULL)) {
		snprintf(why, len, "cannot restore it: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

/* What the reader needs to know of one thread before it touches it. */
struct thread_state {
	char state;
	pid_t tracer;
	int seccomp;
};

static int thread_state(pid_t pid, pid_t tid, struct thread_state *ts)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(ts, 0, sizeof(*ts));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "State:", 6))
			sscanf(line + 6, " %c", &ts->state);
		else if (!strncmp(line, "TracerPid:", 10))
			ts->tracer = atoi(line + 10);
		else if (!strncmp(line, "Seccomp:", 8))
			ts->seccomp = atoi(line + 8);
	}
	fclose(f);
	return 0;
}

/*
 * The thread to ask: the leader, or for a zombie leader one of its live
 * threads (they share the mm, so the answer is the process's).
 */
static pid_t pick_thread(pid_t pid, struct thread_state *ts, char *why, size_t len)
{
	char path[64];
	struct dirent *d;
	pid_t tid = -ESRCH;
	DIR *dir;

	if (thread_state(pid, pid, ts)) {
		snprintf(why, len, "gone");
		return -ESRCH;
	}
	if (ts->state != 'Z' && ts->state != 'X')
		return pid;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		pid_t t = atoi(d->d_name);

		if (t > 0 && t != pid && !thread_state(pid, t, ts) && ts->state != 'Z' &&
		    ts->state != 'X') {
			tid = t;
			break;
		}
	}
	if (dir)
		closedir(dir);
	if (tid < 0)
		snprintf(why, len, "ptrace: a zombie has no memory to ask about");
	return tid;
}

/*
 * A "syscall" instruction (0f 05) in the target's own code, for it to run:
 * the vDSO has one in its fallbacks; else the start of any executable
 * mapping. The bytes are read through /proc/TID/mem, which the attach allows.
 */
static int find_syscall_insn(pid_t tid, unsigned long *addr)
{
	unsigned long start, end, best_start = 0, best_end = 0;
	char path[64], line[512], perms[5];
	unsigned char buf[4096];
	int fd, ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3 || perms[2] != 'x' ||
		    perms[0] != 'r')
			continue;
		if (strstr(line, "[vdso]") || !best_end) {
			best_start = start;
			best_end = end;
		}
		if (strstr(line, "[vdso]"))
			break;
	}
	fclose(f);
	if (!best_end)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* at most 4 MiB of a library: a syscall instruction is never far */
	if (best_end - best_start > (4UL << 20))
		best_end = best_start + (4UL << 20);
	for (unsigned long a = best_start; a < best_end && ret; a += sizeof(buf) - 1) {
		size_t want = best_end - a < sizeof(buf) ? best_end - a : sizeof(buf);
		ssize_t n = pread(fd, buf, want, a);

		if (n < 2)
			break;
		for (ssize_t i = 0; i + 1 < n; i++) {
			if (buf[i] == 0x0f && buf[i + 1] == 0x05) {
				*addr = a + i;
				ret = 0;
				break;
			}
		}
	}
	close(fd);
	return ret;
}

/* The registers that must come back as they were (eflags: TF and RF aside). */
static bool regs_equal(const struct user_regs_struct *a, const struct user_regs_struct *b)
{
	const unsigned long mask = ~(0x100UL | 0x10000UL);

	return a->rip == b->rip && a->rsp == b->rsp && a->rax == b->rax &&
	       a->orig_rax == b->orig_rax && a->rdi == b->rdi && a->rsi == b->rsi &&
	       a->rdx == b->rdx && a->r10 == b->r10 && a->r8 == b->r8 && a->r9 == b->r9 &&
	       a->rcx == b->rcx && a->r11 == b->r11 && a->rbx == b->rbx && a->rbp == b->rbp &&
	       a->r12 == b->r12 && a->r13 == b->r13 && a->r14 == b->r14 && a->r15 == b->r15 &&
	       a->cs == b->cs && a->ss == b->ss && a->fs_base == b->fs_base &&
	       a->gs_base == b->gs_base && (a->eflags & mask) == (b->eflags & mask);
}

/* Wait for TID's next stop; a signal that arrives meanwhile is kept for later. */
static int wait_stop(pid_t tid, int want_sig, int *pending)
{
	int status;

	for (;;) {
		if (waitpid(tid, &status, __WALL) < 0)
			return -errno;
		if (!WIFSTOPPED(status))
			return -ESRCH;
		if (want_sig == PTRACE_EVENT_STOP && status >> 16 == PTRACE_EVENT_STOP)
			return 0;
		if (want_sig == SIGTRAP && WSTOPSIG(status) == SIGTRAP && !(status >> 16))
			return 0;
		if (status >> 16)	/* another event stop: nothing to deliver */
			return want_sig == PTRACE_EVENT_STOP ? 0 : -EAGAIN;
		/* a signal-delivery-stop: hold the signal, deliver it at detach */
		*pending = WSTOPSIG(status);
		if (want_sig == PTRACE_EVENT_STOP)
			return 0;
		if (ptrace(PTRACE_SINGLESTEP, tid, NULL, NULL))
			return -errno;
	}
}

/* Run prctl(PR_GET_MDWE) in the stopped TID and put everything back. */
static long inject(pid_t tid, int *pending, char *why, size_t len)
{
	struct user_regs_struct saved, regs, check;
	unsigned long addr = 0;
	long result;
	int ret;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &saved)) {
		snprintf(why, len, "ptrace: PTRACE_GETREGS: %s", strerror(errno));
		return -errno;
	}
	if (saved.cs != 0x33) {		/* __USER_CS: 64-bit code */
		snprintf(why, len, "ptrace: not a 64-bit process");
		return -EOPNOTSUPP;
	}
	ret = find_syscall_insn(tid, &addr);
	if (ret) {
		snprintf(why, len, "ptrace: no syscall instruction in its code: %s",
			 strerror(-ret));
		return ret;
	}
	regs = saved;
	regs.rip = addr;
	regs.rax = SYS_prctl;
	/* not in a system call: the kernel must not restart the interrupted one now */
	regs.orig_rax = -1;
	regs.rdi = PR_GET_MDWE;
	regs.rsi = regs.rdx = regs.r10 = regs.r8 = regs.r9 = 0;
	if (ptrace(PTRACE_SETREGS, tid, NULL, &regs) ||
	    ptrace(PTRACE_SINGLESTEP, tid, NULL, NULL)) {
		ret = -errno;
		goto out_restore;
	}
	ret = wait_stop(tid, SIGTRAP, pending);
	if (!ret && ptrace(PTRACE_GETREGS, tid, NULL, &regs))
		ret = -errno;
	if (!ret && regs.rip != addr + SYSCALL_INSN_LEN)
		ret = -EIO;
out_restore:
	result = regs.rax;
	/* the interrupted system call, if any, is restarted from these as a signal would */
	if (ptrace(PTRACE_SETREGS, tid, NULL, &saved) ||
	    ptrace(PTRACE_GETREGS, tid, NULL, &check) || !regs_equal(&saved, &check)) {
		snprintf(why, len, "ptrace: its registers could not be restored");
		return -EIO;
	}
	if (ret) {
		snprintf(why, len, "ptrace: the injected prctl did not run: %s", strerror(-ret));
		return ret;
	}
	if (result < 0 && result > -4096) {
		snprintf(why, len, "ptrace: PR_GET_MDWE: %s", strerror(-result));
		return result;
	}
	return result;
}

static const char *rt_policy(int policy)
{
	switch (policy) {
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_DEADLINE: return "SCHED_DEADLINE";
	default: return NULL;
	}
}

long mdwe_ptrace_read(pid_t pid, const struct mdwe_ptrace_opts *o, char *why, size_t len)
{
	struct thread_state ts;
	sigset_t block, old;
	int pending = 0, policy;
	pid_t tid;
	long ret;

	if (pid == getpid()) {
		ret = prctl(PR_GET_MDWE, 0, 0, 0, 0);
		return ret < 0 ? -errno : ret;
	}
	tid = pick_thread(pid, &ts, why, len);
	if (tid < 0)
		return tid;
	if (ts.tracer) {
		snprintf(why, len, "ptrace: already traced by PID %d", (int)ts.tracer);
		return -EBUSY;
	}
	if (ts.state == 'T' || ts.state == 't') {
		snprintf(why, len, "ptrace: stopped; left alone");
		return -EBUSY;
	}
	policy = sched_getscheduler(tid);
	if (rt_policy(policy) && !o->force) {
		snprintf(why, len, "ptrace: a %s process is not stopped without --force",
			 rt_policy(policy));
		return -EPERM;
	}
	/* no signal of ours may end rtla while the target runs borrowed registers */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGPIPE);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* a seccomp filter could kill it for the prctl: suspended for our call, or refused */
	if (ptrace(PTRACE_SEIZE, tid, NULL,
		   (void *)(long)(ts.seccomp ? PTRACE_O_SUSPEND_SECCOMP : 0))) {
		ret = -errno;
		if (ts.seccomp && ret == -EPERM)
			snprintf(why, len, "ptrace: seccomp %s: suspending it needs CAP_SYS_ADMIN",
				 ts.seccomp == 1 ? "strict" : "filter");
		else
			snprintf(why, len, "ptrace: cannot attach: %s", strerror(-ret));
		goto out_unblock;
	}
	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL)) {
		ret = -errno;
		snprintf(why, len, "ptrace: cannot stop it: %s", strerror(-ret));
		goto out_detach;
	}
	ret = wait_stop(tid, PTRACE_EVENT_STOP, &pending);
	if (ret) {
		snprintf(why, len, "ptrace: it ended");
		goto out_unblock;
	}
	ret = inject(tid, &pending, why, len);
out_detach:
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)pending);
out_unblock:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

#else

long mdwe_ptrace_read(pid_t pid, const struct mdwe_ptrace_opts *o, char *why, size_t len)
{
	snprintf(why, len, "--method ptrace: not supported on this architecture (x86-64 only)");
	return -EOPNOTSUPP;
}

bool mdwe_ptrace_supported(void)
{
	return false;
}

int mdwe_ptrace_set_at_entry(pid_t pid, unsigned long flags, char *why, size_t len)
{
	snprintf(why, len, "not supported on this architecture (x86-64 only)");
	return -EOPNOTSUPP;
}

#endif
