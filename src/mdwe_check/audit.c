// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit - a row per process: its MDWE flags, its W+X mappings, and the
 * seccomp and no_new_privs state around them.
 *
 * The flags of every process come first, from one BPF pass (bpf.c), or
 * with --method ptrace from each process itself (ptrace.c); then each
 * process's status and maps are read through the sysroot, so a captured
 * tree audits its W+X mappings too. Whatever cannot be known says
 * "unknown", and one stderr line says why; the rest of the audit runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "mdwe_check/mdwe.h"
#include "msg.h"
#include "parse.h"
#include "procscan.h"
#include "sysroot.h"
#include "usernames.h"
#include "util.h"

enum {
	OPT_ALL = CLI_LONG,
	OPT_METHOD,
	OPT_FORCE,
};

enum method { METHOD_BPF, METHOD_PTRACE };

struct audit_opts {
	bool all, force;
	enum method method;
	struct out_opts out;
	int nargs;
	char **args;
};

static void column_names(FILE *out, const struct cli_completion *c);

const struct cli_option mdwe_audit_options[] = {
	CLI_FLAG(OPT_ALL, "all", "every process, not only those worth a look"),
	CLI_VALUE(OPT_METHOD, "method", "bpf|ptrace",
		  "how to read MDWE flags: a BPF task iterator (default),\n"
		  "or a prctl injected into each process (x86-64; it\n"
		  "stops each process briefly: see rtla-mdwe(1))",
		  .complete = CLI_COMP_WORDS, .words = "bpf ptrace"),
	CLI_FLAG(OPT_FORCE, "force", "with --method ptrace: also real-time processes"),
	CLI_FLAG('D', "debug", "print debug messages (the BPF reader's costs)"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

enum {
	COL_PID, COL_PPID, COL_USER, COL_COMMAND, COL_STATE, COL_MDWE, COL_MDWE_FLAGS,
	COL_WX, COL_WX_BYTES, COL_WX_PATH, COL_SECCOMP, COL_NNP, COL_REASON, COL_NOTE,
};

static const struct out_column cols[] = {
	[COL_PID]	 = { "PID", "pid", OUT_NUM, 5, OUT_RIGHT, "process ID" },
	[COL_PPID]	 = { "PPID", "ppid", OUT_NUM, 5, OUT_RIGHT, "parent process ID" },
	[COL_USER]	 = { "USER", "user", OUT_STR, 8, OUT_TRUNC, "effective user name" },
	[COL_COMMAND]	 = { "COMMAND", "command", OUT_STR, 15, OUT_TRUNC,
			     "command name (kernel threads in brackets)" },
	[COL_STATE]	 = { "STATE", "state", OUT_STR, 1, 0, "process state (R, S, D, Z...)" },
	[COL_MDWE]	 = { "MDWE", "mdwe", OUT_STR, 16, 0,
			     "refuse-exec-gain, +no-inherit (refuse-exec-gain with\n"
			     "               PR_MDWE_NO_INHERIT), - or unknown" },
	[COL_MDWE_FLAGS] = { "MDWE_FLAGS", "mdwe_flags", OUT_NUM, 3, OUT_RIGHT,
			     "PR_GET_MDWE's value" },
	[COL_WX]	 = { "WX", "wx_mappings", OUT_NUM, 3, OUT_RIGHT,
			     "mappings both writable and executable" },
	[COL_WX_BYTES]	 = { "WX_BYTES", "wx_bytes", OUT_NUM, 8, OUT_RIGHT,
			     "their size in bytes" },
	[COL_WX_PATH]	 = { "WX_PATH", "wx_path", OUT_STR, 0.2, OUT_TRUNC,
			     "the first one's file, or [anon]" },
	[COL_SECCOMP]	 = { "SECCOMP", "seccomp", OUT_STR, 8, 0,
			     "seccomp mode: disabled, strict or filter" },
	[COL_NNP]	 = { "NNP", "no_new_privs", OUT_BOOL, 3, 0, "no_new_privs is set" },
	[COL_REASON]	 = { "REASON", "reason", OUT_STR, 0.1, OUT_TRUNC,
			     "why the default filter shows the process" },
	[COL_NOTE]	 = { "NOTE", "note", OUT_STR, 0.1, OUT_WRAP,
			     "what could not be read" },
};
#define NCOLS ARRAY_SIZE(cols)

static void column_names(FILE *out, const struct cli_completion *c)
{
	out_column_names(out, cols, NCOLS);
}

static const char default_cols[] = "PID,PPID,USER,COMMAND,MDWE,WX,WX_BYTES,WX_PATH,SECCOMP,NNP";
/* for programs: the value and the notes too */
static const char record_cols[] =
	"PID,PPID,USER,COMMAND,STATE,MDWE,MDWE_FLAGS,WX,WX_BYTES,WX_PATH,SECCOMP,NNP,REASON,NOTE";

const struct cli_spec mdwe_audit_cli = {
	.command = "mdwe audit",
	.options = mdwe_audit_options,
	.usage = mdwe_audit_usage,
	.positional = CLI_COMP_PIDS,
};

void mdwe_audit_usage(FILE *f)
{
	fputs("Usage: rtla mdwe [audit] [OPTIONS] [PID...]\n"
	      "       rtla mdwe selftest [-J]\n"
	      "       rtla mdwe run [--no-inherit] [--] COMMAND [ARG...]\n\n"
	      "Which processes run under memory-deny-write-execute (PR_SET_MDWE), and\n"
	      "which still map memory both writable and executable (W+X).\n\n"
	      "Without PIDs only the processes worth a look are shown: those under\n"
	      "MDWE, and those without it (or unknown) that map W+X. Named PIDs are\n"
	      "always shown. The MDWE flags come from a BPF task iterator (root);\n"
	      "where it cannot run the column says unknown and stderr says why.\n\n"
	      "Options:\n", f);
	cli_print_options(&mdwe_audit_cli, f);
	out_usage(f, cols, NCOLS);
	fputs("\nselftest checks the running kernel's enforcement; run starts COMMAND\n"
	      "under MDWE (rtla mdwe selftest --help, rtla mdwe run --help).\n"
	      "Global option --sysroot DIR audits the W+X mappings of a captured tree.\n"
	      "See rtla-mdwe(1).\n", f);
}

static int parse_args(int argc, char **argv, struct audit_opts *o)
{
	struct cli_parser p;
	int id;

	memset(o, 0, sizeof(*o));
	cli_begin(&p, &mdwe_audit_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &o->out))
			continue;
		switch (id) {
		case OPT_ALL: o->all = true; break;
		case OPT_FORCE: o->force = true; break;
		case 'D': msg_set_debug(true); break;
		case OPT_METHOD:
			if (!strcmp(p.arg, "bpf"))
				o->method = METHOD_BPF;
			else if (!strcmp(p.arg, "ptrace"))
				o->method = METHOD_PTRACE;
			else
				return cli_error(&p, "--method: not bpf or ptrace", p.arg);
			break;
		}
	}
	if (id < 0)
		return id;
	o->nargs = argc - p.optind;
	o->args = argv + p.optind;
	for (int i = 0; i < o->nargs; i++) {
		long long pid;
		char err[PARSE_ERR_MAX];

		if (parse_llong(o->args[i], 1, INT_MAX, &pid, err))
			return cli_usage_error(&mdwe_audit_cli,
					       "not a PID", o->args[i]);
	}
	if (o->force && o->method != METHOD_PTRACE)
		return cli_usage_error(&mdwe_audit_cli, "--force applies to --method ptrace", NULL);
	if (o->method == METHOD_PTRACE && !sysroot_is_live())
		return cli_usage_error(&mdwe_audit_cli,
				       "--method ptrace reads live processes, not --sysroot", NULL);
	return 0;
}

struct audit {
	struct audit_opts *opt;
	struct out_table *t;
	int procfd;
	size_t rows;
	/* the MDWE flags: known, or why not */
	bool flags_known;
	bool no_mdwe;		/* the kernel has none: every process is "-" */
	struct mdwe_flags_set flags;
	char flags_why[256];
	/* a reusable buffer for maps text */
	char *buf;
	size_t buf_len;
	struct usernames users;
	size_t unreadable_maps;
	struct proc_info *pi;	/* the one being read: too big for the stack */
};

/* Read PID/FILE under /proc into a->buf, NUL-terminated: its length or -errno. */
static ssize_t read_pid_file(struct audit *a, pid_t pid, const char *file)
{
	size_t total = 0;
	ssize_t n;
	int fd = procscan_open(a->procfd, pid, file);

	if (fd < 0)
		return -errno;
	for (;;) {
		if (a->buf_len - total < 4096) {
			size_t nlen = a->buf_len ? a->buf_len * 2 : 64 * 1024;
			char *p = realloc(a->buf, nlen);

			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			a->buf = p;
			a->buf_len = nlen;
		}
		n = read(fd, a->buf + total, a->buf_len - total - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		total += n;
	}
	close(fd);
	a->buf[total] = '\0';
	return total;
}

/* What the audit knows of one process. */
struct proc_info {
	pid_t pid;
	struct mdwe_status st;
	bool kthread;
	bool mdwe_known;
	long flags;
	bool wx_known;
	bool bad_maps;
	struct mdwe_wx wx;
	char note[512];
};

/* Read /proc/PID/status: -ENOENT when the process is gone. */
static int read_status(struct audit *a, struct proc_info *pi)
{
	ssize_t n = read_pid_file(a, pi->pid, "status");

	if (n == -ENOENT || n == -ESRCH)
		return -ENOENT;
	if (n < 0) {
		mdwe_status_parse("", &pi->st);
		note_append(pi->note, sizeof(pi->note), "status: %s", strerror(-n));
	} else {
		mdwe_status_parse(a->buf, &pi->st);
	}
	return 0;
}

/* The W+X mappings from /proc/PID/maps; false when it could not be read. */
static bool read_maps(struct audit *a, struct proc_info *pi)
{
	ssize_t n = read_pid_file(a, pi->pid, "maps");

	if (n >= 0 && !mdwe_maps_scan(a->buf, n, &pi->wx))
		return true;
	if (n >= 0) {
		pi->bad_maps = true;	/* a kernel or a capture we do not understand */
		note_append(pi->note, sizeof(pi->note), "maps: line %u does not parse", pi->wx.lines + 1);
	} else {
		note_append(pi->note, sizeof(pi->note), "maps: %s", strerror(-n));
		a->unreadable_maps++;
	}
	return false;
}

/* Everything from /proc, and the flags from the chosen reader. */
static int gather_slow(struct audit *a, struct proc_info *pi)
{
	char why[256];

	if (read_status(a, pi))
		return -ENOENT;
	pi->kthread = pi->st.kthread == 1 ||
		      (pi->st.kthread < 0 && (pi->pid == 2 || pi->st.ppid == 2));
	if (pi->kthread) {
		pi->mdwe_known = true;	/* no user memory, no MDWE */
	} else if (a->opt->method == METHOD_PTRACE) {
		struct mdwe_ptrace_opts po = { .force = a->opt->force };

		pi->flags = mdwe_ptrace_read(pi->pid, &po, why, sizeof(why));
		pi->mdwe_known = pi->flags >= 0;
		if (!pi->mdwe_known)
			note_append(pi->note, sizeof(pi->note), "%s", why);
	} else if (a->no_mdwe) {
		pi->mdwe_known = true;
	} else if (a->flags_known) {
		const struct mdwe_task_flags *tf = mdwe_flags_find(&a->flags, pi->pid);

		if (tf) {
			pi->mdwe_known = true;
			pi->flags = tf->flags;
		} else {
			note_append(pi->note, sizeof(pi->note), "not seen by the BPF pass");
		}
	}
	/* a kernel thread has no mappings */
	pi->wx_known = pi->kthread || read_maps(a, pi);
	return 0;
}

static const char *reason_of(const struct proc_info *pi)
{
	if (pi->mdwe_known && (pi->flags & PR_MDWE_REFUSE_EXEC_GAIN))
		return pi->wx.count ? "under MDWE, maps W+X made before" : "under MDWE";
	if (pi->wx.count)
		return pi->mdwe_known ? "maps W+X without MDWE" : "maps W+X, MDWE unknown";
	if (pi->bad_maps)
		return "maps do not parse";
	return NULL;
}

static void add_row(struct audit *a, const struct proc_info *pi, const char *reason)
{
	const struct mdwe_status *st = &pi->st;
	struct out_row *r = out_row_add(a->t);
	const char *mdwe;
	char buf[64];

	if (!r)
		return;
	a->rows++;
	if (!pi->mdwe_known)
		mdwe = "unknown";
	else if (!(pi->flags & PR_MDWE_REFUSE_EXEC_GAIN))
		mdwe = "-";
	else
		mdwe = pi->flags & PR_MDWE_NO_INHERIT ? "+no-inherit" : "refuse-exec-gain";
	out_set_u64(r, COL_PID, pi->pid);
	if (st->ppid >= 0)
		out_set_u64(r, COL_PPID, st->ppid);
	if (st->uid >= 0 && out_column_shown(a->t, COL_USER))
		out_set_str(r, COL_USER, usernames_get(&a->users, st->uid, buf, sizeof(buf)));
	if (st->name[0])
		out_set_fmt(r, COL_COMMAND, pi->kthread ? "[%s]" : "%s", st->name);
	if (st->state)
		out_set_fmt(r, COL_STATE, "%c", st->state);
	out_set_str(r, COL_MDWE, mdwe);
	if (pi->mdwe_known)
		out_set_u64(r, COL_MDWE_FLAGS, pi->flags);
	else
		out_set_none(r, COL_MDWE_FLAGS);
	if (pi->wx_known) {
		out_set_u64(r, COL_WX, pi->wx.count);
		out_set_u64(r, COL_WX_BYTES, pi->wx.bytes);
	} else {
		/* "-" (null): unlike 0, not a count; NOTE says why */
		out_set_none(r, COL_WX);
		out_set_none(r, COL_WX_BYTES);
	}
	if (pi->wx_known && pi->wx.count && pi->wx.first[0])
		out_set_str(r, COL_WX_PATH, pi->wx.first);
	else
		out_set_none(r, COL_WX_PATH);
	if (mdwe_seccomp_name(st->seccomp))
		out_set_str(r, COL_SECCOMP, mdwe_seccomp_name(st->seccomp));
	else
		out_set_none(r, COL_SECCOMP);
	if (st->nnp >= 0)
		out_set_bool(r, COL_NNP, st->nnp);
	else
		out_set_none(r, COL_NNP);
	if (reason)
		out_set_str(r, COL_REASON, reason);
	else
		out_set_none(r, COL_REASON);
	if (pi->note[0])
		out_set_str(r, COL_NOTE, pi->note);
	else
		out_set_none(r, COL_NOTE);
}

/*
 * -ENOENT when PID does not exist (said on stderr when it was named), else 0.
 *
 * When the BPF pass brought the W+X mappings too, whether a process is
 * worth a row is known without /proc: its status is read only for a row,
 * its maps only to name a W+X mapping. That keeps an audit of thousands of
 * processes from making the kernel write thousands of maps files.
 */
static int audit_pid(struct audit *a, pid_t pid, bool named)
{
	const struct mdwe_task_flags *tf = NULL;
	struct proc_info *pi = a->pi;
	const char *reason;

	memset(pi, 0, sizeof(*pi));
	pi->pid = pid;
	if (a->flags_known && a->flags.wx_known && a->opt->method == METHOD_BPF)
		tf = mdwe_flags_find(&a->flags, pid);
	if (!tf) {
		if (gather_slow(a, pi)) {
			if (named)
				err_msg("PID %d: no such process", (int)pid);
			return -ENOENT;
		}
		reason = reason_of(pi);
		if (!named && !a->opt->all && !reason)
			return 0;
	} else {
		pi->kthread = tf->kthread;
		pi->mdwe_known = true;
		pi->flags = tf->flags;
		pi->wx_known = true;
		pi->wx.count = tf->wx_count;
		pi->wx.bytes = tf->wx_bytes;
		reason = reason_of(pi);
		if (!named && !a->opt->all && !reason)
			return 0;
		if (read_status(a, pi)) {
			if (named)
				err_msg("PID %d: no such process", (int)pid);
			return -ENOENT;	/* exited since the pass */
		}
		/* the name, from maps; if it cannot be read the counts stand */
		if (tf->wx_count) {
			struct mdwe_wx bpf_wx = pi->wx;

			if (!read_maps(a, pi))
				pi->wx = bpf_wx;
		}
	}
	if (pi->st.state == 'Z')
		note_append(pi->note, sizeof(pi->note), "zombie");
	add_row(a, pi, reason);
	return 0;
}

/* Read every process's flags once, or say once why they are unknown. */
static void load_flags(struct audit *a)
{
	int ret;

	if (a->opt->method == METHOD_PTRACE) {
		if (!mdwe_ptrace_supported())
			info_msg("MDWE unknown: --method ptrace works on x86-64 only");
		return;
	}
	if (!sysroot_is_live()) {
		info_msg("MDWE unknown: a captured tree (--sysroot) holds no MDWE flags; "
			 "W+X mappings come from its maps");
		return;
	}
	ret = mdwe_kernel_probe();
	if (ret == -EINVAL) {
		/* nothing can run under what the kernel lacks */
		a->no_mdwe = true;
		info_msg("this kernel has no MDWE (Linux 6.3 and later have it): no process "
			 "runs under it");
		return;
	}
	ret = mdwe_bpf_read(&a->flags, a->flags_why, sizeof(a->flags_why));
	if (ret) {
		info_msg("MDWE unknown: %s", a->flags_why);
		return;
	}
	a->flags_known = true;
	debug_msg("BPF: load %.1f ms, iteration %.2f ms, %zu processes", a->flags.load_ms,
		  a->flags.iter_ms, a->flags.nr);
}

int mdwe_audit(int argc, char **argv)
{
	struct audit_opts o;
	struct audit a = { .opt = &o, .procfd = -1 };
	char err[PARSE_ERR_MAX];
	bool for_programs;
	int ret, status = EXIT_PASSED;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	for_programs = o.out.json || o.out.json_file || o.out.raw;
	ret = out_table_new(&a.t, "processes", cols, NCOLS,
			    for_programs ? record_cols : default_cols, &o.out, err);
	if (ret) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	a.pi = malloc(sizeof(*a.pi));
	if (!a.pi) {
		err_msg("out of memory");
		status = EXIT_ERROR;
		goto out_free;
	}
	a.procfd = sysroot_open("/proc", O_RDONLY | O_DIRECTORY);
	if (a.procfd < 0) {
		err_msg("cannot open %s/proc: %s", sysroot_is_live() ? "" : sysroot_dir(),
			strerror(errno));
		status = EXIT_ERROR;
		goto out_free;
	}
	load_flags(&a);
	if (o.nargs) {
		for (int i = 0; i < o.nargs; i++)
			if (audit_pid(&a, atoi(o.args[i]), true))
				status = EXIT_ERROR;
	} else {
		struct procscan scan;

		/* with the BPF pass, the listing is only the PIDs: no stat of each */
		ret = a.flags_known ? procscan_dir_pids(&scan) : procscan_pids(&scan);
		if (ret) {
			err_msg("cannot list the processes: %s", strerror(-ret));
			status = EXIT_ERROR;
			goto out_close;
		}
		for (size_t i = 0; i < scan.nr; i++)
			audit_pid(&a, scan.pids[i], false);
		if (!a.rows && !o.all)
			info_msg("no process runs under MDWE or maps W+X; --all shows all %zu",
				 scan.nr);
		procscan_free(&scan);
	}
	if (a.unreadable_maps && !o.nargs)
		info_msg("the maps of %zu process%s could not be read: W+X unknown there",
			 a.unreadable_maps, a.unreadable_maps == 1 ? "" : "es");
	if (out_table_print(a.t))
		status = EXIT_ERROR;
out_close:
	close(a.procfd);
out_free:
	out_table_free(a.t);
	mdwe_flags_free(&a.flags);
	usernames_free(&a.users);
	free(a.buf);
	free(a.pi);
	return status;
}
