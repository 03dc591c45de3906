/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procscan - the process scan: which processes exist under the root.
 *
 * On the live system the PIDs come from libproc2; under --sysroot from a
 * readdir of DIR/proc, because libproc2 only ever reads the real /proc
 * (and procscan_dir_pids() reads the live /proc's directory names too).
 * Either way the list holds thread-group leaders only, in ascending order.
 * What a command then reads about each PID goes through sysroot_*(), and a
 * PID may have exited by then: callers treat ENOENT/ESRCH as "gone".
 */
#ifndef RTLA_PROCSCAN_H
#define RTLA_PROCSCAN_H

#include <stddef.h>
#include <sys/types.h>

struct procscan {
	pid_t *pids;
	size_t nr;
};

/* Fill ps with every process under the root. 0 or -errno. */
int procscan_pids(struct procscan *ps);
/*
 * The same from the names of /proc's directories alone, without the stat
 * libproc2 makes of each (most of a listing's cost): for a caller that has
 * what it shows of each process from a BPF pass, and needs the listing only
 * to know which processes there are (one the pass missed, one gone since).
 */
int procscan_dir_pids(struct procscan *ps);
void procscan_free(struct procscan *ps);
/* Open PID/FILE read-only below PROCFD (the root's /proc, opened once). An fd or -1 (errno). */
int procscan_open(int procfd, pid_t pid, const char *file);

#endif
