/* SPDX-License-Identifier: GPL-2.0-only */
/* child - probes that run in a child process (child.c). */
#ifndef RTLA_FEATURES_CHILD_H
#define RTLA_FEATURES_CHILD_H

#include <fcntl.h>
#include <stddef.h>

/*
 * Fork; the child runs fn(out, arg) and writes LEN bytes of out back; the
 * parent reads them into its own out. A child that does not answer within
 * TIMEOUT_MS is killed. 0, or -errno (-ECHILD: it died without answering).
 */
int feat_run_child(int (*fn)(void *out, void *arg), void *arg, void *out, size_t len,
		   int timeout_ms);

/*
 * In a child: a mount namespace of its own, every mount private, and a
 * tmpfs that only this namespace sees, over /tmp (or /run, /mnt, /dev/shm
 * where there is no /tmp). The namespace, and all that is mounted in it,
 * ends with the child however it ends. The directory, or NULL with errno.
 */
const char *feat_private_tmp(void);

#endif
