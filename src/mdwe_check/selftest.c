// SPDX-License-Identifier: GPL-2.0-only
/*
 * selftest - does the running kernel enforce MDWE as documented?
 *
 * Every check runs in a child of its own, because MDWE once set can never
 * be cleared: the child sets the flags the check needs, does one thing
 * (a prctl, an mmap, an mprotect, a fork or an exec) and reports what the
 * kernel answered through a pipe. The expectations are the kernel's
 * documented behaviour (the MDWE commit, PR_SET_MDWE(2const)), verified on
 * 6.12 and 6.18.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "mdwe_check/mdwe.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "util.h"

#define R	PR_MDWE_REFUSE_EXEC_GAIN
#define N	PR_MDWE_NO_INHERIT

/* A result: >= 0 what the call returned (flags for PR_GET_MDWE), < 0 -errno. */
typedef long (*check_fn)(const char *self);

struct check {
	const char *name;
	unsigned long setup;	/* PR_SET_MDWE flags the child sets first */
	check_fn fn;
	long expect;
	bool value;		/* the result is a flags value, not ok/error */
};

static long sys_result(long ret)
{
	return ret < 0 ? -errno : ret;
}

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

static long try_mmap(int prot)
{
	void *p = mmap(NULL, page_size(), prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, page_size());
	return 0;
}

/* mmap with FROM, then mprotect to TO: the mprotect's result. */
static long try_mprotect(int from, int to)
{
	void *p = mmap(NULL, page_size(), from, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long ret;

	if (p == MAP_FAILED)
		return -errno;
	ret = sys_result(mprotect(p, page_size(), to));
	munmap(p, page_size());
	return ret;
}

static long mmap_rwx(const char *s) { return try_mmap(PROT_READ | PROT_WRITE | PROT_EXEC); }
static long mmap_wx(const char *s) { return try_mmap(PROT_WRITE | PROT_EXEC); }
static long mmap_rx(const char *s) { return try_mmap(PROT_READ | PROT_EXEC); }
static long mmap_rw(const char *s) { return try_mmap(PROT_READ | PROT_WRITE); }
static long mprot_rw_rx(const char *s)
{
	return try_mprotect(PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC);
}
static long mprot_rw_rwx(const char *s)
{
	return try_mprotect(PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE | PROT_EXEC);
}
static long mprot_r_rx(const char *s) { return try_mprotect(PROT_READ, PROT_READ | PROT_EXEC); }
static long mprot_rx_rwx(const char *s)
{
	return try_mprotect(PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC);
}
static long mprot_rx_rx(const char *s)
{
	return try_mprotect(PROT_READ | PROT_EXEC, PROT_READ | PROT_EXEC);
}
static long mprot_rx_r(const char *s) { return try_mprotect(PROT_READ | PROT_EXEC, PROT_READ); }

static long pkey_rw_rx(const char *s)
{
	void *p = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	long ret;

	if (p == MAP_FAILED)
		return -errno;
	/* pkey -1: the default key, so the check needs no protection-key hardware */
	ret = sys_result(syscall(SYS_pkey_mprotect, p, page_size(), PROT_READ | PROT_EXEC, -1));
	munmap(p, page_size());
	return ret;
}

/* READ_IMPLIES_EXEC turns PROT_READ into PROT_READ|PROT_EXEC: RW becomes RWX. */
static long rie_mmap_rw(const char *s)
{
	if (personality(READ_IMPLIES_EXEC) < 0)
		return -errno;
	return try_mmap(PROT_READ | PROT_WRITE);
}

static long set(unsigned long flags) { return sys_result(prctl(PR_SET_MDWE, flags, 0, 0, 0)); }
static long get(const char *s) { return sys_result(prctl(PR_GET_MDWE, 0, 0, 0, 0)); }
static long set_none(const char *s) { return set(0); }
static long set_r(const char *s) { return set(R); }
static long set_rn(const char *s) { return set(R | N); }
static long set_n_alone(const char *s) { return set(N); }
static long set_unknown_bit(const char *s) { return set(1UL << 2); }
static long set_arg3(const char *s) { return sys_result(prctl(PR_SET_MDWE, R, 1, 0, 0)); }
static long get_arg2(const char *s) { return sys_result(prctl(PR_GET_MDWE, 1, 0, 0, 0)); }

/* What a forked child reads with PR_GET_MDWE. */
static long fork_get(const char *s)
{
	int fds[2], status;
	long val = -EIO;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		val = get(s);
		_exit(write(fds[1], &val, sizeof(val)) == sizeof(val) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &val, sizeof(val)) != sizeof(val))
		val = -EIO;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return val;
}

/*
 * This process execs rtla again ("selftest --report-fd FD"), which writes
 * its PR_GET_MDWE to the pipe: what the new program starts with.
 */
static long exec_get_to(const char *self, int fd)
{
	char fdarg[16];

	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	execl(self, "rtla", "mdwe", "selftest", "--report-fd", fdarg, (char *)NULL);
	return -errno;
}

/* The reporting rtla writes to fd 3: the pipe the check's result goes to. */
#define RESULT_FD 3

static long exec_get(const char *self)
{
	return exec_get_to(self, RESULT_FD);
}

static long fork_exec_get(const char *self)
{
	int fds[2], status;
	long val = -EIO;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(fds[0]);
		val = exec_get_to(self, fds[1]);
		_exit(write(fds[1], &val, sizeof(val)) == sizeof(val) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &val, sizeof(val)) != sizeof(val))
		val = -EIO;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return val;
}

static const struct check checks[] = {
	/* the interface */
	{ "PR_GET_MDWE without MDWE", 0, get, 0, true },
	{ "PR_SET_MDWE NO_INHERIT alone", 0, set_n_alone, -EINVAL, false },
	{ "PR_SET_MDWE unknown bit 2", 0, set_unknown_bit, -EINVAL, false },
	{ "PR_SET_MDWE with arg3 != 0", 0, set_arg3, -EINVAL, false },
	{ "PR_GET_MDWE with arg2 != 0", 0, get_arg2, -EINVAL, false },
	{ "PR_SET_MDWE 0 without MDWE", 0, set_none, 0, false },
	{ "PR_GET_MDWE after REFUSE", R, get, R, true },
	{ "PR_GET_MDWE after REFUSE|NO_INHERIT", R | N, get, R | N, true },
	{ "clear REFUSE", R, set_none, -EPERM, false },
	{ "clear REFUSE|NO_INHERIT", R | N, set_none, -EPERM, false },
	{ "REFUSE|NO_INHERIT to REFUSE", R | N, set_r, -EPERM, false },
	{ "REFUSE to REFUSE|NO_INHERIT", R, set_rn, -EPERM, false },
	{ "REFUSE again", R, set_r, 0, false },
	{ "REFUSE|NO_INHERIT again", R | N, set_rn, 0, false },
	/* enforcement */
	{ "mmap anon RWX", R, mmap_rwx, -EACCES, false },
	{ "mmap anon WX", R, mmap_wx, -EACCES, false },
	{ "mmap anon RX", R, mmap_rx, 0, false },
	{ "mmap anon RW", R, mmap_rw, 0, false },
	{ "mprotect RW to RX", R, mprot_rw_rx, -EACCES, false },
	{ "mprotect RW to RWX", R, mprot_rw_rwx, -EACCES, false },
	{ "mprotect R to RX", R, mprot_r_rx, -EACCES, false },
	{ "mprotect RX to RWX", R, mprot_rx_rwx, -EACCES, false },
	{ "mprotect RX to RX", R, mprot_rx_rx, 0, false },
	{ "mprotect RX to R", R, mprot_rx_r, 0, false },
	{ "pkey_mprotect RW to RX", R, pkey_rw_rx, -EACCES, false },
	{ "READ_IMPLIES_EXEC mmap RW", R, rie_mmap_rw, -EACCES, false },
	{ "mmap anon RWX without MDWE", 0, mmap_rwx, 0, false },
	/* inheritance */
	{ "REFUSE: fork child", R, fork_get, R, true },
	{ "REFUSE: exec", R, exec_get, R, true },
	{ "REFUSE: fork and exec", R, fork_exec_get, R, true },
	{ "REFUSE|NO_INHERIT: fork child", R | N, fork_get, 0, true },
	{ "REFUSE|NO_INHERIT: exec", R | N, exec_get, 0, true },
	{ "REFUSE|NO_INHERIT: fork and exec", R | N, fork_exec_get, 0, true },
};
#define NR_CHECKS ARRAY_SIZE(checks)
/* The check whose setup tells whether the kernel has PR_MDWE_NO_INHERIT. */
#define NO_INHERIT_PROBE 7

enum verdict { V_PASS, V_FAIL, V_SKIP };

struct outcome {
	long observed;
	char text[64];		/* observed, as printed */
	enum verdict verdict;
	const char *why;	/* of a skip */
};

static const char *errno_name(long err)
{
	switch (err) {
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOMEM: return "ENOMEM";
	case ENOSYS: return "ENOSYS";
	case EIO: return "EIO";
	default: return NULL;
	}
}

static void format_result(const struct check *c, long v, char *buf, size_t len)
{
	const char *name;

	if (v >= 0 && c->value)
		snprintf(buf, len, "%s", mdwe_flags_name(v));
	else if (v >= 0)
		snprintf(buf, len, "ok");
	else if ((name = errno_name(-v)))
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "errno %ld", -v);
}

/* Run one check in a child; its result travels through fd RESULT_FD. */
static void run_check(const struct check *c, const char *self, struct outcome *out)
{
	int fds[2], status;
	long val;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		out->observed = -errno;
		snprintf(out->text, sizeof(out->text), "pipe: %s", strerror(errno));
		out->verdict = V_FAIL;
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		out->observed = -errno;
		snprintf(out->text, sizeof(out->text), "fork: %s", strerror(errno));
		out->verdict = V_FAIL;
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		/* the exec checks hand the write end on as fd 3, open across exec */
		if (fds[1] != RESULT_FD && dup2(fds[1], RESULT_FD) < 0)
			_exit(2);
		if (fcntl(RESULT_FD, F_SETFD, 0))
			_exit(2);
		val = c->setup ? set(c->setup) : 0;
		if (val < 0)
			val = -1000 + val;	/* the setup failed, not the check */
		else
			val = c->fn(self);
		_exit(write(RESULT_FD, &val, sizeof(val)) == sizeof(val) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &val, sizeof(val)) != sizeof(val))
		val = LONG_MIN;
	close(fds[0]);
	waitpid(pid, &status, 0);
	out->observed = val;
	if (val == LONG_MIN) {
		if (WIFSIGNALED(status))
			snprintf(out->text, sizeof(out->text), "killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(out->text, sizeof(out->text), "no result");
		out->verdict = V_FAIL;
		return;
	}
	if (val <= -1000) {
		char e[32];

		format_result(c, val + 1000, e, sizeof(e));
		snprintf(out->text, sizeof(out->text), "setup failed: %s", e);
		out->verdict = V_FAIL;
		return;
	}
	format_result(c, val, out->text, sizeof(out->text));
	out->verdict = val == c->expect ? V_PASS : V_FAIL;
}

static const char *verdict_name(enum verdict v)
{
	return v == V_PASS ? "ok" : v == V_FAIL ? "FAIL" : "skip";
}

enum {
	OPT_REPORT_FD = CLI_LONG,
};

static void usage(FILE *f);

static const struct cli_option options[] = {
	OUT_RECORD_OPTIONS,
	/* the exec checks run rtla again to learn what a new program starts with */
	CLI_VALUE(OPT_REPORT_FD, "report-fd", "FD", "write PR_GET_MDWE to FD",
		  .flags = CLI_HIDDEN),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec mdwe_selftest_cli = {
	.command = "mdwe selftest",
	.options = options,
	.usage = usage,
};

static void usage(FILE *f)
{
	fputs("Usage: rtla mdwe selftest [OPTIONS]\n\n"
	      "Check that the running kernel enforces memory-deny-write-execute as\n"
	      "documented: the PR_SET_MDWE/PR_GET_MDWE interface, mmap, mprotect and\n"
	      "pkey_mprotect under MDWE, and inheritance across fork and exec. Every\n"
	      "check runs in a child process of its own; rtla itself is not changed.\n"
	      "Exit status 0 when every check passed, 1 when the kernel deviates or\n"
	      "has no MDWE (Linux 6.3 and later have it).\n\n"
	      "Options:\n", f);
	cli_print_options(&mdwe_selftest_cli, f);
	fputs("\nSee rtla-mdwe(1).\n", f);
}

static int report_fd(const char *arg)
{
	long long fd;
	long val;
	char err[PARSE_ERR_MAX];

	if (parse_llong(arg, 0, 1023, &fd, err))
		return EXIT_ERROR;
	val = get(NULL);
	return write(fd, &val, sizeof(val)) == sizeof(val) ? EXIT_PASSED : EXIT_ERROR;
}

struct selftest_record {
	const struct outcome *res;
	int failed, skipped;
};

/* The record's body, after the envelope (output.h). */
static int print_json(struct json *j, const void *arg)
{
	const struct selftest_record *rec = arg;
	const struct outcome *res = rec->res;
	int failed = rec->failed, skipped = rec->skipped;

	json_str(j, "verdict", failed ? "failed" : "passed");
	json_u64(j, "passed", NR_CHECKS - failed - skipped);
	json_u64(j, "failed", failed);
	json_u64(j, "skipped", skipped);
	json_array_begin(j, "checks");
	for (size_t i = 0; i < NR_CHECKS; i++) {
		char expect[64];

		format_result(&checks[i], checks[i].expect, expect, sizeof(expect));
		json_object_begin(j, NULL);
		json_str(j, "check", checks[i].name);
		json_str(j, "mdwe", checks[i].setup ? mdwe_flags_name(checks[i].setup) : NULL);
		json_str(j, "expected", expect);
		json_str(j, "observed", res[i].verdict == V_SKIP ? NULL : res[i].text);
		json_str(j, "result", verdict_name(res[i].verdict));
		if (res[i].why)
			json_str(j, "why", res[i].why);
		json_object_end(j);
	}
	json_array_end(j);
	return 0;
}

static void print_table(const struct outcome *res, int failed, int skipped)
{
	printf("%-36s %-28s %-28s %s\n", "CHECK", "EXPECTED", "OBSERVED", "RESULT");
	for (size_t i = 0; i < NR_CHECKS; i++) {
		char expect[64];

		format_result(&checks[i], checks[i].expect, expect, sizeof(expect));
		printf("%-36s %-28s %-28s %s\n", checks[i].name, expect,
		       res[i].verdict == V_SKIP ? "-" : res[i].text, verdict_name(res[i].verdict));
	}
	printf("%zu checks: %zu passed, %d failed, %d skipped\n", NR_CHECKS,
	       NR_CHECKS - failed - skipped, failed, skipped);
}

int mdwe_selftest(int argc, char **argv)
{
	struct outcome res[NR_CHECKS] = { 0 };
	struct selftest_record body = { res, 0, 0 };
	const char *json_file = NULL;
	struct out_record rec;
	char self[PATH_MAX];
	bool json = false, no_inherit;
	struct cli_parser p;
	int id, failed = 0, skipped = 0, ret;
	long cur;

	cli_begin(&p, &mdwe_selftest_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		switch (id) {
		case 'J': json = true; break;
		case OUT_ID_JSON_FILE: json_file = p.arg; break;
		case OPT_REPORT_FD: return report_fd(p.arg);
		}
	}
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (p.optind < argc) {
		cli_usage_error(&mdwe_selftest_cli, "unexpected argument", argv[p.optind]);
		return EXIT_ERROR;
	}
	cur = get(NULL);
	if (cur == -EINVAL) {
		err_msg("this kernel has no MDWE: PR_GET_MDWE: %s (Linux 6.3 and later have it)",
			strerror(EINVAL));
		return EXIT_ERROR;
	}
	if (cur < 0) {
		err_msg("PR_GET_MDWE: %s", strerror(-cur));
		return EXIT_ERROR;
	}
	if (cur) {
		err_msg("rtla itself runs under MDWE (%s): the checks need a process without it",
			mdwe_flags_name(cur));
		return EXIT_ERROR;
	}
	ret = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (ret < 0) {
		err_msg("/proc/self/exe: %s", strerror(errno));
		return EXIT_ERROR;
	}
	self[ret] = '\0';
	if (out_record_open(&rec, json, json_file))
		return EXIT_ERROR;

	/* PR_MDWE_NO_INHERIT came in 6.6 (6.7 mainline): its checks need it */
	run_check(&checks[NO_INHERIT_PROBE], self, &res[NO_INHERIT_PROBE]);
	no_inherit = !strstr(res[NO_INHERIT_PROBE].text, "setup failed: EINVAL");
	for (size_t i = 0; i < NR_CHECKS; i++) {
		if (!no_inherit && (checks[i].setup & N)) {
			res[i].verdict = V_SKIP;
			res[i].why = "the kernel lacks PR_MDWE_NO_INHERIT (Linux 6.6)";
			skipped++;
			continue;
		}
		if (i != NO_INHERIT_PROBE)
			run_check(&checks[i], self, &res[i]);
		if (res[i].verdict == V_FAIL)
			failed++;
	}
	if (!json) {
		print_table(res, failed, skipped);
		if (!no_inherit)
			info_msg("%d checks skipped: the kernel lacks PR_MDWE_NO_INHERIT (Linux 6.6)",
				 skipped);
	}
	body.failed = failed;
	body.skipped = skipped;
	if (out_record_write(&rec, 1, print_json, &body))
		return EXIT_ERROR;
	return failed ? EXIT_ERROR : EXIT_PASSED;
}
