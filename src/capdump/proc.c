// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc - the capability sets of processes.
 *
 * Every value comes from /proc/PID/status through the sysroot, so a tree
 * captured from a board reads like the board. On the live system each
 * process's inheritable, permitted and effective sets read from /proc are
 * also asked of capget(2): the two must agree, and a disagreement that
 * survives a second look is printed rather than smoothed over. A scan of
 * the live system reads the same values from one BPF pass instead where it
 * can (bpf.c): the kernel then formats no status file per process. The
 * pass reads the credentials capget() reads, so its sets are compared with
 * capget once, on rtla itself, not per process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "capdump/capdump.h"
#include "commands.h"
#include "msg.h"
#include "parse.h"
#include "procscan.h"
#include "sysroot.h"
#include "usernames.h"
#include "util.h"

/* Large enough for the Cap lines even with a long Mems_allowed on big NUMA machines. */
#define STATUS_MAX	8192

enum {
	COL_PID, COL_PPID, COL_UID, COL_USER, COL_COMMAND, COL_STATE, COL_CMDLINE,
	COL_CAPINH, COL_CAPPRM, COL_CAPEFF, COL_CAPBND, COL_CAPAMB,
	COL_INH_NAMES, COL_PRM_NAMES, COL_EFF_NAMES, COL_BND_NAMES, COL_AMB_NAMES,
	COL_NNP, COL_SECCOMP, COL_GAINED, COL_GAINED_NAMES, COL_REASON, COL_NOTE,
};

const struct out_column capdump_proc_cols[] = {
	[COL_PID]	  = { "PID", "pid", OUT_NUM, 5, OUT_RIGHT, "process ID" },
	[COL_PPID]	  = { "PPID", "ppid", OUT_NUM, 5, OUT_RIGHT, "parent process ID" },
	[COL_UID]	  = { "UID", "uid", OUT_NUM, 5, OUT_RIGHT, "effective user ID" },
	[COL_USER]	  = { "USER", "user", OUT_STR, 8, OUT_TRUNC, "effective user name" },
	[COL_COMMAND]	  = { "COMMAND", "command", OUT_STR, 15, OUT_TRUNC,
			      "command name (kernel threads in brackets)" },
	[COL_STATE]	  = { "STATE", "state", OUT_STR, 1, 0, "process state (R, S, D, Z...)" },
	[COL_CMDLINE]	  = { "CMDLINE", "cmdline", OUT_STR, 0.3, OUT_TRUNC, "command line" },
	[COL_CAPINH]	  = { "CAPINH", "cap_inh", OUT_STR, 16, 0, "inheritable set, u64 in hex" },
	[COL_CAPPRM]	  = { "CAPPRM", "cap_prm", OUT_STR, 16, 0, "permitted set, u64 in hex" },
	[COL_CAPEFF]	  = { "CAPEFF", "cap_eff", OUT_STR, 16, 0, "effective set, u64 in hex" },
	[COL_CAPBND]	  = { "CAPBND", "cap_bnd", OUT_STR, 16, 0, "bounding set, u64 in hex" },
	[COL_CAPAMB]	  = { "CAPAMB", "cap_amb", OUT_STR, 16, 0, "ambient set, u64 in hex" },
	[COL_INH_NAMES]	  = { "INH_NAMES", "inh_names", OUT_STR, 0.1, OUT_WRAP,
			      "inheritable set, capability names" },
	[COL_PRM_NAMES]	  = { "PRM_NAMES", "prm_names", OUT_STR, 0.1, OUT_WRAP,
			      "permitted set, capability names" },
	[COL_EFF_NAMES]	  = { "EFF_NAMES", "eff_names", OUT_STR, 0.1, OUT_WRAP,
			      "effective set, capability names" },
	[COL_BND_NAMES]	  = { "BND_NAMES", "bnd_names", OUT_STR, 0.1, OUT_WRAP,
			      "bounding set, capability names" },
	[COL_AMB_NAMES]	  = { "AMB_NAMES", "amb_names", OUT_STR, 0.1, OUT_WRAP,
			      "ambient set, capability names" },
	[COL_NNP]	  = { "NNP", "no_new_privs", OUT_BOOL, 3, 0, "no_new_privs is set" },
	[COL_SECCOMP]	  = { "SECCOMP", "seccomp", OUT_STR, 8, 0,
			      "seccomp mode: disabled, strict or filter" },
	[COL_GAINED]	  = { "GAINED", "gained", OUT_STR, 16, 0,
			      "effective capabilities the parent's effective set lacks, hex" },
	[COL_GAINED_NAMES] = { "GAINED_NAMES", "gained_names", OUT_STR, 0.1, OUT_WRAP,
			      "the same as names" },
	[COL_REASON]	  = { "REASON", "reason", OUT_STR, 0.1, OUT_TRUNC,
			      "why the default filter shows the process" },
	[COL_NOTE]	  = { "NOTE", "note", OUT_STR, 0.1, OUT_WRAP,
			      "what could not be read, or disagrees" },
};
const size_t capdump_proc_ncols = ARRAY_SIZE(capdump_proc_cols);

static const char default_cols[] =
	"PID,PPID,USER,COMMAND,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB,NNP,SECCOMP,NOTE";
static const char names_cols[] =
	"PID,PPID,USER,COMMAND,INH_NAMES,PRM_NAMES,EFF_NAMES,BND_NAMES,AMB_NAMES,NNP,SECCOMP,NOTE";
/*
 * libsmartcols never makes a column narrower than its header, and the five
 * name columns alone take 49 of a terminal's 80 with their blanks: the table
 * for the eye leaves out PPID, NNP and SECCOMP to fit (-o + brings them
 * back); raw output and a JSON record, for programs, keep them.
 */
static const char names_table_cols[] =
	"PID,USER,COMMAND,INH_NAMES,PRM_NAMES,EFF_NAMES,BND_NAMES,AMB_NAMES,NOTE";
static const char diff_cols[] = "PID,PPID,USER,COMMAND,CAPEFF,GAINED,NOTE";
static const char diff_names_cols[] = "PID,PPID,USER,COMMAND,EFF_NAMES,GAINED_NAMES,NOTE";

struct proc_rec {
	pid_t pid;
	struct capdump_status st;
	bool has_status;	/* /proc/PID/status was read, or the BPF pass saw it */
	bool name_in_comm;	/* a kernel thread seen by BPF: its Name is /proc/PID/comm */
	bool force;		/* shown whatever the filter: something is wrong */
	char note[CAPDUMP_NOTE_MAX];
};

struct proc_scan {
	struct capdump_ctx *ctx;
	int procfd;		/* /proc under the root: every read is relative to it */
	struct out_table *t;
	size_t rows;		/* added to t */
	struct usernames users;
	bool use_bpf;		/* bpf holds the processes of one pass */
	struct capdump_bpf_procs bpf;
};

int capdump_capget(pid_t pid, uint64_t *set)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = pid,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, d))
		return -errno;
	/* v3 hands each set over as two u32 halves: caps 0-31, then 32-63 */
	set[CAPDUMP_INH] = d[0].inheritable | (uint64_t)d[1].inheritable << 32;
	set[CAPDUMP_PRM] = d[0].permitted | (uint64_t)d[1].permitted << 32;
	set[CAPDUMP_EFF] = d[0].effective | (uint64_t)d[1].effective << 32;
	return 0;
}

/* Read PID/FILE below /proc into buf, NUL-terminated: its length or -errno. */
static int read_pid_file(struct proc_scan *ps, pid_t pid, const char *file, char *buf,
			 size_t len)
{
	size_t total = 0;
	ssize_t n;
	int fd = procscan_open(ps->procfd, pid, file);

	if (fd < 0)
		return -errno;
	while (total < len - 1) {
		size_t want = len - 1 - total;

		n = read(fd, buf + total, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		total += n;
		/* a short read is the end (procfs hands a status over whole): one read() less */
		if ((size_t)n < want)
			break;
	}
	close(fd);
	buf[total] = '\0';
	return total;
}

static int read_status(struct proc_scan *ps, pid_t pid, struct capdump_status *st)
{
	char buf[STATUS_MAX];
	int ret = read_pid_file(ps, pid, "status", buf, sizeof(buf));

	if (ret >= 0)
		capdump_status_parse(buf, st);
	return ret < 0 ? ret : 0;
}

/*
 * Compare with capget(). A process may change its sets between the two
 * reads, so a difference counts only if a second pair of reads shows it too.
 */
static void crosscheck(struct proc_scan *ps, struct proc_rec *rec)
{
	const unsigned need = 1u << CAPDUMP_INH | 1u << CAPDUMP_PRM | 1u << CAPDUMP_EFF;
	char note[CAPDUMP_NOTE_MAX];
	uint64_t cg[CAPDUMP_NR_SETS];

	if ((rec->st.has_set & need) != need)
		return;
	for (int tries = 0; tries < 2; tries++) {
		struct capdump_status again;

		if (capdump_capget(rec->pid, cg))
			return;		/* gone since: nothing left to compare */
		if (!capdump_crosscheck(rec->st.set, cg, note, sizeof(note)))
			return;
		if (tries || read_status(ps, rec->pid, &again))
			break;
		rec->st = again;
	}
	note_append(rec->note, sizeof(rec->note), "%s", note);
	warn_msg("PID %d: %s", (int)rec->pid, note);
	rec->force = true;
}

/* /proc/PID/status exists but cannot be read: show what else can be. */
static int read_unreadable(struct proc_scan *ps, struct proc_rec *rec, int err)
{
	char rel[32];
	uint64_t cg[CAPDUMP_NR_SETS];
	struct stat sb;
	int ret;

	rec->force = true;
	note_append(rec->note, sizeof(rec->note), "status: %s", strerror(-err));
	snprintf(rel, sizeof(rel), "%d", (int)rec->pid);
	if (fstatat(ps->procfd, rel, &sb, 0) == 0) {
		rec->st.uid = sb.st_uid;	/* /proc/PID belongs to the effective UID */
		rec->st.has_uid = true;
	} else if (errno == ENOENT) {
		return -ENOENT;
	}
	if (!ps->ctx->live)
		return 0;
	ret = capdump_capget(rec->pid, cg);
	if (ret == -ESRCH)
		return -ENOENT;
	if (ret)
		return 0;
	for (int s = CAPDUMP_INH; s <= CAPDUMP_EFF; s++)
		rec->st.set[s] = cg[s];
	rec->st.has_set = 1u << CAPDUMP_INH | 1u << CAPDUMP_PRM | 1u << CAPDUMP_EFF;
	note_append(rec->note, sizeof(rec->note), "inheritable, permitted, effective from capget");
	return 0;
}

/* A set line absent or unparsable: a note, and the row is shown whatever the filter. */
static void note_bad_sets(struct proc_rec *rec)
{
	static const char *const line[CAPDUMP_NR_SETS] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
	};

	for (int s = 0; s < CAPDUMP_NR_SETS; s++) {
		if (rec->st.bad_set & (1u << s))
			note_append(rec->note, sizeof(rec->note), "bad %s line", line[s]);
		else if (!(rec->st.has_set & (1u << s)))
			note_append(rec->note, sizeof(rec->note), "no %s line", line[s]);
	}
	if (rec->st.bad_set || !rec->st.has_set)
		rec->force = true;
}

/* 0, or -ENOENT when the process is gone (it exited, or never was). */
static int read_proc(struct proc_scan *ps, pid_t pid, struct proc_rec *rec)
{
	/* one the BPF pass did not see (born since) is read from /proc */
	ssize_t i = ps->use_bpf ? capdump_bpf_find(&ps->bpf, pid) : -1;
	int ret;

	memset(rec, 0, sizeof(*rec));
	rec->pid = pid;
	if (i >= 0) {
		rec->name_in_comm = capdump_bpf_status(&ps->bpf, i, &rec->st);
	} else {
		ret = read_status(ps, pid, &rec->st);
		if (ret == -ENOENT || ret == -ESRCH)
			return -ENOENT;
		if (ret) {
			capdump_status_parse("", &rec->st);
			return read_unreadable(ps, rec, ret);
		}
		note_bad_sets(rec);
	}
	rec->has_status = true;
	if (rec->st.state == 'Z')
		note_append(rec->note, sizeof(rec->note), "zombie");
	/* the pass read the credentials capget() reads: bpf.c compared them once, on rtla */
	if (ps->ctx->live && i < 0)
		crosscheck(ps, rec);
	return 0;
}

static bool is_kthread(const struct proc_rec *rec)
{
	if (rec->st.kthread >= 0)
		return rec->st.kthread;
	/* older kernels have no Kthread line: kthreadd and its children */
	return rec->pid == 2 || (rec->st.has_ppid && rec->st.ppid == 2);
}

/* A kernel thread's Name, as its status has it: /proc/PID/comm, escaped as there */
static void read_comm(struct proc_scan *ps, pid_t pid, char *name, size_t len)
{
	char buf[128];
	int n = read_pid_file(ps, pid, "comm", buf, sizeof(buf));

	if (n <= 0)
		return;		/* gone since the pass: the task name stands */
	if (buf[n - 1] == '\n')
		n--;
	capdump_escape_name(buf, n, name, len);
}

static void set_cmdline(struct proc_scan *ps, struct out_row *r, pid_t pid)
{
	char buf[4096];
	int n;

	n = read_pid_file(ps, pid, "cmdline", buf, sizeof(buf));
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	out_set_str(r, COL_CMDLINE, buf);
}

static const char *seccomp_mode(int mode)
{
	static const char *const modes[] = { "disabled", "strict", "filter" };

	return mode >= 0 && mode <= 2 ? modes[mode] : NULL;
}

static void add_row(struct proc_scan *ps, struct proc_rec *rec, const char *reason,
		    bool has_gained, uint64_t gained)
{
	struct out_table *t = ps->t;
	struct out_row *r = out_row_add(t);
	const struct capdump_status *st = &rec->st;
	char buf[CAPDUMP_NAMES_MAX];

	if (!r)
		return;
	if (rec->name_in_comm && out_column_shown(t, COL_COMMAND))
		read_comm(ps, rec->pid, rec->st.name, sizeof(rec->st.name));
	ps->rows++;
	out_set_u64(r, COL_PID, rec->pid);
	if (st->has_ppid)
		out_set_u64(r, COL_PPID, st->ppid);
	if (st->has_uid) {
		out_set_u64(r, COL_UID, st->uid);
		if (out_column_shown(t, COL_USER))
			out_set_str(r, COL_USER, usernames_get(&ps->users, st->uid, buf, sizeof(buf)));
	}
	if (st->name[0] && is_kthread(rec))
		out_set_fmt(r, COL_COMMAND, "[%s]", st->name);
	else if (st->name[0])
		out_set_str(r, COL_COMMAND, st->name);
	if (st->state)
		out_set_fmt(r, COL_STATE, "%c", st->state);
	if (out_column_shown(t, COL_CMDLINE) && rec->has_status)
		set_cmdline(ps, r, rec->pid);
	for (int s = 0; s < CAPDUMP_NR_SETS; s++) {
		if (!(st->has_set & (1u << s)))
			continue;
		out_set_str(r, COL_CAPINH + s, capdump_fmt_set(st->set[s], buf));
		if (out_column_shown(t, COL_INH_NAMES + s))
			capdump_set_names_cell(ps->ctx, r, COL_INH_NAMES + s, st->set[s]);
	}
	if (st->nnp >= 0)
		out_set_bool(r, COL_NNP, st->nnp);
	out_set_str(r, COL_SECCOMP, seccomp_mode(st->seccomp));
	if (has_gained) {
		out_set_str(r, COL_GAINED, capdump_fmt_set(gained, buf));
		capdump_set_names_cell(ps->ctx, r, COL_GAINED_NAMES, gained);
	}
	if (reason)
		out_set_str(r, COL_REASON, reason);
	if (rec->note[0])
		out_set_str(r, COL_NOTE, rec->note);
}

static bool has_eff(const struct proc_rec *rec)
{
	return rec->st.has_set & (1u << CAPDUMP_EFF);
}

/* What rec's effective set holds beyond its parent's; false when unknown. */
static bool gained(const struct proc_rec *rec, const struct proc_rec *parent, uint64_t *g)
{
	if (!parent || !has_eff(rec) || !has_eff(parent))
		return false;
	*g = rec->st.set[CAPDUMP_EFF] & ~parent->st.set[CAPDUMP_EFF];
	return true;
}

static void show(struct proc_scan *ps, struct proc_rec *rec, const struct proc_rec *parent,
		 bool named)
{
	struct capdump_opts *o = ps->ctx->opt;
	const char *reason = capdump_interesting(&rec->st, ps->ctx->known);
	bool has_g = false, shown;
	uint64_t g = 0;

	if (!rec->has_status)
		reason = "status unreadable";
	if (o->diff && rec->st.has_ppid && rec->st.ppid > 0) {
		has_g = gained(rec, parent, &g);
		if (!parent)
			note_append(rec->note, sizeof(rec->note), "parent %d not found", (int)rec->st.ppid);
		else if (!has_eff(parent))
			note_append(rec->note, sizeof(rec->note), "effective set of parent %d unknown", (int)rec->st.ppid);
	}
	if (o->diff)
		shown = has_g && g;
	else
		shown = reason != NULL;
	if (named || o->all || rec->force || shown)
		add_row(ps, rec, reason, has_g, g);
}

static int cmp_rec_pid(const void *a, const void *b)
{
	const struct proc_rec *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* recs are in the listing's order, up the PIDs */
static struct proc_rec *find_rec(struct proc_rec *recs, size_t nr, pid_t pid)
{
	struct proc_rec key = { .pid = pid };

	return nr ? bsearch(&key, recs, nr, sizeof(key), cmp_rec_pid) : NULL;
}

/*
 * An empty table says nothing of why: say it on stderr, so that an audit
 * that found nothing is not mistaken for one that did not look.
 */
static void explain_empty(const struct proc_scan *ps, size_t nr)
{
	const struct capdump_opts *o = ps->ctx->opt;
	char all[64];

	if (nr == 1)
		snprintf(all, sizeof(all), "--all shows the one process");
	else
		snprintf(all, sizeof(all), "--all shows all %zu processes", nr);
	if (!nr)
		info_msg("no process found in %s/proc", sysroot_is_live() ? "" : sysroot_dir());
	else if (o->all)
		return;		/* every row was shown, or could not be added */
	else if (o->diff)
		info_msg("no process holds an effective capability its parent lacks; %s", all);
	else
		info_msg("no process matched the default filter (processes with capabilities "
			 "worth a look); %s", all);
}

/* Without --diff a row needs no other process: each is shown as it is read. */
static size_t scan_streaming(struct proc_scan *ps, const struct procscan *scan)
{
	struct proc_rec rec;
	size_t nr = 0;

	out_table_stream(ps->t);
	for (size_t i = 0; i < scan->nr; i++) {
		if (read_proc(ps, scan->pids[i], &rec))
			continue;
		nr++;
		show(ps, &rec, NULL, false);
	}
	return nr;
}

static int scan_all(struct proc_scan *ps)
{
	struct procscan scan;
	struct proc_rec *recs;
	size_t nr = 0;
	int ret;

	ret = ps->use_bpf ? procscan_dir_pids(&scan) : procscan_pids(&scan);
	if (ret) {
		err_msg("cannot list the processes under %s/proc: %s", sysroot_is_live() ? "" :
			sysroot_dir(), strerror(-ret));
		return EXIT_ERROR;
	}
	if (!ps->ctx->opt->diff) {
		nr = scan_streaming(ps, &scan);
		procscan_free(&scan);
		if (!ps->rows)
			explain_empty(ps, nr);
		return EXIT_PASSED;
	}
	/* --diff: every process read first, for the parents */
	recs = calloc(scan.nr ? scan.nr : 1, sizeof(*recs));
	if (!recs) {
		procscan_free(&scan);
		err_msg("out of memory");
		return EXIT_ERROR;
	}
	/* a process that exited since the listing is left out without a word */
	for (size_t i = 0; i < scan.nr; i++)
		if (!read_proc(ps, scan.pids[i], &recs[nr]))
			nr++;
	procscan_free(&scan);

	for (size_t i = 0; i < nr; i++) {
		const struct proc_rec *parent = NULL;

		if (recs[i].st.has_ppid)
			parent = find_rec(recs, nr, recs[i].st.ppid);
		show(ps, &recs[i], parent, false);
	}
	free(recs);
	if (!ps->rows)
		explain_empty(ps, nr);
	return EXIT_PASSED;
}

static int scan_named(struct proc_scan *ps)
{
	struct capdump_opts *o = ps->ctx->opt;
	int status = EXIT_PASSED;

	for (int i = 0; i < o->nargs; i++) {
		struct proc_rec rec, parent;
		bool has_parent = false;
		long long pid;
		char err[PARSE_ERR_MAX];

		if (parse_llong(o->args[i], 1, INT_MAX, &pid, err))
			continue;	/* capdump_parse_args() has already refused it */
		if (read_proc(ps, pid, &rec)) {
			err_msg("PID %lld: no such process", pid);
			status = EXIT_ERROR;
			continue;
		}
		if (o->diff && rec.st.has_ppid && rec.st.ppid > 0)
			has_parent = !read_proc(ps, rec.st.ppid, &parent);
		show(ps, &rec, has_parent ? &parent : NULL, true);
	}
	return status;
}

/*
 * The BPF pass where the method allows it and it runs; else /proc, and
 * with -D one line says why. -1 when --method bpf cannot be had.
 */
static int choose_reader(struct proc_scan *ps)
{
	struct capdump_opts *o = ps->ctx->opt;
	char why[256];

	/* a captured tree is its /proc; --method bpf with --sysroot is refused earlier */
	if (!ps->ctx->live || o->method == CAPDUMP_PROC || (o->method == CAPDUMP_AUTO && o->nargs))
		return 0;
	if (out_column_shown(ps->t, COL_STATE))
		snprintf(why, sizeof(why), "the STATE column needs /proc");
	else if (!capdump_bpf_read(&ps->bpf, why, sizeof(why)))
		ps->use_bpf = true;
	if (ps->use_bpf) {
		debug_msg("BPF: load %.1f ms, iteration %.2f ms, %zu processes", ps->bpf.load_ms,
			  ps->bpf.iter_ms, ps->bpf.nr);
		return 0;
	}
	if (o->method == CAPDUMP_BPF) {
		err_msg("--method bpf: %s", why);
		return -1;
	}
	debug_msg("BPF: %s: reading /proc", why);
	return 0;
}

int capdump_procs(struct capdump_ctx *ctx)
{
	struct capdump_opts *o = ctx->opt;
	struct proc_scan ps = { .ctx = ctx, .procfd = -1 };
	const char *defaults;
	char err[PARSE_ERR_MAX];
	int ret, status;

	if (o->diff)
		defaults = o->names ? diff_names_cols : diff_cols;
	else if (o->names)
		defaults = o->out.json || o->out.json_file || o->out.raw ? names_cols :
			   names_table_cols;
	else
		defaults = default_cols;
	ret = out_table_new(&ps.t, "processes", capdump_proc_cols, capdump_proc_ncols,
			    defaults, &o->out, err);
	if (ret) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	ps.procfd = sysroot_open("/proc", O_RDONLY | O_DIRECTORY);
	if (ps.procfd < 0) {
		err_msg("cannot open %s/proc: %s", sysroot_is_live() ? "" : sysroot_dir(),
			strerror(errno));
		status = EXIT_ERROR;
		goto out_free_table;
	}
	if (choose_reader(&ps)) {
		close(ps.procfd);
		status = EXIT_ERROR;
		goto out_free_table;
	}
	status = o->nargs ? scan_named(&ps) : scan_all(&ps);
	close(ps.procfd);
	ret = out_table_print(ps.t);
	if (ret)
		status = EXIT_ERROR;	/* the --json-file, reported */
out_free_table:
	out_table_free(ps.t);
	usernames_free(&ps.users);
	capdump_bpf_free(&ps.bpf);
	return status;
}
