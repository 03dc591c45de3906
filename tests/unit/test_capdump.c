// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of capdump's pure parts: /proc/PID/status parsing, names, the
 * default filter, the capget cross-check, security.capability decoding and
 * the option parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capdump/capdump.h"
#include "cli.h"
#include "parse.h"
#include "tap.h"

/* A status file as Linux 6.18 writes it, cut to the lines that matter. */
static const char status_6_18[] =
	"Name:\tsleep\n"
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t4242\n"
	"Pid:\t4242\n"
	"PPid:\t4200\n"
	"Uid:\t1000\t65534\t65534\t65534\n"
	"Gid:\t1000\t65534\t65534\t65534\n"
	"Kthread:\t0\n"
	"CapInh:\t0000000000002000\n"
	"CapPrm:\t0000008000002000\n"
	"CapEff:\t0000008000002000\n"
	"CapBnd:\t000001fffeffffff\n"
	"CapAmb:\t0000008000002000\n"
	"NoNewPrivs:\t1\n"
	"Seccomp:\t2\n"
	"Seccomp_filters:\t1\n"
	"Cpus_allowed_list:\t0-1\n";

static void test_status(void)
{
	struct capdump_status st;

	capdump_status_parse(status_6_18, &st);
	is_str(st.name, "sleep", "status: Name");
	is_int(st.state, 'S', "status: State letter");
	ok(st.has_ppid && st.ppid == 4200, "status: PPid");
	ok(st.has_uid && st.uid == 65534, "status: the effective UID is the second Uid field");
	is_int(st.has_set, 0x1f, "status: all five sets present");
	is_int(st.bad_set, 0, "status: no bad set");
	ok(st.set[CAPDUMP_PRM] == 0x0000008000002000ULL, "status: CapPrm keeps bit 39 (above 31)");
	ok(st.set[CAPDUMP_BND] == 0x000001fffeffffffULL, "status: CapBnd as one u64");
	ok(st.set[CAPDUMP_AMB] == 0x0000008000002000ULL, "status: CapAmb");
	is_int(st.kthread, 0, "status: Kthread");
	is_int(st.nnp, 1, "status: NoNewPrivs");
	is_int(st.seccomp, 2, "status: Seccomp filter mode, not Seccomp_filters");

	/* an old kernel: no CapAmb (4.3), NoNewPrivs (4.10) or Kthread line */
	capdump_status_parse("Name:\tinit\nPPid:\t0\nUid:\t0\t0\t0\t0\n"
			     "CapInh:\t0000000000000000\nCapPrm:\t0000003fffffffff\n"
			     "CapEff:\t0000003fffffffff\nCapBnd:\t0000003fffffffff\n", &st);
	is_int(st.has_set, 0x0f, "old status: four sets, no CapAmb");
	ok(st.kthread == -1 && st.nnp == -1 && st.seccomp == -1, "old status: absent lines are -1");

	capdump_status_parse("CapInh:\t00000000000000000\nCapPrm:\t0x1f\nCapEff:\t1fz\n"
			     "CapBnd:\t\nCapAmb:\tFF\nSeccomp:\t3\nPPid:\t-1\nUid:\tx\n", &st);
	is_int(st.bad_set, 0x0f, "bad status: 17 digits, 0x, junk and empty are refused");
	ok((st.has_set & (1u << CAPDUMP_AMB)) && st.set[CAPDUMP_AMB] == 0xff,
	   "bad status: upper-case hex is still hex");
	ok(st.seccomp == -1 && !st.has_ppid && !st.has_uid, "bad status: out-of-range values unset");

	capdump_status_parse("Seccomp:\t1\nCapAmb:\t1\nCapBnd:\t2\nCapEff:\t3\nCapPrm:\t4\n"
			     "CapInh:\t5\nNoNewPrivs:\t0\nKthread:\t1\nUid:\t1 2 3 4\nPPid:\t9\n"
			     "State:\tZ (zombie)\nName:\tlast\n", &st);
	ok(st.seccomp == 1 && st.set[CAPDUMP_INH] == 5 && st.set[CAPDUMP_AMB] == 1 &&
	   st.kthread == 1 && st.uid == 2 && st.ppid == 9 && st.state == 'Z' &&
	   !strcmp(st.name, "last"), "status in another order: every line still found");

	capdump_status_parse("", &st);
	ok(!st.has_set && !st.name[0] && !st.state, "empty status: nothing set");
	capdump_status_parse("CapEff:\t000001ffffffffff", &st);
	ok(st.has_set == 1u << CAPDUMP_EFF && st.set[CAPDUMP_EFF] == 0x1ffffffffffULL,
	   "status without a final newline");
}

/* NAMES(nm, set, want, description): capdump_set_names() into a full-size buffer */
#define NAMES(nm, set, want, ...) do { \
	char b_[CAPDUMP_NAMES_MAX]; \
	is_str(capdump_set_names(nm, set, b_, sizeof(b_)), want, __VA_ARGS__); \
} while (0)

static void test_names(void)
{
	const uint64_t full40 = 0x1ffffffffffULL, full37 = 0x3fffffffffULL;
	struct capdump_names nm, old;
	char buf[CAPDUMP_NAMES_MAX], small[32];
	int commas = 0;

	ok(capdump_known_mask(40) == full40, "known mask for cap_last_cap 40");
	ok(capdump_known_mask(63) == ~0ULL && capdump_known_mask(-1) == 0, "known mask limits");

	if (!ok(capdump_names_init(&nm, 40) == 0, "names: init for cap_last_cap 40"))
		return;
	NAMES(&nm, 0, "", "names: the empty set is empty text");
	NAMES(&nm, 0x3000, "cap_net_admin,cap_net_raw", "names: libcap names, low bit first");
	NAMES(&nm, 1 | 1ULL << 13, "cap_chown,cap_net_raw", "names: a small set is its names");
	NAMES(&nm, 1ULL << 40, "cap_checkpoint_restore", "names: cap_last_cap itself");
	NAMES(&nm, full40, "all", "names: every known capability is 'all'");
	NAMES(&nm, full40 & ~(1ULL << 16), "all,-cap_sys_module",
	      "names: all but one is 'all' less that one");
	NAMES(&nm, full40 & ~(1ULL << 13 | 1ULL << 16), "all,-cap_net_raw,-cap_sys_module",
	      "names: all but two, lowest bit first");
	NAMES(&nm, full40 & ~(1ULL << 24), "all,-cap_sys_resource",
	      "names: the bounding set of the capture machine (bit 24 dropped)");
	NAMES(&nm, full40 | 1ULL << 41, "all,41", "names: an unknown bit 41 follows 'all' by number");
	NAMES(&nm, (full40 & ~1ULL) | 1ULL << 41 | 1ULL << 63, "all,-cap_chown,41,63",
	      "names: unknown bits follow the names lacked");
	NAMES(&nm, 1 | 1ULL << 63, "cap_chown,63", "names: an unknown bit 63 after a name");
	NAMES(&nm, 1ULL << 41 | 1ULL << 63, "41,63", "names: only unknown bits");
	NAMES(&nm, ~0ULL, "all,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63",
	      "names: every bit: unknown ones are never folded into 'all'");

	/* the crossover: the shorter form wins, whichever it is */
	capdump_set_names(&nm, full40 >> 20, buf, sizeof(buf));
	if (!ok(!strncmp(buf, "cap_chown,", 10) && !strstr(buf, "all"),
		"names: bits 0-20 are shorter as a list"))
		printf("#   got '%s'\n", buf);
	capdump_set_names(&nm, full40 & ~0xfULL & ~(1ULL << 40), buf, sizeof(buf));
	is_str(buf, "all,-cap_chown,-cap_dac_override,-cap_dac_read_search,-cap_fowner,"
	       "-cap_checkpoint_restore", "names: five lacked are shorter than 36 held");
	for (char *p = buf; *p; p++)
		commas += *p == ',';
	ok(commas == 5, "names: one comma per name lacked");
	capdump_set_names(&nm, full40 & 0x7ffff0000ULL, buf, sizeof(buf));
	if (!ok(!strncmp(buf, "cap_sys_module,", 15) && !strchr(buf, '-') && !strstr(buf, "all"),
		"names: bits 16-34, 19 of 41, are shorter as a list"))
		printf("#   got '%s'\n", buf);

	/* a buffer too small: nothing partial, which would read as a smaller set */
	memset(small, 'x', sizeof(small));
	ok(capdump_set_names(&nm, 0x3000, small, 14) == NULL && errno == ERANGE && !small[0],
	   "names: too small a buffer is NULL, ERANGE, and empty text");
	is_str(capdump_set_names(&nm, 0x3000, small, 26), "cap_net_admin,cap_net_raw",
	       "names: a buffer of exactly the text and its NUL is enough");
	ok(capdump_set_names(&nm, 0x3000, small, 25) == NULL && !small[0],
	   "names: one byte short is too small");
	is_str(capdump_set_names(&nm, full40, small, 4), "all", "names: 'all' in four bytes");
	ok(capdump_set_names(&nm, full40 | 1ULL << 41, small, 6) == NULL && !small[0],
	   "names: too small for the unknown bit after 'all'");
	small[0] = 'x';
	ok(capdump_set_names(&nm, 1, small, 0) == NULL && small[0] == 'x',
	   "names: a zero-length buffer is not written");
	is_str(capdump_set_names(&nm, 0, small, 1), "", "names: the empty set fits in one byte");
	capdump_names_free(&nm);

	/* a board whose kernel stops before cap_perfmon: libcap knows it, the kernel does not */
	if (ok(capdump_names_init(&old, 37) == 0, "names: init for cap_last_cap 37")) {
		NAMES(&old, full37, "all", "names 37: 'all' is relative to cap_last_cap");
		NAMES(&old, full37 & ~(1ULL << 37), "all,-cap_audit_read",
		      "names 37: all but cap_last_cap itself");
		NAMES(&old, full37 | 3ULL << 38, "all,38,39",
		      "names 37: cap_perfmon and cap_bpf above cap_last_cap are numbers");
		NAMES(&old, 1ULL << 13 | 1ULL << 39, "cap_net_raw,39",
		      "names 37: a number even where libcap has a name");
		NAMES(&old, full40, "all,38,39,40", "names 37: a 6.x full set on a 5.x kernel");
		capdump_names_free(&old);
	}

	/* a kernel newer than libcap: its capabilities 41-45 have no name but count in "all" */
	if (ok(capdump_names_init(&old, 45) == 0, "names: init for cap_last_cap 45")) {
		NAMES(&old, 0x3fffffffffffULL & ~(1ULL << 43), "all,-43",
		      "names 45: a capability libcap cannot name is its number, as in cap_to_text");
		NAMES(&old, 1ULL << 42 | 1ULL << 46, "42,46", "names 45: known and unknown numbers");
		capdump_names_free(&old);
	}
}

static struct capdump_status st_of(uid_t uid, uint64_t inh, uint64_t prm, uint64_t eff,
				   uint64_t bnd, uint64_t amb)
{
	struct capdump_status st;

	capdump_status_parse("", &st);
	st.has_uid = true;
	st.uid = uid;
	st.set[CAPDUMP_INH] = inh;
	st.set[CAPDUMP_PRM] = prm;
	st.set[CAPDUMP_EFF] = eff;
	st.set[CAPDUMP_BND] = bnd;
	st.set[CAPDUMP_AMB] = amb;
	st.has_set = 0x1f;
	return st;
}

#define IS_REASON(st, want, ...) do { \
	struct capdump_status s_ = (st); \
	const char *r_ = capdump_interesting(&s_, full); \
	if (want) \
		is_str(r_, want, __VA_ARGS__); \
	else if (!ok(r_ == NULL, __VA_ARGS__)) \
		printf("#   got '%s', expected NULL\n", r_); \
} while (0)

static void test_rule(void)
{
	const uint64_t full = 0x1ffffffffffULL, sandbox = 0x1fffeffffffULL;
	struct capdump_status st;

	IS_REASON(st_of(1000, 0, 0, 0, full, 0), NULL, "rule: an ordinary user process is hidden");
	IS_REASON(st_of(1000, 0, 0, 0, 0x2000, 0), NULL,
		  "rule: a user process with a reduced bounding set is still empty");
	IS_REASON(st_of(0, 0, full, full, full, 0), NULL, "rule: full root is hidden");
	IS_REASON(st_of(0, 0, sandbox, sandbox, sandbox, 0), NULL,
		  "rule: root holding its whole (reduced) bounding set is hidden");
	IS_REASON(st_of(0, 0, full, full, sandbox, 0), NULL,
		  "rule: root holding more than its bounding set (bounding dropped later) is hidden");
	IS_REASON(st_of(0, 0, 0, 0, 0, 0), NULL, "rule: root with nothing and no bounding set");
	IS_REASON(st_of(65534, 0, 0x2000, 0x2000, 0x2000, 0x2000), "non-root with capabilities",
		  "rule: a non-root process with an ambient capability");
	IS_REASON(st_of(1000, 0x400, 0, 0, full, 0), "non-root with capabilities",
		  "rule: a non-root process with only an inheritable capability");
	IS_REASON(st_of(0, 0, 0x3000, 0x3000, full, 0), "root with part of its bounding set",
		  "rule: a root daemon that dropped capabilities");
	IS_REASON(st_of(0, 0, full, 0, full, 0), "effective differs from permitted",
		  "rule: root with an empty effective set");
	IS_REASON(st_of(0, 0, 0, 0, full, 0), "root without capabilities",
		  "rule: root that dropped everything but may regain it at exec");
	IS_REASON(st_of(0, 0x2000, full, full, full, 0), "root with an inheritable set",
		  "rule: root with an inheritable set");
	IS_REASON(st_of(0, 0x2000, full, full, full, 0x2000), "root with an ambient set",
		  "rule: root with an ambient set");
	IS_REASON(st_of(0, 0, full | 1ULL << 41, full, full, 0), "bits above cap_last_cap",
		  "rule: an unknown bit 41 is always shown");
	IS_REASON(st_of(0, 0, full, full, 1ULL << 41 | full, 0), "bits above cap_last_cap",
		  "rule: an unknown bit in the bounding set too");

	st = st_of(0, 0, full, full, full, 0);
	st.has_set &= ~(1u << CAPDUMP_AMB);
	IS_REASON(st, NULL, "rule: no CapAmb line (before 4.3) counts as an empty ambient set");
	st.has_set &= ~(1u << CAPDUMP_BND);
	IS_REASON(st, "sets incomplete", "rule: a missing CapBnd is shown");
	st = st_of(0, 0, full, full, full, 0);
	st.has_uid = false;
	IS_REASON(st, "UID unknown", "rule: an unknown UID is shown");
}

static void test_crosscheck(void)
{
	uint64_t proc[CAPDUMP_NR_SETS] = { 0, 0x1ffffffffffULL, 0x1ffffffffffULL, 0, 0 };
	uint64_t cg[CAPDUMP_NR_SETS] = { 0, 0x1ffffffffffULL, 0x1ffffffffffULL, 7, 7 };
	char note[CAPDUMP_NOTE_MAX];
	struct capdump_status st;
	char buf[8192];
	FILE *f;
	size_t n;

	is_int(capdump_crosscheck(proc, cg, note, sizeof(note)), 0,
	       "crosscheck: equal inh/prm/eff agree (bnd/amb are not capget's)");
	is_str(note, "", "crosscheck: no note when they agree");
	cg[CAPDUMP_EFF] = 0x1ffffffffffULL & ~(1ULL << 32);
	is_int(capdump_crosscheck(proc, cg, note, sizeof(note)), 1, "crosscheck: a high-half bit differs");
	is_str(note, "CapEff 000001ffffffffff in /proc, 000001feffffffff from capget",
	       "crosscheck: the note shows both values");
	cg[CAPDUMP_INH] = 1;
	is_int(capdump_crosscheck(proc, cg, note, sizeof(note)), 2, "crosscheck: two sets differ");
	ok(strstr(note, "CapInh 0000000000000000 in /proc, 0000000000000001 from capget; CapEff") != NULL,
	   "crosscheck: both are named");

	/* the real thing: this process, through /proc and capget v3 */
	f = fopen("/proc/self/status", "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	capdump_status_parse(buf, &st);
	if (ok(capdump_capget(getpid(), cg) == 0, "capget v3 on this process")) {
		is_int(capdump_crosscheck(st.set, cg, note, sizeof(note)), 0,
		       "capget and /proc/self/status agree");
	}
	is_int(capdump_capget(0x7ffffff0, cg), -ESRCH, "capget of an absent PID is ESRCH");
}

static void test_xattr(void)
{
	/* dumps of what setcap wrote on Linux 6.18 (reference §2.4) */
	static const unsigned char v2_ep[] = {
		0x01, 0x00, 0x00, 0x02, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	static const unsigned char v2_eip_bpf[] = {
		0x01, 0x00, 0x00, 0x02, 0x00, 0x20, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
	};
	static const unsigned char v3_rootid[] = {
		0x01, 0x00, 0x00, 0x03, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe8, 0x03, 0x00, 0x00,
	};
	static const unsigned char v1_p[] = {
		0x00, 0x00, 0x00, 0x01, 0x00, 0x04, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	};
	unsigned char junk[24];
	struct capdump_fcaps fc;
	char err[PARSE_ERR_MAX];

	ok(!capdump_xattr_parse(v2_ep, sizeof(v2_ep), &fc, err) && fc.version == 2 &&
	   fc.effective && fc.prm == 0x3000 && fc.inh == 0 && !fc.has_rootid && !fc.flags,
	   "xattr v2: cap_net_raw,cap_net_admin+ep");
	ok(!capdump_xattr_parse(v2_eip_bpf, sizeof(v2_eip_bpf), &fc, err) &&
	   fc.prm == (1ULL << 39 | 0x2000) && fc.inh == (1ULL << 39 | 0x2000),
	   "xattr v2: the high words carry cap_bpf (bit 39) in both sets");
	ok(!capdump_xattr_parse(v3_rootid, sizeof(v3_rootid), &fc, err) && fc.version == 3 &&
	   fc.effective && fc.prm == 0x2000 && fc.has_rootid && fc.rootid == 1000,
	   "xattr v3: rootid 1000");
	ok(!capdump_xattr_parse(v1_p, sizeof(v1_p), &fc, err) && fc.version == 1 &&
	   !fc.effective && fc.prm == 0x400 && fc.inh == 1, "xattr v1: 32-bit sets");

	is_int(capdump_xattr_parse(v2_ep, 19, &fc, err), -EINVAL, "xattr: a short v2 is refused");
	is_str(err, "v2 value of 19 bytes, expected 20", "xattr: the length is named");
	is_int(capdump_xattr_parse(v3_rootid, 20, &fc, err), -EINVAL, "xattr: v3 without its rootid");
	memcpy(junk, v2_ep, sizeof(v2_ep));
	junk[3] = 0x04;
	is_int(capdump_xattr_parse(junk, 20, &fc, err), -EINVAL, "xattr: revision 4 is unknown");
	is_str(err, "unknown revision 0x04000000", "xattr: the revision is named");
	is_int(capdump_xattr_parse(junk, 3, &fc, err), -EINVAL, "xattr: three bytes");
	junk[3] = 0x02;
	junk[1] = 0x80;
	ok(!capdump_xattr_parse(junk, 20, &fc, err) && fc.flags == 0x8000,
	   "xattr: unknown flag bits are kept for a note");
}

/* The messages are cli.c's (test_cli); here only what the options mean. */
static int parse(struct capdump_opts *o, ...)
{
	static char *argv[16];	/* capdump_opts.args points into it */
	int argc = 0, ret, saved = dup(STDERR_FILENO), saved_out = dup(STDOUT_FILENO);
	int null = open("/dev/null", O_WRONLY);
	va_list ap;

	argv[argc++] = "capdump";
	va_start(ap, o);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	fflush(stdout);
	/* errors (stderr) and help (stdout) are printed: keep TAP clean */
	dup2(null, STDERR_FILENO);
	dup2(null, STDOUT_FILENO);
	ret = capdump_parse_args(argc, argv, o);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	dup2(saved_out, STDOUT_FILENO);
	close(saved);
	close(saved_out);
	close(null);
	return ret;
}

static void test_args(void)
{
	struct capdump_opts o;

	ok(!parse(&o, NULL) && !o.all && !o.nargs, "args: none");
	ok(!parse(&o, "-a", "--names", "-J", "-o", "PID,CAPEFF", NULL) && o.all && o.names &&
	   o.out.json && !strcmp(o.out.columns, "PID,CAPEFF"), "args: -a --names -J -o");
	ok(!parse(&o, "--json-file", "x.json", NULL) && !strcmp(o.out.json_file, "x.json"),
	   "args: --json-file FILE");
	ok(!parse(&o, "1", "--diff", "42", NULL) && o.diff && o.nargs == 2 &&
	   !strcmp(o.args[1], "42"), "args: PIDs around an option");
	is_int(parse(&o, "12x", NULL), CLI_ERROR, "args: a non-numeric PID");
	is_int(parse(&o, "0", NULL), CLI_ERROR, "args: PID 0 is not a process");
	is_int(parse(&o, "99999999999", NULL), CLI_ERROR, "args: a PID beyond int");
	is_int(parse(&o, "--", "-5", NULL), CLI_ERROR, "args: a negative PID after --");
	is_int(parse(&o, "-x", NULL), CLI_ERROR, "args: an unknown short option");
	is_int(parse(&o, "--bogus", NULL), CLI_ERROR, "args: an unknown long option");
	is_int(parse(&o, "-o", NULL), CLI_ERROR, "args: -o without columns");
	is_int(parse(&o, "--json-file", "-q", NULL), CLI_ERROR, "args: a FILE that looks like an option");
	is_int(parse(&o, "-R", NULL), CLI_ERROR, "args: -R without --files");
	is_int(parse(&o, "--files", NULL), CLI_ERROR, "args: --files without a PATH");
	is_int(parse(&o, "--files", "--diff", "/x", NULL), CLI_ERROR, "args: --files with --diff");
	ok(!parse(&o, "--files", "-R", "/usr/bin", "not-a-pid", NULL) && o.files &&
	   o.recursive && o.nargs == 2, "args: --files takes paths, not PIDs");
	is_int(parse(&o, "--help", "junk", NULL), CLI_EXIT, "args: --help wins");
	is_int(parse(&o, "-V", NULL), CLI_EXIT, "args: -V prints the version");
}

int main(void)
{
	test_status();
	test_names();
	test_rule();
	test_crosscheck();
	test_xattr();
	test_args();
	return tap_done();
}
