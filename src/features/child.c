// SPDX-License-Identifier: GPL-2.0-only
/*
 * child - run a probe in a child process and bring its answer back.
 *
 * Probes that change the state of a process (PR_SET_MDWE cannot be undone)
 * or of its mounts run in a child: the caller is left as it was. The child
 * dies with its parent (PR_SET_PDEATHSIG), so a killed rtla leaves no probe
 * behind, and with it anything the probe mounted in its own namespace.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "features/child.h"

int feat_run_child(int (*fn)(void *out, void *arg), void *arg, void *out, size_t len,
		   int timeout_ms)
{
	int pfd[2], status, ret = 0;
	pid_t pid, parent = getpid();
	struct pollfd p;
	ssize_t n = 0;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return ret;
	}
	if (!pid) {
		close(pfd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)	/* rtla died before the line above */
			_exit(1);
		ret = fn(out, arg);
		if (write(pfd[1], out, len) != (ssize_t)len)
			_exit(1);
		_exit(ret ? 1 : 0);
	}
	close(pfd[1]);
	p.fd = pfd[0];
	p.events = POLLIN;
	while ((size_t)n < len) {
		int r = poll(&p, 1, timeout_ms);
		ssize_t got;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r ? -errno : -ETIMEDOUT;
			kill(pid, SIGKILL);
			break;
		}
		got = read(pfd[0], (char *)out + n, len - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			ret = got ? -errno : -ECHILD;	/* died before answering */
			break;
		}
		n += got;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

const char *feat_private_tmp(void)
{
	static const char *const dirs[] = { "/tmp", "/run", "/mnt", "/dev/shm", NULL };

	if (unshare(CLONE_NEWNS))
		return NULL;
	/* nothing mounted from here on propagates back to the host */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return NULL;
	/* a board may lack /tmp: any directory will do, hidden only here */
	for (const char *const *d = dirs; *d; d++)
		if (!mount("rtla-features", *d, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			   "mode=0700"))
			return *d;
	return NULL;
}
