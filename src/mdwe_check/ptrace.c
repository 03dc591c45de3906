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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

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

long mdwe_ptrace_read(pid_t pid, const struct mdwe_ptrace_opts *o, char *why, size_t len)
{
	snprintf(why, len, "ptrace reader: not built");
	return -ENOSYS;
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
