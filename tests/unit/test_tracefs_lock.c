// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of the tracefs lock (src/tracefs_lock.c) on this machine's own
 * tracefs, as root: a lock of a resource named for this test process, so
 * that no real run is disturbed; every instance made here is removed. The
 * processes stand for runs in containers that share the kernel but not
 * /run: the ledgers of the last tests keep their records in two different
 * folders. Skipped without root or tracefs.
 *
 * This process is a child subreaper, so orphaned guardians come back to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guardian.h"
#include "ledger.h"
#include "tracefs_lock.h"
#include "tap.h"
#include "tmptree.h"

#define RACERS	6
#define ROUNDS	15

static char resource[64], lock_dir[PATH_MAX];

static const char *trace_of(const char *dir)
{
	static char buf[8192];
	char path[PATH_MAX + 16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/trace", dir);
	buf[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

/* Run FN in a child with stderr into ERR (ERRLEN bytes); its exit status. */
static int in_child(int (*fn)(void), char *err, size_t errlen)
{
	int p[2], status = -1;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		_exit(fn());
	}
	close(p[1]);
	while (got < (ssize_t)errlen - 1 && (n = read(p[0], err + got, errlen - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int take_and_report(void)
{
	struct tracefs_lock lk;
	int ret = tracefs_lock_take(&lk, resource, "the test resource");

	if (!ret)
		tracefs_lock_release(&lk);
	return ret == -EBUSY ? 16 : ret ? 1 : 0;
}

static int check_and_report(void)
{
	return tracefs_lock_check(resource, "the test resource") == -EBUSY ? 16 : 0;
}

static void test_held_and_refused(void)
{
	struct tracefs_lock lk;
	char err[1024], want[64];

	is_int(tracefs_lock_take(&lk, resource, "the test resource"), 0, "take: free, taken");
	ok(exists(lock_dir), "take: the instance is there");
	snprintf(want, sizeof(want), "rtla-lock held ");
	ok(strstr(trace_of(lock_dir), want) != NULL, "take: its trace says who holds it");
	is_int(in_child(take_and_report, err, sizeof(err)), 16, "a second run: refused");
	snprintf(want, sizeof(want), "(pid %d, host ", getpid());
	ok(strstr(err, want) && strstr(err, "is using the test resource; its settings are global"),
	   "a second run: one line naming the holder (%s)", err);
	is_int(in_child(check_and_report, err, sizeof(err)), 16, "check: held by a live run");
	ok(exists(lock_dir), "a second run: the holder's instance stays");
	tracefs_lock_release(&lk);
	ok(!exists(lock_dir), "release: the instance is gone");
	is_int(in_child(take_and_report, err, sizeof(err)), 0, "after the release: taken again");
}

static int take_and_die(void)
{
	struct tracefs_lock lk;

	if (tracefs_lock_take(&lk, resource, "the test resource"))
		return 1;
	kill(getpid(), SIGKILL);
	return 1;
}

static void test_reclaimed(void)
{
	char err[1024];
	struct tracefs_lock lk;

	in_child(take_and_die, err, sizeof(err));
	ok(exists(lock_dir), "killed holder: its instance is left");
	is_int(tracefs_lock_check(resource, "the test resource"), 0,
	       "killed holder: check finds it free (and removes it)");
	ok(!exists(lock_dir), "killed holder: check removed it");
	in_child(take_and_die, err, sizeof(err));
	is_int(in_child(take_and_report, err, sizeof(err)), 0, "killed holder: the next run takes it");
	ok(strstr(err, "removed the tracefs lock") && strstr(err, "that is gone"),
	   "killed holder: one line says so (%s)", err);
	is_int(tracefs_lock_take(&lk, resource, "the test resource"), 0,
	       "killed holder: taken here too");
	tracefs_lock_release(&lk);
}

/*
 * RACERS processes take the lock at once (released by one write); a winner
 * holds it until told to go, so that winners would overlap: exactly one.
 */
static void test_race(void)
{
	int worst = 1, none = 0;

	for (int round = 0; round < ROUNDS; round++) {
		int go[2], res[2], winners = 0, exited = 0;
		pid_t pids[RACERS];
		char c;

		if (pipe(go) || pipe(res))
			break;
		fflush(stdout);	/* a child must not write what this one buffered */
		for (int i = 0; i < RACERS; i++) {
			pids[i] = fork();
			if (pids[i] == 0) {
				struct tracefs_lock lk;

				close(go[1]);
				close(res[0]);
				if (!freopen("/dev/null", "w", stderr))
					_exit(2);
				if (read(go[0], &c, 1) != 0)
					_exit(2);
				if (tracefs_lock_take(&lk, resource, "the test resource"))
					_exit(1);
				if (write(res[1], "W", 1) != 1)
					_exit(2);
				pause();	/* held until killed */
				_exit(0);
			}
		}
		close(go[0]);
		close(res[1]);
		fcntl(res[0], F_SETFL, O_NONBLOCK);
		close(go[1]);	/* go: every racer's read returns */
		/* until every racer has lost (exited) or won (said so); 3 s at most */
		for (int waited = 0, done = 0; done < RACERS && waited < 300; waited++) {
			struct timespec t = { 0, 10 * 1000 * 1000 };

			while (read(res[0], &c, 1) == 1)
				winners++;
			while (waitpid(-1, NULL, WNOHANG) > 0)
				exited++;
			done = exited + winners;
			if (done < RACERS)
				nanosleep(&t, NULL);
		}
		for (int i = 0; i < RACERS; i++)
			kill(pids[i], SIGKILL);
		close(res[0]);
		for (int i = 0; i < RACERS; i++)
			waitpid(pids[i], NULL, 0);
		if (winners > worst)
			worst = winners;
		none += !winners;
		rmdir(lock_dir);
	}
	is_int(worst, 1, "race: never two holders at once (%d rounds of %d)", ROUNDS, RACERS);
	is_int(none, 0, "race: someone got it every round");
}

/* Two ledgers of the same resource, their records in two folders (two /run). */
static const char *record_a, *record_b;

static int ledger_b(void)
{
	struct ledger l;
	int ret = ledger_open_global(&l, record_b, "the test resource", resource, NULL);

	if (!ret)
		ledger_close(&l);
	return ret == -EBUSY ? 16 : ret ? 1 : 0;
}

static int ledger_a_killed(void)
{
	struct ledger l;

	if (ledger_open_global(&l, record_a, "the test resource", resource, NULL) ||
	    ledger_seal(&l, NULL))
		return 1;
	kill(getpid(), SIGKILL);
	return 1;
}

/* ledger_close()'s end, killed the moment the guardian has left */
static int ledger_a_killed_at_end(void)
{
	struct ledger l;

	if (ledger_open_global(&l, record_a, "the test resource", resource, NULL) ||
	    ledger_seal(&l, NULL) || guardian_let_go(l.guard))
		return 1;
	tracefs_lock_let_go(&l.tlock);
	guardian_stand_down(l.guard);
	kill(getpid(), SIGKILL);
	return 1;
}

static void test_ledger(void)
{
	struct ledger l;
	char err[1024];
	int waited = 0;

	is_int(ledger_open_global(&l, record_a, "the test resource", resource, NULL), 0,
	       "ledger: open, lock taken");
	is_int(ledger_seal(&l, NULL), 0, "ledger: sealed");
	is_int(in_child(ledger_b, err, sizeof(err)), 16,
	       "ledger: a run with another record folder is refused");
	ok(strstr(err, ", host ") != NULL, "ledger: the holder named (%s)", err);
	ledger_close(&l);
	ok(!exists(lock_dir), "ledger: closed, the lock is gone");

	in_child(ledger_a_killed, err, sizeof(err));
	/* the guardian gives back, then lets go of the lock and removes it */
	while (exists(lock_dir) && waited < 100) {
		struct timespec t = { 0, 10 * 1000 * 1000 };

		nanosleep(&t, NULL);
		waited++;
	}
	ok(!exists(lock_dir), "ledger: SIGKILL: the guardian removed the lock (%d ms)", waited * 10);
	is_int(in_child(ledger_b, err, sizeof(err)), 0, "ledger: SIGKILL: the next run goes ahead");

	/* the guardian, told that rtla let go, removed the lock as it left */
	in_child(ledger_a_killed_at_end, err, sizeof(err));
	ok(!exists(lock_dir), "ledger: SIGKILL after the guardian left: no lock behind");
	is_int(in_child(ledger_b, err, sizeof(err)), 0, "ledger: and the next run goes ahead");
}

int main(void)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	struct stat st;

	snprintf(resource, sizeof(resource), "unittest%d", getpid());
	if (geteuid() || tracefs_lock_path(resource, lock_dir, sizeof(lock_dir)) ||
	    stat("/sys/kernel/tracing/instances", &st)) {
		ok(true, "# SKIP the tracefs lock needs root and tracefs");
		return tap_done();
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	snprintf(root, sizeof(root), "/tmp/rtla-tlock-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	snprintf(ra, sizeof(ra), "%s", at("run-a/rtla/test.state"));
	snprintf(rb, sizeof(rb), "%s", at("run-b/rtla/test.state"));
	record_a = ra;
	record_b = rb;
	test_held_and_refused();
	test_reclaimed();
	test_race();
	test_ledger();
	rmdir(lock_dir);
	snprintf(ra, sizeof(ra), "rm -rf %s", root);
	if (system(ra))
		printf("# could not remove %s\n", root);
	return tap_done();
}
