// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the ledger (src/ledger.c) on a temporary tree of regular
 * files standing in for kernel settings: the normal end, the order of the
 * restore, a SIGKILL between any two writes (the guardian gives back), a
 * SIGKILL of the run and its guardian (the next run gives back), a corrupt
 * record, a record that cannot be replayed, a second run while one holds
 * the lock, and values never written being left alone.
 *
 * This process is a child subreaper, so orphaned guardians come back to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guardian.h"
#include "ledger.h"
#include "tap.h"
#include "tmptree.h"

#define NR_VALUES 4

/* the first line of a file, as the ledger reads and restores it */
static const char *first_line(const char *path)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", get(path));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static int count_bad_records(void)
{
	glob_t g;
	char pattern[600];
	int n;

	snprintf(pattern, sizeof(pattern), "%s.bad-*", at("run/state"));
	n = glob(pattern, 0, NULL, &g) ? 0 : (int)g.gl_pathc;
	if (n)
		for (size_t i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
	globfree(&g);
	return n;
}

static void originals(void)
{
	char name[8];

	for (int i = 0; i < NR_VALUES; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		put(at(name), i == 0 ? "" : name);	/* v0 starts empty: restored as "\n" */
	}
}

static bool all_original(void)
{
	char name[8];

	for (int i = 0; i < NR_VALUES; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		if (strcmp(first_line(at(name)), i == 0 ? "" : name))
			return false;
	}
	return true;
}

/* stderr into a file while FN runs; its text */
static const char *capture_stderr(int (*fn)(void), int *ret)
{
	static char text[4096];
	int saved = dup(2), fd = open(at("stderr"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	*ret = fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

static struct ledger shared;

static int open_shared(void)
{
	return ledger_open(&shared, at("run/state"), "the test settings");
}

/* another tool whose settings are the same record's (hwlat beside osnoise) */
static int open_shared_by_other(void)
{
	return ledger_open(&shared, at("run/state"), "the other tracer");
}

static int borrow_all(struct ledger *l)
{
	char name[8];

	for (int i = 0; i < NR_VALUES; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		if (ledger_borrow(l, at(name)) != i)
			return -1;
	}
	return ledger_seal(l, NULL);
}

static void reap_all(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void test_normal_end(void)
{
	struct ledger l;

	originals();
	is_int(ledger_open(&l, at("run/state"), "the test settings"), 0,
	       "normal end: the ledger opens (its folder is created)");
	is_int(borrow_all(&l), 0, "normal end: every value borrowed and sealed");
	is_int(ledger_write(&l, 2, "new-2"), 0, "normal end: a write");
	ledger_write(&l, 0, "new-0");
	ledger_write(&l, 0, "newer-0");
	is_str(first_line(at("v0")), "newer-0", "normal end: the write reached the file");
	put(at("v3"), "someone-else");	/* never written by the run: not its to restore */
	{
		char want[600], record[2048] = "";
		FILE *f = fopen(at("run/state"), "r");
		size_t n = f ? fread(record, 1, sizeof(record) - 1, f) : 0;

		record[n] = '\0';
		if (f)
			fclose(f);
		snprintf(want, sizeof(want), "pid %d the test settings\nrestore %s v2\nrestore %s \n",
			 getpid(), at("v2"), at("v0"));
		is_str(record, want,
		       "normal end: the record: the pid and what it uses, then each value written, once");
	}
	is_int(ledger_close(&l), 0, "normal end: nothing failed");
	is_str(first_line(at("v0")), "", "normal end: an empty original comes back empty");
	is_str(first_line(at("v2")), "v2", "normal end: v2 back");
	is_str(first_line(at("v3")), "someone-else", "normal end: a value never written is not rewritten");
	is_int(size_of(at("run/state")), 0, "normal end: the record is empty");
	is_int(ledger_write(&l, 0, "x"), -EINVAL, "a closed ledger writes nothing");
}

/* Values 1..3 of one FIFO, first written 2, 1, 3, 2: "312" comes back. */
static void test_order(void)
{
	struct ledger l;
	char got[16] = "";
	int fifo, id[3];
	ssize_t n;

	mkfifo(at("fifo"), 0600);
	fifo = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	ledger_open(&l, at("run/state"), "the test settings");
	for (int i = 0; i < 3; i++)
		id[i] = ledger_borrow_as(&l, at("fifo"), (char[]){ (char)('1' + i), 0 });
	ledger_seal(&l, NULL);
	ledger_write(&l, id[1], "x");
	ledger_write(&l, id[0], "x");
	ledger_write(&l, id[2], "x");
	ledger_write(&l, id[1], "x");
	while (read(fifo, got, sizeof(got)) > 0)
		;
	is_int(ledger_close(&l), 0, "order: restored");
	n = read(fifo, got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	is_str(got, "312", "order: the reverse of the first writes, each value once");
	close(fifo);
	unlink(at("fifo"));
}

/* A run that borrows every value, writes the first K and dies (its guardian too, if told). */
static void __attribute__((noreturn)) run_and_die(int k, bool kill_guardian)
{
	struct rlimit no_core = { 0, 0 };
	struct ledger l;

	setrlimit(RLIMIT_CORE, &no_core);
	if (ledger_open(&l, at("run/state"), "the test settings") || borrow_all(&l))
		_exit(3);
	for (int i = 0; i < k; i++)
		ledger_write(&l, i, "changed");
	if (kill_guardian)
		kill(guardian_pid(ledger_guardian(&l)), SIGKILL);
	raise(SIGKILL);
	_exit(4);
}

static void test_kill_between_writes(void)
{
	for (int k = 0; k <= NR_VALUES; k++) {
		struct timespec t0;
		int status;
		pid_t pid;

		originals();
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			run_and_die(k, false);
		waitpid(pid, &status, 0);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (!(all_original() && size_of(at("run/state")) <= 0) && ms_since(&t0) < 1000) {
			struct timespec nap = { 0, 1000 * 1000 };

			nanosleep(&nap, NULL);
		}
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		   "SIGKILL after %d of %d writes: the run was killed", k, NR_VALUES);
		ok(all_original(), "SIGKILL after %d writes: every value back within 1 s (%.0f ms)", k,
		   ms_since(&t0));
		ok(size_of(at("run/state")) <= 0, "SIGKILL after %d writes: the record is gone", k);
		reap_all();
		is_int(open_shared(), 0, "SIGKILL after %d writes: the next run opens at once", k);
		ledger_close(&shared);
	}
}

static void test_kill_both(void)
{
	const char *text;
	int status, ret;
	pid_t pid;

	originals();
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		run_and_die(2, true);
	waitpid(pid, &status, 0);
	usleep(100 * 1000);
	reap_all();
	ok(!strcmp(first_line(at("v0")), "changed") && size_of(at("run/state")) > 0,
	   "SIGKILL of both: the values stay changed, the record stays");
	text = capture_stderr(open_shared, &ret);
	is_int(ret, 0, "SIGKILL of both: the next run gives back and goes on");
	ok(all_original(), "SIGKILL of both: every value back");
	ok(strstr(text, "left by a killed rtla run (pid") != NULL,
	   "SIGKILL of both: one line says whose settings came back");
	ledger_close(&shared);
}

static void test_bad_records(void)
{
	const char *text;
	char line[700];
	int ret;

	put(at("run/state"), "pid 99999\nthis is not a record\n");
	text = capture_stderr(open_shared, &ret);
	is_int(ret, -EIO, "corrupt record: the run fails");
	ok(strstr(text, "cannot replay line 2 of the record: 'this is not a record'") != NULL,
	   "corrupt record: the line is named");
	ok(strstr(text, "it is kept as ") && strstr(text, "(rm "),
	   "corrupt record: kept aside, with how to clear it");
	is_int(count_bad_records(), 1, "corrupt record: one copy set aside");
	is_int(open_shared(), 0, "corrupt record: the next run is not blocked");
	ledger_close(&shared);

	originals();
	snprintf(line, sizeof(line), "pid 99999\nrestore %s 5\nrestore %s restored\n",
		 at("missing/dir/value"), at("v1"));
	put(at("run/state"), line);
	text = capture_stderr(open_shared, &ret);
	is_int(ret, -EIO, "unreplayable value: the run fails");
	ok(strstr(text, "cannot restore ") && strstr(text, "missing/dir/value to '5': ") &&
	   strstr(text, "(ENOENT)"), "unreplayable value: the value and the errno are named");
	is_str(first_line(at("v1")), "restored", "unreplayable value: the others still come back");
	is_int(count_bad_records(), 1, "unreplayable value: set aside");
	is_int(open_shared(), 0, "unreplayable value: the next run is not blocked");
	ledger_close(&shared);
}

static void test_concurrent(void)
{
	char want[160];
	const char *text;
	int p[2], ret;
	pid_t pid;

	originals();
	if (pipe(p))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct ledger l;
		char c;

		close(p[1]);
		if (ledger_open(&l, at("run/state"), "the test settings") || borrow_all(&l))
			_exit(3);
		ledger_write(&l, 1, "held");
		if (read(p[0], &c, 1) < 0)
			_exit(4);
		_exit(ledger_close(&l));
	}
	close(p[0]);
	while (strcmp(first_line(at("v1")), "held"))
		usleep(1000);
	text = capture_stderr(open_shared, &ret);
	is_int(ret, -EBUSY, "a second run is refused");
	snprintf(want, sizeof(want), "another rtla run (pid %d) is using the test settings", pid);
	ok(strstr(text, want) != NULL, "the refusal names the holder's pid");
	text = capture_stderr(open_shared_by_other, &ret);
	is_int(ret, -EBUSY, "a run of another tool on the same settings is refused");
	snprintf(want, sizeof(want), "another rtla run (pid %d) is using the test settings;", pid);
	ok(strstr(text, want) != NULL, "the refusal names what the holder uses, not the refused run's");
	is_str(first_line(at("v1")), "held", "the refused run changed nothing");
	close(p[1]);
	waitpid(pid, &ret, 0);
	is_int(WEXITSTATUS(ret), 0, "the holder gives back");
	ok(all_original(), "the holder's values are back");
}

static void test_refused_write(void)
{
	struct ledger l;

	originals();
	mkdir(at("dir"), 0700);
	ledger_open(&l, at("run/state"), "the test settings");
	ledger_borrow_as(&l, at("dir"), "x");
	ledger_borrow(&l, at("v1"));
	ledger_seal(&l, NULL);
	ok(ledger_write(&l, 0, "y") < 0, "a write the file refuses fails");
	ledger_write(&l, 1, "new");
	ok(ledger_close(&l) == 1 && !strcmp(first_line(at("v1")), "v1"),
	   "the close reports it and still gives back the rest");
	count_bad_records();
	unlink(at("run/state"));	/* left to retry: the next run would set it aside */
	rmdir(at("dir"));
	is_int(ledger_borrow(&l, at("no/such")), -ENOENT, "borrowing a missing file fails");
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/rtla-ledger-XXXXXX");
	if (!mkdtemp(root))
		return 2;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	test_normal_end();
	test_order();
	test_kill_between_writes();
	test_kill_both();
	test_bad_records();
	test_concurrent();
	test_refused_write();
	reap_all();
	if (!tap_failed) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		if (system(cmd))
			return 2;
	}
	return tap_done();
}
