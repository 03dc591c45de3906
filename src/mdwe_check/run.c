// SPDX-License-Identifier: GPL-2.0-only
/*
 * run - start a command under MDWE, to try software with it.
 *
 * Without --no-inherit rtla sets PR_MDWE_REFUSE_EXEC_GAIN on itself and
 * execs the command, which keeps it (and so do its children). NO_INHERIT
 * cannot travel that way: the kernel drops both flags on the execve of a
 * process that has it. So with --no-inherit rtla starts the command traced,
 * stops it at its first system call after the exec, before any of its own
 * code has run, has it set the flags there (ptrace.c), and lets it go; rtla
 * then waits for it and exits with its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "mdwe_check/mdwe.h"
#include "msg.h"

/* As env(1) and nice(1): the command was not found, or could not be run. */
#define EXIT_NOT_FOUND	127
#define EXIT_CANNOT_RUN	126

enum {
	OPT_NO_INHERIT = CLI_LONG,
};

static void usage(FILE *f);

static const struct cli_option options[] = {
	CLI_FLAG(OPT_NO_INHERIT, "no-inherit", "PR_MDWE_NO_INHERIT too: the command's children and\n"
		 "the programs it execs run without MDWE"),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec mdwe_run_cli = {
	.command = "mdwe run",
	.options = options,
	.usage = usage,
	.positional = CLI_COMP_PROGRAM,
};

static void usage(FILE *f)
{
	fputs("Usage: rtla mdwe run [--no-inherit] [--] COMMAND [ARG...]\n\n"
	      "Run COMMAND under memory-deny-write-execute (PR_SET_MDWE with\n"
	      "PR_MDWE_REFUSE_EXEC_GAIN): it can map nothing writable and executable,\n"
	      "and no mapping can become executable. Its children and the programs it\n"
	      "execs inherit it, unless --no-inherit. Exit status: COMMAND's; 1 when\n"
	      "the kernel has no MDWE, 126 when COMMAND cannot be run, 127 when it is\n"
	      "not found.\n\n"
	      "Options:\n", f);
	cli_print_options(&mdwe_run_cli, f);
	fputs("\nSee rtla-mdwe(1).\n", f);
}

/* Why PR_SET_MDWE failed, as a user can act on it. */
static void set_failed(int err, unsigned long flags)
{
	long cur = prctl(PR_GET_MDWE, 0, 0, 0, 0);

	if (cur < 0)
		err_msg("this kernel has no MDWE: PR_GET_MDWE: %s (Linux 6.3 and later have it)",
			strerror(errno));
	else if (err == EPERM)
		err_msg("rtla already runs under MDWE (%s), which cannot change",
			mdwe_flags_name(cur));
	else if (err == EINVAL && (flags & PR_MDWE_NO_INHERIT))
		err_msg("--no-inherit: this kernel lacks PR_MDWE_NO_INHERIT (Linux 6.6)");
	else
		err_msg("PR_SET_MDWE: %s", strerror(err));
}

static int exec_failed(const char *cmd, int err)
{
	err_msg("%s: %s", cmd, strerror(err));
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

/* The exit status a shell would give for the child's end. */
static int child_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Does PR_MDWE_NO_INHERIT work here? A child tries, as it cannot be undone. */
static int probe_no_inherit(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN | PR_MDWE_NO_INHERIT, 0, 0, 0) ?
		      errno : 0);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
}

static int run_no_inherit(char **cmd)
{
	const unsigned long flags = PR_MDWE_REFUSE_EXEC_GAIN | PR_MDWE_NO_INHERIT;
	int status, fds[2], err = 0, ret;
	char why[256];
	pid_t pid;

	if (!mdwe_ptrace_supported()) {
		err_msg("--no-inherit: not supported on this architecture (x86-64 only)");
		return EXIT_ERROR;
	}
	ret = probe_no_inherit();
	if (ret) {
		set_failed(-ret, flags);
		return EXIT_ERROR;
	}
	/* the child reports a failed exec through a pipe that a good exec closes */
	if (pipe2(fds, O_CLOEXEC)) {
		err_msg("pipe: %s", strerror(errno));
		return EXIT_ERROR;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err_msg("fork: %s", strerror(errno));
		return EXIT_ERROR;
	}
	if (!pid) {
		close(fds[0]);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0)
			execvp(cmd[0], cmd);
		err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(EXIT_CANNOT_RUN);
		_exit(err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
	}
	close(fds[1]);
	if (read(fds[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(fds[0]);
	if (err) {
		waitpid(pid, &status, 0);
		return exec_failed(cmd[0], err);
	}
	/* the exec stops the tracee with SIGTRAP; then run it to its first syscall */
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status)) {
		err_msg("%s: ended before it could be given MDWE", cmd[0]);
		return EXIT_ERROR;
	}
	ret = ptrace(PTRACE_SETOPTIONS, pid, NULL,
		     (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	if (!ret)
		ret = ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
	if (!ret && (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status) ||
		     WSTOPSIG(status) != (SIGTRAP | 0x80)))
		ret = -1, errno = ECHILD;
	if (ret) {
		err_msg("%s: cannot stop it at its first system call: %s", cmd[0], strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return EXIT_ERROR;
	}
	if (mdwe_ptrace_set_at_entry(pid, flags, why, sizeof(why))) {
		err_msg("%s: %s", cmd[0], why);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return EXIT_ERROR;
	}
	/* the terminal's signals reach the command; rtla just waits, as system(3) does */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return child_status(status);
}

int mdwe_run(int argc, char **argv)
{
	struct cli_parser p;
	bool no_inherit = false;
	int id, nopts = 1;

	/* options end at the first word that is not one: COMMAND's own are its */
	while (nopts < argc && argv[nopts][0] == '-' && strcmp(argv[nopts], "--"))
		nopts++;
	cli_begin(&p, &mdwe_run_cli, nopts, argv);
	while ((id = cli_next(&p)) > 0)
		if (id == OPT_NO_INHERIT)
			no_inherit = true;
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (nopts < argc && !strcmp(argv[nopts], "--"))
		nopts++;
	if (nopts >= argc) {
		cli_usage_error(&mdwe_run_cli, "no COMMAND given", NULL);
		return EXIT_ERROR;
	}
	if (no_inherit)
		return run_no_inherit(argv + nopts);
	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0)) {
		set_failed(errno, PR_MDWE_REFUSE_EXEC_GAIN);
		return EXIT_ERROR;
	}
	fflush(NULL);
	execvp(argv[nopts], argv + nopts);
	return exec_failed(argv[nopts], errno);
}
