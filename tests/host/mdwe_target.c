// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdwe_target - a process for the rtla mdwe tests to look at.
 *
 *   mdwe_target [--mdwe FLAGS] [--wx] [--wx-file PATH] [--seccomp]
 *               [--seccomp-kill-prctl] [--probe] [--ready FILE]
 *               [--read-fifo FIFO | --sleep-ms MS | --zombie-leader]
 *
 * Sets what it is asked to (PR_SET_MDWE flags, a W+X anonymous mapping of
 * three pages, a W+X private mapping of PATH, an allow-all seccomp filter),
 * then writes its PID to --ready FILE and waits: in a read() on FIFO (and
 * prints what it read), in one clock_nanosleep() of MS (and prints how long
 * it slept, in ms), or in pause(); --zombie-leader: the main thread exits
 * and a second one waits. --seccomp-kill-prctl: a filter that kills the
 * process if it ever calls prctl. --probe prints PR_GET_MDWE and what an
 * RWX mmap gives, and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_GET_MDWE 66
#endif

static void die(const char *what)
{
	fprintf(stderr, "mdwe_target: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *wait_forever(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(int argc, char **argv)
{
	const char *ready = NULL, *fifo = NULL;
	long sleep_ms = -1;
	int i, zombie_leader = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--mdwe") && v) {
			if (prctl(PR_SET_MDWE, strtoul(v, NULL, 0), 0, 0, 0))
				die("PR_SET_MDWE");
			i++;
		} else if (!strcmp(a, "--wx")) {
			if (mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
				die("mmap RWX");
		} else if (!strcmp(a, "--wx-file") && v) {
			int fd = open(v, O_RDONLY);

			if (fd < 0 || mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
					   MAP_PRIVATE, fd, 0) == MAP_FAILED)
				die(v);
			i++;
		} else if (!strcmp(a, "--seccomp")) {
			struct sock_filter allow[] = {
				BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			};
			struct sock_fprog prog = { .len = 1, .filter = allow };

			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
			    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
				die("seccomp");
		} else if (!strcmp(a, "--seccomp-kill-prctl")) {
			struct sock_filter kill_prctl[] = {
				BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
				BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 1),
				BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
				BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			};
			struct sock_fprog prog = { .len = 4, .filter = kill_prctl };

			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
			    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
				die("seccomp");
		} else if (!strcmp(a, "--zombie-leader")) {
			zombie_leader = 1;
		} else if (!strcmp(a, "--probe")) {
			void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			printf("PR_GET_MDWE %ld\n", (long)prctl(PR_GET_MDWE, 0, 0, 0, 0));
			printf("mmap RWX %s\n", p == MAP_FAILED ? strerrorname_np(errno) : "ok");
			return 0;
		} else if (!strcmp(a, "--ready") && v) {
			ready = argv[++i];
		} else if (!strcmp(a, "--read-fifo") && v) {
			fifo = argv[++i];
		} else if (!strcmp(a, "--sleep-ms") && v) {
			sleep_ms = atol(argv[++i]);
		} else {
			fprintf(stderr, "mdwe_target: bad argument: %s\n", a);
			return 2;
		}
	}
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
			die(ready);
	}
	if (zombie_leader) {
		pthread_t t;

		if (pthread_create(&t, NULL, wait_forever, NULL))
			die("pthread_create");
		pthread_exit(NULL);
	}
	if (fifo) {
		char buf[256];
		int fd = open(fifo, O_RDONLY);
		ssize_t n;

		if (fd < 0)
			die(fifo);
		n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0)
			die("read");
		buf[n] = '\0';
		printf("read %s", buf);
		return 0;
	}
	if (sleep_ms >= 0) {
		struct timespec t0, d = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000 };
		int ret;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
		printf("slept %ld ms, ret %d\n", ms_since(&t0), ret);
		return 0;
	}
	for (;;)
		pause();
}
