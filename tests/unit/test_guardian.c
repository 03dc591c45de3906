// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the guardian (src/guardian.c) on a temporary tree of
 * regular files standing in for tracefs. A child borrows values through
 * the guardian API, writes new ones and ends: SIGKILL, a real SIGSEGV, an
 * exit that skips its teardown, or a normal end that stands the guardian
 * down. The files must hold the originals within a second (or, after the
 * stand-down, what the child left), the never-written value must be left
 * alone, the order must be the reverse of the first writes, a value that
 * cannot be restored must be reported while the rest still is, and only a
 * marked directory whose owners are gone counts as stale.
 *
 * This process is a child subreaper, so the orphaned guardian comes back to
 * it and the test can see it exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guardian.h"
#include "tap.h"
#include "tmptree.h"

enum end { END_KILL, END_SEGV, END_EXIT, END_STAND_DOWN, END_KILL_BOTH };

static const char *const end_names[] = {
	"SIGKILL", "SIGSEGV", "exit without teardown", "stand-down", "SIGKILL of both",
};

/*
 * Reap PID (the orphaned guardian comes back to us) within 1 s; its status,
 * 0 when its parent reaped it already, -1 when it is still there.
 */
static int reap_within_1s(pid_t pid, double *ms)
{
	struct timespec t0, nap = { 0, 1000 * 1000 };
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < 1000) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD && kill(pid, 0) && errno == ESRCH)) {
			*ms = ms_since(&t0);
			return r == pid ? status : 0;
		}
		nanosleep(&nap, NULL);
	}
	*ms = ms_since(&t0);
	return -1;
}

static void kill_and_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static volatile int *readonly;

/*
 * The borrower: A and B written (A twice), C registered but never written,
 * directory inst created and marked, directory gone created and removed by
 * the borrower itself. Sends the guardian's pid, then ends as told.
 */
static void __attribute__((noreturn)) borrower(enum end how, int ready)
{
	struct guardian_opts o = { .record = at("record"), .keep_fd = -1, .mark_dir = at("marks") };
	struct guardian *g;
	struct rlimit no_core = { 0, 0 };
	int a, b, d, e;
	pid_t gpid;

	setrlimit(RLIMIT_CORE, &no_core);
	readonly = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	put(at("record"), "the record\n");
	if (guardian_start(&g, &o))
		_exit(3);
	a = guardian_value(g, at("a"), "orig-a");
	b = guardian_value(g, at("b"), "orig-b");
	guardian_value(g, at("c"), "never-written");
	guardian_written(g, a);
	put(at("a"), "new-a");
	guardian_written(g, b);
	put(at("b"), "new-b");
	guardian_written(g, a);
	put(at("a"), "newer-a");
	d = guardian_dir(g, at("inst"));
	mkdir(at("inst"), 0700);
	guardian_dir_created(g, d);
	e = guardian_dir(g, at("gone"));
	mkdir(at("gone"), 0700);
	guardian_dir_created(g, e);
	rmdir(at("gone"));
	guardian_forget(g, e);
	gpid = guardian_pid(g);
	if (write(ready, &gpid, sizeof(gpid)) != sizeof(gpid))
		_exit(4);
	switch (how) {
	case END_SEGV:
		/* a real fault, with no sanitizer handler to turn it into an exit */
		signal(SIGSEGV, SIG_DFL);
		*readonly = 1;
		break;
	case END_EXIT:
		exit(0);
	case END_STAND_DOWN:
		guardian_stand_down(g);
		_exit(0);
	case END_KILL:
	case END_KILL_BOTH:
		break;
	}
	for (;;)
		pause();
}

/* Fork a borrower; its pid, the guardian's in *gpid. */
static pid_t start_borrower(enum end how, pid_t *gpid)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		exit(2);
	fflush(stdout);		/* the children must not print our buffer again */
	put(at("a"), "orig-a");
	put(at("b"), "orig-b");
	put(at("c"), "orig-c");
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		borrower(how, p[1]);
	}
	close(p[1]);
	*gpid = 0;
	if (read(p[0], gpid, sizeof(*gpid)) != sizeof(*gpid))
		*gpid = 0;
	close(p[0]);
	return pid;
}

static void test_end(enum end how)
{
	const char *name = end_names[how];
	pid_t gpid, pid = start_borrower(how, &gpid);
	bool restored = how != END_STAND_DOWN;
	int status, gstatus;
	double ms;

	ok(gpid > 0, "%s: the guardian started", name);
	if (gpid <= 0)
		return;
	if (how == END_KILL || how == END_KILL_BOTH)	/* the borrower waits for its end */
		ok(!owned_is_stale(at("marks"), at("inst")),
		   "%s: the instance is not stale while its owner lives", name);
	/* the guardian first: it would start restoring as soon as the borrower is gone */
	if (how == END_KILL_BOTH)
		kill(gpid, SIGKILL);
	if (how == END_KILL || how == END_KILL_BOTH)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	gstatus = reap_within_1s(gpid, &ms);
	if (how == END_KILL_BOTH) {
		ok(WIFSIGNALED(gstatus), "%s: the guardian was killed too", name);
		is_str(get(at("a")), "newer-a", "%s: nothing restored", name);
		ok(exists(at("inst")) && owned_is_stale(at("marks"), at("inst")),
		   "%s: the instance is left, and stale: its owners are gone", name);
		return;
	}
	if (how == END_SEGV)
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "%s: the borrower crashed",
		   name);
	ok(gstatus >= 0 && WIFEXITED(gstatus) && WEXITSTATUS(gstatus) == 0,
	   "%s: the guardian exited (status 0x%x) within 1 s", name, gstatus);
	if (restored)
		printf("# %s: restored and gone %.1f ms after the borrower's end\n", name, ms);
	is_str(get(at("a")), restored ? "orig-a" : "newer-a", "%s: a", name);
	is_str(get(at("b")), restored ? "orig-b" : "new-b", "%s: b", name);
	is_str(get(at("c")), "orig-c", "%s: c, never written, left alone", name);
	ok(exists(at("inst")) != restored, "%s: the instance %s", name,
	   restored ? "is removed" : "is left as the borrower left it");
	ok(exists(at("record")) != restored, "%s: the record %s", name,
	   restored ? "is removed" : "is the borrower's to remove");
	/* after a stand-down the borrower's own teardown would have done this */
	rmdir(at("inst"));
	unlink(at("record"));
}

/* Values 1..4 of one FIFO, first written 2, 1, 3 (then 2 again), 4 never: "312" comes back. */
static void test_order(void)
{
	struct guardian_opts o = { .keep_fd = -1 };
	char got[16] = "";
	int fifo, p[2], n = 0;
	struct timespec t0;
	pid_t pid, gpid = 0;
	double ms;

	mkfifo(at("fifo"), 0600);
	fifo = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	if (pipe(p) || fifo < 0)
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct guardian *g;
		int id[4];

		if (guardian_start(&g, &o))
			_exit(3);
		for (int i = 0; i < 4; i++) {
			char v[2] = { (char)('1' + i), 0 };

			id[i] = guardian_value(g, at("fifo"), v);
		}
		guardian_written(g, id[1]);
		guardian_written(g, id[0]);
		guardian_written(g, id[2]);
		guardian_written(g, id[1]);
		gpid = guardian_pid(g);
		if (write(p[1], &gpid, sizeof(gpid)) != sizeof(gpid))
			_exit(4);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &gpid, sizeof(gpid)) != sizeof(gpid))
		gpid = 0;
	close(p[0]);
	kill_and_reap(pid);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (n < 3 && ms_since(&t0) < 1000) {
		ssize_t r;

		poll(&(struct pollfd){ fifo, POLLIN, 0 }, 1, 10);
		r = read(fifo, got + n, sizeof(got) - 1 - n);
		if (r > 0)
			n += (int)r;
	}
	reap_within_1s(gpid, &ms);
	close(fifo);
	unlink(at("fifo"));
	is_str(got, "312", "restores in reverse order of the first writes, skipping the unwritten");
}

/* Some values cannot be restored: each is reported, the others are restored. */
static void test_failures(void)
{
	struct guardian_opts o = { .record = at("record"), .keep_fd = -1 };
	char err[4096] = "", line[600];
	int p[2], gstatus;
	pid_t pid, gpid = 0;
	glob_t bad;
	double ms;
	FILE *f;

	mkdir(at("adir"), 0700);
	put(at("one"), "one");
	put(at("two"), "two");
	put(at("record"), "the record\n");
	if (pipe(p))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct guardian *g;
		int fd = open(at("err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, STDERR_FILENO);
		if (guardian_start(&g, &o))
			_exit(3);
		guardian_written(g, guardian_value(g, at("one"), "orig-one"));
		guardian_written(g, guardian_value(g, at("adir"), "into-a-dir"));
		guardian_written(g, guardian_value(g, at("no/such/file"), "nowhere\n"));
		guardian_written(g, guardian_value(g, at("two"), "orig-two"));
		gpid = guardian_pid(g);
		if (write(p[1], &gpid, sizeof(gpid)) != sizeof(gpid))
			_exit(4);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &gpid, sizeof(gpid)) != sizeof(gpid))
		gpid = 0;
	close(p[0]);
	kill_and_reap(pid);
	gstatus = reap_within_1s(gpid, &ms);
	ok(gstatus >= 0 && WIFEXITED(gstatus) && WEXITSTATUS(gstatus) == 1,
	   "failures: the guardian exits with status 1 within 1 s (0x%x)", gstatus);
	is_str(get(at("one")), "orig-one", "failures: the first value is restored");
	is_str(get(at("two")), "orig-two", "failures: the last value is restored");
	f = fopen(at("err"), "r");
	while (f && fgets(line, sizeof(line), f))
		strncat(err, line, sizeof(err) - strlen(err) - 1);
	if (f)
		fclose(f);
	snprintf(line, sizeof(line), "guardian: cannot restore %s to 'into-a-dir': Is a "
		 "directory (EISDIR)\n", at("adir"));
	if (!ok(strstr(err, line) != NULL, "failures: a directory: path, value and errno reported"))
		printf("#   stderr: %s", err);
	snprintf(line, sizeof(line), "guardian: cannot restore %s to 'nowhere': No such file or "
		 "directory (ENOENT)\n", at("no/such/file"));
	ok(strstr(err, line) != NULL, "failures: a missing file: path, value and errno reported");
	ok(!exists(at("record")), "failures: the record is moved away");
	ok(!glob(at("record.bad-*"), 0, NULL, &bad) && bad.gl_pathc == 1 &&
	   !strcmp(get(bad.gl_pathv[0]), "the record\n"), "failures: ... and kept as record.bad-*");
	ok(strstr(err, "guardian: the record of the run is kept as ") != NULL,
	   "failures: the user is told where it is and how to clear it");
	for (size_t i = 0; i < bad.gl_pathc; i++)
		unlink(bad.gl_pathv[i]);
	globfree(&bad);
	rmdir(at("adir"));
	unlink(at("one"));
	unlink(at("two"));
	unlink(at("err"));
}

static void count_swept(const char *path, pid_t owner, int err, void *ctx)
{
	(*(int *)ctx)++;
}

/* Only a marked directory, of owners gone, still the one marked, is stale. */
static void test_marks(void)
{
	int swept = 0;

	char half[64];
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	/* half a mark, of a run killed while writing it */
	snprintf(half, sizeof(half), "marks/.new-%d", dead);
	put(at(half), "pid");
	/* left by test_end(END_KILL_BOTH): inst, marked, owners dead */
	mkdir(at("users"), 0700);
	ok(!owned_is_stale(at("marks"), at("users")),
	   "marks: an unmarked directory is not stale");
	ok(owned_is_stale(at("marks"), at("inst")), "marks: the killed run's directory is");
	is_int(owned_sweep(at("marks"), count_swept, &swept), 1, "marks: the sweep removes one");
	is_int(swept, 1, "marks: ... and reports it");
	ok(!exists(at("inst")) && exists(at("users")), "marks: ... the marked one only");
	ok(!exists(at(half)), "marks: ... and drops half a mark of a dead run");
	rmdir(at("users"));
}

/* A directory by the marked name that is not the marked one is left alone. */
static void test_mark_other_dir(void)
{
	pid_t gpid, pid = start_borrower(END_KILL_BOTH, &gpid);
	int swept = 0;
	glob_t marks;
	double ms;

	kill(gpid, SIGKILL);
	kill_and_reap(pid);
	reap_within_1s(gpid, &ms);
	/* made while the old one exists: another inode, whatever the file system */
	mkdir(at("inst.new"), 0700);
	rmdir(at("inst"));
	rename(at("inst.new"), at("inst"));
	ok(!owned_is_stale(at("marks"), at("inst")),
	   "marks: a new directory by the marked name is not stale");
	owned_sweep(at("marks"), count_swept, &swept);
	ok(exists(at("inst")) && !swept, "marks: the sweep leaves it");
	ok(!glob(at("marks/*"), 0, NULL, &marks) ? marks.gl_pathc == 0 : true,
	   "marks: ... and drops the mark that no longer means anything");
	globfree(&marks);
	rmdir(at("inst"));
	unlink(at("record"));
}

/*
 * When guardian_start() returns, the guardian has a session of its own: a
 * SIGKILL to the borrower's process group right after cannot take it.
 */
static void test_own_session(void)
{
	struct guardian_opts o = { .keep_fd = -1 };
	struct guardian *g;
	pid_t gpid;

	if (guardian_start(&g, &o)) {
		ok(0, "session: the guardian starts");
		return;
	}
	gpid = guardian_pid(g);
	is_int(getsid(gpid), gpid, "session: the guardian leads its own session when start returns");
	ok(getsid(gpid) != getsid(0), "session: not the borrower's");
	is_int(guardian_stand_down(g), 0, "session: it stands down");
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/rtla-guardian-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	test_end(END_KILL);
	test_end(END_SEGV);
	test_end(END_EXIT);
	test_end(END_STAND_DOWN);
	test_order();
	test_failures();
	test_end(END_KILL_BOTH);
	test_marks();
	test_mark_other_dir();
	test_own_session();
	unlink(at("a"));
	unlink(at("b"));
	unlink(at("c"));
	rmdir(at("marks"));
	if (rmdir(root))
		printf("# %s left behind: %s\n", root, strerror(errno));
	return tap_done();
}
