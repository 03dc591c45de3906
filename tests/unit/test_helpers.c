// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the small shared helpers: fs_mkdir_p(), fs_mkdir_parents()
 * and fs_write_replace() (src/fsutil.c), procstat_parse(), procstat_read()
 * and procstat_start() (src/procstat.c), the format-taking sysroot reads and
 * sysroot_cgroup2_mount() (src/sysroot.c) on a temporary root, and
 * ARRAY_SIZE and mul_div_u64 (src/util.h). Each: the normal case, its errors, its bounds.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "procstat.h"
#include "sysroot.h"
#include "tap.h"
#include "tmptree.h"
#include "util.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* "ROOT/" and then 'x' up to N characters in all */
static const char *long_path(size_t n)
{
	static char buf[PATH_MAX + 64];
	size_t off = (size_t)snprintf(buf, sizeof(buf), "%s/", root);

	memset(buf + off, 'x', n - off);
	buf[n] = '\0';
	return buf;
}

static void test_mkdir_p(void)
{
	struct stat st;

	is_int(fs_mkdir_p(at("a/b/c"), 0700), 0, "mkdir_p: creates every missing parent");
	ok(is_dir(at("a")) && is_dir(at("a/b")) && is_dir(at("a/b/c")), "mkdir_p: a, a/b, a/b/c are folders");
	ok(!stat(at("a/b/c"), &st) && (st.st_mode & 0777) == 0700, "mkdir_p: with the mode asked");
	is_int(fs_mkdir_p(at("a/b/c"), 0700), 0, "mkdir_p: a folder already there is fine");
	is_int(fs_mkdir_p(at("a/b/d/"), 0700), 0, "mkdir_p: a trailing slash");
	ok(is_dir(at("a/b/d")), "mkdir_p: made the folder before the trailing slash");
	is_int(fs_mkdir_p(at("e//f"), 0700), 0, "mkdir_p: a doubled slash");
	ok(is_dir(at("e/f")), "mkdir_p: e/f made through the doubled slash");
	is_int(fs_mkdir_p(root, 0700), 0, "mkdir_p: an absolute folder that exists");

	put(at("file"), "x");
	is_int(fs_mkdir_p(at("file"), 0700), -ENOTDIR, "mkdir_p: a file by that name is not a folder");
	is_int(fs_mkdir_p(at("file/sub"), 0700), -ENOTDIR, "mkdir_p: a file in the way of a parent");
	is_int(fs_mkdir_p("", 0700), -ENOENT, "mkdir_p: the empty path");

	is_int(fs_mkdir_p(long_path(PATH_MAX), 0700), -ENAMETOOLONG,
	       "mkdir_p: a path of PATH_MAX characters (no room for its NUL)");
	ok(!exists(at("xxxxxxxx")), "mkdir_p: a path too long creates nothing");
	is_int(fs_mkdir_p(long_path(PATH_MAX - 1), 0700), -ENAMETOOLONG,
	       "mkdir_p: PATH_MAX - 1 characters fit the buffer; the kernel refuses the 4000-byte name");

	if (geteuid()) {
		mkdir(at("ro"), 0500);
		is_int(fs_mkdir_p(at("ro/sub/deeper"), 0700), -EACCES,
		       "mkdir_p: a parent that cannot be written to");
		chmod(at("ro"), 0700);
	} else {
		ok(true, "# SKIP mkdir_p: EACCES (root writes any folder)");
	}
}

static void test_mkdir_parents(void)
{
	is_int(fs_mkdir_parents(at("p/q/record"), 0700), 0, "mkdir_parents: the folders of a file");
	ok(is_dir(at("p/q")) && !exists(at("p/q/record")), "mkdir_parents: p/q made, the file not");
	is_int(fs_mkdir_parents("record", 0700), 0, "mkdir_parents: a file in the working folder");
	is_int(fs_mkdir_parents("/record", 0700), 0, "mkdir_parents: a file in /");
	is_int(fs_mkdir_parents(at("file/record"), 0700), -ENOTDIR,
	       "mkdir_parents: a file where its folder should be");
	is_int(fs_mkdir_parents(long_path(PATH_MAX), 0700), -ENAMETOOLONG,
	       "mkdir_parents: a path too long");
}

static void fill_text(FILE *f, const void *arg)
{
	fputs(arg, f);
}

static void test_write_replace(void)
{
	char big[8192];
	struct rlimit old, small;
	struct stat st1, st2;

	is_int(fs_write_replace(at("out"), NULL, fill_text, "one\n"), 0, "write_replace: a new file");
	is_str(get(at("out")), "one\n", "write_replace: holds the text");
	ok(!exists(at("out.tmp")), "write_replace: no PATH.tmp left");

	stat(at("out"), &st1);
	is_int(fs_write_replace(at("out"), NULL, fill_text, "two\n"), 0, "write_replace: over a file");
	stat(at("out"), &st2);
	is_str(get(at("out")), "two\n", "write_replace: holds the new text");
	ok(st1.st_ino != st2.st_ino, "write_replace: renamed over, not rewritten in place");

	is_int(fs_write_replace(at("out"), at(".new-1"), fill_text, "three\n"), 0,
	       "write_replace: a temporary of the caller's name");
	is_str(get(at("out")), "three\n", "write_replace: holds the text");
	ok(!exists(at(".new-1")), "write_replace: the named temporary is gone");

	is_int(fs_write_replace(at("out"), NULL, fill_text, ""), 0, "write_replace: no text at all");
	is_str(get(at("out")), "", "write_replace: an empty file");

	is_int(fs_write_replace(at("nodir/out"), NULL, fill_text, "x"), -ENOENT,
	       "write_replace: a folder that does not exist");
	ok(!exists(at("nodir")), "write_replace: creates no folder");

	mkdir(at("adir"), 0700);
	is_int(fs_write_replace(at("adir"), NULL, fill_text, "x"), -EISDIR,
	       "write_replace: the rename over a folder fails");
	ok(is_dir(at("adir")) && !exists(at("adir.tmp")), "write_replace: the folder stays, the temporary is removed");

	is_int(fs_write_replace(long_path(PATH_MAX - 3), NULL, fill_text, "x"), -ENAMETOOLONG,
	       "write_replace: no room for \".tmp\" after the path");

	/* a write that fails (EFBIG past RLIMIT_FSIZE): the old file is kept */
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(at("kept"), "old\n");
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small = old;
	small.rlim_cur = 1024;
	setrlimit(RLIMIT_FSIZE, &small);
	is_int(fs_write_replace(at("kept"), NULL, fill_text, big), -EFBIG,
	       "write_replace: a write that fails gives its errno");
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	is_str(get(at("kept")), "old\n", "write_replace: the old file is left as it was");
	ok(!exists(at("kept.tmp")), "write_replace: the half-written temporary is removed");
}

#define STAT_TAIL " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 98765 20 21\n"

static void test_procstat(void)
{
	struct procstat st = { 0, 0 };
	pid_t child;
	int status;

	is_int(procstat_parse("1234 (bash) S" STAT_TAIL, &st), 0, "procstat_parse: a plain line");
	ok(st.state == 'S' && st.start == 98765, "procstat_parse: state S, start 98765 (got %c %llu)",
	   st.state, st.start);
	is_int(procstat_parse("7 (a) b) R c) Z" STAT_TAIL, &st), 0,
	       "procstat_parse: a name holding ') ' and spaces");
	ok(st.state == 'Z' && st.start == 98765, "procstat_parse: fields counted after the last ')'");
	is_int(procstat_parse("8 () X" STAT_TAIL, &st), 0, "procstat_parse: an empty name");
	ok(st.state == 'X', "procstat_parse: state X");
	is_int(procstat_parse("", &st), -EINVAL, "procstat_parse: empty");
	is_int(procstat_parse("1234 bash S" STAT_TAIL, &st), -EINVAL, "procstat_parse: no name in parentheses");
	is_int(procstat_parse("1234 (bash) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", &st), -EINVAL,
	       "procstat_parse: cut before the start time (field 22)");
	is_int(procstat_parse("1234 (bash) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 x", &st), -EINVAL,
	       "procstat_parse: a start time that is not a number");

	is_int(procstat_read(getpid(), &st), 0, "procstat_read: this process");
	ok(st.state == 'R' && st.start > 0, "procstat_read: running, started after boot (%c %llu)",
	   st.state, st.start);
	is_int(procstat_read(0, &st), -ESRCH, "procstat_read: pid 0");
	is_int(procstat_read(-1, &st), -ESRCH, "procstat_read: a negative pid");
	ok(procstat_start(getpid()) == st.start, "procstat_start: this process's start time (%llu)",
	   procstat_start(getpid()));
	ok(procstat_start(0) == 0 && procstat_start(-1) == 0, "procstat_start: 0 for no process");

	child = fork();
	if (child == 0)
		_exit(0);
	for (int i = 0; i < 500 && !procstat_read(child, &st) && st.state != 'Z'; i++)
		usleep(10000);
	ok(st.state == 'Z', "procstat_read: an exited child not yet waited for is a zombie (%c)", st.state);
	waitpid(child, &status, 0);
	status = procstat_read(child, &st);
	ok(status == -ENOENT || status == -ESRCH, "procstat_read: a reaped child is gone (%d)", status);
	ok(procstat_start(child) == 0, "procstat_start: 0 for a reaped child");
}

static void test_sysroot_reads(void)
{
	char buf[64], big[PATH_MAX + 16];
	long long v = 0;
	int a = 0, b = 0;
	DIR *d;

	mkdir(at("sys"), 0700);
	mkdir(at("sys/block"), 0700);
	mkdir(at("sys/block/sda"), 0700);
	put(at("sys/block/sda/size"), "2048\n");
	put(at("sys/block/sda/model"), "DISK  \n");
	put(at("sys/block/sda/bad"), "12x\n");
	put(at("sys/block/sda/pair"), "3 4\n");
	put(at("sys/block/sda/one"), "5 z\n");
	put(at("sys/block/sda/empty"), "");
	is_int(sysroot_set(root), 0, "sysroot: a temporary root");

	is_int(sysroot_readf(buf, sizeof(buf), "/sys/block/%s/model", "sda"), 6, "readf: the length read");
	is_str(buf, "DISK  ", "readf: the text, without its newline");
	is_int(sysroot_readf(buf, 3, "/sys/block/%s/model", "sda"), 2, "readf: cut to the buffer");
	is_str(buf, "DI", "readf: the first len - 1 bytes");
	is_int(sysroot_readf(buf, sizeof(buf), "/sys/block/%s/model", "sdb"), -ENOENT, "readf: a missing file");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(sysroot_readf(buf, sizeof(buf), "/sys/block/%s/model", big), -ENAMETOOLONG,
	       "readf: a path past PATH_MAX");
	big[PATH_MAX - strlen("/sys/block//model") - 1] = '\0';
	is_int(sysroot_readf(buf, sizeof(buf), "/sys/block/%s/model", big), -ENAMETOOLONG,
	       "readf: PATH_MAX - 1 characters fit, the name is too long for the kernel");

	is_int(sysroot_readf_ll(&v, "/sys/block/%s/%s", "sda", "size"), 0, "readf_ll: a number");
	is_int(v, 2048, "readf_ll: its value");
	is_int(sysroot_readf_ll(&v, "/sys/block/%s/bad", "sda"), -EINVAL, "readf_ll: not a number");
	is_int(sysroot_readf_ll(&v, "/sys/block/%s/size", "sdb"), -ENOENT, "readf_ll: a missing file");
	is_int(sysroot_readf_ll(&v, "/sys/block/%s/size", big), -ENAMETOOLONG, "readf_ll: a path too long");

	ok(sysroot_existsf("/sys/block/%s", "sda"), "existsf: a folder that exists");
	ok(!sysroot_existsf("/sys/block/%s", "sdb"), "existsf: one that does not");
	errno = 0;
	ok(!sysroot_existsf("/sys/block/%s/x", big) && errno == ENAMETOOLONG, "existsf: a path too long");

	d = sysroot_opendirf("/sys/%s", "block");
	ok(d != NULL, "opendirf: a folder");
	if (d)
		closedir(d);
	errno = 0;
	ok(!sysroot_opendirf("/sys/%s", "nope") && errno == ENOENT, "opendirf: a missing folder");
	errno = 0;
	ok(!sysroot_opendirf("/sys/%s/x", big) && errno == ENAMETOOLONG, "opendirf: a path too long");

	is_int(sysroot_scanf("/sys/block/sda/pair", "%d %d", &a, &b), 2, "scanf: both items");
	ok(a == 3 && b == 4, "scanf: 3 and 4 (got %d %d)", a, b);
	is_int(sysroot_scanf("/sys/block/sda/one", "%d %d", &a, &b), 1, "scanf: one item of two");
	is_int(sysroot_scanf("/sys/block/sda/empty", "%d", &a), -ENODATA, "scanf: an empty file");
	is_int(sysroot_scanf("/sys/block/sda/none", "%d", &a), -ENOENT, "scanf: a missing file");
}

static void test_cgroup2_mount(void)
{
	char buf[64];

	is_int(sysroot_cgroup2_mount(buf, sizeof(buf)), -ENOENT, "cgroup2_mount: no mountinfo");
	mkdir(at("proc"), 0700);
	mkdir(at("proc/self"), 0700);
	put(at("proc/self/mountinfo"),
	    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
	    "30 22 0:26 / /sys/fs/cgroup/cpu rw shared:5 - cgroup cgroup rw,cpu\n");
	is_int(sysroot_cgroup2_mount(buf, sizeof(buf)), -ENOENT, "cgroup2_mount: only cgroup v1 mounted");
	put(at("proc/self/mountinfo"),
	    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
	    "35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 master:2 - cgroup2 cgroup2 rw,nsdelegate\n"
	    "36 24 0:31 / /mnt/other rw - cgroup2 cgroup2 rw\n");
	is_int(sysroot_cgroup2_mount(buf, sizeof(buf)), 0, "cgroup2_mount: found past optional fields");
	is_str(buf, "/sys/fs/cgroup", "cgroup2_mount: the first cgroup2 mount point");
	is_int(sysroot_cgroup2_mount(buf, strlen("/sys/fs/cgroup") + 1), 0, "cgroup2_mount: a buffer just big enough");
	is_int(sysroot_cgroup2_mount(buf, strlen("/sys/fs/cgroup")), 0,
	       "cgroup2_mount: one too small passes over to the next mount");
	is_str(buf, "/mnt/other", "cgroup2_mount: the mount that fits");
	is_int(sysroot_cgroup2_mount(buf, 4), -ENOENT, "cgroup2_mount: none fits");
}

static void test_array_size(void)
{
	static const char *const three[] = { "a", "b", "c" };
	int one[1];
	char s[] = "four";

	is_int(ARRAY_SIZE(three), 3, "ARRAY_SIZE: three pointers");
	is_int(ARRAY_SIZE(one), 1, "ARRAY_SIZE: one int");
	is_int(ARRAY_SIZE(s), 5, "ARRAY_SIZE: a string with its NUL");
	(void)one;
}

/* The long path that 32-bit targets take, against the 128-bit one. */
static void test_mul_div_u64(void)
{
	static const uint64_t v[][3] = {
		{ 0, 12345, 7 },
		{ 10, 3, 4 },
		{ UINT64_MAX, 1, 1 },
		{ UINT64_MAX, UINT64_MAX, UINT64_MAX },
		{ UINT64_MAX - 5, 10000000, 10000000 },
		{ 1ull << 40, 5000000000ull, 1ull << 32 },
		{ 180000000000000ull, 10000000, 200000000000000ull },
		{ 0x123456789abcdefull, 0xfedcba987ull, 0x10000000000ull },
	};
	int same = 0;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		uint64_t want = (uint64_t)((unsigned __int128)v[i][0] * v[i][1] / v[i][2]);

		same += mul_div_u64_long(v[i][0], v[i][1], v[i][2]) == want &&
			mul_div_u64(v[i][0], v[i][1], v[i][2]) == want;
	}
	is_int(same, (int)ARRAY_SIZE(v), "mul_div_u64: the long path agrees with 128 bits on every row");
	is_int((int)mul_div_u64_long(7, 3, 2), 10, "mul_div_u64: rounded down (21 / 2)");
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/rtla-test-helpers.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	test_mkdir_p();
	test_mkdir_parents();
	test_write_replace();
	test_procstat();
	test_sysroot_reads();
	test_cgroup2_mount();
	test_array_size();
	test_mul_div_u64();
	sysroot_set("/");
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", root);
	}
	return tap_done();
}
